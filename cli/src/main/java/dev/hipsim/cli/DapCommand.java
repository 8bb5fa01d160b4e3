package dev.hipsim.cli;

import dev.hipsim.cli.debug.DapBridge;
import dev.hipsim.cli.debug.DebugConsole;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code hipsim dap}: a Debug Adapter Protocol server on stdio for editors (VS Code's launch.json {@code
 * debugServer}-less "executable" adapters). The launch request names the program ({@code program}, {@code args},
 * {@code device}, {@code cwd}, {@code stopOnEntry} for a stop at every kernel launch, {@code sourceDirs}).
 */
@Command(name = "dap", mixinStandardHelpOptions = true,
    description = "Serve the Debug Adapter Protocol on stdio (for VS Code and other editors).")
final class DapCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // stdout carries the protocol only: anything else printed by accident goes to stderr.
    PrintStream protocol = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)), false);
    System.setOut(System.err);
    DapBridge bridge = new DapBridge(new BufferedInputStream(System.in), protocol, this::program);
    return bridge.serve();
  }

  private DebugConsole.Program program(Map<String, Object> args) throws IOException {
    List<String> command = DapBridge.command(args);
    Object device = args.get("device");
    Map<String, String> env;
    try {
      env = RunCommand.programEnvironment(spec, device == null ? null : String.valueOf(device), command.get(0), false);
    } catch (InputException | RuntimeException e) {
      throw new IOException(e.getMessage());
    }
    List<Path> sources = new ArrayList<>();
    Object dirs = args.get("sourceDirs");
    if (dirs instanceof List<?> l) for (Object d : l) sources.add(Path.of(String.valueOf(d)));
    Object extra = args.get("env");
    if (extra instanceof Map<?, ?> m) {
      Map<String, String> merged = new java.util.HashMap<>(env);
      for (Map.Entry<?, ?> e : m.entrySet()) merged.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
      env = merged;
    }
    return new DebugConsole.Program(command, env, sources, false);
  }
}
