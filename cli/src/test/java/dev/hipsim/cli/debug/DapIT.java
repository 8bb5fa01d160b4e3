package dev.hipsim.cli.debug;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.cli.PackagedHipsim;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.debug.Capabilities;
import org.eclipse.lsp4j.debug.ContinueArguments;
import org.eclipse.lsp4j.debug.DataBreakpoint;
import org.eclipse.lsp4j.debug.DataBreakpointAccessType;
import org.eclipse.lsp4j.debug.DataBreakpointInfoArguments;
import org.eclipse.lsp4j.debug.DisassembleArguments;
import org.eclipse.lsp4j.debug.DisassembledInstruction;
import org.eclipse.lsp4j.debug.DisconnectArguments;
import org.eclipse.lsp4j.debug.EvaluateArguments;
import org.eclipse.lsp4j.debug.ExitedEventArguments;
import org.eclipse.lsp4j.debug.FunctionBreakpoint;
import org.eclipse.lsp4j.debug.InitializeRequestArguments;
import org.eclipse.lsp4j.debug.InstructionBreakpoint;
import org.eclipse.lsp4j.debug.NextArguments;
import org.eclipse.lsp4j.debug.OutputEventArguments;
import org.eclipse.lsp4j.debug.ReadMemoryArguments;
import org.eclipse.lsp4j.debug.Scope;
import org.eclipse.lsp4j.debug.ScopesArguments;
import org.eclipse.lsp4j.debug.SetDataBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetFunctionBreakpointsArguments;
import org.eclipse.lsp4j.debug.SetInstructionBreakpointsArguments;
import org.eclipse.lsp4j.debug.StackFrame;
import org.eclipse.lsp4j.debug.StackTraceArguments;
import org.eclipse.lsp4j.debug.StepOutArguments;
import org.eclipse.lsp4j.debug.SteppingGranularity;
import org.eclipse.lsp4j.debug.StoppedEventArguments;
import org.eclipse.lsp4j.debug.TerminatedEventArguments;
import org.eclipse.lsp4j.debug.Variable;
import org.eclipse.lsp4j.debug.VariablesArguments;
import org.eclipse.lsp4j.debug.launch.DSPLauncher;
import org.eclipse.lsp4j.debug.services.IDebugProtocolClient;
import org.eclipse.lsp4j.debug.services.IDebugProtocolServer;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code hipsim dap} driven by an lsp4j client over its stdio, as VS Code drives it. */
class DapIT {
  static final class Client implements IDebugProtocolClient {
    final CountDownLatch initialized = new CountDownLatch(1);
    final BlockingQueue<StoppedEventArguments> stops = new LinkedBlockingQueue<>();
    final StringBuffer output = new StringBuffer();
    final BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
    final CountDownLatch terminated = new CountDownLatch(1);

    @Override
    public void initialized() {
      initialized.countDown();
    }

    @Override
    public void stopped(StoppedEventArguments args) {
      stops.add(args);
    }

    @Override
    public void output(OutputEventArguments args) {
      output.append(args.getOutput());
    }

    @Override
    public void exited(ExitedEventArguments args) {
      exits.add(args.getExitCode());
    }

    @Override
    public void terminated(TerminatedEventArguments args) {
      terminated.countDown();
    }
  }

  private Process adapter;
  private IDebugProtocolServer server;
  private Client client;

  @BeforeAll
  static void built() {
    PackagedHipsim.assumeBuilt();
  }

