package dev.hipsim.hsa.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.RecordingConsumer;
import dev.hipsim.hsa.TestMachine;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.hsa.queue.HsaQueue;
import dev.hipsim.hsa.signal.Signal;
import dev.hipsim.hsa.signal.SignalCondition;
import dev.hipsim.kfd.ProcessApertures;
import dev.hipsim.kfd.queue.AqlPacket;
import dev.hipsim.kfd.queue.AqlPacketType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The launch path, checked where the device receives it: kfd-sim's packet processor hands each packet to a
 * recording consumer, which captures the packet and the kernarg segment through the GPU's page tables.
 */
class DispatchTest {
  private static final long FIVE_SECONDS = TimeUnit.SECONDS.toNanos(5);

  private TestMachine m;
  private RecordingConsumer consumer;
  private Dispatcher dispatcher;

  @BeforeEach
  void setUp() throws Exception {
    m = TestMachine.standard();
    consumer = new RecordingConsumer();
    m.device(m.gfx90a).setPacketConsumer(consumer);
    m.device(m.gfx942).setPacketConsumer(consumer);
    dispatcher = m.runtime.dispatcher();
  }

  @AfterEach
  void tearDown() {
    consumer.release();
    m.close();
  }

  private static ByteBuffer le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Bytes of {@code b} in [from, to) outside the listed [offset, size) ranges that are not zero. */
  private static int strayBytes(byte[] b, int from, int to, int... ranges) {
    int n = 0;
    outer:
    for (int i = from; i < to; i++) {
      for (int r = 0; r < ranges.length; r += 2) if (i >= ranges[r] && i < ranges[r] + ranges[r + 1]) continue outer;
      if (b[i] != 0) n++;
    }
    return n;
  }

  @Test
  void aCodeObjectV6KernelDispatchesWithClrsHiddenArguments() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx942-v6-ccob3", "device_globals", "gfx942"), m.gfx942);
    ExecutableSymbol.Kernel k = e.kernel("_Z10useGlobalsPfi", m.gfx942);
    assertThat(k.kernargSegmentSize()).isEqualTo(272);
    assertThat(k.dynamicCallStack()).isTrue();
    HsaQueue q = m.runtime.createQueue(m.gfx942, 64);
    Signal done = m.runtime.createSignal(1);
    long buffer = m.gfx942.vramPool().allocate(1 << 20);
    LaunchGeometry g = LaunchGeometry.hip(5, 3, 2, 64, 2, 1);
    byte[] kernarg = new KernargBuilder(k).pointer(0, buffer).i32(1, 7)
        .build(g, 256, HiddenArguments.NONE.withHostcallBuffer(0xaaa000).withHeap(0xbbb000), q);
    Launch launch = dispatcher.dispatch(q, k, g, 256, kernarg, done);

    assertThat(done.wait(SignalCondition.EQ, 0, FIVE_SECONDS)).as("the packet processor completes the signal").isZero();
    AqlPacket p = consumer.seen().get(0).packet();
    assertThat(p.header()).as("KERNEL_DISPATCH | barrier | system acquire | system release").isEqualTo(0x1502);
    assertThat(p.type()).isEqualTo(AqlPacketType.KERNEL_DISPATCH);
    assertThat(p.setup()).isEqualTo(3);
    assertThat(new int[] {p.workgroupSizeX(), p.workgroupSizeY(), p.workgroupSizeZ()}).containsExactly(64, 2, 1);
    assertThat(new long[] {p.gridSizeX(), p.gridSizeY(), p.gridSizeZ()}).containsExactly(320, 6, 2);
    assertThat(p.privateSegmentSize()).as("dynamic stack: CLR's 1 KiB default").isEqualTo(1024);
    assertThat(p.groupSegmentSize()).as("static 0 + dynamic 256").isEqualTo(256);
    assertThat(p.kernelObject()).isEqualTo(k.kernelObject());
    assertThat(p.kernargAddress()).isEqualTo(launch.kernargAddress());
    assertThat(p.kernargAddress() % 128).isZero();
    assertThat(p.completionSignal()).isEqualTo(done.handle());
    assertThat(p.index()).isEqualTo(launch.dispatchId());

