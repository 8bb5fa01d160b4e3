package dev.hipsim.hip.gpu.hostcall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.mem.FlatMemory;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The hostcall buffer and its services driven as ockl's {@code __ockl_hostcall_internal} and message layer drive
 * them from the device: pop a free packet (tagged pointers), fill the active lanes, push it on the ready stack, wait
 * for the ready flag to clear, read the reply, return the packet with its tag bumped.
 */
class HostcallTest {
  private static final long BASE = 0x1000_0000L;

  private final FlatMemory memory = new FlatMemory(BASE, 1 << 22);
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final List<String> diagnostics = Collections.synchronizedList(new ArrayList<>());

  private HostcallBuffer buffer(int packets) throws GpuMemoryFault {
    long doorbell = BASE + (1 << 21);
    return HostcallBuffer.initialize(memory, BASE, packets, doorbell);
  }

  private HostcallServices services(HostcallServices.DeviceMemory devmem) {
    return new HostcallServices((stderr, text) -> out.write(text, 0, text.length), devmem, diagnostics::add);
  }

  /** Serves packets on another thread until stopped, as the listener does. */
  private Thread serve(HostcallBuffer b, HostcallServices s, AtomicBoolean stop) {
    Thread t = new Thread(() -> {
      try {
        while (!stop.get()) {
          if (b.hasReadyPackets()) b.processPackets(s);
          Thread.onSpinWait();
        }
      } catch (GpuMemoryFault e) {
        diagnostics.add(e.toString());
      }
    });
    t.start();
    return t;
  }

  @Test
  void freeStackHoldsEveryPacketOnce() throws Exception {
    HostcallBuffer b = buffer(10);
    assertThat(b.packets()).isEqualTo(10);
    assertThat(memory.load64(BASE + HostcallBuffer.INDEX_MASK)).isEqualTo(15);
    HostcallDevice d = new HostcallDevice(memory, BASE);
    List<Long> popped = new ArrayList<>();
    for (int i = 0; i < 10; i++) popped.add(d.pop(BASE + HostcallBuffer.FREE_STACK) & 15);
    assertThat(popped).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(HostcallBuffer.size(10)).isGreaterThanOrEqualTo(64 + 24 * 10 + 4096 * 10L);
  }

  @Test
  void printfFromOneLaneIsFormattedOnTheHost() throws Exception {
    HostcallBuffer b = buffer(16);
    AtomicBoolean stop = new AtomicBoolean();
    Thread t = serve(b, services(null), stop);
    try {
      HostcallDevice d = new HostcallDevice(memory, BASE);
      long printed = d.printf("block %d of %d: %s=%.3f %c%%\n", 2, 4, 0x706968L /* "hip" */,
          Double.doubleToRawLongBits(4.5), 'D');
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("block 2 of 4: hip=4.500 D%\n");
      assertThat(printed).isEqualTo("block 2 of 4: hip=4.500 D%\n".length());
      // A format longer than one hostcall's 56 bytes travels in several.
      out.reset();
      String longFormat = "a format string that is longer than fifty-six bytes, value %d\n";
      d.printf(longFormat, 7);
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(longFormat.replace("%d", "7"));
    } finally {
      stop.set(true);
      t.join();
    }
    assertThat(diagnostics).isEmpty();
  }

  @Test
  void wavesCallConcurrentlyAndEveryLaneGetsItsReply() throws Exception {
    HostcallBuffer b = buffer(8);
    List<Long> freed = Collections.synchronizedList(new ArrayList<>());
    HostcallServices s = services(new HostcallServices.DeviceMemory() {
      @Override
      public long allocate(long bytes) {
        return 0x7000_0000L + bytes;
      }

      @Override
      public void free(long address) {
        freed.add(address);
      }
    });
    AtomicBoolean stop = new AtomicBoolean();
    Thread server = serve(b, s, stop);
    List<Thread> waves = new ArrayList<>();
    List<String> problems = Collections.synchronizedList(new ArrayList<>());
    for (int w = 0; w < 6; w++) {
      int wave = w;
      Thread t = new Thread(() -> {
        HostcallDevice d = new HostcallDevice(memory, BASE);
        try {
          for (int round = 0; round < 50; round++) {
            long active = 0x00ff_00ffL << (wave % 4);
            long[][] args = new long[64][8];
            for (int lane = 0; lane < 64; lane++) args[lane][1] = 16L * (wave * 1000 + round * 64 + lane + 1);
            long[][] reply = d.call(HostcallServices.SERVICE_DEVMEM, active, args);
            for (int lane = 0; lane < 64; lane++) {
              if ((active >>> lane & 1) == 0) continue;
              if (reply[lane][0] != 0x7000_0000L + args[lane][1]) problems.add("wave " + wave + " lane " + lane);
            }
          }
          long[][] free = new long[64][8];
          free[0][0] = 0x1234_0000L;
          d.call(HostcallServices.SERVICE_DEVMEM, 1, free);
        } catch (GpuMemoryFault e) {
          problems.add(e.toString());
        }
      });
      waves.add(t);
      t.start();
    }
    for (Thread t : waves) t.join(30_000);
    stop.set(true);
    server.join();
    assertThat(problems).isEmpty();
    assertThat(freed).hasSize(6).containsOnly(0x1234_0000L);
    // Every packet is back on the free stack.
    HostcallDevice d = new HostcallDevice(memory, BASE);
    List<Long> popped = new ArrayList<>();
    for (int i = 0; i < 8; i++) popped.add(d.pop(BASE + HostcallBuffer.FREE_STACK) & 7);
    assertThat(popped).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
  }

  @Test
  void unsupportedServicesAnswerZeroAndSaySoOnce() {
    HostcallServices s = services(null);
    long[] slot = {5, 6, 7, 0, 0, 0, 0, 0};
    s.handle(HostcallServices.SERVICE_FUNCTION_CALL, slot);
    s.handle(HostcallServices.SERVICE_FUNCTION_CALL, slot);
    s.handle(9, slot);
    assertThat(slot[0]).isZero();
    assertThat(diagnostics).containsExactly(
        "hipsim: the hostcall function-call service is not supported (answering 0)",
        "hipsim: hostcall service 9 is not supported (answering 0)");
  }

  @Test
  void messagesWithoutABeginAreRejected() {
    MessageAssembler m = new MessageAssembler();
    long[] slot = {(5L << 8) | 2 | (1 << 5), 42, 0, 0, 0, 0, 0, 0};
    assertThat(m.handle(slot, (message, length) -> 1)).isFalse();
    long[] begin = {1 | (1 << 5), 0, 0, 0, 0, 0, 0, 0};
    assertThat(m.handle(begin, (message, length) -> 1)).isTrue();
    assertThat(m.liveMessages()).isEqualTo(1);
    long id = begin[0] >>> 8;
    long[] end = {(id << 8) | 2 | (2 << 5), 11, 22, 0, 0, 0, 0, 0};
    long[] seen = new long[3];
    assertThat(m.handle(end, (message, length) -> {
      System.arraycopy(message, 0, seen, 0, length);
      return length;
    })).isTrue();
    assertThat(seen).containsExactly(0, 11, 22);
    assertThat(end[0]).isEqualTo(3);
    assertThat(m.liveMessages()).isZero();
  }
}
