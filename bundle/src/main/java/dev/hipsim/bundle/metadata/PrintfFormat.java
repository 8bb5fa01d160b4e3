package dev.hipsim.bundle.metadata;

import java.util.List;
import java.util.Optional;

/**
 * One {@code amdhsa.printf} string, {@code ID:N:S1:…:SN:FORMAT}: a printf call's identifier, the size of each
 * argument in bytes, and its format string. HIP's buffered printf writes {@code 0:0:HASH,FORMAT}, where HASH (16 hex
 * digits) identifies the format string in the buffer; it is split off into {@link #hipHash()}.
 */
public record PrintfFormat(long id, List<Integer> argumentSizes, Optional<String> hipHash, String format,
    String raw) {}
