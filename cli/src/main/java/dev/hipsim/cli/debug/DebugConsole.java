package dev.hipsim.cli.debug;

import dev.hipsim.isa.debug.SourcePaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.BreakpointEventArguments;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.DataBreakpoint;
import org.eclipse.lsp4j.debug.DataBreakpointAccessType;
import org.eclipse.lsp4j.debug.DataBreakpointInfoArguments;
import org.eclipse.lsp4j.debug.DataBreakpointInfoResponse;
import org.eclipse.lsp4j.debug.DisassembleArguments;
import org.eclipse.lsp4j.debug.DisassembledInstruction;
import org.eclipse.lsp4j.debug.DisassembledInstructionPresentationHint;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.FunctionBreakpoint;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.InstructionBreakpoint;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.PauseArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetDataBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetInstructionBreakpointsArguments;
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.SourceBreakpoint;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StepInArguments;
import org.eclipse.lsp4j.debug.StepOutArguments;
import org.eclipse.lsp4j.debug.SteppingGranularity;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.Thread;
import org.eclipse.lsp4j.debug.launch.DSPLauncher;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;

/**
 * The {@code hipsim debug} console: gdb-style commands, carried out as Debug Adapter Protocol requests to the agent
 * inside the program (the same protocol {@code hipsim dap} gives editors). Before {@code run} breakpoints are only
 * recorded; {@code run} starts the program, sends them, and waits for the first stop.
 */
public final class DebugConsole {
  /** Where commands come from: a JLine terminal or plain lines (scripts, tests). Null at the end of input. */
  public interface Input {
    String readLine(String prompt) throws IOException;
  }

  /** How to start the program: its command line, the environment hipsim adds, and the source directories. */
  public record Program(List<String> command, Map<String, String> environment, List<Path> sourceDirs,
      boolean interactive) {}

  private static final class CommandError extends Exception {
    private static final long serialVersionUID = 1L;

    CommandError(String message) {
      super(message);
    }
  }

  /** The running program and the protocol connection to its agent. */
  private static final class Session {
    Process process;
    java.net.Socket socket;
    IDebugProtocolServer server;
    ConsoleClient client;
    ExecutorService threads;
    boolean stopped;
  }

  /** lsp4j logs a closed connection (the program's normal end) with a stack trace: keep it quiet. */
  private static final java.util.logging.Logger PROTOCOL_LOG = quiet();

  static java.util.logging.Logger quiet() {
    java.util.logging.Logger l = java.util.logging.Logger.getLogger("org.eclipse.lsp4j");
    l.setLevel(java.util.logging.Level.OFF);
    return l;
  }

  static final List<String> COMMANDS = List.of("break", "watch", "rwatch", "awatch", "delete", "info breakpoints",
      "info waves", "info registers", "run", "continue", "stepi", "nexti", "next", "step", "finish", "wave", "lane",
      "print", "x", "disassemble", "list", "help", "quit");

  private static final Pattern LINE_SPEC = Pattern.compile("(.+):(\\d+)");

  private final PrintWriter out;
  private final Program program;
  private final SourcePaths sources = new SourcePaths();
  private final List<ConsoleBreakpoint> breakpoints = new ArrayList<>();
  private final Set<String> lineFilesSent = new LinkedHashSet<>();
  private int nextNumber = 1;
  private Session session;
  private int thread = -1;
  private int lane;
  private Path listFile;
  private int listNext = -1;
  private boolean failed;
  private boolean stopAtLaunch;

  public DebugConsole(PrintWriter out, Program program) {
    this.out = out;
    this.program = program;
    for (Path d : program.sourceDirs()) sources.add(d);
  }

  /** Reads and runs commands until {@code quit} or the end of input; returns 0, or 1 if a scripted command failed. */
  public int run(Input input) {
    String last = null;
    try {
      while (true) {
        out.flush();
        String line = input.readLine(program.interactive() ? "(hipsim) " : null);
        if (line == null) break;
        line = line.strip();
        if (line.isEmpty()) {
          if (!program.interactive() || last == null) continue;
          line = last; // like gdb: an empty line repeats the last command
        }
        if (line.startsWith("#")) continue;
        last = line;
        try {
          if (!execute(line)) break;
        } catch (CommandError e) {
          out.println(e.getMessage());
          if (!program.interactive()) failed = true;
        }
      }
    } catch (IOException e) {
      out.println("hipsim: cannot read commands: " + e.getMessage());
      failed = true;
    } finally {
      kill();
      out.flush();
    }
    return failed ? 1 : 0;
  }

