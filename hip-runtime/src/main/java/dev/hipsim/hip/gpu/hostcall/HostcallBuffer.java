package dev.hipsim.hip.gpu.hostcall;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * A hostcall buffer in fine-grained system memory, laid out as CLR's {@code HostcallBuffer} and read by ockl's
 * {@code __ockl_hostcall_internal}: a fixed header (pointers to the packet headers and payloads, the doorbell
 * signal, the free and ready stacks as tagged indices, the index mask), then one 24-byte header and one 4 KiB
 * payload (64 lanes × 8 words) per packet. A wave pops a free packet, fills its lanes, pushes it on the ready stack
 * and rings the doorbell; the host takes the whole ready stack, serves every active lane, and clears each packet's
 * ready flag, which releases the wave.
 */
public final class HostcallBuffer {
  static final int HEADERS = 0;
  static final int PAYLOADS = 8;
  static final int DOORBELL = 16;
  static final int FREE_STACK = 24;
  static final int READY_STACK = 32;
  static final int INDEX_MASK = 40;
  /** Where the packet headers start: past the buffer header, cache-line aligned. */
  static final int HEADER_START = 64;
  static final int HEADER_SIZE = 24;
  static final int HEADER_NEXT = 0;
  static final int HEADER_ACTIVEMASK = 8;
  static final int HEADER_SERVICE = 16;
  static final int HEADER_CONTROL = 20;
  static final int SLOT_WORDS = 8;
  static final int PAYLOAD_SIZE = 64 * SLOT_WORDS * 8;

  /** Serves one lane of a packet: {@code slot} holds its eight words and receives the reply (words 0 and 1). */
  @FunctionalInterface
  public interface Handler {
    void handle(int service, long[] slot);
  }

  private final GpuMemory memory;
  private final long base;
  private final int packets;
  private final long indexMask;
  private final long headers;
  private final long payloads;

  private HostcallBuffer(GpuMemory memory, long base, int packets) {
    this.memory = memory;
    this.base = base;
    this.packets = packets;
    this.indexMask = Integer.highestOneBit(Math.max(2, packets) * 2 - 1) - 1L;
    this.headers = base + HEADER_START;
    this.payloads = align(headers + (long) HEADER_SIZE * packets, PAYLOAD_SIZE);
  }

  /** Bytes a buffer of {@code packets} packets occupies. */
  public static long size(int packets) {
    return align(HEADER_START + (long) HEADER_SIZE * packets, PAYLOAD_SIZE) + (long) PAYLOAD_SIZE * packets;
  }

  private static long align(long v, long a) {
    return (v + a - 1) / a * a;
  }

  /**
   * Lays out a buffer at {@code base} (zeroed memory of {@link #size} bytes): every packet on the free stack, the
   * doorbell signal's handle stored for the device.
   */
  public static HostcallBuffer initialize(GpuMemory memory, long base, int packets, long doorbell)
      throws GpuMemoryFault {
    if (packets < 2) throw new IllegalArgumentException("a hostcall buffer needs at least two packets");
    HostcallBuffer b = new HostcallBuffer(memory, base, packets);
    memory.store64(base + HEADERS, b.headers);
    memory.store64(base + PAYLOADS, b.payloads);
    memory.store64(base + DOORBELL, doorbell);
    memory.store64(base + INDEX_MASK, b.indexMask);
    // The free stack links packet i to i-1; packet 0 ends it. A tagged pointer must never be 0, so the link to
    // packet 0 carries tag 1 (index_mask + 1), as CLR initialises it.
    long next = b.indexMask + 1;
    memory.store64(b.headers + HEADER_NEXT, 0);
    for (int i = 1; i < packets; i++) {
      memory.store64(b.headers + (long) HEADER_SIZE * i + HEADER_NEXT, next);
      next = i;
    }
    memory.store64(base + FREE_STACK, next);
    memory.store64(base + READY_STACK, 0);
    return b;
  }

  public long address() {
    return base;
  }

  public int packets() {
    return packets;
  }

  /** Whether a wave has pushed a packet the host has not taken yet. */
  public boolean hasReadyPackets() throws GpuMemoryFault {
    return memory.load64(base + READY_STACK) != 0;
  }

  /**
   * Takes every ready packet and serves it; returns how many packets were served. Packets are served newest first,
   * as CLR does: a wave has at most one packet in flight, so order within a wave is kept.
   */
  public int processPackets(Handler handler) throws GpuMemoryFault {
    long ready = memory.atomic64(AtomicOp.SWAP, base + READY_STACK, 0, 0);
    int served = 0;
    long[] slot = new long[SLOT_WORDS];
    for (long ptr = ready; ptr != 0; ) {
      long index = ptr & indexMask;
      if (index >= packets) {
        throw new GpuMemoryFault(base + READY_STACK, dev.hipsim.isa.mem.AccessKind.READ,
            "hostcall ready stack names packet " + index + " of " + packets + " (corrupt buffer)");
      }
      long header = headers + HEADER_SIZE * index;
      long next = memory.load64(header + HEADER_NEXT);
      int service = memory.load32(header + HEADER_SERVICE);
      long active = memory.load64(header + HEADER_ACTIVEMASK);
      long payload = payloads + PAYLOAD_SIZE * index;
      while (active != 0) {
        int lane = Long.numberOfTrailingZeros(active);
        active &= active - 1;
        long at = payload + (long) lane * SLOT_WORDS * 8;
        for (int w = 0; w < SLOT_WORDS; w++) slot[w] = memory.load64(at + 8L * w);
        handler.handle(service, slot);
        memory.store64(at, slot[0]);
        memory.store64(at + 8, slot[1]);
      }
      int control = memory.load32(header + HEADER_CONTROL);
      memory.atomic32(AtomicOp.SWAP, header + HEADER_CONTROL, control & ~1, 0);
      served++;
      ptr = next;
    }
    return served;
  }
}
