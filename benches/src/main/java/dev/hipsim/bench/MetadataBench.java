package dev.hipsim.bench;

import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.MetadataDecoder;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfNote;
import java.nio.ByteBuffer;
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

/**
 * Decoding the NT_AMDGPU_METADATA note of hipbench's gfx90a v5 code object (3 kernels, 3.7 KB of MessagePack): the
 * note alone, and the whole code object (ELF headers, notes, metadata) as inspect reads it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetadataBench {
  byte[] codeObject;
  byte[] note;

  @Setup
  public void load() throws Exception {
    codeObject = BenchData.read("gfx90a-v5-xnack/hipbench.co/0-gfx90a_xnack-.hsaco");
    try (ElfFile elf = ElfFile.parse(codeObject)) {
      ElfNote n = elf.amdgpuMetadataNote().orElseThrow();
      note = new byte[n.descriptor().remaining()];
      n.descriptorView().get(note);
    }
  }

  @Benchmark
  public void decodeNote(Blackhole bh) throws Exception {
    bh.consume(MetadataDecoder.decode(note, 0));
  }

  @Benchmark
  public void codeObjectInfo(Blackhole bh) throws Exception {
    bh.consume(CodeObjectInfo.read(ByteBuffer.wrap(codeObject)));
  }
}