  /** Runs one command; false when it was {@code quit}. */
  boolean execute(String line) throws CommandError {
    String[] parts = line.split("\\s+", 2);
    String cmd = parts[0];
    String arg = parts.length > 1 ? parts[1].strip() : "";
    if (cmd.startsWith("x/") || cmd.equals("x")) {
      evaluate(withLane(line));
      return true;
    }
    if (cmd.startsWith("p/") || cmd.startsWith("print/")) {
      evaluate(withLane(line));
      return true;
    }
    switch (cmd) {
      case "b": case "br": case "break": breakCommand(arg); break;
      case "watch": watch(arg, "write"); break;
      case "rwatch": watch(arg, "read"); break;
      case "awatch": watch(arg, "readWrite"); break;
      case "d": case "delete": delete(arg); break;
      case "catch": catchLaunch(arg); break;
      case "r": case "run": run(); break;
      case "c": case "cont": case "continue": resume("continue"); break;
      case "si": case "stepi": case "ni": case "nexti": stepi(arg); break;
      case "n": case "next": resume("next"); break;
      case "s": case "step": resume("step"); break;
      case "fin": case "finish": resume("finish"); break;
      case "i": case "info": info(arg); break;
      case "wave": case "thread": wave(arg); break;
      case "lane": lane(arg); break;
      case "p": case "print": case "output": case "call":
        if (arg.isEmpty()) throw new CommandError("usage: print[/x|d|u|f] EXPR");
        evaluate(withLane("print " + arg));
        break;
      case "disas": case "disassemble": disassemble(arg); break;
      case "l": case "list": list(arg); break;
      case "h": case "help": help(); break;
      case "q": case "quit": case "exit": return false;
      default: throw new CommandError("Undefined command: \"" + cmd + "\".  Try \"help\".");
    }
    return true;
  }

  private String withLane(String text) {
    return text.replaceAll("private:(?!@)", "private@" + lane + ":");
  }

  // ---- breakpoints

  private void breakCommand(String arg) throws CommandError {
    if (arg.isEmpty()) throw new CommandError("usage: break KERNEL | KERNEL+OFFSET | *ADDRESS | FILE:LINE");
    ConsoleBreakpoint b;
    Matcher m = LINE_SPEC.matcher(arg);
    if (arg.startsWith("*")) {
      String a = arg.substring(1).strip();
      if (!a.matches("0x[0-9a-fA-F]+|\\d+")) throw new CommandError("break *ADDRESS needs a number: " + arg);
      b = new ConsoleBreakpoint(nextNumber++, ConsoleBreakpoint.Kind.ADDRESS, arg, a, 0, null);
    } else if (m.matches() && !arg.contains("::")) {
      b = new ConsoleBreakpoint(nextNumber++, ConsoleBreakpoint.Kind.LINE, arg, m.group(1), Integer.parseInt(m.group(2)),
          null);
    } else {
      b = new ConsoleBreakpoint(nextNumber++, ConsoleBreakpoint.Kind.FUNCTION, arg, arg, 0, null);
    }
    breakpoints.add(b);
    if (session == null) {
      out.println("Breakpoint " + b.number + " (" + arg + ") pending until the program runs.");
      return;
    }
    send(b.kind);
    out.println(b.verified ? "Breakpoint " + b.number + " at " + b.where + "."
        : "Breakpoint " + b.number + " (" + arg + ") pending: " + b.where);
  }

  private void watch(String arg, String access) throws CommandError {
    String a = arg;
    if (a.startsWith("-l ") || a.startsWith("-location ")) a = a.substring(a.indexOf(' ') + 1).strip();
    if (a.isEmpty()) throw new CommandError("usage: watch ADDRESS (global:…, lds:…; rwatch: on reads, awatch: both)");
    String dataId;
    if (session != null) {
      DataBreakpointInfoArguments info = new DataBreakpointInfoArguments();
      info.setName(withLane(a));
      if (session.stopped && thread > 0) info.setFrameId(thread);
      DataBreakpointInfoResponse r = get(session.server.dataBreakpointInfo(info));
      if (r.getDataId() == null) throw new CommandError("Cannot watch " + a + ": " + r.getDescription());
      dataId = r.getDataId();
    } else {
      Matcher m = Pattern.compile("(global|lds):(0x[0-9a-fA-F]+|\\d+)").matcher(a);
      if (!m.matches()) {
        throw new CommandError("Before the program runs, watch a number: global:0x… or lds:N (registers need a stop)");
      }
      String n = m.group(2);
      long address = n.startsWith("0x") ? Long.parseUnsignedLong(n.substring(2), 16) : Long.parseLong(n);
      dataId = String.format("%s:0x%x/4", m.group(1), address);
    }
    ConsoleBreakpoint b = new ConsoleBreakpoint(nextNumber++, ConsoleBreakpoint.Kind.WATCH, a, dataId, 0, access);
    breakpoints.add(b);
    if (session != null) send(ConsoleBreakpoint.Kind.WATCH);
    String what = access.equals("read") ? "Read watchpoint" : access.equals("write") ? "Watchpoint" : "Access watchpoint";
    out.println(what + " " + b.number + ": " + dataId.substring(0, dataId.lastIndexOf('/')));
  }

