package dev.hipsim.kfd.queue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One 64-byte AQL packet as read from a queue's ring (HSA {@code hsa_kernel_dispatch_packet_t} and friends), with its
 * dispatch id (the queue index it was written at) and ring address. Accessors decode the fields on demand;
 * {@link #raw()} returns a copy of the bytes.
 */
public final class AqlPacket {
  public static final int SIZE = 64;

  private final long index;
  private final long address;
  private final ByteBuffer bytes;

  public AqlPacket(long index, long address, byte[] raw) {
    if (raw.length != SIZE) throw new IllegalArgumentException("an AQL packet is 64 bytes, not " + raw.length);
    this.index = index;
    this.address = address;
    this.bytes = ByteBuffer.wrap(raw.clone()).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The packet's dispatch id: its position in the queue (not wrapped to the ring). */
  public long index() {
    return index;
  }

  /** The GPU virtual address of the packet's slot in the ring. */
  public long address() {
    return address;
  }

  public byte[] raw() {
    return bytes.array().clone();
  }

  public int header() {
    return bytes.getShort(0) & 0xffff;
  }

  /** The packet type, or {@code null} if the header's type byte is not an HSA type. */
  public AqlPacketType type() {
    return AqlPacketType.of(header() & 0xff);
  }

  /** Header bit 8: launch only after every earlier packet of the queue has completed. */
  public boolean barrier() {
    return (header() & 0x100) != 0;
  }

  /** Acquire fence scope (0 none, 1 agent, 2 system). */
  public int acquireFenceScope() {
    return (header() >>> 9) & 3;
  }

  /** Release fence scope (0 none, 1 agent, 2 system). */
  public int releaseFenceScope() {
    return (header() >>> 11) & 3;
  }

  /** Kernel dispatch: the setup field; bits 1:0 are the number of dimensions. */
  public int setup() {
    return bytes.getShort(2) & 0xffff;
  }

  public int dimensions() {
    return setup() & 3;
  }

  public int workgroupSizeX() {
    return bytes.getShort(4) & 0xffff;
  }

  public int workgroupSizeY() {
    return bytes.getShort(6) & 0xffff;
  }

  public int workgroupSizeZ() {
    return bytes.getShort(8) & 0xffff;
  }

  /** Grid size in work-items (unsigned 32-bit). */
  public long gridSizeX() {
    return bytes.getInt(12) & 0xffff_ffffL;
  }

  public long gridSizeY() {
    return bytes.getInt(16) & 0xffff_ffffL;
  }

  public long gridSizeZ() {
    return bytes.getInt(20) & 0xffff_ffffL;
  }

  /** Private (scratch) bytes per work-item. */
  public long privateSegmentSize() {
    return bytes.getInt(24) & 0xffff_ffffL;
  }

  /** Group (LDS) bytes per work-group. */
  public long groupSegmentSize() {
    return bytes.getInt(28) & 0xffff_ffffL;
  }

  /** GPU VA of the kernel descriptor. */
  public long kernelObject() {
    return bytes.getLong(32);
  }

  public long kernargAddress() {
    return bytes.getLong(40);
  }

  /** The completion signal's handle (address of its {@code amd_signal_t}), 0 for none. All packet kinds. */
  public long completionSignal() {
    return bytes.getLong(56);
  }

  /** Barrier-AND/OR: dependent signal {@code i} (0..4), 0 for none. */
  public long dependentSignal(int i) {
    if (i < 0 || i > 4) throw new IndexOutOfBoundsException("dependent signal " + i);
    return bytes.getLong(8 + 8 * i);
  }

  /** Agent dispatch: the function code (bytes 2..3). */
  public int agentDispatchType() {
    return bytes.getShort(2) & 0xffff;
  }

  /** Agent dispatch: the return address. */
  public long returnAddress() {
    return bytes.getLong(8);
  }

  /** Agent dispatch: argument {@code i} (0..3). */
  public long agentArgument(int i) {
    if (i < 0 || i > 3) throw new IndexOutOfBoundsException("argument " + i);
    return bytes.getLong(16 + 8 * i);
  }

  @Override
  public String toString() {
    AqlPacketType t = type();
    return String.format("AqlPacket[%d @0x%x %s%s]", index, address, t == null ? "type " + (header() & 0xff) : t,
        t == AqlPacketType.KERNEL_DISPATCH
            ? String.format(" kernel_object=0x%x grid=%dx%dx%d wg=%dx%dx%d", kernelObject(), gridSizeX(),
                gridSizeY(), gridSizeZ(), workgroupSizeX(), workgroupSizeY(), workgroupSizeZ())
            : "");
  }
}
