package dev.hipsim.hsa.dispatch;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.queue.PacketType;
import dev.hipsim.isa.dispatch.DispatchPacket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/** Builds the 64 bytes of AQL packets (hsa.h layouts) for {@link dev.hipsim.hsa.queue.HsaQueue#submit}. */
public final class AqlPackets {
  private AqlPackets() {}

  public static final int SIZE = 64;
  /** A barrier-AND packet waits on at most five signals. */
  public static final int MAX_DEPENDENCIES = 5;

  /** The 16-bit header: type (7:0), barrier (8), acquire fence scope (10:9), release fence scope (12:11). */
  public static int header(PacketType type, boolean barrier, FenceScope acquire, FenceScope release) {
    return type.ordinal() | (barrier ? 1 << 8 : 0) | acquire.ordinal() << 9 | release.ordinal() << 11;
  }

  /** CLR's kernel dispatch header: barrier bit set, system-scope acquire and release. */
  public static int defaultDispatchHeader() {
    return header(PacketType.KERNEL_DISPATCH, true, FenceScope.SYSTEM, FenceScope.SYSTEM);
  }

  /** The bytes of a kernel dispatch packet. */
  public static byte[] kernelDispatch(DispatchPacket packet) {
    byte[] bytes = new byte[SIZE];
    packet.writeTo(ByteBuffer.wrap(bytes));
    return bytes;
  }

  /**
   * A barrier-AND packet: completes when every dependency signal is 0, then decrements {@code completionSignal}
   * (0 for none). CLR sets the barrier bit and system-scope fences on its barriers.
   */
  public static byte[] barrierAnd(List<Long> dependencies, long completionSignal, boolean barrier, FenceScope acquire,
      FenceScope release) throws HsaException {
    if (dependencies.size() > MAX_DEPENDENCIES) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, "a barrier-AND packet takes at most 5 signals, not "
          + dependencies.size());
    }
    ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(0, (short) header(PacketType.BARRIER_AND, barrier, acquire, release));
    for (int i = 0; i < dependencies.size(); i++) b.putLong(8 + 8 * i, dependencies.get(i));
    b.putLong(56, completionSignal);
    return b.array();
  }
}
