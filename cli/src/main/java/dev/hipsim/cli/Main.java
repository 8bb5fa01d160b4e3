package dev.hipsim.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hipsim} command: one subcommand per tool. */
@Command(
    name = "hipsim",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "A software GPU for AMD's ROCm: run, inspect and debug HIP programs without an AMD GPU.",
    subcommands = {InspectCommand.class, RunCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit status: 0 success, 1 bad input, 2 bad usage. */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler(new ErrorReporter());
    // Everything after the program name belongs to the program, options included.
    cli.getSubcommands().get("run").setStopAtPositional(true);
    return cli.execute(args);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}
