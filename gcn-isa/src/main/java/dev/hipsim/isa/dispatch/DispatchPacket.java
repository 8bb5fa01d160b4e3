package dev.hipsim.isa.dispatch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An HSA kernel-dispatch AQL packet ({@code hsa_kernel_dispatch_packet_t}, 64 bytes) as the packet processor reads
 * it from a queue's ring buffer.
 */
public record DispatchPacket(
    int header,
    int setup,
    int workgroupSizeX,
    int workgroupSizeY,
    int workgroupSizeZ,
    int gridSizeX,
    int gridSizeY,
    int gridSizeZ,
    int privateSegmentSize,
    int groupSegmentSize,
    long kernelObject,
    long kernargAddress,
    long completionSignal) {

  public static final int SIZE = 64;

  public static final int TYPE_VENDOR_SPECIFIC = 0;
  public static final int TYPE_INVALID = 1;
  public static final int TYPE_KERNEL_DISPATCH = 2;
  public static final int TYPE_BARRIER_AND = 3;
  public static final int TYPE_AGENT_DISPATCH = 4;
  public static final int TYPE_BARRIER_OR = 5;

  /** Decodes the 64 bytes at the buffer's position (not moved). */
  public static DispatchPacket parse(ByteBuffer bytes) {
    ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int p = b.position();
    return new DispatchPacket(b.getShort(p) & 0xffff, b.getShort(p + 2) & 0xffff, b.getShort(p + 4) & 0xffff,
        b.getShort(p + 6) & 0xffff, b.getShort(p + 8) & 0xffff, b.getInt(p + 12), b.getInt(p + 16), b.getInt(p + 20),
        b.getInt(p + 24), b.getInt(p + 28), b.getLong(p + 32), b.getLong(p + 40), b.getLong(p + 56));
  }

  /** Encodes this packet into 64 bytes at the buffer's position (not moved). */
  public void writeTo(ByteBuffer bytes) {
    ByteBuffer b = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int p = b.position();
    b.putShort(p, (short) header).putShort(p + 2, (short) setup).putShort(p + 4, (short) workgroupSizeX)
        .putShort(p + 6, (short) workgroupSizeY).putShort(p + 8, (short) workgroupSizeZ).putShort(p + 10, (short) 0)
        .putInt(p + 12, gridSizeX).putInt(p + 16, gridSizeY).putInt(p + 20, gridSizeZ)
        .putInt(p + 24, privateSegmentSize).putInt(p + 28, groupSegmentSize).putLong(p + 32, kernelObject)
        .putLong(p + 40, kernargAddress).putLong(p + 48, 0).putLong(p + 56, completionSignal);
  }

  /** The packet type (header bits 7:0). */
  public int type() {
    return header & 0xff;
  }

  /** Whether the barrier bit (header bit 8) is set: the packet waits for all earlier packets to complete. */
  public boolean barrier() {
    return (header & 0x100) != 0;
  }

  /** Number of grid dimensions (setup bits 1:0). */
  public int dimensions() {
    return setup & 0x3;
  }
}