  @AfterEach
  void stop() throws Exception {
    if (adapter != null) {
      adapter.descendants().forEach(ProcessHandle::destroyForcibly);
      adapter.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void start(Map<String, Object> launch) throws Exception {
    adapter = PackagedHipsim.command("dap").redirectError(ProcessBuilder.Redirect.INHERIT).start();
    client = new Client();
    Launcher<IDebugProtocolServer> l = DSPLauncher.createClientLauncher(client, adapter.getInputStream(),
        adapter.getOutputStream());
    l.startListening();
    server = l.getRemoteProxy();
    InitializeRequestArguments init = new InitializeRequestArguments();
    init.setAdapterID("hipsim");
    init.setLinesStartAt1(true);
    Capabilities caps = server.initialize(init).get(30, TimeUnit.SECONDS);
    assertThat(caps.getSupportsFunctionBreakpoints()).isTrue();
    assertThat(caps.getSupportsInstructionBreakpoints()).isTrue();
    assertThat(caps.getSupportsDataBreakpoints()).isTrue();
    assertThat(caps.getSupportsDisassembleRequest()).isTrue();
    assertThat(caps.getSupportsReadMemoryRequest()).isTrue();
    server.launch(launch).get(60, TimeUnit.SECONDS);
    assertThat(client.initialized.await(60, TimeUnit.SECONDS)).isTrue();
  }

  private StoppedEventArguments stopped() throws Exception {
    StoppedEventArguments s = client.stops.poll(60, TimeUnit.SECONDS);
    assertThat(s).as("a stopped event; output so far: " + client.output).isNotNull();
    return s;
  }

  private StackFrame frame(int thread) throws Exception {
    StackTraceArguments a = new StackTraceArguments();
    a.setThreadId(thread);
    StackFrame[] f = server.stackTrace(a).get(30, TimeUnit.SECONDS).getStackFrames();
    assertThat(f).hasSize(1);
    return f[0];
  }

  private String evaluate(String expression, int frame) throws Exception {
    EvaluateArguments a = new EvaluateArguments();
    a.setExpression(expression);
    a.setFrameId(frame);
    a.setContext("watch");
    return server.evaluate(a).get(30, TimeUnit.SECONDS).getResult();
  }

  private void stepInstruction(int thread) throws Exception {
    NextArguments n = new NextArguments();
    n.setThreadId(thread);
    n.setGranularity(SteppingGranularity.INSTRUCTION);
    server.next(n).get(30, TimeUnit.SECONDS);
    assertThat(stopped().getReason()).isEqualTo("step");
  }

  private void proceed(int thread) throws Exception {
    ContinueArguments c = new ContinueArguments();
    c.setThreadId(thread);
    assertThat(server.continue_(c).get(30, TimeUnit.SECONDS).getAllThreadsContinued()).isTrue();
  }

  private List<Variable> variables(int reference) throws Exception {
    VariablesArguments a = new VariablesArguments();
    a.setVariablesReference(reference);
    return Arrays.asList(server.variables(a).get(30, TimeUnit.SECONDS).getVariables());
  }

  @Test
  void debugsVectorAddThroughTheProtocol() throws Exception {
    start(Map.of("program", Corpus.root().resolve("gfx90a-v4/vector_add").toString(), "device", "gfx90a"));
    SetFunctionBreakpointsArguments fb = new SetFunctionBreakpointsArguments();
    FunctionBreakpoint vadd = new FunctionBreakpoint();
    vadd.setName("_Z4vaddPKfS0_Pfi");
    fb.setBreakpoints(new FunctionBreakpoint[] {vadd});
    var set = server.setFunctionBreakpoints(fb).get(30, TimeUnit.SECONDS).getBreakpoints();
    assertThat(set[0].isVerified()).isFalse(); // the code object loads at the first launch
    server.configurationDone(null).get(30, TimeUnit.SECONDS);

    StoppedEventArguments first = stopped();
    assertThat(first.getReason()).isEqualTo("function breakpoint");
    assertThat(first.getThreadId()).isEqualTo(1);
    assertThat(first.getHitBreakpointIds()).containsExactly(set[0].getId());
    assertThat(server.threads().get(30, TimeUnit.SECONDS).getThreads()).extracting(t -> t.getName())
        .first().asString().startsWith("wave 0: workgroup (0,0,0) wave 0, running, pc 0x");
    StackFrame entry = frame(1);
    assertThat(entry.getName()).isEqualTo("vadd+0x0: s_load_dword s0, s[4:5], 0x4");

    ScopesArguments sa = new ScopesArguments();
    sa.setFrameId(entry.getId());
    Scope[] scopes = server.scopes(sa).get(30, TimeUnit.SECONDS).getScopes();
    assertThat(scopes).extracting(Scope::getName).containsExactly("Special registers", "SGPRs", "VGPRs (64 lanes)");
    assertThat(variables(scopes[0].getVariablesReference())).extracting(Variable::getName)
        .contains("pc", "exec", "vcc", "scc", "m0", "mode", "status", "trapsts");
    Variable v0 = variables(scopes[2].getVariablesReference()).get(0);
    assertThat(v0.getName()).isEqualTo("v0");
    List<Variable> lanes = variables(v0.getVariablesReference());
    assertThat(lanes).hasSize(64);
    assertThat(lanes.get(5).getName()).isEqualTo("[5]");
    assertThat(lanes.get(5).getValue()).isEqualTo("0x00000005");
    assertThat(evaluate("v0[5]", entry.getId())).isEqualTo("0x00000005 (5)");

    for (int i = 0; i < 31; i++) stepInstruction(1);
    StackFrame store = frame(1);
    assertThat(store.getName()).isEqualTo("vadd+0xa0: global_store_dword v[0:1], v2, off");
    DisassembleArguments da = new DisassembleArguments();
    da.setMemoryReference(store.getInstructionPointerReference());
    da.setInstructionOffset(-2);
    da.setInstructionCount(4);
    DisassembledInstruction[] around = server.disassemble(da).get(30, TimeUnit.SECONDS).getInstructions();
    assertThat(around).extracting(DisassembledInstruction::getInstruction).containsExactly(
        "s_waitcnt vmcnt(0)", "v_add_f32_e32 v2, v6, v7", "global_store_dword v[0:1], v2, off", "s_endpgm");
    stepInstruction(1);

    long c5 = Long.decode(evaluate("print/x v[0:1][5]", 1));
    ReadMemoryArguments rm = new ReadMemoryArguments();
    rm.setMemoryReference(String.format("global:0x%x", c5));
    rm.setCount(4);
    byte[] bytes = Base64.getDecoder().decode(server.readMemory(rm).get(30, TimeUnit.SECONDS).getData());
    assertThat(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getFloat()).isEqualTo(2.25f);
    assertThat(evaluate("x/f global:v[0:1][5]", 1)).isEqualTo(String.format("global:0x%x:\t2.25", c5));

    // c[300] is written by wave 4 (workgroup 1, its first wave, lane 44)
    DataBreakpointInfoArguments info = new DataBreakpointInfoArguments();
    info.setName(String.format("global:0x%x", c5 - 20 + 1200));
    String dataId = server.dataBreakpointInfo(info).get(30, TimeUnit.SECONDS).getDataId();
    assertThat(dataId).isEqualTo(String.format("global:0x%x/4", c5 - 20 + 1200));
    DataBreakpoint watch = new DataBreakpoint();
    watch.setDataId(dataId);
    watch.setAccessType(DataBreakpointAccessType.WRITE);
    SetDataBreakpointsArguments db = new SetDataBreakpointsArguments();
    db.setBreakpoints(new DataBreakpoint[] {watch});
    assertThat(server.setDataBreakpoints(db).get(30, TimeUnit.SECONDS).getBreakpoints()[0].isVerified()).isTrue();
    fb.setBreakpoints(new FunctionBreakpoint[0]);
    server.setFunctionBreakpoints(fb).get(30, TimeUnit.SECONDS);
    proceed(1);
    StoppedEventArguments written = stopped();
    assertThat(written.getReason()).isEqualTo("data breakpoint");
    assertThat(written.getThreadId()).isEqualTo(5);
    assertThat(written.getDescription()).endsWith(String.format("global:0x%x written: old 0x00000000, new 0x42980000",
        c5 - 20 + 1200));

    db.setBreakpoints(new DataBreakpoint[0]);
    server.setDataBreakpoints(db).get(30, TimeUnit.SECONDS);
    InstructionBreakpoint ib = new InstructionBreakpoint();
    ib.setInstructionReference(store.getInstructionPointerReference());
    SetInstructionBreakpointsArguments ia = new SetInstructionBreakpointsArguments();
    ia.setBreakpoints(new InstructionBreakpoint[] {ib});
    server.setInstructionBreakpoints(ia).get(30, TimeUnit.SECONDS);
    proceed(5);
    StoppedEventArguments atStore = stopped();
    assertThat(atStore.getReason()).isEqualTo("instruction breakpoint");
    assertThat(atStore.getThreadId()).isEqualTo(6);
    ia.setBreakpoints(new InstructionBreakpoint[0]);
    server.setInstructionBreakpoints(ia).get(30, TimeUnit.SECONDS);

    proceed(6);
    assertThat(client.exits.poll(60, TimeUnit.SECONDS)).isZero();
    assertThat(client.terminated.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(client.output.toString()).contains("vector_add n=100000\nPASSED\n");
    server.disconnect(new DisconnectArguments()).get(30, TimeUnit.SECONDS);
    assertThat(adapter.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(adapter.exitValue()).isZero();
  }

  @Test
  void stopsAtKernelEntryAndFinishesTheDispatch() throws Exception {
    start(Map.of("program", Corpus.root().resolve("gfx90a-debug/vector_add").toString(), "stopOnEntry", true,
        "sourceDirs", List.of(Corpus.root().resolve("src").toString())));
    server.configurationDone(null).get(30, TimeUnit.SECONDS);
    StoppedEventArguments entry = stopped();
    assertThat(entry.getReason()).isEqualTo("entry");
    assertThat(entry.getDescription()).isEqualTo("kernel launch: vadd (grid 100096x1x1, workgroup 256x1x1)");
    StackFrame f = frame(entry.getThreadId());
    assertThat(f.getSource().getPath()).endsWith("testdata/src/vector_add.hip");
    assertThat(f.getLine()).isEqualTo(5);
    StepOutArguments out = new StepOutArguments();
    out.setThreadId(entry.getThreadId());
    server.stepOut(out).get(30, TimeUnit.SECONDS);
    StoppedEventArguments finished = stopped();
    assertThat(finished.getReason()).isEqualTo("dispatch finished");
    assertThat(finished.getDescription()).startsWith("dispatch 1 of vadd finished: 1564 waves, ");
    assertThat(server.threads().get(30, TimeUnit.SECONDS).getThreads()).extracting(t -> t.getName())
        .containsExactly("GPU (no waves)");
    proceed(finished.getThreadId());
    assertThat(client.exits.poll(60, TimeUnit.SECONDS)).isZero();
    assertThat(client.output.toString()).contains("PASSED");
  }
}
