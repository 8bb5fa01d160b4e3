package dev.hipsim.hip.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.bundle.BundleWriter;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Registered modules are prepared on a background thread (the machine built, the code object chosen and read)
 * without changing anything the program can observe: device addresses, and the errors of a module that cannot load.
 */
class ModulePreparationTest {
  private static final String KERNEL = "_Z4vaddPKfS0_Pfi";

  private static ByteBuffer bundle(String target, String variant) throws Exception {
    byte[] code = Files.readAllBytes(Corpus.root().resolve(variant + "/vector_add.co/0-" + target + ".hsaco"));
    List<BundleWriter.Input> entries = List.of(new BundleWriter.Input("host-x86_64-unknown-linux--", new byte[0]),
        new BundleWriter.Input("hipv4-amdgcn-amd-amdhsa--" + target, code));
    return ByteBuffer.wrap(BundleWriter.plain(entries, BundleWriter.HIP_ALIGNMENT));
  }

  private static GpuRuntime runtime(List<String> fatal) {
    return new GpuRuntime(DeviceModel.MI210, Map.of(), null, fatal::add);
  }

  /** Waits until the background thread has read the module (or given up on it). */
  private static void awaitPrepared(GpuRuntime gpu) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!gpu.preparationIdle()) {
      assertThat(System.nanoTime()).as("preparation finished").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /** The kernel object of the module's kernel and the address of an allocation made after loading it. */
  private static long[] launchAddresses(GpuRuntime gpu, CodeModule module) throws Exception {
    long before = gpu.machine().agent().vramPool().allocate(1 << 20);
    long kernel = module.kernel(gpu.machine(), KERNEL).kernelObject();
    long after = gpu.machine().agent().vramPool().allocate(1 << 20);
    return new long[] {before, kernel, after};
  }

  @Test
  void preparedModulesLoadAtTheSameAddressesAsUnpreparedOnes() throws Exception {
    List<String> fatal = new ArrayList<>();
    GpuRuntime ahead = runtime(fatal);
    CodeModule prepared = new CodeModule(ahead.newHandle(), "test", bundle("gfx90a", "gfx90a-v4"), ahead.faults());
    ahead.prepare(prepared);
    awaitPrepared(ahead);
    assertThat(ahead.started()).as("the machine is built ahead").isTrue();
    assertThat(prepared.loaded()).as("but nothing is loaded before the first use").isFalse();

    GpuRuntime onDemand = runtime(fatal);
    CodeModule plain = new CodeModule(onDemand.newHandle(), "test", bundle("gfx90a", "gfx90a-v4"),
        onDemand.faults());
    assertThat(launchAddresses(ahead, prepared)).containsExactly(launchAddresses(onDemand, plain));
    assertThat(fatal).isEmpty();
    ahead.shutdown();
    onDemand.shutdown();
  }

  /**
   * The preparation's rehearsal finds the code object's code: vector_add's kernel has runs to generate. The same code
   * is not rehearsed twice, a launch stops it, and a module whose code object cannot be read has nothing to rehearse;
   * none of it loads the module.
   */
  @Test
  void aPreparedModuleIsRehearsedOnceAndNotAfterALaunch() throws Exception {
    List<String> fatal = new ArrayList<>();
    GpuRuntime gpu = runtime(fatal);
    CodeModule module = new CodeModule(gpu.newHandle(), "test", bundle("gfx90a", "gfx90a-v4"), gpu.faults());
    HeadStart headStart = new HeadStart();
    assertThat(module.rehearse(gpu.machine(), headStart)).as("not read yet").isZero();
    module.prepare(gpu.machine());
    assertThat(module.rehearse(gpu.machine(), headStart)).isGreaterThanOrEqualTo(1);
    assertThat(module.rehearse(gpu.machine(), headStart)).as("rehearsed already").isZero();
    assertThat(module.rehearse(gpu.machine(), new HeadStart())).as("by another head start").isGreaterThanOrEqualTo(1);
    HeadStart launched = new HeadStart();
    launched.launching();
    assertThat(module.rehearse(gpu.machine(), launched)).isZero();
    assertThat(module.loaded()).isFalse();

    byte[] junk = Files.readAllBytes(Corpus.root().resolve("gfx90a-v4/vector_add.co/0-gfx90a.hsaco"));
    CodeModule corrupt = new CodeModule(gpu.newHandle(), "test", ByteBuffer.wrap(java.util.Arrays.copyOf(junk, 200)),
        null);
    corrupt.prepare(gpu.machine());
    assertThat(corrupt.rehearse(gpu.machine(), new HeadStart())).isZero();
    assertThat(fatal).isEmpty();
    gpu.shutdown();
  }

  /** Waits until the head start has done what it was given. */
  private static void awaitIdle(HeadStart headStart) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!headStart.idle()) {
      assertThat(System.nanoTime()).as("head start finished").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /**
   * Before the runtime starts, the program's own file is read for the device's code object and its code rehearsed:
   * the code object its registration then brings is the same code at the same address, found rehearsed already.
   */
  @Test
  void theProgramsCodeIsRehearsedBeforeItsModuleIsRegistered() throws Exception {
    List<String> fatal = new ArrayList<>();
    GpuRuntime gpu = runtime(fatal);
    HeadStart headStart = new HeadStart();
    headStart.rehearseProgram(() -> Optional.of(DeviceModel.MI210), Corpus.root().resolve("gfx90a-v4/vector_add"));
    awaitIdle(headStart);
    assertThat(headStart.rehearsedCode()).isEqualTo(1);
    assertThat(headStart.generatedRuns()).as("the generator needs no sample of its own").isTrue();
    CodeModule module = new CodeModule(gpu.newHandle(), "test", bundle("gfx90a", "gfx90a-v4"), gpu.faults());
    module.prepare(gpu.machine());
    assertThat(module.rehearse(gpu.machine(), headStart)).as("rehearsed from the program's file").isZero();
    assertThat(module.rehearse(gpu.machine(), new HeadStart())).as("there is code to rehearse")
        .isGreaterThanOrEqualTo(1);

    // Compressed bundles (CCOB) too.
    HeadStart compressed = new HeadStart();
    compressed.rehearseProgram(() -> Optional.of(DeviceModel.MI300X),
        Corpus.root().resolve("gfx942-v6-ccob3/vector_add"));
    awaitIdle(compressed);
    assertThat(compressed.rehearsedCode()).isEqualTo(1);

    // A program without code for the device, a device not known yet, a file that is no program: nothing rehearsed.
    HeadStart none = new HeadStart();
    none.rehearseProgram(() -> Optional.of(DeviceModel.MI300X), Corpus.root().resolve("gfx90a-v4/vector_add"));
    none.rehearseProgram(Optional::empty, Corpus.root().resolve("gfx90a-v4/vector_add"));
    none.rehearseProgram(() -> Optional.of(DeviceModel.MI210), Corpus.root().resolve("manifest.tsv"));
    none.rehearseProgram(() -> Optional.of(DeviceModel.MI210), Corpus.root().resolve("no-such-program"));
    awaitIdle(none);
    assertThat(none.rehearsedCode()).isZero();
    assertThat(none.generatedRuns()).isFalse();
    assertThat(module.rehearse(gpu.machine(), none)).isGreaterThanOrEqualTo(1);

    HeadStart launched = new HeadStart();
    launched.launching();
    launched.rehearseProgram(() -> Optional.of(DeviceModel.MI210), Corpus.root().resolve("gfx90a-v4/vector_add"));
    awaitIdle(launched);
    assertThat(launched.rehearsedCode()).as("a launch has begun").isZero();
    assertThat(fatal).isEmpty();
    gpu.shutdown();
  }

  /**
   * Without a device named, a program whose own code objects include the device every choice prefers (gfx90a) is
   * rehearsed for it without waiting for the runtime's choice; one without waits for the choice.
   */
  @Test
  void withoutADeviceNamedTheProgramsPreferredDeviceIsNotWaitedFor() throws Exception {
    java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
    java.util.function.Supplier<Optional<DeviceModel>> choosing = () -> {
      try {
        never.await(); // the runtime's choice, still being made
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Optional.empty();
    };
    HeadStart preferred = new HeadStart();
    preferred.rehearseProgram(choosing, Corpus.root().resolve("gfx90a-v4/vector_add"), false);
    awaitIdle(preferred);
    assertThat(preferred.rehearsedCode()).isEqualTo(1);

    // gfx940 code only: the choice decides, once it is made (a choice of gfx90a finds no code to rehearse).
    HeadStart other = new HeadStart();
    other.rehearseProgram(() -> Optional.of(DeviceModel.forName("gfx940")),
        Corpus.root().resolve("gfx940-v5/vector_add"), false);
    awaitIdle(other);
    assertThat(other.rehearsedCode()).isEqualTo(1);
    HeadStart chosenElsewhere = new HeadStart();
    chosenElsewhere.rehearseProgram(() -> Optional.of(DeviceModel.MI210), Corpus.root().resolve("gfx940-v5/vector_add"),
        false);
    awaitIdle(chosenElsewhere);
    assertThat(chosenElsewhere.rehearsedCode()).isZero();
    // A device named is taken as named, whatever the program prefers.
    HeadStart named = new HeadStart();
    named.rehearseProgram(() -> Optional.of(DeviceModel.MI300X), Corpus.root().resolve("gfx90a-v4/vector_add"), true);
    awaitIdle(named);
    assertThat(named.rehearsedCode()).isZero();
    never.countDown();
  }

  @Test
  void aModuleWithNoCodeForTheDeviceIsReportedByItsFirstUseNotByThePreparation() throws Exception {
    List<String> fatal = new ArrayList<>();
    GpuRuntime gpu = runtime(fatal);
    CodeModule module = new CodeModule(gpu.newHandle(), "test", bundle("gfx942", "gfx942-v6-ccob3"), null);
    gpu.prepare(module);
    awaitPrepared(gpu);
    assertThat(fatal).isEmpty();
    assertThatThrownBy(() -> module.kernel(gpu.machine(), KERNEL)).isInstanceOf(HipException.class)
        .satisfies(e -> assertThat(((HipException) e).error()).isEqualTo(HipError.NO_BINARY_FOR_GPU))
        .hasMessageContaining("processor gfx942 does not run on gfx90a");

    CodeModule registered = new CodeModule(gpu.newHandle(), "test", bundle("gfx942", "gfx942-v6-ccob3"),
        gpu.faults());
    gpu.prepare(registered);
    awaitPrepared(gpu);
    assertThat(fatal).as("a registered fat binary ends the process only when it is used").isEmpty();
    try {
      registered.kernel(gpu.machine(), KERNEL);
    } catch (HipException e) {
      // The test's Faults records instead of ending the process.
    }
    assertThat(fatal).singleElement().asString().contains("hipErrorNoBinaryForGpu");
    gpu.shutdown();
  }

  @Test
  void aCorruptCodeObjectFailsItsFirstUseAsItWouldWithoutPreparation() throws Exception {
    byte[] junk = Files.readAllBytes(Corpus.root().resolve("gfx90a-v4/vector_add.co/0-gfx90a.hsaco"));
    junk = java.util.Arrays.copyOf(junk, 200); // the ELF header survives, the rest is gone
    List<String> fatal = new ArrayList<>();
    GpuRuntime ahead = runtime(fatal);
    CodeModule prepared = new CodeModule(ahead.newHandle(), "test", ByteBuffer.wrap(junk), null);
    ahead.prepare(prepared);
    awaitPrepared(ahead);
    GpuRuntime onDemand = runtime(fatal);
    CodeModule plain = new CodeModule(onDemand.newHandle(), "test", ByteBuffer.wrap(junk), null);
    String withPreparation = message(() -> prepared.kernel(ahead.machine(), KERNEL));
    String without = message(() -> plain.kernel(onDemand.machine(), KERNEL));
    assertThat(withPreparation).isEqualTo(without).contains("test: ");
    assertThat(fatal).isEmpty();
    ahead.shutdown();
    onDemand.shutdown();
  }

  @Test
  void aStartHookTurnsPreparationOff() throws Exception {
    GpuRuntime gpu = runtime(new ArrayList<>());
    gpu.onMachineStart(m -> {});
    gpu.prepare(new CodeModule(gpu.newHandle(), "test", bundle("gfx90a", "gfx90a-v4"), null));
    awaitPrepared(gpu);
    assertThat(gpu.started()).as("the machine waits for the program's first call").isFalse();
  }

  private interface Call {
    void run() throws Exception;
  }

  private static String message(Call call) {
    try {
      call.run();
    } catch (HipException e) {
      assertThat(e.error()).isEqualTo(HipError.INVALID_IMAGE);
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError("expected a HipException, got " + e, e);
    }
    throw new AssertionError("the corrupt code object loaded");
  }
}
