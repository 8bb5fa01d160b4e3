package dev.hipsim.elf;

import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Corrupt ELF files (bit flips, truncation, size and offset fields set huge) produce an {@link ElfFormatException}
 * or parse; nothing else ever escapes, whatever accessor is used.
 */
class ElfFuzzProperties {
  private static final List<byte[]> SAMPLES = samples();

  private static List<byte[]> samples() {
    List<byte[]> out = new ArrayList<>();
    out.add(Corpus.read(Corpus.binary("gfx90a-v4", "vector_add")));
    out.add(Corpus.read(Corpus.binary("gfx90a-v4", "vector_add-stripped")));
    out.add(Corpus.read(Corpus.binary("gfx90a-v4", "libkern.so")));
    for (Corpus.CodeObject c : Corpus.codeObjects()) {
      if (c.program().equals("device_globals") || c.program().equals("vector_add") && c.variant().startsWith("gfx942")) {
        out.add(Corpus.read(c.hsaco()));
      }
    }
    return out;
  }

  /** A mutation: which sample, what to do, where, and with which value. */
  record Mutation(int sample, int kind, int position, long value, int count) {}

  @Provide
  Arbitrary<Mutation> mutations() {
    return Combinators.combine(
        Arbitraries.integers().between(0, SAMPLES.size() - 1),
        Arbitraries.integers().between(0, 3),
        Arbitraries.integers().greaterOrEqual(0),
        Arbitraries.longs().withDistribution(net.jqwik.api.RandomDistribution.uniform())
            .edgeCases(c -> c.add(Long.MAX_VALUE, -1L, 0x7fff_ffffL, 0xffff_ffffL, 1L << 31)),
        Arbitraries.integers().between(1, 16)).as(Mutation::new);
  }

  @Property(tries = 10_000)
  void corruptFilesOnlyEverFailWithElfFormatException(@ForAll("mutations") Mutation m) {
    byte[] original = SAMPLES.get(m.sample());
    byte[] bytes = mutate(original, m);
    try {
      exercise(ElfFile.parse(bytes));
    } catch (ElfFormatException expected) {
      // A typed error naming the offset is the right outcome for bad input.
      if (expected.getMessage() == null || !expected.getMessage().startsWith("at file offset 0x")) {
        throw new AssertionError("error without an offset: " + expected.getMessage());
      }
    }
  }

  private static byte[] mutate(byte[] original, Mutation m) {
    switch (m.kind()) {
      case 0: { // flip bits, biased towards the headers where structure lives
        byte[] b = original.clone();
        for (int i = 0; i < m.count(); i++) {
          int limit = i % 2 == 0 ? Math.min(b.length, 4096) : b.length;
          int at = Math.floorMod(m.position() + i * 7919, limit);
          b[at] ^= (byte) (1 << ((m.value() >>> (i * 3)) & 7));
        }
        return b;
      }
      case 1: { // truncate
        int length = Math.floorMod(m.position(), original.length);
        byte[] b = new byte[length];
        System.arraycopy(original, 0, b, 0, length);
        return b;
      }
      case 2: { // set a header field to a large or odd value
        byte[] b = original.clone();
        int[][] fields = {{24, 8}, {32, 8}, {40, 8}, {48, 4}, {52, 2}, {54, 2}, {56, 2}, {58, 2}, {60, 2}, {62, 2}};
        int[] f = fields[Math.floorMod(m.position(), fields.length)];
        put(b, f[0], f[1], m.value());
        return b;
      }
      default: { // set a field of one section header (name, type, offset, size, link, info, entsize) to a large value
        byte[] b = original.clone();
        ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = h.getLong(40);
        int shnum = h.getShort(60) & 0xffff;
        if (shnum == 0 || shoff <= 0 || shoff + 64L * shnum > b.length) return b;
        int section = Math.floorMod(m.position(), shnum);
        int[][] fields = {{0, 4}, {4, 4}, {24, 8}, {32, 8}, {40, 4}, {44, 4}, {56, 8}};
        int[] f = fields[Math.floorMod(m.count(), fields.length)];
        put(b, (int) (shoff + 64L * section + f[0]), f[1], m.value());
        return b;
      }
    }
  }

  private static void put(byte[] b, int at, int size, long value) {
    for (int i = 0; i < size && at + i < b.length; i++) b[at + i] = (byte) (value >>> (8 * i));
  }

  private static void exercise(ElfFile elf) throws ElfFormatException {
    elf.header();
    for (SectionHeader s : elf.sections()) {
      elf.data(s);
      s.typeName();
      s.flagLetters();
    }
    for (ProgramHeader p : elf.segments()) {
      elf.data(p);
      p.typeName();
    }
    elf.symbols();
    elf.dynamicSymbols();
    for (RelocationSection r : elf.relocationSections()) {
      for (Relocation rel : r.relocations()) rel.typeName();
    }
    for (DynamicEntry d : elf.dynamic()) {
      if (d.tag() == DynamicEntry.DT_NEEDED) elf.dynamicString(d.value());
    }
    elf.notes();
    elf.amdgpuMetadataNote();
    elf.versionNeeds();
    elf.versionDefs();
    if (elf.header().isAmdgpu()) elf.amdgpuTarget();
    try {
      elf.fileOffsetOf(elf.header().entry());
    } catch (ElfFormatException notMapped) {
      // expected for entry points outside the file-backed segments
    }
  }
}