    byte[] ka = consumer.seen().get(0).kernarg();
    ByteBuffer b = le(ka);
    assertThat(b.getLong(0)).isEqualTo(buffer);
    assertThat(b.getInt(8)).isEqualTo(7);
    assertThat(new int[] {b.getInt(16), b.getInt(20), b.getInt(24)}).as("block counts").containsExactly(5, 3, 2);
    assertThat(new short[] {b.getShort(28), b.getShort(30), b.getShort(32)}).as("group sizes")
        .containsExactly((short) 64, (short) 2, (short) 1);
    assertThat(new short[] {b.getShort(34), b.getShort(36), b.getShort(38)}).as("remainders")
        .containsExactly((short) 0, (short) 0, (short) 0);
    assertThat(b.getShort(80)).as("grid dims").isEqualTo((short) 3);
    assertThat(b.getLong(96)).as("hostcall buffer").isEqualTo(0xaaa000);
    assertThat(b.getLong(112)).as("heap").isEqualTo(0xbbb000);
    assertThat(b.getLong(216)).as("queue_ptr").isEqualTo(q.address());
    assertThat(strayBytes(ka, 0, 272, 0, 8, 8, 4, 16, 18, 80, 2, 96, 8, 112, 8, 216, 8)).isZero();
    assertThat(consumer.seen().get(0).scratchLaneBytes()).isEqualTo(1024);

