package dev.hipsim.cli;

import dev.hipsim.cli.debug.DebugConsole;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.Completer;
import org.jline.reader.impl.completer.AggregateCompleter;
import org.jline.reader.impl.completer.ArgumentCompleter;
import org.jline.reader.impl.completer.NullCompleter;
import org.jline.reader.impl.completer.StringsCompleter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hipsim debug [--device …] [--source-dir DIR] -- PROGRAM [ARGS…]}: the kernel debugger's console. Commands
 * come from a JLine terminal (history, completion) or, when stdin is not a terminal, one per line with no prompts.
 */
@Command(name = "debug", mixinStandardHelpOptions = true,
    description = "Debug the kernels of an unmodified HIP program: breakpoints, steps, every lane of every register.")
final class DebugCommand implements Callable<Integer> {
  @Option(names = "--device", paramLabel = "gfx90a|gfx940|gfx942",
      description = "Simulated GPU: gfx90a (AMD Instinct MI210), gfx940 (AMD Instinct MI300A) or gfx942 (AMD "
          + "Instinct MI300X). Default: one the program has code for, gfx90a first.")
  String device;

  @Option(names = "--source-dir", paramLabel = "DIR",
      description = "Where to look for sources moved since the build (repeatable).")
  List<Path> sourceDirs = new ArrayList<>();

  @Parameters(index = "0", paramLabel = "PROGRAM", description = "The HIP program (a host executable built by hipcc).")
  String program;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments passed to the program unchanged.")
  List<String> arguments = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env = RunCommand.programEnvironment(spec, device, program, false);
    boolean terminal = System.console() != null;
    List<String> command = new ArrayList<>();
    // In a terminal the program runs in a session of its own, so that Ctrl-C pauses it instead of killing it.
    if (terminal && Files.isExecutable(Paths.get("/usr/bin/setsid"))) command.add("/usr/bin/setsid");
    command.add(program);
    command.addAll(arguments);
    DebugConsole.Program p = new DebugConsole.Program(command, env, sourceDirs, terminal);
    if (!terminal) {
      PrintWriter out = spec.commandLine().getOut();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      return new DebugConsole(out, p).run(prompt -> in.readLine());
    }
    try (Terminal t = TerminalBuilder.builder().system(true).build()) {
      LineReader reader = LineReaderBuilder.builder().terminal(t).appName("hipsim")
          .completer(completer())
          .variable(LineReader.HISTORY_FILE, Paths.get(System.getProperty("user.home"), ".hipsim_debug_history"))
          .build();
      PrintWriter out = t.writer();
      out.println("hipsim debug: " + program + " (type help for the commands)");
      return new DebugConsole(out, p).run(prompt -> {
        while (true) {
          try {
            return reader.readLine(prompt);
          } catch (UserInterruptException e) {
            // Ctrl-C at the prompt: a new line, as gdb does
          } catch (EndOfFileException e) {
            return null;
          }
        }
      });
    }
  }

  /** Command names, then what each takes: info's topics, register groups, register and address-space names. */
  private static Completer completer() {
    StringsCompleter registers = new StringsCompleter("exec", "vcc", "scc", "m0", "mode", "status", "trapsts", "pc",
        "flat_scratch", "s0", "s[0:1]", "v0", "v0[0]", "v[0:1]", "a0", "global:", "lds:", "private:");
    List<Completer> all = new ArrayList<>();
    all.add(new ArgumentCompleter(new StringsCompleter("info", "i"),
        new StringsCompleter("breakpoints", "waves", "registers"), new StringsCompleter("sgpr", "vgpr", "agpr",
            "special"), NullCompleter.INSTANCE));
    for (String c : List.of("print", "p", "x/4x", "x/4d", "x/4f", "x/8i", "watch", "rwatch", "awatch",
        "disassemble")) {
      all.add(new ArgumentCompleter(new StringsCompleter(c), registers, NullCompleter.INSTANCE));
    }
    all.add(new ArgumentCompleter(new StringsCompleter("break", "delete", "run", "continue", "stepi", "next", "step",
        "finish", "wave", "lane", "list", "help", "quit"), NullCompleter.INSTANCE));
    return new AggregateCompleter(all);
  }
}
