package dev.hipsim.hip.gpu.hostcall;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.nio.charset.StandardCharsets;

/**
 * One wave's side of the hostcall protocol, in Java, as ockl's {@code __ockl_hostcall_internal} and message layer
 * run it on the device: pop a free packet (tagged pointers), fill the active lanes, push it on the ready stack, ring
 * the doorbell, wait for the ready flag to clear, read the reply, return the packet with its tag bumped.
 */
public final class HostcallDevice {

  final GpuMemory m;
  final long buffer;

  public HostcallDevice(GpuMemory m, long buffer) {
    this.m = m;
    this.buffer = buffer;
  }

  long mask() throws GpuMemoryFault {
    return m.load64(buffer + HostcallBuffer.INDEX_MASK);
  }

  long header(long ptr) throws GpuMemoryFault {
    return m.load64(buffer + HostcallBuffer.HEADERS) + HostcallBuffer.HEADER_SIZE * (ptr & mask());
  }

  long payload(long ptr) throws GpuMemoryFault {
    return m.load64(buffer + HostcallBuffer.PAYLOADS) + (long) HostcallBuffer.PAYLOAD_SIZE * (ptr & mask());
  }

  long pop(long top) throws GpuMemoryFault {
    while (true) {
      long f = m.load64(top);
      long next = m.load64(header(f) + HostcallBuffer.HEADER_NEXT);
      if (m.atomic64(AtomicOp.CMPSWAP, top, next, f) == f) return f;
      Thread.onSpinWait();
    }
  }

  void push(long top, long ptr) throws GpuMemoryFault {
    while (true) {
      long f = m.load64(top);
      m.store64(header(ptr) + HostcallBuffer.HEADER_NEXT, f);
      if (m.atomic64(AtomicOp.CMPSWAP, top, ptr, f) == f) return;
      Thread.onSpinWait();
    }
  }

  /** A hostcall from the lanes in {@code active}, lane i sending {@code args[i]}; returns each lane's reply. */
  public long[][] call(int service, long active, long[][] args) throws GpuMemoryFault {
    long ptr = pop(buffer + HostcallBuffer.FREE_STACK);
    long h = header(ptr);
    long p = payload(ptr);
    m.store32(h + HostcallBuffer.HEADER_SERVICE, service);
    m.store64(h + HostcallBuffer.HEADER_ACTIVEMASK, active);
    m.store32(h + HostcallBuffer.HEADER_CONTROL, 1);
    for (int lane = 0; lane < 64; lane++) {
      if ((active >>> lane & 1) == 0) continue;
      for (int w = 0; w < 8; w++) m.store64(p + 64L * lane + 8 * w, args[lane][w]);
    }
    push(buffer + HostcallBuffer.READY_STACK, ptr);
    long doorbell = m.load64(buffer + HostcallBuffer.DOORBELL);
    m.atomic64(AtomicOp.ADD, doorbell, 1, 0);
    while ((m.load32(h + HostcallBuffer.HEADER_CONTROL) & 1) != 0) Thread.onSpinWait();
    long[][] reply = new long[64][2];
    for (int lane = 0; lane < 64; lane++) {
      reply[lane][0] = m.load64(p + 64L * lane);
      reply[lane][1] = m.load64(p + 64L * lane + 8);
    }
    long inc = mask() + 1;
    long back = ptr + inc == 0 ? inc : ptr + inc;
    push(buffer + HostcallBuffer.FREE_STACK, back);
    return reply;
  }

  /** ockl's printf: begin, the format string, then the arguments, as hostcalls of one lane. */
  public long printf(String format, long... args) throws GpuMemoryFault {
    long desc = send(2, 1 /* BEGIN */, new long[] {0});
    byte[] f = (format + "\0").getBytes(StandardCharsets.ISO_8859_1);
    for (int off = 0; off < f.length; off += 56) {
      int n = Math.min(56, f.length - off);
      long[] words = new long[(n + 7) / 8];
      for (int i = 0; i < n; i++) words[i / 8] |= (long) (f[off + i] & 0xff) << (8 * (i % 8));
      boolean last = off + n == f.length && args.length == 0;
      desc = send(2, desc | (last ? 2 : 0), words);
    }
    for (int i = 0; i < args.length; i++) {
      desc = send(2, desc | (i == args.length - 1 ? 2 : 0), new long[] {args[i]});
    }
    return desc;
  }

  private long send(int service, long desc, long[] words) throws GpuMemoryFault {
    long[][] args = new long[64][8];
    args[0][0] = (desc & ~(7L << 5)) | ((long) words.length << 5);
    System.arraycopy(words, 0, args[0], 1, words.length);
    return call(service, 1, args)[0][0];
  }
}
