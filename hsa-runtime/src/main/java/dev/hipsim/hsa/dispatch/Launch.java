package dev.hipsim.hsa.dispatch;

import dev.hipsim.isa.dispatch.DispatchPacket;

/**
 * A kernel dispatch that was submitted: its dispatch id in the queue, the packet as written, and the kernarg
 * segment, to be given back with {@link Dispatcher#release} once the completion signal says the kernel is done.
 */
public record Launch(long dispatchId, DispatchPacket packet, long kernargAddress) {}
