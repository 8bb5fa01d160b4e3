package dev.hipsim.cli.debug;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.hipsim.hip.debug.DapServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code hipsim dap}: the debug adapter an editor starts, speaking DAP on stdio. It answers {@code initialize}
 * itself, starts the program on {@code launch} (its stdout and stderr become {@code output} events), and from then
 * on relays messages between the editor and the agent inside the program, which implements every other request.
 * When the program ends it sends {@code exited} and {@code terminated}. Messages it sends are numbered afresh.
 */
public final class DapBridge {
  /** How a launch turns into a program to run: the launch arguments give command, environment, sources. */
  public interface Launcher {
    DebugConsole.Program program(Map<String, Object> launchArguments) throws IOException;
  }

  private final InputStream clientIn;
  private final OutputStream clientOut;
  private final Launcher launcher;
  private final Gson gson = new Gson();
  private final Object writeLock = new Object();
  private int seq = 1;
  private JsonObject initializeRequest;
  private volatile Process process;
  private volatile Socket socket;
  private volatile OutputStream agentOut;
  private volatile boolean agentInitializeAnswered;
  private volatile boolean ended;

  public DapBridge(InputStream clientIn, OutputStream clientOut, Launcher launcher) {
    this.clientIn = clientIn;
    this.clientOut = clientOut;
    this.launcher = launcher;
  }

  /** Serves the editor until it disconnects or closes stdin; returns the exit status for hipsim. */
  public int serve() {
    try {
      while (true) {
        JsonObject m = DapFraming.read(clientIn);
        if (m == null) break;
        if (!"request".equals(text(m, "type"))) continue;
        String command = text(m, "command");
        if ("initialize".equals(command) && initializeRequest == null) {
          initializeRequest = m;
          respond(m, true, null, gson.toJsonTree(DapServer.capabilities()));
        } else if ("launch".equals(command) && process == null) {
          launch(m);
        } else if (agentOut != null && !ended) {
          forward(m);
          if ("disconnect".equals(command) || "terminate".equals(command)) {
            finishAfterDisconnect(m);
            if ("disconnect".equals(command)) break;
          }
        } else if ("disconnect".equals(command) || "terminate".equals(command)) {
          respond(m, true, null, null);
          destroy();
          if ("disconnect".equals(command)) break;
        } else {
          respond(m, false, ended ? "the program has exited" : "the program is not launched yet", null);
        }
      }
    } catch (IOException e) {
      System.err.println("hipsim dap: " + e.getMessage());
      destroy();
      return 1;
    }
    destroy();
    return 0;
  }

  private void launch(JsonObject request) throws IOException {
    Map<String, Object> args = new java.util.LinkedHashMap<>();
    JsonObject a = request.has("arguments") && request.get("arguments").isJsonObject()
        ? request.getAsJsonObject("arguments") : new JsonObject();
    for (Map.Entry<String, JsonElement> e : a.entrySet()) args.put(e.getKey(), gson.fromJson(e.getValue(), Object.class));
    DebugConsole.Program program;
    try {
      program = launcher.program(args);
    } catch (IOException e) {
      respond(request, false, e.getMessage(), null);
      return;
    }
    ProcessBuilder pb = new ProcessBuilder(program.command());
    pb.redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(ProcessBuilder.Redirect.PIPE)
        .redirectError(ProcessBuilder.Redirect.PIPE);
    Object cwd = args.get("cwd");
    if (cwd instanceof String s && !s.isBlank()) pb.directory(Path.of(s).toFile());
    ProgramLauncher.Launched launched;
    try {
      launched = launchWithOutput(pb, program);
    } catch (IOException e) {
      respond(request, false, "cannot run " + program.command().get(0) + ": " + e.getMessage(), null);
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      respond(request, false, "interrupted", null);
      return;
    }
    if (launched.socket() == null) {
      // The program ended before its HIP runtime started: nothing to debug.
      respond(request, true, null, null);
      event("initialized", null);
      return;
    }
    socket = launched.socket();
    agentOut = socket.getOutputStream();
    InputStream agentIn = socket.getInputStream();
    daemon("hipsim-dap-agent", () -> pumpFromAgent(agentIn));
    forward(initializeRequest != null ? initializeRequest : syntheticInitialize());
    forward(request);
  }