  /** {@code catch launch [off]}: stop at every kernel launch (before its first instruction), or no longer. */
  private void catchLaunch(String arg) throws CommandError {
    if (!arg.equals("launch") && !arg.equals("launch off")) throw new CommandError("usage: catch launch [off]");
    stopAtLaunch = arg.equals("launch");
    if (session == null) {
      out.println(stopAtLaunch ? "Catchpoint: stop at every kernel launch." : "No longer stopping at kernel launches.");
      return;
    }
    EvaluateArguments a = new EvaluateArguments();
    a.setExpression("catch " + arg);
    a.setContext("repl");
    out.println(get(session.server.evaluate(a)).getResult());
  }

  private void delete(String arg) throws CommandError {
    Set<ConsoleBreakpoint.Kind> kinds = new LinkedHashSet<>();
    if (arg.isEmpty()) {
      for (ConsoleBreakpoint b : breakpoints) kinds.add(b.kind);
      breakpoints.clear();
    } else {
      for (String n : arg.split("[\\s,]+")) {
        int number;
        try {
          number = Integer.parseInt(n);
        } catch (NumberFormatException e) {
          throw new CommandError("Convenience variable must have integer value.\nArgs must be numbers: " + n);
        }
        ConsoleBreakpoint found = null;
        for (ConsoleBreakpoint b : breakpoints) if (b.number == number) found = b;
        if (found == null) throw new CommandError("No breakpoint number " + number + ".");
        breakpoints.remove(found);
        kinds.add(found.kind);
      }
    }
    if (session != null) for (ConsoleBreakpoint.Kind k : kinds) send(k);
  }

  /** Sends every breakpoint of one kind (DAP replaces each kind's set as a whole) and records the answers. */
  private void send(ConsoleBreakpoint.Kind kind) throws CommandError {
    List<ConsoleBreakpoint> group = new ArrayList<>();
    for (ConsoleBreakpoint b : breakpoints) if (b.kind == kind) group.add(b);
    switch (kind) {
      case FUNCTION: {
        SetFunctionBreakpointsArguments a = new SetFunctionBreakpointsArguments();
        a.setBreakpoints(group.stream().map(b -> {
          FunctionBreakpoint f = new FunctionBreakpoint();
          f.setName(b.target);
          return f;
        }).toArray(FunctionBreakpoint[]::new));
        record(group, get(session.server.setFunctionBreakpoints(a)).getBreakpoints());
        break;
      }
      case ADDRESS: {
        SetInstructionBreakpointsArguments a = new SetInstructionBreakpointsArguments();
        a.setBreakpoints(group.stream().map(b -> {
          InstructionBreakpoint i = new InstructionBreakpoint();
          i.setInstructionReference(b.target);
          return i;
        }).toArray(InstructionBreakpoint[]::new));
        record(group, get(session.server.setInstructionBreakpoints(a)).getBreakpoints());
        break;
      }
      case LINE: {
        Map<String, List<ConsoleBreakpoint>> byFile = new LinkedHashMap<>();
        for (String f : lineFilesSent) byFile.put(f, new ArrayList<>());
        for (ConsoleBreakpoint b : group) byFile.computeIfAbsent(b.target, f -> new ArrayList<>()).add(b);
        for (Map.Entry<String, List<ConsoleBreakpoint>> e : byFile.entrySet()) {
          SetBreakpointsArguments a = new SetBreakpointsArguments();
          Source s = new Source();
          s.setPath(e.getKey());
          s.setName(Path.of(e.getKey()).getFileName().toString());
          a.setSource(s);
          a.setBreakpoints(e.getValue().stream().map(b -> {
            SourceBreakpoint sb = new SourceBreakpoint();
            sb.setLine(b.line);
            return sb;
          }).toArray(SourceBreakpoint[]::new));
          record(e.getValue(), get(session.server.setBreakpoints(a)).getBreakpoints());
          lineFilesSent.add(e.getKey());
        }
        break;
      }
      default: {
        SetDataBreakpointsArguments a = new SetDataBreakpointsArguments();
        a.setBreakpoints(group.stream().map(b -> {
          DataBreakpoint d = new DataBreakpoint();
          d.setDataId(b.target);
          d.setAccessType(b.access.equals("read") ? DataBreakpointAccessType.READ : b.access.equals("readWrite")
              ? DataBreakpointAccessType.READ_WRITE : DataBreakpointAccessType.WRITE);
          return d;
        }).toArray(DataBreakpoint[]::new));
        record(group, get(session.server.setDataBreakpoints(a)).getBreakpoints());
      }
    }
  }

