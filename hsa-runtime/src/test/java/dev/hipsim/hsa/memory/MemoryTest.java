package dev.hipsim.hsa.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.TestMachine;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Allocation through the driver and copies through the SDMA engines. */
class MemoryTest {
  private TestMachine m;
  private MemoryManager mem;

  @BeforeEach
  void setUp() throws Exception {
    m = TestMachine.standard();
    mem = m.runtime.memory();
  }

  @AfterEach
  void tearDown() {
    m.close();
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void vramAndSystemMemoryRoundTripAndCopyBothWays() throws Exception {
    long vram = m.gfx90a.vramPool().allocate(3 << 20);
    long host = m.runtime.cpuAgent().fineGrainedPool().allocate(3 << 20);
    long vram2 = m.gfx942.vramPool().allocate(1 << 20);
    assertThat(vram % (2 << 20)).as("large allocations are 2 MiB aligned").isZero();
    byte[] data = random(1 << 20, 1);
    mem.write(host + 100, data, 0, data.length);
    mem.copy(vram + 5, host + 100, data.length); // host -> VRAM by SDMA
    byte[] back = new byte[data.length];
    mem.read(vram + 5, back, 0, back.length);
    assertThat(back).isEqualTo(data);
    mem.copy(vram2, vram + 5, data.length); // gfx90a VRAM -> gfx942 VRAM, staged
    ByteBuffer out = ByteBuffer.allocate(data.length);
    mem.read(vram2, out);
    assertThat(out.array()).isEqualTo(data);
    assertThat(mem.hostView().load8(host + 100)).isEqualTo(data[0]);

    byte[] zeros = new byte[4096];
    mem.read(m.gfx942.vramPool().allocate(4096), zeros, 0, zeros.length);
    assertThat(zeros).as("fresh memory reads zero").containsOnly(0);
  }

  @Test
  void fillSetsDwords() throws Exception {
    long vram = m.gfx942.vramPool().allocate(8192);
    mem.fill(vram + 4, 0xdeadbeef, 3);
    byte[] b = new byte[20];
    mem.read(vram, b, 0, b.length);
    ByteBuffer w = ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    assertThat(w.getInt(0)).isZero();
    assertThat(w.getInt(4)).isEqualTo(0xdeadbeef);
    assertThat(w.getInt(12)).isEqualTo(0xdeadbeef);
    assertThat(w.getInt(16)).isZero();
    assertThatThrownBy(() -> mem.fill(vram + 2, 1, 1)).hasMessageContaining("dword-aligned");
  }

  @Test
  void freeingReturnsVramAndAddressSpace() throws Exception {
    long before = m.device(m.gfx90a).vramUsedBytes();
    int count = mem.allocationCount();
    long a = m.gfx90a.vramPool().allocate(10_000);
    assertThat(mem.find(a + 9_999)).get().extracting(Allocation::size).isEqualTo(12_288L);
    assertThat(m.device(m.gfx90a).vramUsedBytes()).isGreaterThan(before);
    mem.free(a);
    assertThat(m.device(m.gfx90a).vramUsedBytes()).isEqualTo(before);
    assertThat(mem.allocationCount()).isEqualTo(count);
    assertThat(mem.find(a)).isEmpty();
  }

  @Test
  void mistakesAreNamed() throws Exception {
    long a = m.gfx90a.vramPool().allocate(4096);
    assertThatThrownBy(() -> mem.free(a + 16)).isInstanceOf(HsaException.class)
        .hasMessageContaining(String.format("0x%x is not the start of an allocation", a + 16))
        .hasMessageContaining("it lies in");
    assertThatThrownBy(() -> mem.copy(a, 0x1234_0000L, 16)).hasMessageContaining("copy source 0x12340000 is not in "
        + "memory the runtime allocated");
    assertThatThrownBy(() -> mem.write(a + 4000, new byte[200], 0, 200)).hasMessageContaining("runs past the end");
    assertThatThrownBy(() -> m.gfx90a.vramPool().allocate(0)).extracting(e -> ((HsaException) e).status())
        .isEqualTo(HsaStatus.INVALID_ARGUMENT);
    assertThatThrownBy(() -> m.gfx90a.vramPool().allocate(TestMachine.VRAM + 1))
        .extracting(e -> ((HsaException) e).status()).isEqualTo(HsaStatus.INVALID_ALLOCATION);
    m.gfx90a.vramPool().allocate(3L << 30);
    assertThatThrownBy(() -> m.gfx90a.vramPool().allocate(2L << 30)).isInstanceOf(HsaException.class)
        .hasMessageContaining("out of VRAM").extracting(e -> ((HsaException) e).status())
        .isEqualTo(HsaStatus.OUT_OF_RESOURCES);
  }
}
