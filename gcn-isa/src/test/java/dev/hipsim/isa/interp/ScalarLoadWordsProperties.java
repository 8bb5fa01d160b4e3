package dev.hipsim.isa.interp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.dispatch.WaveFault;
import dev.hipsim.isa.mem.GpuMemoryFault;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

/**
 * s_load_dword(xN) from memory that hands out its pages' words ({@link dev.hipsim.isa.mem.GpuMemory#readableWords}):
 * the dwords read from the words of a cached page are those load32 gives, near the end of a page and across it
 * into a page that is not cached or not mapped, and a load that reaches an unmapped page faults at its address.
 */
class ScalarLoadWordsProperties {
  private static final long DATA = 0x3_0000_0000L;
  private static final long CODE = Machine.MEM + 0x80000;

  @Property(tries = 400)
  void scalarLoadsReadWhatLoad32Reads(@ForAll long seed) throws Exception {
    Target t = Target.GFX90A;
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 1);
    // the first page cached, the second cached, mapped only, or unmapped
    int[] kind = {2, r.nextInt(3)};
    WordPagesMemory memory = new WordPagesMemory(m.memory, DATA, kind);
    for (int p = 0; p < 2; p++) {
      if (kind[p] == 0) continue;
      for (int i = 0; i < 512; i++) memory.store64(DATA + 4096L * p + 8L * i, r.nextLong());
    }
    int dwords = new int[] {1, 2, 4, 8, 16}[r.nextInt(5)];
    Operation op = Operation.valueOf("S_LOAD_DWORD" + (dwords == 1 ? "" : "X" + dwords));
    long base = DATA + (r.nextBoolean() ? 4096 - 4 * r.nextInt(24) : 4 * r.nextInt(1000));
    int offset = 4 * r.nextInt(8);
    m.w.setS64(4, base);
    int sdata = 16;
    Enc e = Enc.of(t, Format.SMEM, op).smem(4, sdata, offset, -1);
    byte[] code = e.bytes();
    m.memory.write(CODE, code, 0, code.length);
    byte[] end = ScalarProperties.sopp(t, Operation.S_ENDPGM, 0).bytes();
    m.memory.write(CODE + code.length, end, 0, end.length);
    m.w.pc = CODE;

    int[] expected = m.w.s.clone();
    Long faultAt = null;
    long address = base + offset;
    for (int k = 0; k < dwords && faultAt == null; k++) {
      try {
        expected[sdata + k] = memory.load32(address + 4L * k);
      } catch (GpuMemoryFault f) {
        faultAt = address + 4L * k;
      }
    }
    boolean onePage = (address & 4095) + 4L * dwords <= 4096;
    Statistics.label("within one page").collect(onePage);
    Statistics.label("within one page").coverage(c -> c.check(true).percentage(p -> p > 40));
    Statistics.label("faults").collect(faultAt != null);
    Statistics.label("faults").coverage(c -> c.check(true).percentage(p -> p > 3));

    String fault = null;
    try {
      new Interpreter(new CodeCache(t, false), memory, m.launch).run(m.w, 10);
    } catch (WaveFault f) {
      fault = f.getMessage();
    }
    String text = m.text(e) + " from 0x" + Long.toHexString(address) + " (second page " + kind[1] + ")";
    if (faultAt != null) {
      assertThat(fault).as(text).isNotNull().contains(Long.toHexString(faultAt));
    } else {
      assertThat(fault).as(text).isNull();
      assertThat(m.w.s).as(text).isEqualTo(expected);
    }
  }
}
