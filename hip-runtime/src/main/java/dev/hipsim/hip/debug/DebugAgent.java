package dev.hipsim.hip.debug;

import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hip.gpu.Machine;
import dev.hipsim.hsa.loader.CodeObject;
import dev.hipsim.hsa.loader.LoadedCodeObject;
import dev.hipsim.hsa.loader.LoaderListener;
import dev.hipsim.isa.debug.Debugger;
import dev.hipsim.isa.debug.SourcePaths;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.eclipse.lsp4j.debug.launch.DSPLauncher;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;

/**
 * The kernel debugger inside the program's process. {@code hipsim debug} and {@code hipsim dap} start the program with
 * {@value #ADDRESS_VARIABLE} (a loopback {@code host:port} they listen on) and {@value #TOKEN_VARIABLE}; on the HIP
 * runtime's start the agent connects there, sends the token on a line of its own, and serves the Debug Adapter
 * Protocol on the connection. The program waits until the front end has set its breakpoints (configurationDone).
 */
public final class DebugAgent implements AutoCloseable {
  /**
   * lsp4j logs a closed connection (the program's normal end) with a stack trace: keep it quiet. The logger is held
   * here since the log manager holds loggers weakly, in a class of its own so that it is made only when a debugger
   * connects: making it starts java.util.logging, 12 ms of every program's start when this class held it.
   */
  static final class ProtocolLog {
    private ProtocolLog() {}

    static final java.util.logging.Logger LOG = quiet();

    static java.util.logging.Logger quiet() {
      java.util.logging.Logger l = java.util.logging.Logger.getLogger("org.eclipse.lsp4j");
      l.setLevel(java.util.logging.Level.OFF);
      return l;
    }
  }

  public static final String ADDRESS_VARIABLE = "HIPSIM_DEBUG_ADDRESS";
  public static final String TOKEN_VARIABLE = "HIPSIM_DEBUG_TOKEN";
  /** Source directories for the debugger, separated by ':' (also settable by the front end). */
  public static final String SOURCE_PATH_VARIABLE = "HIPSIM_SOURCE_PATH";

  private final Debugger debugger;
  private final DapServer server;
  private final Socket socket;
  private final ExecutorService threads;

  private DebugAgent(Debugger debugger, DapServer server, Socket socket, ExecutorService threads) {
    this.debugger = debugger;
    this.server = server;
    this.socket = socket;
    this.threads = threads;
  }

  /**
   * Connects to the front end when the environment asks for it and waits until it configured the session; returns
   * null (after one line on stderr) when it cannot connect, and the program runs undebugged.
   */
  public static DebugAgent startIfRequested(Map<String, String> env, Diagnostics diagnostics) {
    String address = env.getOrDefault(ADDRESS_VARIABLE, "");
    if (address.isBlank()) return null;
    java.util.Objects.requireNonNull(ProtocolLog.LOG); // quiet from here on
    int colon = address.lastIndexOf(':');
    Socket socket = new Socket();
    try {
      if (colon < 0) throw new IOException("'" + address + "' is not host:port");
      socket.connect(new InetSocketAddress(address.substring(0, colon),
          Integer.parseInt(address.substring(colon + 1))), 10_000);
      socket.setTcpNoDelay(true);
      OutputStream out = socket.getOutputStream();
      out.write((env.getOrDefault(TOKEN_VARIABLE, "") + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException | RuntimeException e) {
      diagnostics.line("hipsim: cannot reach the debugger at " + address + ": " + e.getMessage()
          + " (running without it)");
      try {
        socket.close();
      } catch (IOException ignored) {
        // nothing was opened
      }
      return null;
    }
    SourcePaths sources = new SourcePaths();
    for (String dir : env.getOrDefault(SOURCE_PATH_VARIABLE, "").split(":")) {
      if (!dir.isBlank()) sources.add(Path.of(dir));
    }
    Debugger debugger = new Debugger();
    DapServer server = new DapServer(debugger, sources);
    ExecutorService threads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "hipsim-debug-agent");
      t.setDaemon(true);
      return t;
    });
    try {
      Function<MessageConsumer, MessageConsumer> afterResponses = consumer -> consumer instanceof RemoteEndpoint
          ? message -> {
            consumer.consume(message);
            server.runDeferred();
          }
          : consumer;
      Launcher<IDebugProtocolClient> launcher = DSPLauncher.createServerLauncher(server, socket.getInputStream(),
          socket.getOutputStream(), threads, afterResponses);
      server.connect(launcher.getRemoteProxy());
      threads.submit(() -> {
        try {
          launcher.startListening().get();
        } catch (Exception e) {
          // the connection ended
        }
        server.disconnected();
        return null;
      });
      server.awaitConfiguration();
    } catch (IOException e) {
      diagnostics.line("hipsim: the debugger connection failed: " + e.getMessage() + " (running without it)");
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
    return new DebugAgent(debugger, server, socket, threads);
  }

  public Debugger debugger() {
    return debugger;
  }

  /** Puts the machine's dispatches and code loading under the debugger (called when the machine is built). */
  public void attach(Machine machine) {
    machine.hsa().setLoaderListener(new LoaderListener() {
      @Override
      public void loaded(CodeObject codeObject, LoadedCodeObject loaded) {
        debugger.codeObjectLoaded(loaded.source(), codeObject.elf(), loaded.loadBase(), loaded.loadSize(),
            loaded.loadDelta());
      }

      @Override
      public void unloaded(LoadedCodeObject loaded) {
        debugger.codeObjectUnloaded(loaded.loadBase());
      }
    });
    machine.engine().setDebugger(debugger);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed by the front end
    }
    threads.shutdownNow();
  }
}
