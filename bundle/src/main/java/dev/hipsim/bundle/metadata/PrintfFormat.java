package dev.hipsim.bundle.metadata;

import java.util.List;

/**
 * One {@code amdhsa.printf} string, {@code ID:N:S1:…:SN:FORMAT}: a printf call's identifier, the size of each
 * argument in bytes, and its format string.
 */
public record PrintfFormat(long id, List<Integer> argumentSizes, String format, String raw) {}
