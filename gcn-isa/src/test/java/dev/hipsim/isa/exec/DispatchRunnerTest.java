package dev.hipsim.isa.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import dev.hipsim.isa.dispatch.WatchdogTimeout;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.dispatch.WaveLocation;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The scheduler with scripted executors in place of the interpreter: workgroups, barriers, residency for spin
 * loops, the watchdog and failure propagation.
 */
class DispatchRunnerTest {
  static final long KERNEL_OBJECT = 0x1000;

  static KernelLaunch launch(int grid, int group, int groupSegment) throws DispatchException {
    ByteBuffer kd = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    kd.putInt(0, groupSegment).putLong(16, 256);
    kd.putInt(48, 1 | (3 << 16) | (3 << 18)); // 16 VGPRs, denormals kept
    kd.putInt(52, (2 << 1) | (1 << 7)); // two user SGPRs, workgroup id x
    kd.putShort(56, (short) (1 << 3)); // kernarg pointer
    KernelDescriptor d = KernelDescriptor.parse(kd);
    DispatchPacket p = new DispatchPacket(2, 1, group, 1, 1, grid, 1, 1, 0, groupSegment, KERNEL_OBJECT, 0x8000, 0);
    return new KernelLaunch("test_kernel", p, 0x2000, 0x3000, 7, d, DispatchGeometry.of(p, 64), 0, 0, 0, true, false,
        2L << 48, 1L << 48, new int[0]);
  }

  /** Each wave: add its lane count to LDS word 0, barrier, then record LDS word 0 and its work-group x. */
  static final class BarrierProgram implements WaveExecutor {
    final AtomicIntegerArray seen;
    final AtomicIntegerArray visits;

    BarrierProgram(AtomicIntegerArray seen, AtomicIntegerArray visits) {
      this.seen = seen;
      this.visits = visits;
    }

