package dev.hipsim.cli;

import picocli.CommandLine;

/** Reads sizes such as {@code 4096}, {@code 512K}, {@code 256M} or {@code 1G}. */
final class SizeConverter implements CommandLine.ITypeConverter<Long> {
  @Override
  public Long convert(String text) {
    String t = text.trim().toUpperCase();
    long unit = 1;
    if (t.endsWith("K")) unit = 1L << 10;
    else if (t.endsWith("M")) unit = 1L << 20;
    else if (t.endsWith("G")) unit = 1L << 30;
    if (unit > 1) t = t.substring(0, t.length() - 1);
    try {
      long v = Long.parseLong(t);
      if (v < 0 || v > Long.MAX_VALUE / unit) throw new NumberFormatException();
      return v * unit;
    } catch (NumberFormatException e) {
      throw new CommandLine.TypeConversionException("'" + text + "' is not a size (e.g. 4096, 512K, 256M, 1G)");
    }
  }
}
