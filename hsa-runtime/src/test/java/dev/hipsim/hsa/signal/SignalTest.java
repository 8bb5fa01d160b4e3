package dev.hipsim.hsa.signal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.RecordingConsumer;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.hsa.dispatch.AqlPackets;
import dev.hipsim.hsa.dispatch.FenceScope;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.kfd.queue.AmdSignal;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Signals: amd_signal_t values, KFD events and waits with timeouts. */
class SignalTest {
  private TestMachine m;

  @BeforeEach
  void setUp() throws Exception {
    m = TestMachine.standard();
  }

  @AfterEach
  void tearDown() {
    m.close();
  }

  @Test
  void valueOperationsAreAtomicOnTheAmdSignal() throws Exception {
    Signal s = m.runtime.createSignal(5);
    GpuMemory host = m.runtime.memory().hostView();
    assertThat(host.load64(s.handle() + AmdSignal.KIND)).isEqualTo(SignalManager.KIND_USER);
    assertThat(s.isInterrupt()).isTrue();
    assertThat(host.load64(s.handle() + AmdSignal.EVENT_MAILBOX_PTR)).isNotZero();
    assertThat(host.load32(s.handle() + AmdSignal.EVENT_ID)).isEqualTo(s.eventId());
    assertThat(s.load()).isEqualTo(5);
    s.add(10);
    s.subtract(3);
    assertThat(s.load()).isEqualTo(12);
    assertThat(s.exchange(-1)).isEqualTo(12);
    assertThat(s.compareAndSwap(7, 100)).as("no swap").isEqualTo(-1);
    assertThat(s.compareAndSwap(-1, 100)).isEqualTo(-1);
    s.store(42);
    assertThat(host.load64(s.handle() + AmdSignal.VALUE)).isEqualTo(42);
    assertThat(m.runtime.signal(s.handle())).isSameAs(s);
  }

  @Test
  void aWaitTimesOutWithTheValueItSaw() throws Exception {
    Signal s = m.runtime.createSignal(1);
    long t0 = System.nanoTime();
    long v = s.wait(SignalCondition.EQ, 0, TimeUnit.MILLISECONDS.toNanos(60));
    long waited = System.nanoTime() - t0;
    assertThat(v).isEqualTo(1);
    assertThat(waited).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(60)).isLessThan(TimeUnit.SECONDS.toNanos(5));
    assertThat(s.wait(SignalCondition.GTE, 1, 0)).as("a satisfied condition returns at once").isEqualTo(1);
    assertThat(s.wait(SignalCondition.LT, 1, 1000)).as("sub-millisecond timeouts poll").isEqualTo(1);
  }

  @Test
  void aHostStoreWakesAWaiter() throws Exception {
    Signal s = m.runtime.createSignal(1);
    CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
      try {
        return s.wait(SignalCondition.LT, 1, Signal.FOREVER);
      } catch (HsaException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(30);
    assertThat(waiter).isNotDone();
    s.store(0);
    assertThat(waiter.get(5, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void thePacketProcessorsCompletionWakesAWaiterThroughTheEvent() throws Exception {
    RecordingConsumer consumer = new RecordingConsumer();
    m.device(m.gfx942).setPacketConsumer(consumer);
    HsaQueue q = m.runtime.createQueue(m.gfx942, 64);
    Signal done = m.runtime.createSignal(1);
    Signal gate = m.runtime.createSignal(1);
    // The barrier holds until the host opens the gate; the waiter sleeps on done's event meanwhile.
    q.submit(AqlPackets.barrierAnd(List.of(gate.handle()), done.handle(), true, FenceScope.SYSTEM, FenceScope.SYSTEM));
    CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
      try {
        return done.wait(SignalCondition.EQ, 0, TimeUnit.SECONDS.toNanos(10));
      } catch (HsaException e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(30);
    assertThat(waiter).isNotDone();
    gate.store(0);
    assertThat(waiter.get(5, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void destroyedSignalsAreRefused() throws Exception {
    Signal s = m.runtime.createSignal(0);
    long h = s.handle();
    int live = m.runtime.signals().liveSignals();
    s.destroy();
    assertThat(m.runtime.signals().liveSignals()).isEqualTo(live - 1);
    assertThatThrownBy(s::load).isInstanceOf(HsaException.class).extracting(e -> ((HsaException) e).status())
        .isEqualTo(HsaStatus.INVALID_SIGNAL);
    assertThatThrownBy(s::destroy).hasMessageContaining("destroyed twice");
    assertThatThrownBy(() -> m.runtime.signal(h)).hasMessageContaining(String.format("0x%x", h));
    assertThat(m.runtime.createSignal(3).handle()).as("the slot is reused").isEqualTo(h);
  }

  @Test
  void signalsOutliveTheDriversEventSlotsByPolling() throws Exception {
    Signal last = null;
    for (int i = 0; i < 4200; i++) last = m.runtime.createSignal(1);
    assertThat(last.isInterrupt()).as("KFD has 4096 signal events").isFalse();
    assertThat(last.wait(SignalCondition.EQ, 0, TimeUnit.MILLISECONDS.toNanos(5))).isEqualTo(1);
    Signal polled = last;
    CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
      try {
        return polled.wait(SignalCondition.EQ, 0, Signal.FOREVER);
      } catch (HsaException e) {
        throw new IllegalStateException(e);
      }
    });
    polled.store(0);
    assertThat(waiter.get(5, TimeUnit.SECONDS)).isZero();
  }
}
