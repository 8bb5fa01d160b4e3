package dev.hipsim.bench;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/** Parsing a host binary and a code object: headers, every symbol, relocation and note. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ElfParseBench {
  byte[] host;
  byte[] codeObject;

  @Setup
  public void load() {
    host = BenchData.read("gfx90a-v4/float_math");
    codeObject = BenchData.read("gfx90a-v4/float_math.co/0-gfx90a.hsaco");
  }

  @Benchmark
  public void hostBinary(Blackhole bh) throws ElfFormatException {
    parseAll(ElfFile.parse(host), bh);
  }

  @Benchmark
  public void codeObject(Blackhole bh) throws ElfFormatException {
    parseAll(ElfFile.parse(codeObject), bh);
  }

  private static void parseAll(ElfFile elf, Blackhole bh) throws ElfFormatException {
    bh.consume(elf.sections());
    bh.consume(elf.symbols());
    bh.consume(elf.dynamicSymbols());
    bh.consume(elf.relocationSections());
    bh.consume(elf.notes());
    bh.consume(elf.dynamic());
  }
}
