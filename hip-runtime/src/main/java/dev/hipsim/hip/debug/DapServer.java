package dev.hipsim.hip.debug;

import dev.hipsim.isa.debug.AddressSpace;
import dev.hipsim.isa.debug.BreakpointSpec;
import dev.hipsim.isa.debug.BreakpointStatus;
import dev.hipsim.isa.debug.DebugException;
import dev.hipsim.isa.debug.Debugger;
import dev.hipsim.isa.debug.Disassembly;
import dev.hipsim.isa.debug.DispatchView;
import dev.hipsim.isa.debug.Evaluator;
import dev.hipsim.isa.debug.Resume;
import dev.hipsim.isa.debug.SourcePaths;
import dev.hipsim.isa.debug.StopEvent;
import dev.hipsim.isa.debug.WatchKind;
import dev.hipsim.isa.debug.symbols.SourceLine;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.debug.Breakpoint;
import org.eclipse.lsp4j.debug.BreakpointEventArguments;
import org.eclipse.lsp4j.debug.Capabilities;
import org.eclipse.lsp4j.debug.ConfigurationDoneArguments;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.ContinueResponse;
import org.eclipse.lsp4j.debug.DataBreakpoint;
import org.eclipse.lsp4j.debug.DataBreakpointAccessType;
import org.eclipse.lsp4j.debug.DataBreakpointInfoArguments;
import org.eclipse.lsp4j.debug.DataBreakpointInfoResponse;
import org.eclipse.lsp4j.debug.DisassembleArguments;
import org.eclipse.lsp4j.debug.DisassembleResponse;
import org.eclipse.lsp4j.debug.DisassembledInstruction;
import org.eclipse.lsp4j.debug.DisassembledInstructionPresentationHint;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.EvaluateResponse;
import org.eclipse.lsp4j.debug.FunctionBreakpoint;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.InstructionBreakpoint;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.OutputEventArgumentsCategory;
import org.eclipse.lsp4j.debug.PauseArguments;
import org.eclipse.lsp4j.debug.ReadMemoryArguments;
import org.eclipse.lsp4j.debug.ReadMemoryResponse;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopesArguments;
import org.eclipse.lsp4j.debug.ScopesResponse;
import org.eclipse.lsp4j.debug.SetBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetDataBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetDataBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetExceptionBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsResponse;
import org.eclipse.lsp4j.debug.SetInstructionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetInstructionBreakpointsResponse;
import org.eclipse.lsp4j.debug.Source;
import org.eclipse.lsp4j.debug.SourceBreakpoint;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StackTraceResponse;
import org.eclipse.lsp4j.debug.StepInArguments;
import org.eclipse.lsp4j.debug.StepOutArguments;
import org.eclipse.lsp4j.debug.SteppingGranularity;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.TerminateArguments;
import org.eclipse.lsp4j.debug.Thread;
import org.eclipse.lsp4j.debug.ThreadsResponse;
import org.eclipse.lsp4j.debug.VariablesArguments;
import org.eclipse.lsp4j.debug.VariablesResponse;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * The in-process Debug Adapter Protocol server over the kernel debugger's engine. Threads are the waves of the
 * stopped dispatch (thread id = wave number + 1), each with one stack frame (the kernel or device function, the PC
 * and the instruction there, and the source line when the code object has line tables). Scopes are the wave's
 * special registers, SGPRs, VGPRs and AGPRs (64 lanes each) and its workgroup's LDS; {@code evaluate} takes the
 * console's expressions and commands; memory references are {@code [global:|lds:|private@LANE:]ADDRESS}.
 *
 * <p>Requests that resume the program take effect after their response is written ({@link #runDeferred}), so a
 * client always reads the response before the next {@code stopped} event.
 */
public final class DapServer implements IDebugProtocolServer {
  /** The thread shown when no wave exists (the program runs host code, or the dispatch finished). */
  static final int NO_WAVE_THREAD = 1_000_000;

  private static final Pattern DATA_ID = Pattern.compile("(global|lds):0x([0-9a-fA-F]+)/(\\d)");
  private static final Pattern FUNCTION = Pattern.compile("(.+?)\\s*\\+\\s*(0x[0-9a-fA-F]+|\\d+)");

  private final Debugger debugger;
  private final SourcePaths sources;
  private final VariableScopes scopes = new VariableScopes();
  private final CountDownLatch configured = new CountDownLatch(1);
  private volatile IDebugProtocolClient client;
  private volatile int stoppedWave = -1;
  private volatile Runnable deferred;

  public DapServer(Debugger debugger, SourcePaths sources) {
    this.debugger = debugger;
    this.sources = sources;
    debugger.setListener(new Debugger.Listener() {
      @Override
      public void stopped(StopEvent event) {
        onStopped(event);
      }

      @Override
      public void breakpointsChanged(List<BreakpointStatus> changed) {
        IDebugProtocolClient c = client;
        if (c == null) return;
        for (BreakpointStatus s : changed) {
          BreakpointEventArguments a = new BreakpointEventArguments();
          a.setReason("changed");
          a.setBreakpoint(breakpoint(s));
          c.breakpoint(a);
        }
      }

      @Override
      public void message(String text) {
        output(text + "\n");
      }
    });
  }

  public void connect(IDebugProtocolClient client) {
    this.client = client;
  }

  /** Blocks until the client finished configuring (configurationDone) or went away. */
  public void awaitConfiguration() throws InterruptedException {
    configured.await();
  }

  /** The client went away: let the program run on. */
  public void disconnected() {
    configured.countDown();
    debugger.detach();
  }

  /** Runs what a request left to do after its response (resuming the program, the initialized event). */
  void runDeferred() {
    Runnable r = deferred;
    deferred = null;
    if (r != null) r.run();
  }

  private void output(String text) {
    IDebugProtocolClient c = client;
    if (c == null) return;
    OutputEventArguments o = new OutputEventArguments();
    o.setCategory(OutputEventArgumentsCategory.CONSOLE);
    o.setOutput(text);
    c.output(o);
  }

  private void onStopped(StopEvent e) {
    scopes.clear();
    stoppedWave = e.wave();
    IDebugProtocolClient c = client;
    if (c == null) return;
    StoppedEventArguments a = new StoppedEventArguments();
    a.setReason(reason(e));
    a.setDescription(e.description());
    a.setText(e.description());
    a.setThreadId(e.wave() >= 0 ? e.wave() + 1 : NO_WAVE_THREAD);
    a.setAllThreadsStopped(true);
    Integer[] ids = new Integer[e.hitBreakpoints().length];
    for (int i = 0; i < ids.length; i++) ids[i] = e.hitBreakpoints()[i];
    a.setHitBreakpointIds(ids);
    c.stopped(a);
  }

  private String reason(StopEvent e) {
    switch (e.reason()) {
      case ENTRY: return "entry";
      case WATCHPOINT: return "data breakpoint";
      case STEP: return "step";
      case PAUSE: return "pause";
      case FAULT: return "exception";
      case FINISHED: return "dispatch finished";
      default: break;
    }
    for (BreakpointStatus s : debugger.breakpoints()) {
      if (e.hitBreakpoints().length > 0 && s.id() == e.hitBreakpoints()[0]) {
        if (s.spec() instanceof BreakpointSpec.Function) return "function breakpoint";
        if (s.spec() instanceof BreakpointSpec.Address) return "instruction breakpoint";
      }
    }
    return "breakpoint";
  }

  private static ResponseErrorException error(String message) {
    return new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidRequest, message, null));
  }

  private static <T> CompletableFuture<T> failed(String message) {
    CompletableFuture<T> f = new CompletableFuture<>();
    f.completeExceptionally(error(message));
    return f;
  }

  private static <T> CompletableFuture<T> done(T value) {
    return CompletableFuture.completedFuture(value);
  }

  // ---- session

  @Override
  public CompletableFuture<Capabilities> initialize(InitializeRequestArguments args) {
    deferred = () -> {
      IDebugProtocolClient c = client;
      if (c != null) c.initialized();
    };
    return done(capabilities());
  }

  /** What this adapter supports (the stdio bridge answers {@code initialize} with the same before launch). */
  public static Capabilities capabilities() {
    Capabilities c = new Capabilities();
    c.setSupportsConfigurationDoneRequest(true);
    c.setSupportsFunctionBreakpoints(true);
    c.setSupportsInstructionBreakpoints(true);
    c.setSupportsDataBreakpoints(true);
    c.setSupportsDisassembleRequest(true);
    c.setSupportsReadMemoryRequest(true);
    c.setSupportsSteppingGranularity(true);
    c.setSupportsEvaluateForHovers(true);
    c.setSupportsTerminateRequest(true);
    c.setSupportTerminateDebuggee(true);
    return c;
  }

  /**
   * {@code launch}: the program was started by the front end; this takes the debugging options: {@code stopOnEntry}
   * (stop at every kernel launch) and {@code sourceDirs} (where to look for sources moved since the build).
   */
  @Override
  public CompletableFuture<Void> launch(Map<String, Object> args) {
    Object stop = args.getOrDefault("stopOnEntry", args.get("stopAtKernelEntry"));
    debugger.setStopAtLaunch(Boolean.TRUE.equals(stop) || "true".equals(String.valueOf(stop)));
    Object dirs = args.get("sourceDirs");
    if (dirs instanceof List<?> l) {
      for (Object d : l) if (d != null) sources.add(Path.of(String.valueOf(d)));
    }
    return done(null);
  }

  @Override
  public CompletableFuture<Void> configurationDone(ConfigurationDoneArguments args) {
    configured.countDown();
    return done(null);
  }

  @Override
  public CompletableFuture<Void> disconnect(DisconnectArguments args) {
    deferred = this::disconnected;
    return done(null);
  }

  @Override
  public CompletableFuture<Void> terminate(TerminateArguments args) {
    deferred = this::disconnected;
    return done(null);
  }

  // ---- breakpoints

  @Override
  public CompletableFuture<SetBreakpointsResponse> setBreakpoints(SetBreakpointsArguments args) {
    Source source = args.getSource();
    String file = source.getPath() != null ? source.getPath() : source.getName();
    if (file == null) return failed("setBreakpoints needs a source path or name");
    List<BreakpointSpec.Line> specs = new ArrayList<>();
    if (args.getBreakpoints() != null) {
      for (SourceBreakpoint b : args.getBreakpoints()) specs.add(new BreakpointSpec.Line(file, b.getLine()));
    } else if (args.getLines() != null) {
      for (int l : args.getLines()) specs.add(new BreakpointSpec.Line(file, l));
    }
    SetBreakpointsResponse r = new SetBreakpointsResponse();
    r.setBreakpoints(debugger.setLineBreakpoints(file, specs).stream().map(this::breakpoint)
        .toArray(Breakpoint[]::new));
    return done(r);
  }

  @Override
  public CompletableFuture<SetFunctionBreakpointsResponse> setFunctionBreakpoints(
      SetFunctionBreakpointsArguments args) {
    List<BreakpointSpec.Function> specs = new ArrayList<>();
    for (FunctionBreakpoint b : args.getBreakpoints()) specs.add(functionSpec(b.getName()));
    SetFunctionBreakpointsResponse r = new SetFunctionBreakpointsResponse();
    r.setBreakpoints(debugger.setFunctionBreakpoints(specs).stream().map(this::breakpoint)
        .toArray(Breakpoint[]::new));
    return done(r);
  }

  /** {@code vadd}, {@code vadd+0x10} or {@code vadd+16}. */
  static BreakpointSpec.Function functionSpec(String text) {
    String t = text.strip();
    Matcher m = FUNCTION.matcher(t);
    if (m.matches() && !m.group(1).endsWith("operator")) {
      String off = m.group(2);
      long offset = off.startsWith("0x") ? Long.parseLong(off.substring(2), 16) : Long.parseLong(off);
      return new BreakpointSpec.Function(m.group(1).strip(), offset);
    }
    return new BreakpointSpec.Function(t, 0);
  }

  @Override
  public CompletableFuture<SetInstructionBreakpointsResponse> setInstructionBreakpoints(
      SetInstructionBreakpointsArguments args) {
    List<BreakpointSpec.Address> specs = new ArrayList<>();
    for (InstructionBreakpoint b : args.getBreakpoints()) {
      long pc;
      try {
        pc = parseAddress(b.getInstructionReference()) + (b.getOffset() == null ? 0 : b.getOffset());
      } catch (NumberFormatException e) {
        return failed("instruction reference '" + b.getInstructionReference() + "' is not an address");
      }
      specs.add(new BreakpointSpec.Address(pc));
    }
    SetInstructionBreakpointsResponse r = new SetInstructionBreakpointsResponse();
    r.setBreakpoints(debugger.setInstructionBreakpoints(specs).stream().map(this::breakpoint)
        .toArray(Breakpoint[]::new));
    return done(r);
  }

  static long parseAddress(String s) {
    String t = s.strip().toLowerCase(Locale.ROOT);
    return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
  }

  @Override
  public CompletableFuture<DataBreakpointInfoResponse> dataBreakpointInfo(DataBreakpointInfoArguments args) {
    DataBreakpointInfoResponse r = new DataBreakpointInfoResponse();
    String name = args.getName();
    if (name == null) return failed("dataBreakpointInfo needs a name (an address or expression)");
    int bytes = args.getBytes() == null ? 4 : args.getBytes();
    try {
      Evaluator.Address a;
      if (args.getVariablesReference() != null && name.startsWith("0x") && !name.contains(":")) {
        a = new Evaluator.Address(AddressSpace.LDS, parseAddress(name), 0); // a row of the LDS scope
      } else {
        Integer frame = args.getFrameId();
        a = debugger.isStopped() ? debugger.inspect(v -> evaluator(v, frame).address(name)) : staticAddress(name);
      }
      if (a.space() == AddressSpace.PRIVATE) {
        r.setDescription("private memory cannot be watched");
        return done(r);
      }
      BreakpointSpec.Watch w = new BreakpointSpec.Watch(a.space(), a.address(), Math.max(1, Math.min(8, bytes)),
          WatchKind.WRITE);
      r.setDataId(w.dataId());
      r.setDescription(w.dataId());
      r.setAccessTypes(new DataBreakpointAccessType[] {DataBreakpointAccessType.WRITE,
          DataBreakpointAccessType.READ, DataBreakpointAccessType.READ_WRITE});
      r.setCanPersist(true);
      return done(r);
    } catch (DebugException | NumberFormatException e) {
      r.setDescription(e.getMessage());
      return done(r);
    }
  }

  /** An address given without registers (the program need not be stopped): {@code global:0x…}, {@code lds:16}. */
  private static Evaluator.Address staticAddress(String text) throws DebugException {
    Matcher m = Pattern.compile("(global|lds):(0x[0-9a-fA-F]+|\\d+)").matcher(text.strip());
    if (m.matches()) {
      return new Evaluator.Address(AddressSpace.valueOf(m.group(1).toUpperCase(Locale.ROOT)), parseAddress(m.group(2)),
          0);
    }
    if (text.strip().matches("0x[0-9a-fA-F]+|\\d+")) {
      return new Evaluator.Address(AddressSpace.GLOBAL, parseAddress(text), 0);
    }
    throw new DebugException("while the program runs, watch a number (global:0x…, lds:N); registers need a stop");
  }

  @Override
  public CompletableFuture<SetDataBreakpointsResponse> setDataBreakpoints(SetDataBreakpointsArguments args) {
    List<BreakpointSpec.Watch> specs = new ArrayList<>();
    for (DataBreakpoint b : args.getBreakpoints()) {
      Matcher m = DATA_ID.matcher(b.getDataId());
      if (!m.matches()) return failed("data breakpoint id '" + b.getDataId() + "' is not SPACE:0xADDRESS/BYTES");
      WatchKind kind = b.getAccessType() == null ? WatchKind.WRITE : switch (b.getAccessType()) {
        case READ -> WatchKind.READ;
        case READ_WRITE -> WatchKind.ACCESS;
        default -> WatchKind.WRITE;
      };
      int length = Integer.parseInt(m.group(3));
      if (length < 1 || length > 8) return failed("watch 1 to 8 bytes, not " + length);
      specs.add(new BreakpointSpec.Watch(AddressSpace.valueOf(m.group(1).toUpperCase(Locale.ROOT)),
          Long.parseUnsignedLong(m.group(2), 16), length, kind));
    }
    SetDataBreakpointsResponse r = new SetDataBreakpointsResponse();
    r.setBreakpoints(debugger.setWatchpoints(specs).stream().map(this::breakpoint).toArray(Breakpoint[]::new));
    return done(r);
  }

  @Override
  public CompletableFuture<SetExceptionBreakpointsResponse> setExceptionBreakpoints(
      SetExceptionBreakpointsArguments args) {
    return done(new SetExceptionBreakpointsResponse());
  }

  private Breakpoint breakpoint(BreakpointStatus s) {
    Breakpoint b = new Breakpoint();
    b.setId(s.id());
    b.setVerified(s.verified());
    if (s.message() != null) b.setMessage(s.message());
    else if (s.location() != null) b.setMessage(s.location());
    if (!s.addresses().isEmpty()) b.setInstructionReference(String.format("0x%x", s.addresses().get(0)));
    if (s.verified() && !s.addresses().isEmpty()) {
      debugger.code().lineAt(s.addresses().get(0)).ifPresent(l -> {
        b.setSource(source(l));
        b.setLine(l.line());
      });
    }
    return b;
  }

  private Source source(SourceLine l) {
    Source src = new Source();
    src.setName(l.fileName());
    src.setPath(sources.resolve(l.path()).map(Path::toString).orElse(l.path()));
    return src;
  }

  // ---- execution

  private CompletableFuture<Void> resumeLater(Resume r) {
    if (r.kind() != Resume.Kind.CONTINUE && r.kind() != Resume.Kind.FINISH) {
      try {
        String problem = debugger.inspect(v -> {
          if (v.stop() != null && v.stop().reason() == StopEvent.Reason.FINISHED) return "the dispatch has finished";
          Wave w = v.wave(r.wave());
          return w.status == WaveStatus.DONE ? "wave " + r.wave() + " has ended" : null;
        });
        if (problem != null) return failed(problem);
      } catch (DebugException e) {
        return failed(e.getMessage());
      }
    } else if (!debugger.isStopped()) {
      return failed("the program is not stopped");
    }
    deferred = () -> {
      try {
        scopes.clear();
        debugger.resume(r);
      } catch (DebugException e) {
        output("hipsim debugger: " + e.getMessage() + "\n");
      }
    };
    return done(null);
  }

  @Override
  public CompletableFuture<ContinueResponse> continue_(ContinueArguments args) {
    return resumeLater(Resume.proceed()).thenApply(v -> {
      ContinueResponse r = new ContinueResponse();
      r.setAllThreadsContinued(true);
      return r;
    });
  }

  /** {@code next}: one instruction of the wave; a source line (over calls) when it has line tables. */
  @Override
  public CompletableFuture<Void> next(NextArguments args) {
    int wave = args.getThreadId() - 1;
    return resumeLater(args.getGranularity() == SteppingGranularity.INSTRUCTION ? Resume.stepInstruction(wave, 1)
        : Resume.nextLine(wave));
  }

  /** {@code stepIn}: one instruction; a source line into called functions when the code has line tables. */
  @Override
  public CompletableFuture<Void> stepIn(StepInArguments args) {
    int wave = args.getThreadId() - 1;
    return resumeLater(args.getGranularity() == SteppingGranularity.INSTRUCTION ? Resume.stepInstruction(wave, 1)
        : Resume.stepLine(wave));
  }

  /** {@code stepOut}: a kernel has no caller to return to; it runs the dispatch to its end (the console's finish). */
  @Override
  public CompletableFuture<Void> stepOut(StepOutArguments args) {
    return resumeLater(Resume.finish());
  }

  @Override
  public CompletableFuture<Void> pause(PauseArguments args) {
    debugger.pause();
    return done(null);
  }

  // ---- state

  @Override
  public CompletableFuture<ThreadsResponse> threads() {
    ThreadsResponse r = new ThreadsResponse();
    List<Thread> threads = new ArrayList<>();
    if (debugger.isStopped()) {
      try {
        threads = debugger.inspect(v -> {
          List<Thread> out = new ArrayList<>();
          for (Wave w : v.waves()) {
            Thread t = new Thread();
            t.setId(v.number(w) + 1);
            t.setName(String.format("wave %d: workgroup (%d,%d,%d) wave %d, %s, pc 0x%x", v.number(w), w.workgroupX,
                w.workgroupY, w.workgroupZ, w.waveInGroup, status(w), w.pc));
            out.add(t);
          }
          return out;
        });
      } catch (DebugException e) {
        threads = new ArrayList<>();
      }
    }
    if (threads.isEmpty()) {
      Thread t = new Thread();
      t.setId(NO_WAVE_THREAD);
      t.setName(debugger.isStopped() ? "GPU (no waves)" : "GPU");
      threads.add(t);
    }
    r.setThreads(threads.toArray(new Thread[0]));
    return done(r);
  }

  private static String status(Wave w) {
    switch (w.status) {
      case AT_BARRIER: return "at barrier";
      case SLEEPING: return "sleeping";
      case DONE: return "done";
      default: return "running";
    }
  }

  @Override
  public CompletableFuture<StackTraceResponse> stackTrace(StackTraceArguments args) {
    StackTraceResponse r = new StackTraceResponse();
    if (args.getThreadId() == NO_WAVE_THREAD) {
      r.setStackFrames(new StackFrame[0]);
      r.setTotalFrames(0);
      return done(r);
    }
    int wave = args.getThreadId() - 1;
    try {
      StackFrame f = debugger.inspect(v -> {
        Wave w = v.wave(wave);
        StackFrame frame = new StackFrame();
        frame.setId(args.getThreadId());
        String text;
        try {
          text = Disassembly.line(v, w.pc).text();
        } catch (DebugException e) {
          text = "(unreadable)";
        }
        frame.setName(v.code().describe(w.pc) + ": " + (w.status == WaveStatus.DONE ? "(ended)" : text));
        frame.setInstructionPointerReference(String.format("0x%x", w.pc));
        SourceLine l = v.code().lineAt(w.pc).orElse(null);
        if (l != null) {
          frame.setSource(source(l));
          frame.setLine(l.line());
          frame.setColumn(Math.max(1, l.column()));
        }
        return frame;
      });
      r.setStackFrames(new StackFrame[] {f});
      r.setTotalFrames(1);
      return done(r);
    } catch (DebugException e) {
      return failed(e.getMessage());
    }
  }

  @Override
  public CompletableFuture<ScopesResponse> scopes(ScopesArguments args) {
    try {
      List<Scope> list = debugger.inspect(v -> scopes.scopes(v, args.getFrameId() - 1));
      ScopesResponse r = new ScopesResponse();
      r.setScopes(list.toArray(new Scope[0]));
      return done(r);
    } catch (DebugException e) {
      return failed(e.getMessage());
    }
  }

  @Override
  public CompletableFuture<VariablesResponse> variables(VariablesArguments args) {
    try {
      VariableScopes.Container c = scopes.get(args.getVariablesReference());
      List<org.eclipse.lsp4j.debug.Variable> all = debugger.inspect(c::variables);
      int start = args.getStart() == null ? 0 : Math.min(all.size(), args.getStart());
      int end = args.getCount() == null || args.getCount() == 0 ? all.size()
          : Math.min(all.size(), start + args.getCount());
      VariablesResponse r = new VariablesResponse();
      r.setVariables(all.subList(start, end).toArray(new org.eclipse.lsp4j.debug.Variable[0]));
      return done(r);
    } catch (DebugException e) {
      return failed(e.getMessage());
    }
  }

  private Evaluator evaluator(DispatchView v, Integer frameId) throws DebugException {
    int wave = frameId != null && frameId != NO_WAVE_THREAD ? frameId - 1 : stoppedWave;
    Wave w = wave >= 0 ? v.wave(wave) : null;
    return new Evaluator(v, w, 0);
  }

  /** {@code evaluate}: the console's expressions ({@code v3[5]}, {@code s[4:5]} …) and commands ({@code x/4x …}). */
  @Override
  public CompletableFuture<EvaluateResponse> evaluate(EvaluateArguments args) {
    String command = args.getExpression().strip();
    if (command.equals("catch launch") || command.equals("catch launch off")) {
      // the console's catchpoint: stop at every kernel launch (DAP's stopOnEntry, changeable at any time)
      boolean on = command.equals("catch launch");
      debugger.setStopAtLaunch(on);
      EvaluateResponse r = new EvaluateResponse();
      r.setResult(on ? "Catchpoint: stop at every kernel launch." : "No longer stopping at kernel launches.");
      return done(r);
    }
    try {
      String text = debugger.inspect(v -> evaluator(v, args.getFrameId()).run(args.getExpression()));
      // Outside the debug console (watch, hover) an expression shows its value alone; a command its whole output.
      String expr = args.getExpression().strip().replaceFirst("^(print|p)(/\\w+)?\\s+", "");
      if (text.startsWith(expr + " = ") && !"repl".equals(args.getContext())) text = text.substring(expr.length() + 3);
      EvaluateResponse r = new EvaluateResponse();
      r.setResult(text);
      r.setVariablesReference(0);
      return done(r);
    } catch (DebugException e) {
      return failed(e.getMessage());
    }
  }

  @Override
  public CompletableFuture<ReadMemoryResponse> readMemory(ReadMemoryArguments args) {
    try {
      ReadMemoryResponse r = debugger.inspect(v -> {
        Evaluator.Address a = evaluator(v, null).address(args.getMemoryReference());
        long at = a.address() + (args.getOffset() == null ? 0 : args.getOffset());
        Wave w = stoppedWave >= 0 ? v.wave(stoppedWave) : null;
        byte[] bytes;
        try {
          bytes = v.read(a.space(), w, a.lane(), at, args.getCount());
        } catch (DebugException unreadable) {
          bytes = new byte[0];
        }
        ReadMemoryResponse out = new ReadMemoryResponse();
        out.setAddress(String.format("0x%x", at));
        out.setData(Base64.getEncoder().encodeToString(bytes));
        out.setUnreadableBytes(args.getCount() - bytes.length);
        return out;
      });
      return done(r);
    } catch (DebugException e) {
      return failed(e.getMessage());
    }
  }

  @Override
  public CompletableFuture<DisassembleResponse> disassemble(DisassembleArguments args) {
    try {
      List<DisassembledInstruction> list = debugger.inspect(v -> {
        long pc = parseAddress(args.getMemoryReference()) + (args.getOffset() == null ? 0 : args.getOffset());
        int skip = args.getInstructionOffset() == null ? 0 : args.getInstructionOffset();
        int count = args.getInstructionCount();
        List<Disassembly.Line> lines = new ArrayList<>();
        int padding = 0;
        if (skip < 0) {
          List<Disassembly.Line> before = Disassembly.before(v, pc, -skip);
          padding = -skip - before.size();
          lines.addAll(before);
          lines.addAll(Disassembly.from(v, pc, Math.max(0, count + skip)));
        } else {
          List<Disassembly.Line> from = Disassembly.from(v, pc, skip + count);
          lines.addAll(from.subList(Math.min(skip, from.size()), from.size()));
        }
        List<DisassembledInstruction> out = new ArrayList<>();
        long first = lines.isEmpty() ? pc : lines.get(0).address();
        for (int i = padding; i > 0; i--) out.add(invalid(first - 4L * i));
        for (Disassembly.Line l : lines) {
          if (out.size() >= count) break;
          DisassembledInstruction d = new DisassembledInstruction();
          d.setAddress(String.format("0x%x", l.address()));
          d.setInstructionBytes(l.bytes());
          d.setInstruction(l.text());
          d.setSymbol(l.symbol());
          if (l.source() != null) {
            d.setLocation(source(l.source()));
            d.setLine(l.source().line());
          }
          out.add(d);
        }
        long last = lines.isEmpty() ? pc : lines.get(lines.size() - 1).address() + 4;
        while (out.size() < count) out.add(invalid(last += 4));
        return out;
      });
      DisassembleResponse r = new DisassembleResponse();
      r.setInstructions(list.toArray(new DisassembledInstruction[0]));
      return done(r);
    } catch (DebugException | NumberFormatException e) {
      return failed(e.getMessage());
    }
  }

  private static DisassembledInstruction invalid(long address) {
    DisassembledInstruction d = new DisassembledInstruction();
    d.setAddress(String.format("0x%x", address));
    d.setInstruction("??");
    d.setPresentationHint(DisassembledInstructionPresentationHint.INVALID);
    return d;
  }
}
