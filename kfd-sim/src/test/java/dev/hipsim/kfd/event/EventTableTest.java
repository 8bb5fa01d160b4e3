package dev.hipsim.kfd.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.kfd.Errno;
import dev.hipsim.kfd.KfdException;
import org.junit.jupiter.api.Test;

class EventTableTest {
  private final EventTable t = new EventTable();

  private EventTable.WaitResult.Status waitOne(int id, int timeout) throws Exception {
    return t.waitOn(new int[] {id}, false, timeout).status();
  }

  @Test
  void signalEventsGetSlotsOthersHighIds() throws Exception {
    EventTable.Created s = t.create(EventType.SIGNAL, true);
    EventTable.Created d = t.create(EventType.DEBUG_EVENT, true);
    EventTable.Created m = t.create(EventType.MEMORY, false);
    assertThat(s.eventId()).isZero();
    assertThat(s.slotIndex()).isZero();
    assertThat(d.eventId()).isEqualTo(1);
    assertThat(m.eventId()).isEqualTo(EventTable.FIRST_NONSIGNAL_EVENT_ID);
    assertThat(m.triggerData()).isEqualTo(m.eventId());
  }

  @Test
  void autoResetEventsAreConsumedByOneWait() throws Exception {
    int id = t.create(EventType.SIGNAL, true).eventId();
    assertThat(waitOne(id, EventTable.TIMEOUT_IMMEDIATE)).isEqualTo(EventTable.WaitResult.Status.TIMEOUT);
    t.set(id);
    assertThat(waitOne(id, 0)).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    assertThat(waitOne(id, 0)).as("auto-reset").isEqualTo(EventTable.WaitResult.Status.TIMEOUT);
  }

  @Test
  void manualResetEventsStaySignaled() throws Exception {
    int id = t.create(EventType.SIGNAL, false).eventId();
    t.set(id);
    assertThat(waitOne(id, 0)).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    assertThat(waitOne(id, 0)).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    t.reset(id);
    assertThat(waitOne(id, 0)).isEqualTo(EventTable.WaitResult.Status.TIMEOUT);
  }

  @Test
  void waitsTimeOutAndWakeOnSet() throws Exception {
    int id = t.create(EventType.SIGNAL, true).eventId();
    long start = System.nanoTime();
    assertThat(waitOne(id, 60)).isEqualTo(EventTable.WaitResult.Status.TIMEOUT);
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(55_000_000L);
    Thread setter = new Thread(() -> {
      try {
        Thread.sleep(30);
        t.set(id);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    setter.start();
    assertThat(waitOne(id, EventTable.TIMEOUT_INFINITE)).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    setter.join();
    assertThat(waitOne(id, 0)).as("woken waiters consumed the auto-reset event").isEqualTo(
        EventTable.WaitResult.Status.TIMEOUT);
  }

  @Test
  void waitAllNeedsEveryEvent() throws Exception {
    int a = t.create(EventType.SIGNAL, false).eventId();
    int b = t.create(EventType.SIGNAL, false).eventId();
    t.set(a);
    assertThat(t.waitOn(new int[] {a, b}, true, 20).status()).isEqualTo(EventTable.WaitResult.Status.TIMEOUT);
    assertThat(t.waitOn(new int[] {a, b}, false, 0).status()).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
    t.set(b);
    assertThat(t.waitOn(new int[] {a, b}, true, 0).status()).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
  }

  @Test
  void interruptsNeedTheirSlotWritten() throws Exception {
    SlotStore page = SlotStore.internal(16);
    t.setPage(page);
    int id = t.create(EventType.SIGNAL, true).eventId();
    t.interrupt(id);
    assertThat(waitOne(id, 0)).as("slot still unsignaled: a stray interrupt").isEqualTo(
        EventTable.WaitResult.Status.TIMEOUT);
    page.store(id, id);
    t.interrupt(id);
    assertThat(page.load(id)).as("acknowledged").isEqualTo(EventTable.UNSIGNALED_SLOT);
    assertThat(waitOne(id, 0)).isEqualTo(EventTable.WaitResult.Status.COMPLETE);
  }

  @Test
  void exceptionEventsCarryTheirData() throws Exception {
    int id = t.create(EventType.MEMORY, false).eventId();
    EventData.MemoryException data = new EventData.MemoryException(0x1000, 7, true, false, false, false, "x");
    t.fireAll(EventType.MEMORY, data);
    assertThat(t.waitOn(new int[] {id}, false, 0).data()).containsEntry(id, data);
  }

  @Test
  void errorsMirrorTheDriver() throws Exception {
    int mem = t.create(EventType.MEMORY, false).eventId();
    assertThatThrownBy(() -> t.set(mem)).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
    assertThatThrownBy(() -> t.waitOn(new int[] {12345}, false, 0)).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
    assertThatThrownBy(() -> t.destroy(999)).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
    assertThatThrownBy(() -> t.create(null, false)).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
    for (int i = 0; i < EventTable.DEFAULT_SLOTS; i++) t.create(EventType.SIGNAL, false);
    assertThatThrownBy(() -> t.create(EventType.SIGNAL, false)).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.ENOSPC));
    assertThatThrownBy(() -> t.setPage(SlotStore.internal(4))).isInstanceOfSatisfying(KfdException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL));
  }
}
