package dev.hipsim.isa.interp;

import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.CodeObjectMetadata;
import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.bundle.metadata.ValueKind;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.DispatchStats;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * One hipcc-built code object of the corpus loaded on a {@link TestDevice}, with kernel launches whose arguments
 * are laid out as CLR lays them out: the explicit ones at the offsets the metadata gives, the hidden ones (block
 * counts, group sizes, remainders, grid dimensions, apertures, dynamic LDS size...) filled in from the launch.
 */
final class CorpusRun {
  final TestDevice dev;
  final TestDevice.Loaded code;
  final CodeObjectMetadata metadata;

  private CorpusRun(TestDevice dev, TestDevice.Loaded code, CodeObjectMetadata metadata) {
    this.dev = dev;
    this.code = code;
    this.metadata = metadata;
  }

  /** The code object of {@code program} in corpus variant {@code variant} for {@code target}, loaded. */
  static CorpusRun load(String variant, String program, Target target, int memoryBytes) throws Exception {
    Path dir = Corpus.root().resolve(variant).resolve(program + ".co");
    Assumptions.assumeTrue(Files.isDirectory(dir), "the corpus has no " + variant + " build of " + program);
    Path image;
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> candidates = files.filter(p -> p.getFileName().toString().endsWith(".hsaco"))
          .filter(p -> p.getFileName().toString().contains(target.processor())).sorted().toList();
      if (candidates.isEmpty()) throw new IllegalArgumentException("no " + target + " code object in " + dir);
      image = candidates.stream().filter(p -> p.toString().contains("xnack-")).findFirst().orElse(candidates.get(0));
    }
    byte[] bytes = Corpus.read(image);
    TestDevice dev = new TestDevice(target, memoryBytes);
    TestDevice.Loaded code = dev.load(bytes);
    CodeObjectMetadata meta = CodeObjectInfo.of(code.elf()).metadata()
        .orElseThrow(() -> new IllegalStateException("no metadata in " + image));
    return new CorpusRun(dev, code, meta);
  }

  /** A device buffer holding {@code bytes}. */
  long upload(ByteBuffer bytes) throws Exception {
    byte[] b = new byte[bytes.capacity()];
    bytes.duplicate().position(0).get(b);
    long at = dev.alloc(Math.max(b.length, 4));
    dev.write(at, b);
    return at;
  }

  long zeros(long bytes) throws Exception {
    long at = dev.alloc(bytes);
    dev.write(at, new byte[(int) bytes]);
    return at;
  }

  ByteBuffer download(long address, int bytes) throws Exception {
    return ByteBuffer.wrap(dev.read(address, bytes)).order(ByteOrder.LITTLE_ENDIAN);
  }

  static ByteBuffer buffer(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  KernelMetadata kernel(String name) {
    return metadata.kernels().stream().filter(k -> k.name().equals(name) || k.name().startsWith(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no kernel " + name));
  }

  /**
   * Launches {@code name} over {@code blocks} workgroups of {@code block} work-items (1-3 dimensions) with the
   * explicit arguments in order: Long for pointers and 64-bit values, Integer, Float or Double.
   */
  DispatchStats launch(String name, int[] blocks, int[] block, int dynamicLds, int scratchPerLane, Object... args)
      throws Exception {
    KernelMetadata k = kernel(name);
    ByteBuffer kernargs = buffer((int) Math.max(k.kernargSegmentSize(), 16) + 64);
    List<KernelArgument> explicit = k.explicitArguments();
    if (explicit.size() != args.length) {
      throw new IllegalArgumentException(name + " takes " + explicit.size() + " arguments, not " + args.length);
    }
    for (int i = 0; i < args.length; i++) {
      int at = (int) explicit.get(i).offset();
      Object v = args[i];
      if (v instanceof Long l) kernargs.putLong(at, l);
      else if (v instanceof Integer n) kernargs.putInt(at, n);
      else if (v instanceof Float f) kernargs.putFloat(at, f);
      else if (v instanceof Double d) kernargs.putDouble(at, d);
      else throw new IllegalArgumentException("argument " + v);
    }
    int dims = blocks.length;
    for (KernelArgument a : k.hiddenArguments()) {
      int at = (int) a.offset();
      int d = 0;
      long value;
      switch (a.valueKind()) {
        case HIDDEN_BLOCK_COUNT_X: case HIDDEN_BLOCK_COUNT_Y: case HIDDEN_BLOCK_COUNT_Z:
          d = a.valueKind().ordinal() - ValueKind.HIDDEN_BLOCK_COUNT_X.ordinal();
          value = d < dims ? blocks[d] : 1;
          break;
        case HIDDEN_GROUP_SIZE_X: case HIDDEN_GROUP_SIZE_Y: case HIDDEN_GROUP_SIZE_Z:
          d = a.valueKind().ordinal() - ValueKind.HIDDEN_GROUP_SIZE_X.ordinal();
          value = d < dims ? block[d] : 1;
          break;
        case HIDDEN_GRID_DIMS: value = dims; break;
        case HIDDEN_DYNAMIC_LDS_SIZE: value = dynamicLds; break;
        case HIDDEN_PRIVATE_BASE: value = TestDevice.PRIVATE_APERTURE >>> 32; break;
        case HIDDEN_SHARED_BASE: value = TestDevice.SHARED_APERTURE >>> 32; break;
        default: value = 0; // offsets, remainders (whole blocks only), buffers the programs do not use
      }
      switch ((int) a.size()) {
        case 2: kernargs.putShort(at, (short) value); break;
        case 4: kernargs.putInt(at, (int) value); break;
        case 8: kernargs.putLong(at, value); break;
        default: break;
      }
    }
    int[] grid = new int[dims];
    for (int i = 0; i < dims; i++) grid[i] = blocks[i] * block[i];
    long kd = code.kernel(k.name());
    int perLane = k.usesDynamicStack().orElse(false) ? Math.max(scratchPerLane, 4096) : scratchPerLane;
    return dev.dispatch(k.name(), kd, grid, block, kernargs.array(), dynamicLds, 2, perLane, perLane > 0 ? 16 : 256);
  }
}
