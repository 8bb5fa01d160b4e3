package dev.hipsim.hip.jni;

import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.api.Dispatcher;
import dev.hipsim.hip.debug.DebugAgent;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.gpu.HeadStart;
import dev.hipsim.hip.runtime.HipRuntime;
import dev.hipsim.hip.runtime.RuntimeConfig;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Where libamdhip64 enters Java ({@code src/main/native/hipsim_jvm.c} calls these three methods by name). Nothing
 * here may throw back into C: every failure becomes a return value.
 */
final class HipEntry {
  private static volatile HipRuntime runtime;
  private static volatile Dispatcher dispatcher;

  private HipEntry() {}

  /**
   * Starts the runtime. {@code tableHash} is the hash of the API table the C stubs were generated from; the
   * library's path is only for messages. Returns null, or why the runtime cannot start.
   */
  static String boot(long tableHash, String libraryPath) {
    HeadStart headStart = new HeadStart();
    try {
      boolean deviceNamed = !System.getenv().getOrDefault(RuntimeConfig.DEVICE_VARIABLE, "").isBlank();
      Future<RuntimeConfig> config = configuration(deviceNamed);
      // The program's code is rehearsed while the runtime starts (under a debugger the runtime prepares nothing).
      if (System.getenv().getOrDefault(DebugAgent.ADDRESS_VARIABLE, "").isBlank()) {
        headStart.rehearseProgram(() -> device(config), Path.of("/proc/self/exe"), deviceNamed);
      }
      ApiTable table = ApiTable.standard();
      if (table.hash() != tableHash) {
        headStart.stop();
        return String.format("%s was built from a different API table than the Java runtime (%016x vs %016x);"
            + " rebuild hipsim", libraryPath, tableHash, table.hash());
      }
      CStdio.install();
      HipRuntime rt = HipRuntime.start(table, configured(config).forLibrary(libraryPath),
          new NativeHostMemory(),
          CStdio.diagnostics(), CStdio.faults(), CStdio.programStreams(), System.getenv(), headStart);
      runtime = rt;
      dispatcher = rt.dispatcher();
      return null;
    } catch (Throwable t) {
      headStart.stop();
      return t.getMessage() == null ? t.toString() : t.getMessage();
    }
  }

  /**
   * The configuration from the environment. Without HIPSIM_DEVICE the device comes from the program's own code
   * objects, which takes 30-50 ms of reading on a cold JVM: that runs on its own thread while this one reads the
   * API table and registers the runtime's functions, as both must be done before the runtime starts.
   * {@code deviceNamed}: whether HIPSIM_DEVICE is set.
   */
  private static Future<RuntimeConfig> configuration(boolean deviceNamed) {
    FutureTask<RuntimeConfig> task = new FutureTask<>(() -> RuntimeConfig.fromEnvironment(System.getenv()));
    if (!deviceNamed) {
      Thread t = new Thread(task, "hipsim-device-choice");
      t.setDaemon(true);
      t.start();
    } else {
      task.run();
    }
    return task;
  }

  /** The configured device, once known; empty when the configuration fails (boot reports that). */
  private static Optional<DeviceModel> device(Future<RuntimeConfig> config) {
    try {
      return Optional.of(config.get().device());
    } catch (ExecutionException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static RuntimeConfig configured(Future<RuntimeConfig> config) throws Throwable {
    try {
      return config.get();
    } catch (ExecutionException e) {
      throw e.getCause();
    }
  }

  /** One API call: function id (line order of hip-api.tsv) and its argument slots; returns the C result. */
  static long dispatch(int id, long[] slots) {
    return dispatcher.dispatch(id, slots);
  }

  /**
   * Process exit: lets the runtime finish and report. Returns whether the JVM may be destroyed, i.e. no other
   * non-daemon thread is alive (DestroyJavaVM would wait for it forever).
   */
  static boolean shutdown() {
    try {
      HipRuntime rt = runtime;
      if (rt != null) rt.exit();
    } catch (Throwable t) {
      try {
        CStdio.diagnostics().line("hipsim: error during shutdown: " + t);
      } catch (Throwable ignored) {
        // nothing left to report with
      }
    }
    try {
      System.out.flush();
      System.err.flush();
      Thread self = Thread.currentThread();
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        if (t != self && t.isAlive() && !t.isDaemon() && !"DestroyJavaVM".equals(t.getName())) return false;
      }
      return true;
    } catch (Throwable t) {
      return false;
    }
  }
}
