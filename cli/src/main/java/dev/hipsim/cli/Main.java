package dev.hipsim.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hipsim} command: one subcommand per tool. */
@Command(
    name = "hipsim",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "A software GPU for AMD's ROCm: run, inspect and debug HIP programs without an AMD GPU.",
    subcommands = {InspectCommand.class, ExtractCommand.class, DisasmCommand.class, RunCommand.class,
        DebugCommand.class, DapCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit status: 0 success, 1 bad input, 2 bad usage. */
  public static int run(String... args) {
    // Reports can run to hundreds of megabytes: buffer stdout instead of flushing every line.
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8),
        1 << 16), false);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    return run(out, err, args);
  }

  /** Runs the command line with the given output streams (flushed before returning). */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler(new ErrorReporter());
    // Everything after the program name belongs to the program, options included.
    cli.getSubcommands().get("run").setStopAtPositional(true);
    cli.getSubcommands().get("debug").setStopAtPositional(true);
    try {
      return cli.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