  private void record(List<ConsoleBreakpoint> group, Breakpoint[] answers) {
    for (int i = 0; i < group.size() && i < answers.length; i++) update(group.get(i), answers[i]);
  }

  private static void update(ConsoleBreakpoint b, Breakpoint a) {
    b.engineId = a.getId();
    b.verified = a.isVerified();
    if (!a.isVerified()) {
      b.where = a.getMessage() == null ? "pending" : a.getMessage();
    } else if (b.kind == ConsoleBreakpoint.Kind.WATCH) {
      b.where = b.target.substring(0, b.target.lastIndexOf('/'));
    } else {
      String at = a.getInstructionReference() == null ? "" : a.getInstructionReference();
      String line = a.getSource() != null && a.getLine() != null ? ": file " + a.getSource().getName() + ", line "
          + a.getLine() : a.getMessage() != null ? ": " + a.getMessage() : "";
      b.where = at + line;
    }
  }

  private void onBreakpointEvent(BreakpointEventArguments e) {
    Breakpoint a = e.getBreakpoint();
    for (ConsoleBreakpoint b : breakpoints) {
      if (a.getId() != null && a.getId().equals(b.engineId)) {
        boolean was = b.verified;
        update(b, a);
        if (!was && b.verified) out.println("Breakpoint " + b.number + " at " + b.where + ".");
      }
    }
  }

  // ---- running

