package dev.hipsim.cli;

import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.device.ProgramDevices;
import dev.hipsim.hip.runtime.RuntimeConfig;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hipsim run [--device gfx90a|gfx940|gfx942] [--stats] -- PROGRAM [ARGS…]}: runs an unmodified HIP program
 * with hipsim's libamdhip64 first on its library path, so the HIP runtime it talks to is hipsim's (a JVM inside the
 * program). Without {@code --device} (or HIPSIM_DEVICE) the device is chosen from the targets the program's code
 * objects name ({@link ProgramDevices}). The program inherits stdin, stdout and stderr; hipsim exits with the
 * program's status (134 after a GPU memory fault, which aborts the program as on hardware).
 *
 * <p>bin/hipsim starts the program itself, without this JVM, when the command line and the program are plainly
 * fine; this command handles everything else, and every error message.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run an unmodified HIP program on the simulated GPU; exits with the program's status.")
final class RunCommand implements Callable<Integer> {
  /** Where the build puts libamdhip64.so.{5,6,7}, relative to the hipsim checkout. */
  static final String NATIVE_DIR = "hip-runtime/target/native";
  /** Exit status when the program cannot be started at all (as a shell reports "command not found"). */
  static final int CANNOT_RUN = 127;

  @Option(names = "--device", paramLabel = "gfx90a|gfx940|gfx942",
      description = "Simulated GPU: gfx90a (AMD Instinct MI210), gfx940 (AMD Instinct MI300A) or gfx942 (AMD "
          + "Instinct MI300X). Default: one the program has code for, gfx90a first.")
  String device;

  @Option(names = "--stats", description = "At exit, print per-kernel statistics (launches, waves, instructions, time).")
  boolean stats;

  @Parameters(index = "0", paramLabel = "PROGRAM", description = "The HIP program (a host executable built by hipcc).")
  String program;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "Arguments passed to the program unchanged.")
  List<String> arguments = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Map<String, String> env;
    try {
      env = programEnvironment(spec, device, program, stats);
    } catch (ProgramCheck.CannotRun e) {
      spec.commandLine().getErr().println("hipsim: " + e.getMessage());
      return CANNOT_RUN;
    }
    List<String> command = new ArrayList<>();
    command.add(program);
    command.addAll(arguments);
    ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
    pb.environment().putAll(env);
    Process process;
    try {
      process = pb.start();
    } catch (IOException e) {
      spec.commandLine().getErr().println("hipsim: cannot run " + program + ": " + e.getMessage());
      return CANNOT_RUN;
    }
    return process.waitFor();
  }

  /**
   * What {@code hipsim run}, {@code hipsim debug} and {@code hipsim dap} add to a program's environment, after
   * checking the device name and that the HIP runtime library is built. Without a device (and no HIPSIM_DEVICE),
   * the device is chosen from the code objects {@code program} carries, gfx90a first.
   */
  static Map<String, String> programEnvironment(CommandSpec spec, String device, String program, boolean stats)
      throws InputException {
    ProgramCheck.check(program);
    if (device != null) {
      try {
        DeviceModel.forName(device);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--device: " + e.getMessage());
      }
    }
    Path home = hipsimHome();
    Path nativeDir = home.resolve(NATIVE_DIR);
    if (!Files.isRegularFile(nativeDir.resolve("libamdhip64.so.5"))) {
      throw new InputException("the HIP runtime library is not built (" + nativeDir.resolve("libamdhip64.so.5")
          + " is missing; build hipsim with a C compiler installed: mvn -B -q package -DskipTests)");
    }
    String chosen = device;
    if (chosen == null && System.getenv().getOrDefault(RuntimeConfig.DEVICE_VARIABLE, "").isBlank()) {
      chosen = ProgramDevices.choose(Paths.get(program)).map(DeviceModel::target).orElse(null);
    }
    return environment(System.getenv(), home, nativeDir, chosen, stats, System.getProperty("java.class.path"),
        System.getProperty("java.home"));
  }

  /**
   * The variables hipsim adds for the program: its native library directory first on LD_LIBRARY_PATH; HIPSIM_HOME;
   * the device; the JDK and class path of this hipsim for the JVM that libamdhip64 starts (an explicit
   * HIPSIM_CLASSPATH from the caller wins).
   */
  static Map<String, String> environment(Map<String, String> inherited, Path home, Path nativeDir, String device,
      boolean stats, String classPath, String javaHome) {
    Map<String, String> env = new HashMap<>();
    String libraryPath = inherited.getOrDefault("LD_LIBRARY_PATH", "");
    env.put("LD_LIBRARY_PATH", nativeDir + (libraryPath.isEmpty() ? "" : ":" + libraryPath));
    env.put("HIPSIM_HOME", home.toString());
    String chosen = device != null ? device : inherited.getOrDefault(RuntimeConfig.DEVICE_VARIABLE, "");
    env.put(RuntimeConfig.DEVICE_VARIABLE, chosen.isBlank() ? DeviceModel.MI210.target() : chosen);
    if (stats) env.put(RuntimeConfig.STATS_VARIABLE, "1");
    String explicit = inherited.getOrDefault("HIPSIM_CLASSPATH", "");
    env.put("HIPSIM_CLASSPATH", explicit.isBlank() ? classPath : explicit);
    env.put("JAVA_HOME", javaHome);
    return env;
  }

  /** The hipsim checkout: HIPSIM_HOME (set by bin/hipsim), else found from where this class was loaded. */
  static Path hipsimHome() throws InputException {
    String configured = System.getenv("HIPSIM_HOME");
    if (configured == null || configured.isBlank()) configured = System.getProperty("hipsim.home");
    if (configured != null && !configured.isBlank()) return Paths.get(configured).toAbsolutePath();
    try {
      Path here = Paths.get(RunCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      for (Path dir = here; dir != null; dir = dir.getParent()) {
        if (Files.isDirectory(dir.resolve("hip-runtime")) && Files.isDirectory(dir.resolve("cli"))) return dir;
      }
    } catch (URISyntaxException | SecurityException | NullPointerException e) {
      // fall through to the message below
    }
    throw new InputException("cannot find the hipsim checkout: set HIPSIM_HOME (bin/hipsim does)");
  }
}
