package dev.hipsim.bench;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.decode.DecodedProgram;
import dev.hipsim.isa.decode.Decoder;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.disasm.InstructionPrinter;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decode throughput on the largest code object of the corpus (the -O0 -g float_math build: 13 884 instructions,
 * every encoding family), reported per instruction: invert the ns/op for instructions per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DecodeBench {
  /** Instructions in the .text of gfx90a-debug/float_math (llvm-objdump's count). */
  static final int INSTRUCTIONS = 13_884;

  byte[] code;
  long base;
  Decoder decoder;
  DecodedProgram program;

  @Setup
  public void load() throws ElfFormatException {
    ElfFile elf = ElfFile.parse(BenchData.read("gfx90a-debug/float_math.co/0-gfx90a.hsaco"));
    SectionHeader text = elf.section(".text").orElseThrow();
    ByteBuffer b = elf.data(text);
    code = new byte[b.remaining()];
    b.get(code);
    base = text.address();
    decoder = new Decoder(Target.GFX90A);
    program = decoder.decodeAll(code, 0, code.length, base);
    if (program.size() != INSTRUCTIONS) throw new IllegalStateException("decoded " + program.size());
  }

  /** Decoding the whole .text: ns per instruction. */
  @Benchmark
  @OperationsPerInvocation(INSTRUCTIONS)
  public DecodedProgram decodeText() {
    return decoder.decodeAll(code, 0, code.length, base);
  }

  /** Printing every decoded instruction in LLVM syntax: ns per instruction. */
  @Benchmark
  @OperationsPerInvocation(INSTRUCTIONS)
  public void printText(Blackhole bh) {
    StringBuilder sb = new StringBuilder(64);
    for (Instruction inst : program.instructions()) {
      sb.setLength(0);
      InstructionPrinter.print(inst, sb);
      bh.consume(sb.length());
    }
  }
}
