package dev.hipsim.kfd.queue;

import dev.hipsim.isa.mem.AtomicOp;
import dev.hipsim.isa.mem.GpuMemory;
import dev.hipsim.isa.mem.GpuMemoryFault;

/**
 * {@code amd_signal_t} (amd_hsa_signal.h, 64 bytes): a signal handle is its address. Completing a signal is what the
 * CP and SDMA do at the end of a packet: decrement the value, and if the signal has an event mailbox, write the
 * event id there and raise the interrupt that lets KFD wake the host.
 */
public final class AmdSignal {
  private AmdSignal() {}

  public static final int KIND = 0;
  public static final int VALUE = 8;
  public static final int EVENT_MAILBOX_PTR = 16;
  public static final int EVENT_ID = 24;
  public static final int START_TS = 32;
  public static final int END_TS = 40;
  public static final int QUEUE_PTR = 48;
  public static final int SIZE = 64;

  /** The signal's current value, read atomically. */
  public static long value(GpuMemory memory, long signal) throws GpuMemoryFault {
    return memory.atomic64(AtomicOp.OR, signal + VALUE, 0, 0);
  }

  /** Decrements the value and delivers the event, as at the end of a packet. */
  public static void complete(GpuMemory memory, long signal, QueueHost host) throws GpuMemoryFault {
    memory.atomic64(AtomicOp.SUB, signal + VALUE, 1, 0);
    long mailbox = memory.load64(signal + EVENT_MAILBOX_PTR);
    if (mailbox != 0) {
      int eventId = memory.load32(signal + EVENT_ID);
      memory.atomic64(AtomicOp.SWAP, mailbox, eventId & 0xffff_ffffL, 0);
      host.interrupt(eventId);
    }
  }
}
