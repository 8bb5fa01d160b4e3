package dev.hipsim.kfd;

/** {@code CREATE_EVENT} outputs. */
public record CreateEventResult(int eventId, int eventTriggerData, int eventSlotIndex, long eventPageOffset) {}
