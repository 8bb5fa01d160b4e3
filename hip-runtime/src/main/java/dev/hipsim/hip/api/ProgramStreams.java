package dev.hipsim.hip.api;

/**
 * The program's C {@code stdout} and {@code stderr}, for what the runtime writes on the program's behalf (device
 * printf) and for what it shows the user (statistics, progress). Writes go through the C library's buffers, so they
 * interleave with the program's own output in order.
 */
public interface ProgramStreams {
  void stdout(byte[] bytes);

  void stderr(byte[] bytes);

  /** Whether stderr is a terminal (progress lines are shown only there). */
  boolean stderrIsTerminal();

  /** Streams that drop everything (for runtimes without a program, such as unit tests that do not look). */
  ProgramStreams NONE = new ProgramStreams() {
    @Override
    public void stdout(byte[] bytes) {}

    @Override
    public void stderr(byte[] bytes) {}

    @Override
    public boolean stderrIsTerminal() {
      return false;
    }
  };
}
