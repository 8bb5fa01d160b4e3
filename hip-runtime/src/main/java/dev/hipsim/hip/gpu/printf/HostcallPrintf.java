package dev.hipsim.hip.gpu.printf;

/**
 * The printf service of the hostcall protocol (CLR's {@code handlePrintf}): a complete message is a control word
 * (bit 0: stderr; version 0 otherwise), the format string padded to whole words, then the arguments as
 * {@link WordArguments}. Returns what the device's printf returns: the number of bytes written, or -1 for a message
 * it cannot read.
 */
public final class HostcallPrintf {
  private HostcallPrintf() {}

  public static long print(long[] message, int length, PrintfSink sink) {
    if (length < 1) return -1;
    long control = message[0];
    if ((control & ~1L) != 0) return -1;
    byte[] format = WordArguments.stringAt(message, 1, length);
    int args = Math.min(length, 1 + (format.length + 8) / 8);
    byte[] text = CFormat.format(format, new WordArguments(message, args, length));
    sink.write((control & 1) != 0, text);
    return text.length;
  }
}