  private void run() throws CommandError {
    if (session != null) throw new CommandError("The program is already running (continue, or quit and run again).");
    ProcessBuilder pb = new ProcessBuilder(program.command());
    pb.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.redirectInput(program.interactive() ? ProcessBuilder.Redirect.INHERIT
        : ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    out.flush();
    ProgramLauncher.Launched launched;
    try {
      launched = ProgramLauncher.launch(pb, program.environment(), program.sourceDirs());
    } catch (IOException e) {
      throw new CommandError("Cannot run " + program.command().get(0) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      java.lang.Thread.currentThread().interrupt();
      throw new CommandError("interrupted");
    }
    Session s = new Session();
    s.process = launched.process();
    if (launched.socket() == null) {
      exited(s.process);
      return;
    }
    s.socket = launched.socket();
    s.client = new ConsoleClient();
    s.threads = Executors.newCachedThreadPool(r -> {
      java.lang.Thread t = new java.lang.Thread(r, "hipsim-debug-console");
      t.setDaemon(true);
      return t;
    });
    try {
      Launcher<IDebugProtocolServer> l = DSPLauncher.createClientLauncher(s.client, s.socket.getInputStream(),
          s.socket.getOutputStream(), s.threads, null);
      s.server = l.getRemoteProxy();
      l.startListening();
    } catch (IOException e) {
      throw new CommandError("Cannot talk to the program: " + e.getMessage());
    }
    session = s;
    InitializeRequestArguments init = new InitializeRequestArguments();
    init.setAdapterID("hipsim");
    init.setClientID("hipsim-console");
    init.setLinesStartAt1(true);
    init.setColumnsStartAt1(true);
    get(s.server.initialize(init));
    Map<String, Object> launch = new LinkedHashMap<>();
    launch.put("program", program.command().get(0));
    launch.put("sourceDirs", program.sourceDirs().stream().map(Path::toString).toList());
    launch.put("stopOnEntry", stopAtLaunch);
    get(s.server.launch(launch));
    try {
      if (!s.client.initialized.await(30, TimeUnit.SECONDS)) throw new CommandError("The program's debugger did not start.");
    } catch (InterruptedException e) {
      java.lang.Thread.currentThread().interrupt();
    }
    for (ConsoleBreakpoint.Kind k : ConsoleBreakpoint.Kind.values()) {
      if (breakpoints.stream().anyMatch(b -> b.kind == k)) send(k);
    }
    get(s.server.configurationDone(new ConfigurationDoneArguments()));
    waitForStop();
  }

  private void requireStopped() throws CommandError {
    if (session == null) throw new CommandError("The program is not being run.");
    if (!session.stopped) throw new CommandError("The program is running.");
  }

  private void stepi(String arg) throws CommandError {
    int n = 1;
    if (!arg.isEmpty()) {
      try {
        n = Integer.parseInt(arg);
      } catch (NumberFormatException e) {
        throw new CommandError("stepi takes a count: " + arg);
      }
    }
    requireStopped();
    for (int i = 0; i < n; i++) {
      NextArguments a = new NextArguments();
      a.setThreadId(selectedThread());
      a.setGranularity(SteppingGranularity.INSTRUCTION);
      get(session.server.next(a));
      StoppedEventArguments e = awaitStop();
      if (e == null) return;
      boolean last = i == n - 1 || !"step".equals(e.getReason());
      if (last) {
        report(e);
        return;
      }
    }
  }

  private void resume(String how) throws CommandError {
    requireStopped();
    int t = selectedThread();
    switch (how) {
      case "continue": {
        ContinueArguments a = new ContinueArguments();
        a.setThreadId(t);
        get(session.server.continue_(a));
        break;
      }
      case "next": {
        NextArguments a = new NextArguments();
        a.setThreadId(t);
        a.setGranularity(SteppingGranularity.LINE);
        get(session.server.next(a));
        break;
      }
      case "step": {
        StepInArguments a = new StepInArguments();
        a.setThreadId(t);
        a.setGranularity(SteppingGranularity.LINE);
        get(session.server.stepIn(a));
        break;
      }
      default: {
        StepOutArguments a = new StepOutArguments();
        a.setThreadId(t);
        get(session.server.stepOut(a));
      }
    }
    waitForStop();
  }

  private int selectedThread() throws CommandError {
    if (thread < 0) throw new CommandError("No wave selected.");
    return thread;
  }

  private void waitForStop() throws CommandError {
    StoppedEventArguments e = awaitStop();
    if (e != null) report(e);
  }

  /** Waits for the next stop (null when the program exited meanwhile), printing what arrives before it. */
  private StoppedEventArguments awaitStop() throws CommandError {
    session.stopped = false;
    out.flush();
    Object interrupt = installInterrupt();
    try {
      while (true) {
        Object ev;
        try {
          ev = session.client.events.poll(100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException ie) {
          java.lang.Thread.currentThread().interrupt();
          throw new CommandError("interrupted");
        }
        if (ev == null) {
          if (!session.process.isAlive()) {
            drainEvents();
            exited(session.process);
            return null;
          }
          continue;
        }
        if (ev instanceof StoppedEventArguments s) {
          session.stopped = true;
          return s;
        }
        handleEvent(ev);
      }
    } finally {
      removeInterrupt(interrupt);
    }
  }

  private void drainEvents() {
    Object ev;
    while ((ev = session.client.events.poll()) != null) handleEvent(ev);
  }

  private void handleEvent(Object ev) {
    if (ev instanceof BreakpointEventArguments b) onBreakpointEvent(b);
    else if (ev instanceof OutputEventArguments o) out.print(o.getOutput());
    out.flush();
  }

  /** While the program runs in a terminal, Ctrl-C pauses it (the program runs in a session of its own). */
  private Object installInterrupt() {
    if (!program.interactive()) return null;
    try {
      return sun.misc.Signal.handle(new sun.misc.Signal("INT"), sig -> {
        Session s = session;
        if (s == null) return;
        PauseArguments p = new PauseArguments();
        p.setThreadId(Math.max(thread, 1));
        s.server.pause(p);
      });
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      return null;
    }
  }

  private static void removeInterrupt(Object previous) {
    if (previous instanceof sun.misc.SignalHandler h) sun.misc.Signal.handle(new sun.misc.Signal("INT"), h);
  }

  private void exited(Process p) {
    int status;
    try {
      status = p.waitFor();
    } catch (InterruptedException e) {
      java.lang.Thread.currentThread().interrupt();
      status = -1;
    }
    out.flush();
    out.println("[program " + ProgramLauncher.describeExit(status) + "]");
    close();
  }

  private void close() {
    Session s = session;
    session = null;
    thread = -1;
    listFile = null;
    lineFilesSent.clear();
    for (ConsoleBreakpoint b : breakpoints) {
      b.engineId = null;
      b.verified = false;
    }
    if (s == null) return;
    try {
      if (s.socket != null) s.socket.close();
    } catch (IOException e) {
      // already closed by the program's exit
    }
    if (s.threads != null) s.threads.shutdownNow();
  }

  private void kill() {
    Session s = session;
    if (s == null) return;
    try {
      s.server.disconnect(new DisconnectArguments()).get(2, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the program may be gone already
    }
    s.process.destroyForcibly();
    try {
      s.process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      java.lang.Thread.currentThread().interrupt();
    }
    close();
  }

  // ---- reporting a stop

  private void report(StoppedEventArguments e) throws CommandError {
    int previous = thread;
    thread = e.getThreadId() == null ? -1 : e.getThreadId();
    listFile = null;
    for (ConsoleBreakpoint b : breakpoints) {
      if (e.getHitBreakpointIds() != null) {
        for (Integer id : e.getHitBreakpointIds()) if (id != null && id.equals(b.engineId)) b.hits++;
      }
    }
    String reason = e.getReason();
    String description = e.getDescription() == null ? "" : e.getDescription();
    if (thread >= 1_000_000) { // no wave: the dispatch finished
      out.println(capitalize(description) + ".");
      return;
    }
    if (thread != previous && !"step".equals(reason)) out.println("[Switching to " + threadName(thread) + "]");
    switch (reason) {
      case "breakpoint": case "function breakpoint": case "instruction breakpoint":
        out.println("Breakpoint " + numbers(e) + ", wave " + (thread - 1) + " in " + frameWhere());
        break;
      case "data breakpoint":
        out.println(watchText(description) + ", wave " + (thread - 1) + " in " + frameWhere());
        break;
      case "entry":
        out.println("Catchpoint: " + description + ", wave " + (thread - 1) + " in " + frameWhere());
        break;
      case "pause":
        out.println("Paused, wave " + (thread - 1) + " in " + frameWhere());
        break;
      case "exception":
        out.println("Wave " + (thread - 1) + " faulted: " + description);
        break;
      default:
        if (!description.equals("step")) out.println(capitalize(description) + ".");
    }
    showLocation();
  }

  private String numbers(StoppedEventArguments e) {
    List<String> n = new ArrayList<>();
    for (ConsoleBreakpoint b : breakpoints) {
      if (e.getHitBreakpointIds() == null) continue;
      for (Integer id : e.getHitBreakpointIds()) if (id != null && id.equals(b.engineId)) n.add(String.valueOf(b.number));
    }
    return n.isEmpty() ? "?" : String.join(", ", n);
  }

  /** "watchpoint 7: global:0x… written: …" with the engine's id replaced by the console's number. */
  private String watchText(String description) {
    StringBuilder sb = new StringBuilder();
    for (String part : description.split("; ")) {
      Matcher m = Pattern.compile("watchpoint (\\d+): (.*)").matcher(part);
      if (!m.matches()) continue;
      int id = Integer.parseInt(m.group(1));
      String number = "?";
      String kind = "Watchpoint";
      for (ConsoleBreakpoint b : breakpoints) {
        if (Integer.valueOf(id).equals(b.engineId)) {
          number = String.valueOf(b.number);
          kind = b.access.equals("read") ? "Read watchpoint" : b.access.equals("write") ? "Watchpoint" : "Access watchpoint";
        }
      }
      if (sb.length() > 0) sb.append("; ");
      sb.append(kind).append(' ').append(number).append(": ").append(m.group(2));
    }
    return sb.toString();
  }

  private static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private StackFrame frame() throws CommandError {
    StackTraceArguments a = new StackTraceArguments();
    a.setThreadId(selectedThread());
    StackFrame[] frames = get(session.server.stackTrace(a)).getStackFrames();
    if (frames == null || frames.length == 0) throw new CommandError("No frame selected.");
    return frames[0];
  }

  private String frameWhere() throws CommandError {
    StackFrame f = frame();
    String name = f.getName();
    int colon = name.indexOf(": ");
    String where = colon < 0 ? name : name.substring(0, colon);
    if (f.getSource() != null && f.getLine() > 0) where += " at " + f.getSource().getName() + ":" + f.getLine();
    return where;
  }

  /** The source line (when known) and the instruction at the selected wave's PC. */
  private void showLocation() throws CommandError {
    StackFrame f = frame();
    if (f.getSource() != null && f.getLine() > 0) {
      Path p = sourceFile(f.getSource());
      String text = p == null ? null : lineOf(p, f.getLine());
      out.println(f.getLine() + "\t" + (text == null ? "(source " + f.getSource().getName() + " not found)" : text));
      listFile = p;
      listNext = Math.max(1, f.getLine() - 5);
    }
    out.println("=> " + f.getInstructionPointerReference() + " <" + f.getName().replaceFirst(": ", ">:\t"));
  }

  private String threadName(int id) throws CommandError {
    for (Thread t : get(session.server.threads()).getThreads()) {
      if (t.getId() == id) {
        String n = t.getName();
        int comma = n.indexOf(", ");
        return comma < 0 ? n : n.substring(0, comma);
      }
    }
    return "wave " + (id - 1);
  }

  private Path sourceFile(Source s) {
    if (s.getPath() != null) {
      Path p = Path.of(s.getPath());
      if (Files.isRegularFile(p)) return p;
      return sources.resolve(s.getPath()).orElse(null);
    }
    return null;
  }

  private static String lineOf(Path p, int line) {
    try {
      List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
      return line >= 1 && line <= lines.size() ? lines.get(line - 1) : null;
    } catch (IOException e) {
      return null;
    }
  }

  // ---- inspection

  private void evaluate(String expression) throws CommandError {
    requireStopped();
    EvaluateArguments a = new EvaluateArguments();
    a.setExpression(expression);
    a.setContext("repl");
    if (thread > 0 && thread < 1_000_000) a.setFrameId(thread);
    out.println(get(session.server.evaluate(a)).getResult());
  }

  private void info(String arg) throws CommandError {
    String[] p = arg.split("\\s+", 2);
    String what = p[0];
    String rest = p.length > 1 ? p[1] : "";
    if (what.equals("b") || what.startsWith("break") || what.equals("watchpoints")) {
      infoBreakpoints();
    } else if (what.equals("w") || what.startsWith("wave") || what.equals("threads")) {
      requireStopped();
      evaluate("info waves");
    } else if (what.equals("r") || what.startsWith("reg") || what.equals("all-registers")) {
      requireStopped();
      evaluate(("info registers " + rest).strip());
    } else if (what.equals("lane")) {
      out.println("Lane " + lane + " is selected.");
    } else {
      throw new CommandError("Undefined info command: \"" + arg + "\".  Try \"help\".");
    }
  }

  private void infoBreakpoints() {
    if (breakpoints.isEmpty()) {
      out.println("No breakpoints or watchpoints.");
      return;
    }
    out.println(String.format("%-4s %-16s %-4s %s", "Num", "Type", "Enb", "What"));
    for (ConsoleBreakpoint b : breakpoints) {
      String where = b.where == null ? "(pending until the program runs)" : b.verified ? b.where : "(pending) " + b.where;
      out.println(String.format("%-4d %-16s %-4s %s %s", b.number, b.typeName(), "y", b.spec, where).stripTrailing());
      if (b.hits > 0) {
        out.println("\tbreakpoint already hit " + b.hits + " time" + (b.hits == 1 ? "" : "s"));
      }
    }
  }

  private void wave(String arg) throws CommandError {
    if (session == null) throw new CommandError("The program is not being run.");
    if (arg.isEmpty()) {
      out.println("[Current wave is " + (thread - 1) + "]");
      return;
    }
    int n;
    try {
      n = Integer.parseInt(arg);
    } catch (NumberFormatException e) {
      throw new CommandError("wave takes a wave number (see info waves): " + arg);
    }
    requireStopped();
    for (Thread t : get(session.server.threads()).getThreads()) {
      if (t.getId() == n + 1) {
        thread = n + 1;
        listFile = null;
        out.println("[Switching to " + threadName(thread) + "]");
        showLocation();
        return;
      }
    }
    throw new CommandError("No wave " + n + " (see info waves).");
  }

  private void lane(String arg) throws CommandError {
    if (arg.isEmpty()) {
      out.println("[Current lane is " + lane + "]");
      return;
    }
    try {
      int n = Integer.parseInt(arg);
      if (n < 0 || n > 63) throw new NumberFormatException();
      lane = n;
    } catch (NumberFormatException e) {
      throw new CommandError("lane takes 0-63: " + arg);
    }
    out.println("[Switching to lane " + lane + "]");
  }

  private void disassemble(String arg) throws CommandError {
    requireStopped();
    String pc = frame().getInstructionPointerReference();
    String at = pc;
    if (!arg.isEmpty()) {
      if (arg.matches("0x[0-9a-fA-F]+")) {
        at = arg;
      } else {
        EvaluateArguments a = new EvaluateArguments();
        a.setExpression("print/x " + arg);
        a.setContext("repl");
        a.setFrameId(thread);
        String r = get(session.server.evaluate(a)).getResult();
        Matcher m = Pattern.compile("= (0x[0-9a-f]+)$").matcher(r);
        if (!m.find()) throw new CommandError(arg + " is not one address: " + r);
        at = m.group(1);
      }
    }
    DisassembleArguments a = new DisassembleArguments();
    a.setMemoryReference(at);
    a.setInstructionOffset(-8);
    a.setInstructionCount(24);
    for (DisassembledInstruction d : get(session.server.disassemble(a)).getInstructions()) {
      if (d.getPresentationHint() == DisassembledInstructionPresentationHint.INVALID) continue;
      String marker = d.getAddress().equals(pc) ? "=> " : "   ";
      out.println(marker + d.getAddress() + " <" + d.getSymbol() + ">:\t" + d.getInstruction());
    }
  }

  private void list(String arg) throws CommandError {
    Path file = listFile;
    int center = -1;
    if (!arg.isEmpty()) {
      Matcher m = LINE_SPEC.matcher(arg);
      if (m.matches()) {
        file = sources.resolve(m.group(1)).orElse(Path.of(m.group(1)));
        center = Integer.parseInt(m.group(2));
      } else if (arg.matches("\\d+")) {
        center = Integer.parseInt(arg);
      } else {
        throw new CommandError("usage: list [LINE | FILE:LINE]");
      }
    }
    if (file == null && session != null && session.stopped) {
      StackFrame f = frame();
      if (f.getSource() != null) {
        file = sourceFile(f.getSource());
        if (center < 0) center = f.getLine();
      }
    }
    if (file == null || !Files.isRegularFile(file)) {
      throw new CommandError("No source file" + (file == null ? " (no line information here)." : " " + file + "."));
    }
    int first = center > 0 ? Math.max(1, center - 5) : listNext > 0 && file.equals(listFile) ? listNext : 1;
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CommandError("Cannot read " + file + ": " + e.getMessage());
    }
    if (first > lines.size()) throw new CommandError("Line number " + first + " out of range; \"" + file.getFileName()
        + "\" has " + lines.size() + " lines.");
    for (int i = first; i < first + 10 && i <= lines.size(); i++) out.println(i + "\t" + lines.get(i - 1));
    listFile = file;
    listNext = first + 10;
  }

  private void help() {
    out.println(String.join("\n",
        "Commands (short forms in brackets):",
        "  break KERNEL | KERNEL+OFFSET | *ADDRESS | FILE:LINE   [b]  stop there (every wave that gets there)",
        "  watch ADDRESS, rwatch ADDRESS, awatch ADDRESS          stop on a write / read / either (global:… or lds:…)",
        "  delete [N…] [d]   info breakpoints [i b]   catch launch [off] (stop at every kernel launch)",
        "  run [r]   continue [c]   stepi [N] [si]   next [n]   step [s]   finish [fin] (run the dispatch to its end)",
        "  info waves [i w]   wave N (select)   lane N (select; private: addresses are its)",
        "  info registers [sgpr|vgpr|agpr|special] [i r]",
        "  print[/x|d|u|f] EXPR [p]   EXPR: s4 s[4:5] v3 v3[5] v[2:3][5] a0 exec vcc scc m0 mode status trapsts pc, + - *",
        "  x/NFMT ADDRESS   formats x d u f i, sizes b h w g; ADDRESS: global:EXPR lds:EXPR private:EXPR or a flat address",
        "  disassemble [ADDRESS] [disas]   list [LINE|FILE:LINE] [l]   help [h]   quit [q]"));
  }

  private static <T> T get(CompletableFuture<T> f) throws CommandError {
    try {
      return f.get(120, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof ResponseErrorException r) throw new CommandError(r.getResponseError().getMessage());
      throw new CommandError("The debugger failed: " + c);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new CommandError("The program's debugger does not answer.");
    } catch (InterruptedException e) {
      java.lang.Thread.currentThread().interrupt();
      throw new CommandError("interrupted");
    }
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
