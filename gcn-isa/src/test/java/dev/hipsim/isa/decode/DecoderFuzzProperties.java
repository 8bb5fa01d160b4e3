package dev.hipsim.isa.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.disasm.InstructionPrinter;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** No word sequence makes the decoder or the printer throw, and decoding always advances and covers the input. */
class DecoderFuzzProperties {
  private static final List<byte[]> TEXTS = corpusTexts();

  @Property(tries = 400)
  void randomBytesDecodeWithoutThrowing(@ForAll @Size(max = 256) byte[] code, @ForAll Target target) {
    decodeAndPrintAll(target, code);
  }

  @Property(tries = 400)
  void randomWordsOfEveryEncodingDecodeWithoutThrowing(@ForAll("words") int[] words, @ForAll Target target) {
    byte[] code = new byte[words.length * 4];
    for (int i = 0; i < words.length; i++) {
      for (int b = 0; b < 4; b++) code[4 * i + b] = (byte) (words[i] >>> (8 * b));
    }
    decodeAndPrintAll(target, code);
  }

  @Property(tries = 200)
  void mutatedRealCodeDecodesWithoutThrowing(@ForAll @IntRange(min = 0, max = 10_000) int pick,
      @ForAll @IntRange(min = 1, max = 64) int flips, @ForAll long seed, @ForAll Target target) {
    byte[] text = TEXTS.get(pick % TEXTS.size());
    java.util.Random rnd = new java.util.Random(seed);
    int start = rnd.nextInt(Math.max(1, text.length - 512));
    byte[] code = java.util.Arrays.copyOfRange(text, start, Math.min(text.length, start + 512));
    for (int i = 0; i < flips; i++) {
      int bit = rnd.nextInt(code.length * 8);
      code[bit / 8] ^= (byte) (1 << (bit % 8));
    }
    decodeAndPrintAll(target, code);
  }

  /** Words whose top bits pick each encoding in turn (including ones no table covers), the rest random. */
  @Provide
  Arbitrary<int[]> words() {
    int[][] prefixes = {
        {0x00000000, 1}, {0x7c000000, 7}, {0x7e000000, 7}, {0x80000000, 2}, {0xb0000000, 4}, {0xbe800000, 9},
        {0xbf000000, 9}, {0xbf800000, 9}, {0xc0000000, 6}, {0xd0000000, 6}, {0xd3800000, 9}, {0xd8000000, 6},
        {0xdc000000, 6}, {0xe0000000, 6}, {0xe8000000, 6}, {0xf0000000, 6}, {0xc4000000, 6}, {0xd4000000, 6}};
    Arbitrary<Integer> word = Arbitraries.integers().between(0, prefixes.length - 1).flatMap(i ->
        Arbitraries.integers().map(low -> prefixes[i][0] | (low & (-1 >>> prefixes[i][1]))));
    return word.array(int[].class).ofMinSize(1).ofMaxSize(24);
  }

  private static void decodeAndPrintAll(Target target, byte[] code) {
    DecodedProgram p = new Decoder(target).decodeAll(code, 0, code.length, 0x1000);
    int covered = 0;
    for (Instruction inst : p.instructions()) {
      assertThat(inst.size()).isPositive();
      assertThat(inst.address()).isEqualTo(0x1000 + covered);
      covered += inst.size();
      assertThat(InstructionPrinter.print(inst)).isNotBlank();
      InstructionPrinter.encodingText(inst);
    }
    assertThat(covered).isEqualTo(code.length);
  }

  private static List<byte[]> corpusTexts() {
    return Corpus.codeObjects().stream().filter(co -> co.variant().equals("gfx90a-v4")).limit(8).map(co -> {
      try {
        ElfFile elf = ElfFile.parse(Corpus.read(co.hsaco()));
        SectionHeader text = elf.section(".text").orElseThrow();
        ByteBuffer b = elf.data(text);
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }).toList();
  }
}
