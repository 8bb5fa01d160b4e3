package dev.hipsim.kfd.event;

/** {@code KFD_IOC_EVENT_*}: what an event reports. SIGNAL and DEBUG events own a slot in the event page. */
public enum EventType {
  SIGNAL,
  NODECHANGE,
  DEVICESTATECHANGE,
  HW_EXCEPTION,
  SYSTEM_EVENT,
  DEBUG_EVENT,
  PROFILE_EVENT,
  QUEUE_EVENT,
  MEMORY;

  /** The ioctl's numeric value. */
  public int value() {
    return ordinal();
  }

  /** The type for an ioctl value, or {@code null} if there is none. */
  public static EventType of(int value) {
    return value >= 0 && value < values().length ? values()[value] : null;
  }

  boolean hasSlot() {
    return this == SIGNAL || this == DEBUG_EVENT;
  }
}
