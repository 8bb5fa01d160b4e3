package dev.hipsim.hip.jni;

import dev.hipsim.hip.api.Diagnostics;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The program's C {@code stdout} / {@code stderr} as Java streams. Device printf output and the runtime's messages
 * must go through the C library's FILE buffers, not file descriptors 1 and 2 directly: only then do they interleave
 * with the program's own printf output in order, also when stdout is a pipe (fully buffered).
 */
public final class CStdio extends OutputStream {
  private final int stream;

  private CStdio(int stream) {
    this.stream = stream;
  }

  public static OutputStream stdout() {
    return new CStdio(NativeHost.STDOUT);
  }

  public static OutputStream stderr() {
    return new CStdio(NativeHost.STDERR);
  }

  /** One line on C stderr per message. */
  public static Diagnostics diagnostics() {
    return message -> {
      byte[] b = (message + "\n").getBytes(StandardCharsets.UTF_8);
      NativeHost.stdioWrite(NativeHost.STDERR, b, 0, b.length);
    };
  }

  /** Points System.out and System.err at the C streams, so stray Java output is ordered with the program's. */
  static void install() {
    System.setOut(new PrintStream(stdout(), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(stderr(), true, StandardCharsets.UTF_8));
  }

  /** Ends the process as ROCr does after a fatal device error: the message on stderr, then abort(). */
  public static dev.hipsim.hip.gpu.Faults faults() {
    return message -> {
      byte[] b = (message + "\n").getBytes(StandardCharsets.UTF_8);
      NativeHost.stdioWrite(NativeHost.STDERR, b, 0, b.length);
      NativeHost.abortProcess();
    };
  }

  public static boolean isTerminal(int fd) {
    return NativeHost.isTerminal(fd);
  }

  @Override
  public void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    NativeHost.stdioWrite(stream, b, off, len);
  }

  @Override
  public void flush() {
    NativeHost.stdioFlush(stream);
  }
}