    dispatcher.release(launch);
    assertThat(dispatcher.kernargs().liveSegments()).isZero();
  }

  @Test
  void aCodeObjectV4KernelGetsGlobalOffsetsHostcallAndScratch() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx90a-v4", "device_printf", "gfx90a"), m.gfx90a);
    ExecutableSymbol.Kernel k = e.kernel("_Z5helloi.kd", m.gfx90a);
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    Signal done = m.runtime.createSignal(1);
    LaunchGeometry g = LaunchGeometry.linear(1000, 256);
    byte[] kernarg = new KernargBuilder(k).i32(0, -3)
        .build(g, 0, HiddenArguments.NONE.withHostcallBuffer(0x7000).withMultigridSync(0x9000), q);
    assertThat(kernarg).hasSize(64);
    dispatcher.dispatch(q, k, g, 0, kernarg, done);
    assertThat(done.wait(SignalCondition.EQ, 0, FIVE_SECONDS)).isZero();
    RecordingConsumer.Seen s = consumer.seen().get(0);
    AqlPacket p = s.packet();
    assertThat(p.setup()).isEqualTo(1);
    assertThat(new long[] {p.gridSizeX(), p.gridSizeY(), p.gridSizeZ()}).containsExactly(1000, 1, 1);
    assertThat(new int[] {p.workgroupSizeX(), p.workgroupSizeY(), p.workgroupSizeZ()}).containsExactly(256, 1, 1);
    assertThat(p.privateSegmentSize()).isEqualTo(160);
    assertThat(p.groupSegmentSize()).isZero();
    ByteBuffer b = le(s.kernarg());
    assertThat(b.getInt(0)).isEqualTo(-3);
    assertThat(b.getLong(32)).as("hostcall buffer").isEqualTo(0x7000);
    assertThat(b.getLong(56)).as("multigrid sync").isEqualTo(0x9000);
    assertThat(strayBytes(s.kernarg(), 0, 64, 0, 4, 32, 8, 56, 8)).as("offsets and hidden_none are zero").isZero();
    assertThat(s.scratchLaneBytes()).as("160 bytes per work-item").isEqualTo(160);
    assertThat(s.scratchLocation()).isEqualTo(q.scratchBacking().orElseThrow().address());
  }

  @Test
  void aDynamicStackPacketIsCappedAt16KiBButScratchCoversTheDescriptorsFixedSize() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx90a-v4", "scratch_recursion", "gfx90a"), m.gfx90a);
    ExecutableSymbol.Kernel k = e.kernel("_Z8scratchyPKiPiPli", m.gfx90a);
    assertThat(k.privateSegmentSize()).isEqualTo(16592);
    assertThat(k.dynamicCallStack()).isTrue();
    assertThat(m.runtime.kernelAt(k.kernelObject())).get().isSameAs(k);
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    Signal done = m.runtime.createSignal(1);
    LaunchGeometry g = LaunchGeometry.hip(2, 1, 1, 64, 1, 1);
    byte[] kernarg = new KernargBuilder(k).pointer(0, 1).pointer(1, 2).pointer(2, 3).i32(3, 4)
        .build(g, 0, HiddenArguments.NONE, q);
    dispatcher.dispatch(q, k, g, 0, kernarg, done);
    assertThat(q.awaitCompletion(done, FIVE_SECONDS)).isTrue();
    RecordingConsumer.Seen s = consumer.seen().get(0);
    assertThat(s.packet().privateSegmentSize()).as("CLR's cap").isEqualTo(16 * 1024);
    assertThat(s.scratchLaneBytes()).as("what the kernel's prologue assumes").isEqualTo(16592);
    e.destroy();
    assertThat(m.runtime.kernelAt(k.kernelObject())).isEmpty();
  }

  @Test
  void everyV5HiddenKindIsFilledAsClrFillsIt() throws Exception {
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    LaunchGeometry g = new LaunchGeometry(2, 1000, 30, 1, 256, 4, 1, 5, 6, 0);
    byte[] seg = new byte[256 + 16];
    KernargBuilder.fillHidden(seg, HiddenLayouts.codeObjectV5(16), g, 1234,
        new HiddenArguments(0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666), q.address(),
        q.privateSegmentApertureBaseHi(), q.groupSegmentApertureBaseHi());
    ByteBuffer b = le(seg);
    int h = 16;
    assertThat(new int[] {b.getInt(h), b.getInt(h + 4), b.getInt(h + 8)}).as("1000/256, 30/4, 1")
        .containsExactly(3, 7, 1);
    assertThat(new short[] {b.getShort(h + 12), b.getShort(h + 14), b.getShort(h + 16)})
        .containsExactly((short) 256, (short) 4, (short) 1);
    assertThat(new short[] {b.getShort(h + 18), b.getShort(h + 20), b.getShort(h + 22)}).as("remainders; z untouched")
        .containsExactly((short) 232, (short) 2, (short) 0);
    assertThat(new long[] {b.getLong(h + 40), b.getLong(h + 48), b.getLong(h + 56)}).containsExactly(5, 6, 0);
    assertThat(b.getShort(h + 64)).isEqualTo((short) 2);
    assertThat(new long[] {b.getLong(h + 72), b.getLong(h + 80), b.getLong(h + 88), b.getLong(h + 96),
        b.getLong(h + 104), b.getLong(h + 112)}).as("printf, hostcall, multigrid, heap, default queue, completion")
        .containsExactly(0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666);
    assertThat(b.getInt(h + 120)).as("dynamic LDS").isEqualTo(1234);
    assertThat(b.getInt(h + 192)).as("private base").isEqualTo((int) (ProcessApertures.SCRATCH_BASE >>> 32));
    assertThat(b.getInt(h + 196)).as("shared base").isEqualTo((int) (ProcessApertures.LDS_BASE >>> 32));
    assertThat(b.getLong(h + 200)).as("queue ptr").isEqualTo(q.address());
    assertThat(strayBytes(seg, 0, seg.length, h, 24, h + 40, 26, h + 72, 52, h + 192, 16)).isZero();
  }

  @Test
  void aBarrierAndHoldsLaterPacketsUntilItsSignalsAreZero() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx90a-v4", "vector_add", "gfx90a"), m.gfx90a);
    ExecutableSymbol.Kernel k = e.kernel("_Z4vaddPKfS0_Pfi", m.gfx90a);
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    Signal dep = m.runtime.createSignal(1);
    Signal barrierDone = m.runtime.createSignal(1);
    Signal done = m.runtime.createSignal(1);
    long id = dispatcher.barrierAnd(q, List.of(dep), barrierDone);
    LaunchGeometry g = LaunchGeometry.hip(4, 1, 1, 256, 1, 1);
    byte[] kernarg = new KernargBuilder(k).pointer(0, 0x100).pointer(1, 0x200).pointer(2, 0x300).i32(3, 1024)
        .build(g, 0, HiddenArguments.NONE, q);
    dispatcher.dispatch(q, k, g, 0, kernarg, done);
    assertThat(done.wait(SignalCondition.EQ, 0, TimeUnit.MILLISECONDS.toNanos(80))).as("held").isEqualTo(1);
    assertThat(consumer.seen()).isEmpty();
    assertThat(barrierDone.load()).isEqualTo(1);
    dep.store(0);
    assertThat(done.wait(SignalCondition.EQ, 0, FIVE_SECONDS)).isZero();
    assertThat(barrierDone.load()).as("the barrier's own completion signal").isZero();
    assertThat(consumer.seen()).hasSize(1);
    assertThat(consumer.seen().get(0).packet().index()).isEqualTo(id + 1);
    ByteBuffer b = le(consumer.seen().get(0).kernarg());
    assertThat(new long[] {b.getLong(0), b.getLong(8), b.getLong(16)}).containsExactly(0x100, 0x200, 0x300);
    assertThat(b.getInt(24)).isEqualTo(1024);
  }

  @Test
  void mistakesSayWhatWasExpected() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx90a-v4", "vector_add", "gfx90a"), m.gfx90a);
    ExecutableSymbol.Kernel k = e.kernel("_Z4vaddPKfS0_Pfi", m.gfx90a);
    HsaQueue q = m.runtime.createQueue(m.gfx90a, 64);
    HsaQueue other = m.runtime.createQueue(m.gfx942, 64);
    LaunchGeometry g = LaunchGeometry.hip(1, 1, 1, 64, 1, 1);
    assertThatThrownBy(() -> dispatcher.dispatch(q, k, g, 0, new byte[20], null))
        .hasMessageContaining("kernel _Z4vaddPKfS0_Pfi takes a " + k.kernargSegmentSize() + "-byte kernarg segment, 20 "
            + "bytes given");
    assertThatThrownBy(() -> dispatcher.dispatch(other, k, g, 0, new byte[(int) k.kernargSegmentSize()], null))
        .hasMessageContaining("was loaded for gfx90a").hasMessageContaining("not for the queue's agent gfx942");
    assertThatThrownBy(() -> dispatcher.dispatch(q, k, g, 65537, new byte[(int) k.kernargSegmentSize()], null))
        .hasMessageContaining("needs 65537 bytes of LDS (0 static + 65537 dynamic); gfx90a has 65536")
        .isInstanceOf(HsaException.class);
    assertThatThrownBy(() -> LaunchGeometry.hip(1, 1, 1, 1024, 2, 1)).hasMessageContaining("1024x2x1 has 2048");
    assertThatThrownBy(() -> new KernargBuilder(k).i32(0, 1)).hasMessageContaining("argument 0 (global_buffer, 8 "
        + "bytes at offset 0) of kernel _Z4vaddPKfS0_Pfi takes 8 bytes, 4 given");
    assertThatThrownBy(() -> new KernargBuilder(k).i32(4, 1)).hasMessageContaining("takes 4 explicit argument(s); "
        + "there is no argument 4");
    assertThatThrownBy(() -> new KernargBuilder(k).pointer(0, 1).build(g, 0, HiddenArguments.NONE, q))
        .hasMessageContaining("argument 1 (global_buffer, 8 bytes at offset 8) of kernel _Z4vaddPKfS0_Pfi was not set");
    assertThatThrownBy(() -> new KernargBuilder(k).explicitBlock(new byte[24]))
        .hasMessageContaining("kernel _Z4vaddPKfS0_Pfi takes 28 bytes of explicit arguments, 24 given");
    byte[] block = new KernargBuilder(k).explicitBlock(new byte[28]).build(g, 0, HiddenArguments.NONE, q);
    assertThat(block).hasSize((int) k.kernargSegmentSize());
    assertThat(consumer.seen()).isEmpty();
  }

  @Test
  void anExplicitBlockMayIncludeThePaddingBeforeTheHiddenArguments() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx942-v6-ccob2", "device_globals", "gfx942"), m.gfx942);
    ExecutableSymbol.Kernel k = e.kernel("_Z10useGlobalsPfi", m.gfx942);
    HsaQueue q = m.runtime.createQueue(m.gfx942, 64);
    LaunchGeometry g = LaunchGeometry.linear(64, 64);
    byte[] block = new byte[16];
    le(block).putLong(0, 0x1234_5678L).putInt(8, 9).putInt(12, 0x7777);
    byte[] seg = new KernargBuilder(k).explicitBlock(block).build(g, 0, HiddenArguments.NONE, q);
    assertThat(le(seg).getLong(0)).isEqualTo(0x1234_5678L);
    assertThat(le(seg).getInt(8)).isEqualTo(9);
    assertThat(le(seg).getInt(16)).as("block count x follows").isEqualTo(1);
    assertThat(new KernargBuilder(k).explicitBlock(new byte[12]).build(g, 0, HiddenArguments.NONE, q)).hasSize(272);
    assertThatThrownBy(() -> new KernargBuilder(k).explicitBlock(new byte[20]))
        .hasMessageContaining("kernel _Z10useGlobalsPfi takes 12 bytes of explicit arguments (16 with padding), 20 "
            + "given");
  }

  @Test
  void aMissingSymbolListsTheOnesThatExist() throws Exception {
    Executable e = m.load(TestMachine.codeObject("gfx90a-v4", "vector_add", "gfx90a"), m.gfx90a);
    assertThatThrownBy(() -> e.symbol("_Z4vaddPKfS0_Pfi", m.gfx90a)).isInstanceOf(HsaException.class)
        .hasMessageContaining("no symbol '_Z4vaddPKfS0_Pfi' for agent gfx90a in the executable (kernels are named by "
            + "their descriptor symbol: _Z4vaddPKfS0_Pfi.kd); it defines")
        .hasMessageContaining("_Z4vaddPKfS0_Pfi.kd")
        .extracting(x -> ((HsaException) x).status()).isEqualTo(HsaStatus.INVALID_SYMBOL_NAME);
    assertThatThrownBy(() -> e.kernel("vadd", m.gfx90a)).hasMessageContaining("no kernel 'vadd'")
        .hasMessageContaining("_Z4vaddPKfS0_Pfi.kd");
    assertThatThrownBy(() -> e.kernel("anything", m.gfx942)).hasMessageContaining("it defines no symbols for that agent");
  }
}
