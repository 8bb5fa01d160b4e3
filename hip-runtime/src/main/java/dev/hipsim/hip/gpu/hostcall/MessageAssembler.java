package dev.hipsim.hip.gpu.hostcall;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Joins hostcalls into messages, as ockl's message layer sends them (CLR's {@code MessageHandler}): word 0 of a
 * lane's slot is a descriptor — bit 0 BEGIN, bit 1 END, bits 5..7 the number of payload words (1..7) that follow,
 * bits 8..63 the message ID. BEGIN allocates an ID, returned to the device in word 0; END hands the whole message to
 * the service and returns its two result words. Only the listener thread uses it.
 */
public final class MessageAssembler {
  /** Consumes a complete message; returns the reply's first word (the second is 0). */
  @FunctionalInterface
  public interface Consumer {
    long complete(long[] message, int length);
  }

  private static final class Message {
    long[] data = new long[16];
    int length;
    boolean live;

    void append(long[] slot, int from, int count) {
      if (length + count > data.length) data = Arrays.copyOf(data, Math.max(data.length * 2, length + count));
      System.arraycopy(slot, from, data, length, count);
      length += count;
    }
  }

  private final List<Message> slots = new ArrayList<>();
  private final ArrayDeque<Integer> free = new ArrayDeque<>();

  /**
   * Serves one lane: appends its payload to its message and, at END, completes it. Returns false for a descriptor
   * naming no live message (the device broke the protocol); the slot is then answered with zeros.
   */
  public boolean handle(long[] slot, Consumer consumer) {
    long desc = slot[0];
    boolean begin = (desc & 1) != 0;
    boolean end = (desc & 2) != 0;
    int len = (int) ((desc >>> 5) & 7);
    Message m;
    int id;
    if (begin) {
      id = free.isEmpty() ? newSlot() : free.pop();
      m = slots.get(id);
      m.live = true;
      m.length = 0;
      desc = (desc & ~1L & 0xffL) | ((long) id << 8);
      slot[0] = desc;
    } else {
      long raw = desc >>> 8;
      id = raw < slots.size() ? (int) raw : -1;
      m = id < 0 ? null : slots.get(id);
      if (m == null || !m.live) {
        slot[0] = 0;
        slot[1] = 0;
        return false;
      }
    }
    m.append(slot, 1, Math.min(len, HostcallBuffer.SLOT_WORDS - 1));
    if (end) {
      slot[0] = consumer.complete(m.data, m.length);
      slot[1] = 0;
      m.live = false;
      m.length = 0;
      free.push(id);
    }
    return true;
  }

  private int newSlot() {
    slots.add(new Message());
    return slots.size() - 1;
  }

  /** Messages begun and not ended. */
  public int liveMessages() {
    int n = 0;
    for (Message m : slots) {
      if (m.live) n++;
    }
    return n;
  }
}
