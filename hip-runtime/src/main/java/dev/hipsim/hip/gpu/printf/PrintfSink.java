package dev.hipsim.hip.gpu.printf;

/** Where device printf output goes: the program's C {@code stdout} (or {@code stderr} for device fprintf). */
public interface PrintfSink {
  void write(boolean toStderr, byte[] text);
}