    @Override
    public void run(Wave w, int budget) {
      Lds lds = w.group.lds();
      if (w.pc == KERNEL_OBJECT + 256) {
        assertThat(w.s[2]).isEqualTo(w.workgroupX); // the first system SGPR after two user SGPRs
        assertThat(w.s64(0)).isEqualTo(0x8000); // kernarg pointer
        lds.store32(0, lds.load32(0) + Long.bitCount(w.exec()));
        w.pc += 4;
        w.instructions++;
        w.status = WaveStatus.AT_BARRIER;
      } else {
        int g = w.workgroupX;
        seen.set(g, lds.load32(0));
        visits.incrementAndGet(g * 16 + w.waveInGroup);
        w.instructions++;
        w.status = WaveStatus.DONE;
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void everyWorkgroupRunsOnceAndBarriersSeeAllWaves(int threads) throws Exception {
    int grid = 1000;
    int group = 256;
    KernelLaunch l = launch(grid, group, 64);
    int groups = (grid + group - 1) / group;
    AtomicIntegerArray seen = new AtomicIntegerArray(groups);
    AtomicIntegerArray visits = new AtomicIntegerArray(groups * 16);
    DispatchStats stats = new DispatchRunner(l, DispatchOptions.defaults().withThreads(threads),
        t -> new BarrierProgram(seen, visits), 65536).run();
    for (int g = 0; g < groups; g++) {
      int items = Math.min(group, grid - g * group);
      assertThat(seen.get(g)).as("lanes that reached the barrier of workgroup %d", g).isEqualTo(items);
      int wavesHere = (items + 63) / 64;
      for (int w = 0; w < 16; w++) assertThat(visits.get(g * 16 + w)).isEqualTo(w < wavesHere ? 1 : 0);
    }
    assertThat(stats.workgroups()).isEqualTo(groups);
    assertThat(stats.waves()).isEqualTo(4 + 4 + 4 + 4);
    assertThat(stats.waveInstructions()).isEqualTo(2 * stats.waves());
  }

  @Test
  void workItemIdsArePackedIntoV0AndExecCoversThePartialWave() throws Exception {
    KernelLaunch l = launch(100, 100, 0);
    Workgroup g = new Workgroup(2, 0);
    g.waveCount = 2;
    WaveSetup.initialize(g.waves[1], l, g, 1);
    Wave w = g.waves[1];
    assertThat(w.exec()).isEqualTo((1L << 36) - 1);
    assertThat(w.v[0]).isEqualTo(64);
    assertThat(w.v[35]).isEqualTo(99);
    assertThat(w.pc).isEqualTo(KERNEL_OBJECT + 256);
    assertThat(w.mode).isEqualTo(0xf0);
  }

  @Test
  void spinningWorkgroupsGetOthersAdmitted() throws Exception {
    // Every wave waits (sleeping) until all workgroups have arrived: needs every workgroup resident at once,
    // like a cooperative grid barrier.
    int groups = 40;
    KernelLaunch l = launch(groups * 64, 64, 0);
    AtomicLong arrived = new AtomicLong();
    WaveExecutor program = (w, budget) -> {
      w.instructions++;
      if (w.pc == KERNEL_OBJECT + 256) {
        arrived.incrementAndGet();
        w.pc += 4;
      }
      if (arrived.get() < groups) {
        w.status = WaveStatus.SLEEPING;
      } else {
        w.status = WaveStatus.DONE;
      }
    };
    DispatchOptions coResident = new DispatchOptions(2, 4096, 32, 0, 20_000_000_000L);
    DispatchStats stats = new DispatchRunner(l, coResident, t -> program, 65536).run();
    assertThat(stats.workgroups()).isEqualTo(groups);
  }

  @Test
  void spinningBeyondTheResidencyLimitIsStoppedByTheWatchdog() throws Exception {
    int groups = 40;
    KernelLaunch l = launch(groups * 64, 64, 0);
    AtomicLong arrived = new AtomicLong();
    WaveExecutor program = (w, budget) -> {
      w.instructions++;
      if (w.pc == KERNEL_OBJECT + 256) {
        arrived.incrementAndGet();
        w.pc += 4;
      }
      w.status = arrived.get() < groups ? WaveStatus.SLEEPING : WaveStatus.DONE;
    };
    DispatchOptions tooFew = new DispatchOptions(2, 4096, 8, 0, 500_000_000L);
    assertThatThrownBy(() -> new DispatchRunner(l, tooFew, t -> program, 65536).run())
        .isInstanceOfSatisfying(WatchdogTimeout.class, e -> assertThat(e.running()).hasSize(16));
  }

  @Test
  void theWatchdogStopsAKernelThatNeverEndsAndListsItsWaves() throws Exception {
    KernelLaunch l = launch(256, 128, 0);
    WaveExecutor spin = (w, budget) -> w.instructions += budget;
    assertThatThrownBy(() -> new DispatchRunner(l, DispatchOptions.defaults().withThreads(1).withInstructionLimit(100_000),
        t -> spin, 65536).run())
        .isInstanceOfSatisfying(WatchdogTimeout.class, e -> {
          assertThat(e.running()).isNotEmpty();
          assertThat(e.running().get(0).kernel()).isEqualTo("test_kernel");
          assertThat(e.getMessage()).contains("100000 wave-instructions").contains("pc 0x1100");
        });
  }

  @Test
  void aWaveFaultStopsTheDispatchAndReachesTheCaller() throws Exception {
    KernelLaunch l = launch(64 * 50, 64, 0);
    WaveExecutor faulty = (w, budget) -> {
      if (w.workgroupX == 17) {
        throw new WaveFault(WaveFault.Kind.MEMORY_FAULT,
            new WaveLocation("test_kernel", 17, 0, 0, 0, 3, w.pc, "global_load_dword v1, v[2:3], off"), 0xdead0000L,
            "Page not present or supervisor privilege", null);
      }
      w.instructions++;
      w.status = WaveStatus.DONE;
    };
    assertThatThrownBy(() -> new DispatchRunner(l, DispatchOptions.defaults().withThreads(2), t -> faulty, 65536).run())
        .isInstanceOf(WaveFault.class).hasMessageContaining("0xdead0000").hasMessageContaining("workgroup (17,0,0)")
        .hasMessageContaining("lane 3").hasMessageContaining("global_load_dword");
  }

  /** A launch with {@code scratchPerLane} bytes of scratch per lane and a backing of {@code slots} waves. */
  static KernelLaunch scratchLaunch(int grid, int group, int scratchPerLane, int slots) throws DispatchException {
    KernelLaunch l = launch(grid, group, 0);
    return new KernelLaunch(l.kernelName(), l.packet(), l.packetAddress(), l.queueAddress(), l.dispatchId(),
        l.descriptor(), l.geometry(), 0x10_0000, scratchPerLane, slots, true, false, 2L << 48, 1L << 48, new int[0]);
  }

  @Test
  void scratchBackingBoundsResidencyAndTooLittleIsRefused() throws Exception {
    assertThat(launch(256, 256, 0).workgroupsScratchHolds()).isEqualTo(Long.MAX_VALUE);
    assertThat(scratchLaunch(256, 256, 16, 9).workgroupsScratchHolds()).isEqualTo(2); // 4 waves per workgroup
    KernelLaunch small = scratchLaunch(256, 256, 16, 3);
    assertThatThrownBy(() -> new DispatchRunner(small, DispatchOptions.defaults(), t -> (w, b) -> { }, 65536).run())
        .isInstanceOf(DispatchException.class)
        .hasMessage("kernel test_kernel needs scratch for 4 waves of 1024 bytes; the queue's scratch backing holds "
            + "3 wave(s)");
  }

  @Test
  void refusesMoreLdsThanTheDeviceHas() throws Exception {
    KernelLaunch l = launch(64, 64, 70_000);
    assertThatThrownBy(() -> new DispatchRunner(l, DispatchOptions.defaults(), t -> (w, b) -> { }, 65536).run())
        .isInstanceOf(DispatchException.class).hasMessageContaining("70000 bytes of LDS");
  }
}
