package dev.hipsim.isa.debug;

import java.util.List;

/**
 * A breakpoint as the engine holds it: its id (reported in stops), what the user asked for, whether it resolved to
 * code ({@code verified}) and where, and a message when it did not (yet).
 */
public record BreakpointStatus(int id, BreakpointSpec spec, boolean verified, List<Long> addresses, String message,
    String location) {}
