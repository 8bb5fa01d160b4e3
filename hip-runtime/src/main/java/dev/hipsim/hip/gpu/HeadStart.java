package dev.hipsim.hip.gpu;

import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.device.ProgramDevices;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.interp.Preload;
import dev.hipsim.isa.interp.Rehearsal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The work a process does ahead of its first launch, on background threads while the program's host code runs:
 * reading registered modules and building the machine on one, rehearsing device code ({@link Rehearsal}) on another,
 * so that the first dispatch finds its runs of instructions generated and compiled by the JIT. Everything here only
 * saves time later: nothing it does can change what a launch computes, and a failure is left for the program's own
 * call to meet and report.
 *
 * <p>The program's own code can be rehearsed before the runtime has even started ({@link #rehearseProgram}): the
 * JVM's start and the runtime's take 130-180 ms of a cold process, and a program that launches at once (a 256²
 * SGEMM launched 30 ms after its fat binary was registered) otherwise dispatches before any rehearsal.
 */
public final class HeadStart {
  /** Code the program rehearsal covers at most over all its code objects, in bytes (a library may hold megabytes). */
  static final int PROGRAM_BYTES = 4 * Rehearsal.MAX_BYTES;

  /**
   * Code rehearsed to its end, known by its target, address, length and the hash of its bytes: the same code at the
   * same address is not rehearsed again (a collision would only skip a rehearsal). Its equality is written out: a
   * record's own is linked on first use, which costs a cold JVM 20-30 ms.
   */
  private record Rehearsed(Target target, long address, int length, int hash) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Rehearsed r && r.target == target && r.address == address && r.length == length
          && r.hash == hash;
    }

    @Override
    public int hashCode() {
      return ((target.ordinal() * 31 + Long.hashCode(address)) * 31 + length) * 31 + hash;
    }
  }

  /** Reading modules and building the machine: what the first launch would otherwise wait for. */
  private final Lane preparing = new Lane("hipsim-prepare");
  /** Rehearsals, one after the other, beside the preparation. */
  private final Lane rehearsing = new Lane("hipsim-rehearse");
  private final Set<Rehearsed> rehearsed = ConcurrentHashMap.newKeySet();
  /** Runs the rehearsals generated: once there are any, the code generator is ready. */
  private final AtomicInteger runs = new AtomicInteger();
  private volatile boolean launched;

  /**
   * One background thread, running its tasks in the order they came, and the count of those not yet done. The thread
   * ends when it has had nothing to do for a second, so that an idle runtime (a test's, or a program's long after its
   * start) keeps none.
   */
  private static final class Lane {
    private final ThreadPoolExecutor thread;
    private final AtomicInteger pending = new AtomicInteger();

    Lane(String name) {
      thread = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
      });
      thread.allowCoreThreadTimeOut(true);
    }

    void submit(Runnable task) {
      pending.incrementAndGet();
      thread.execute(() -> {
        try {
          task.run();
        } catch (RuntimeException | LinkageError e) {
          // Only a head start: whatever failed here, the launch meets again and reports.
        } finally {
          pending.decrementAndGet();
        }
      });
    }

    boolean idle() {
      return pending.get() == 0;
    }
  }

  /** Runs {@code task} on the preparation's thread, after what was submitted there before it. */
  public void submit(Runnable task) {
    preparing.submit(task);
  }

  /**
   * Runs {@code task} on the rehearsals' thread, after the rehearsals submitted before it: a rehearsal takes longer
   * than a module's preparation, which it must not hold up.
   */
  public void submitRehearsal(Runnable task) {
    rehearsing.submit(task);
  }

  /** A launch is about to run: rehearsals give the cores back to it. */
  public void launching() {
    launched = true;
  }

  /** No launch will come (the runtime did not start): rehearsals stop as they would at a launch. */
  public void stop() {
    launched = true;
  }

  /** Whether a launch has begun. */
  public boolean launched() {
    return launched;
  }

  /** Whether nothing submitted is running or waiting (for tests). */
  boolean idle() {
    return preparing.idle() && rehearsing.idle();
  }

  /** How many code objects' code was rehearsed to its end (for tests). */
  int rehearsedCode() {
    return rehearsed.size();
  }

  /**
   * Rehearses {@code code} until a launch begins, unless the same code at the same address has been rehearsed to
   * its end already. Returns the number of runs generated (0 when skipped).
   */
  int rehearse(Target target, Rehearsal.Code code) {
    byte[] bytes = code.bytes();
    Rehearsed key = new Rehearsed(target, code.address(), bytes.length, Arrays.hashCode(bytes));
    if (rehearsed.contains(key)) return 0;
    int generated = Rehearsal.rehearse(target, code, this::launched);
    runs.addAndGet(generated);
    if (!launched) rehearsed.add(key);
    return generated;
  }

  /** Whether a rehearsal has generated a run, which readies the code generator as a sample would. */
  boolean generatedRuns() {
    return runs.get() > 0;
  }

  /**
   * Rehearses the device code {@code program} carries (the process's own executable) for the device {@code device}
   * names, before the rehearsals of modules registered later (which find theirs rehearsed). The decoder's tables are
   * readied first ({@link Preload}). Code objects are taken in the file's order, up to {@link #PROGRAM_BYTES} of code.
   *
   * <p>{@code named}: whether the device was named (HIPSIM_DEVICE), so that {@code device} answers at once. When it
   * was not, the runtime is choosing it from the code objects of the same file and its neighbouring libraries
   * ({@link ProgramDevices}), 30-50 ms of a cold JVM; a bundle of the program with code for the device every choice
   * prefers settles the choice already, and the rehearsal begins for that device without waiting.
   */
  public void rehearseProgram(Supplier<Optional<DeviceModel>> device, Path program, boolean named) {
    submitRehearsal(() -> {
      try (FatBinaryFile fat = FatBinaryFile.open(program, ReadOptions.DEFAULT)) {
        DeviceModel model = named ? device.get().orElse(null) : null;
        if (named && model == null) return; // the configuration failed: the runtime's start reports it
        Target target = null;
        TargetId id = null;
        int budget = PROGRAM_BYTES;
        for (BundleLocation loc : fat.bundles()) {
          if (launched || budget <= 0) return;
          Optional<Rehearsal.Code> code;
          try {
            OffloadBundle bundle = fat.openBundle(loc);
            if (target == null) {
              if (model == null) model = preferredIn(bundle).orElseGet(() -> device.get().orElse(null));
              if (model == null || launched) return;
              target = Target.fromTargetId(model.gcnArchName()).orElse(null);
              if (target == null) return;
              Preload.startInBackground(target);
              id = TargetId.parse(model.gcnArchName());
            }
            code = Rehearsal.Code.of(ElfFile.parse(CodeModule.codeObjectIn(bundle, id)));
          } catch (dev.hipsim.bundle.BundleFormatException | dev.hipsim.bundle.target.NoCompatibleEntryException
              | dev.hipsim.bundle.target.EntryIdFormatException | dev.hipsim.elf.ElfFormatException e) {
            continue; // no code for the device, or none readable: what the program registers is checked then
          }
          if (code.isEmpty()) continue;
          budget -= code.get().bytes().length;
          rehearse(target, code.get());
        }
      } catch (IOException e) {
        // Not a HIP program, or not readable: nothing to rehearse.
      }
    });
  }

  /** As above, for a device that was named. */
  public void rehearseProgram(Supplier<Optional<DeviceModel>> device, Path program) {
    rehearseProgram(device, program, true);
  }

  /** The device every choice prefers, when {@code bundle} has code for it ({@link ProgramDevices#PREFERENCE}). */
  private static Optional<DeviceModel> preferredIn(OffloadBundle bundle) {
    String first = ProgramDevices.PREFERENCE.get(0);
    return ProgramDevices.processors(bundle).contains(first) ? Optional.of(DeviceModel.forName(first))
        : Optional.empty();
  }
}
