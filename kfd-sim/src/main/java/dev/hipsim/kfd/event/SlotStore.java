package dev.hipsim.kfd.event;

/**
 * The event page: one 64-bit slot per signal event, where the GPU writes the event id before raising the
 * interrupt, and {@link EventTable#UNSIGNALED_SLOT} otherwise.
 */
public interface SlotStore {
  int slots();

  long load(int slot);

  void store(int slot, long value);

  /** A page the driver owns (when the process gave none): {@code slots} words in host memory. */
  static SlotStore internal(int slots) {
    long[] words = new long[slots];
    return new SlotStore() {
      @Override
      public int slots() {
        return slots;
      }

      @Override
      public synchronized long load(int slot) {
        return words[slot];
      }

      @Override
      public synchronized void store(int slot, long value) {
        words[slot] = value;
      }
    };
  }
}