  /** Starts the program; its output flows as events at once (it may print while its agent waits for breakpoints). */
  private ProgramLauncher.Launched launchWithOutput(ProcessBuilder pb, DebugConsole.Program program)
      throws IOException, InterruptedException {
    return ProgramLauncher.launch(pb, program.environment(), program.sourceDirs(), p -> {
      process = p;
      try {
        p.getOutputStream().close();
      } catch (IOException ignored) {
        // nothing to close
      }
      daemon("hipsim-dap-stdout", () -> pumpOutput(p.getInputStream(), "stdout"));
      daemon("hipsim-dap-stderr", () -> pumpOutput(p.getErrorStream(), "stderr"));
      daemon("hipsim-dap-exit", () -> awaitExit(p));
    });
  }

  private JsonObject syntheticInitialize() {
    JsonObject m = new JsonObject();
    m.addProperty("seq", 0);
    m.addProperty("type", "request");
    m.addProperty("command", "initialize");
    JsonObject a = new JsonObject();
    a.addProperty("adapterID", "hipsim");
    m.add("arguments", a);
    return m;
  }

  private void forward(JsonObject m) throws IOException {
    OutputStream o = agentOut;
    if (o == null) return;
    synchronized (o) {
      DapFraming.write(o, m);
    }
  }

  private void pumpFromAgent(InputStream in) {
    try {
      while (true) {
        JsonObject m = DapFraming.read(in);
        if (m == null) break;
        if ("response".equals(text(m, "type")) && "initialize".equals(text(m, "command")) && !agentInitializeAnswered) {
          agentInitializeAnswered = true; // the bridge answered the editor's initialize already
          continue;
        }
        send(m);
      }
    } catch (IOException e) {
      // the program ended
    }
  }

  private void pumpOutput(InputStream in, String category) {
    byte[] buffer = new byte[8192];
    try {
      int n;
      while ((n = in.read(buffer)) > 0) {
        JsonObject body = new JsonObject();
        body.addProperty("category", category);
        body.addProperty("output", new String(buffer, 0, n, StandardCharsets.UTF_8));
        event("output", body);
      }
    } catch (IOException e) {
      // the program closed it
    }
  }

  private void awaitExit(Process p) {
    try {
      int status = p.waitFor();
      // let the output readers deliver what the program wrote last
      Thread.sleep(200);
      ended = true;
      JsonObject exited = new JsonObject();
      exited.addProperty("exitCode", status);
      event("exited", exited);
      event("terminated", new JsonObject());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void finishAfterDisconnect(JsonObject request) {
    JsonObject a = request.has("arguments") && request.get("arguments").isJsonObject()
        ? request.getAsJsonObject("arguments") : new JsonObject();
    boolean terminate = !a.has("terminateDebuggee") || a.get("terminateDebuggee").getAsBoolean();
    Process p = process;
    if (p == null) return;
    if (terminate) {
      try {
        p.waitFor(300, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      p.destroy();
    }
  }

  private void destroy() {
    Process p = process;
    if (p != null && p.isAlive()) {
      p.destroy();
      try {
        if (!p.waitFor(5, TimeUnit.SECONDS)) p.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      Socket s = socket;
      if (s != null) s.close();
    } catch (IOException e) {
      // closed already
    }
  }

  private void respond(JsonObject request, boolean success, String message, JsonElement body) throws IOException {
    JsonObject r = new JsonObject();
    r.addProperty("type", "response");
    r.add("request_seq", request.get("seq"));
    r.addProperty("success", success);
    r.addProperty("command", text(request, "command"));
    if (message != null) r.addProperty("message", message);
    if (body != null) r.add("body", body);
    send(r);
  }

  private void event(String name, JsonObject body) {
    JsonObject e = new JsonObject();
    e.addProperty("type", "event");
    e.addProperty("event", name);
    if (body != null) e.add("body", body);
    try {
      send(e);
    } catch (IOException ignored) {
      // the editor went away
    }
  }

  private void send(JsonObject m) throws IOException {
    synchronized (writeLock) {
      m.addProperty("seq", seq++);
      DapFraming.write(clientOut, m);
    }
  }

  private static String text(JsonObject m, String key) {
    JsonElement e = m.get(key);
    return e == null || !e.isJsonPrimitive() ? null : e.getAsString();
  }

  private static void daemon(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  /** The program and its arguments from a launch request's {@code program} and {@code args}. */
  public static List<String> command(Map<String, Object> args) throws IOException {
    Object program = args.get("program");
    if (!(program instanceof String p) || p.isBlank()) throw new IOException("launch needs a \"program\"");
    List<String> command = new ArrayList<>();
    command.add(p);
    Object list = args.get("args");
    if (list instanceof List<?> l) for (Object o : l) command.add(String.valueOf(o));
    return command;
  }
}
