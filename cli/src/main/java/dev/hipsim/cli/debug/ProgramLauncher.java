package dev.hipsim.cli.debug;

import dev.hipsim.hip.debug.DebugAgent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Starts a HIP program for debugging and takes the connection of the debugger agent inside it: listens on a
 * loopback port, starts the program with the agent's address and a one-time token in its environment, and accepts
 * the connection that presents the token. The front ends ({@code hipsim debug}, {@code hipsim dap}) then speak the
 * Debug Adapter Protocol on it.
 */
public final class ProgramLauncher {
  /** The program and the agent's connection (null when the program ended before its HIP runtime started). */
  public record Launched(Process process, Socket socket) {}

  private ProgramLauncher() {}

  /**
   * Starts {@code command} with {@code environment} plus the agent's variables, stdio as {@code pb} says, and waits
   * for its agent (as long as the program lives).
   */
  public static Launched launch(ProcessBuilder pb, Map<String, String> environment, List<Path> sourceDirs)
      throws IOException, InterruptedException {
    return launch(pb, environment, sourceDirs, p -> {});
  }

  /** The same, calling {@code started} with the process as soon as it runs (to drain piped output). */
  public static Launched launch(ProcessBuilder pb, Map<String, String> environment, List<Path> sourceDirs,
      java.util.function.Consumer<Process> started) throws IOException, InterruptedException {
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    String token = HexFormat.of().formatHex(secret);
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      server.setSoTimeout(200);
      pb.environment().putAll(environment);
      pb.environment().put(DebugAgent.ADDRESS_VARIABLE, "127.0.0.1:" + server.getLocalPort());
      pb.environment().put(DebugAgent.TOKEN_VARIABLE, token);
      if (!sourceDirs.isEmpty()) {
        StringBuilder sb = new StringBuilder();
        for (Path d : sourceDirs) sb.append(sb.length() == 0 ? "" : ":").append(d.toAbsolutePath());
        pb.environment().put(DebugAgent.SOURCE_PATH_VARIABLE, sb.toString());
      }
      Process process = pb.start();
      started.accept(process);
      while (true) {
        Socket s;
        try {
          s = server.accept();
        } catch (SocketTimeoutException e) {
          if (!process.isAlive()) return new Launched(process, null);
          continue;
        }
        s.setSoTimeout(10_000);
        String presented = readLine(s.getInputStream());
        if (token.equals(presented)) {
          s.setSoTimeout(0);
          s.setTcpNoDelay(true);
          return new Launched(process, s);
        }
        s.close(); // not our program's agent
      }
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 0; i < 256; i++) {
      int c;
      try {
        c = in.read();
      } catch (SocketTimeoutException e) {
        return null;
      }
      if (c < 0 || c == '\n') break;
      b.write(c);
    }
    return b.toString(StandardCharsets.UTF_8);
  }

  /** How a program's exit status reads: normally, with a code, or killed by a signal. */
  public static String describeExit(int status) {
    if (status == 0) return "exited normally";
    if (status > 128 && status < 128 + 65) return "killed by signal " + (status - 128);
    return "exited with code " + status;
  }
}
