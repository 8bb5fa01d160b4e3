package dev.hipsim.isa.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkerThreadsTest {
  private final WorkerThreads threads = new WorkerThreads();
  @Test
  void unitsRunSideBySideEachOnANamedDaemonThread() throws Exception {
    int n = 4;
    CyclicBarrier all = new CyclicBarrier(n); // passes only if the four units run at the same time
    Set<String> names = ConcurrentHashMap.newKeySet();
    AtomicInteger passed = new AtomicInteger();
    Runnable[] units = new Runnable[n];
    for (int i = 0; i < n; i++) {
      units[i] = () -> {
        names.add(Thread.currentThread().getName());
        assertThat(Thread.currentThread().isDaemon()).isTrue();
        try {
          all.await(10, TimeUnit.SECONDS);
          passed.incrementAndGet();
        } catch (Exception e) {
          // counted as not passed
        }
      };
    }
    assertThat(threads.start(units).await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(passed.get()).isEqualTo(n);
    assertThat(names).containsExactlyInAnyOrder("hipsim-cu-0", "hipsim-cu-1", "hipsim-cu-2", "hipsim-cu-3");
  }

  @Test
  void aUnitThatThrowsStillCountsDown() throws Exception {
    CountDownLatch done = threads.start(() -> {
      throw new IllegalStateException("a unit's own failure (expected in this test)");
    }, () -> {});
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void threadsAreKeptForTheNextDispatch() throws Exception {
    Set<Thread> first = ConcurrentHashMap.newKeySet();
    assertThat(threads.start(() -> first.add(Thread.currentThread()), () -> first.add(Thread.currentThread()))
        .await(10, TimeUnit.SECONDS)).isTrue();
    Thread.sleep(100); // the threads go back to waiting for work after counting down
    Set<Thread> second = ConcurrentHashMap.newKeySet();
    assertThat(threads.start(() -> second.add(Thread.currentThread()), () -> second.add(Thread.currentThread()))
        .await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(second).as("the second dispatch's threads are the first's").containsAnyElementsOf(first);
    assertThat(first).allSatisfy(t -> assertThat(t.isAlive()).isTrue());
  }

  @Test
  void threadsStartedAheadServeTheFirstDispatch() throws Exception {
    threads.prestart(3);
    assertThat(threads.alive()).isEqualTo(3);
    Thread.sleep(100); // the threads started begin waiting for work
    Set<Thread> ran = ConcurrentHashMap.newKeySet();
    CyclicBarrier together = new CyclicBarrier(3); // the units run side by side, each on a thread of its own
    Runnable unit = () -> {
      ran.add(Thread.currentThread());
      try {
        together.await(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the assertion on the threads below fails
      }
    };
    assertThat(threads.start(unit, unit, unit).await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).hasSize(3);
    assertThat(threads.alive()).as("the units ran on threads started ahead, not on three new ones").isLessThan(6);
  }
}
