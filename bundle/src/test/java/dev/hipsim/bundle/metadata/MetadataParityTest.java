package dev.hipsim.bundle.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.hipsim.bundle.testing.BundleCorpus;
import dev.hipsim.bundle.testing.ReadobjYaml;
import dev.hipsim.testing.Corpus;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decoded metadata of every corpus code object equals what llvm-readobj --notes printed, field by field: every
 * key LLVM printed must map to a field of our records with the same value, and every optional field we decoded
 * must have been printed.
 */
class MetadataParityTest {
  private static final AtomicInteger CODE_OBJECTS = new AtomicInteger();
  private static final AtomicInteger KERNELS = new AtomicInteger();
  private static final AtomicInteger ARGUMENTS = new AtomicInteger();

  /** How each kernel key LLVM prints reads from our record, rendered as YAML prints it (null: absent). */
  private static final Map<String, Function<KernelMetadata, Object>> KERNEL_FIELDS = new LinkedHashMap<>();
  private static final Map<String, Function<KernelArgument, Object>> ARGUMENT_FIELDS = new LinkedHashMap<>();

  static {
    KERNEL_FIELDS.put(".name", KernelMetadata::name);
    KERNEL_FIELDS.put(".symbol", KernelMetadata::symbol);
    KERNEL_FIELDS.put(".language", k -> k.language().orElse(null));
    KERNEL_FIELDS.put(".language_version", k -> k.languageVersion().isEmpty() ? null : strings(k.languageVersion()));
    KERNEL_FIELDS.put(".kernarg_segment_size", k -> k.kernargSegmentSize());
    KERNEL_FIELDS.put(".kernarg_segment_align", k -> k.kernargSegmentAlign());
    KERNEL_FIELDS.put(".group_segment_fixed_size", k -> k.groupSegmentFixedSize());
    KERNEL_FIELDS.put(".private_segment_fixed_size", k -> k.privateSegmentFixedSize());
    KERNEL_FIELDS.put(".wavefront_size", k -> k.wavefrontSize());
    KERNEL_FIELDS.put(".sgpr_count", k -> k.sgprCount());
    KERNEL_FIELDS.put(".vgpr_count", k -> k.vgprCount());
    KERNEL_FIELDS.put(".agpr_count", k -> opt(k.agprCount()));
    KERNEL_FIELDS.put(".max_flat_workgroup_size", k -> k.maxFlatWorkgroupSize());
    KERNEL_FIELDS.put(".sgpr_spill_count", k -> opt(k.sgprSpillCount()));
    KERNEL_FIELDS.put(".vgpr_spill_count", k -> opt(k.vgprSpillCount()));
    KERNEL_FIELDS.put(".uses_dynamic_stack", k -> k.usesDynamicStack().orElse(null));
    KERNEL_FIELDS.put(".uniform_work_group_size", k -> opt(k.uniformWorkGroupSize()));
    KERNEL_FIELDS.put(".workgroup_processor_mode", k -> opt(k.workgroupProcessorMode()));
    KERNEL_FIELDS.put(".reqd_workgroup_size", k -> k.requiredWorkgroupSize().map(MetadataParityTest::dim).orElse(null));
    KERNEL_FIELDS.put(".workgroup_size_hint", k -> k.workgroupSizeHint().map(MetadataParityTest::dim).orElse(null));
    KERNEL_FIELDS.put(".vec_type_hint", k -> k.vecTypeHint().orElse(null));
    KERNEL_FIELDS.put(".device_enqueue_symbol", k -> k.deviceEnqueueSymbol().orElse(null));
    KERNEL_FIELDS.put(".kind", k -> k.kind().orElse(null));
    KERNEL_FIELDS.put(".cluster_dims", k -> k.clusterDims().map(MetadataParityTest::dim).orElse(null));

    ARGUMENT_FIELDS.put(".name", a -> a.name().orElse(null));
    ARGUMENT_FIELDS.put(".type_name", a -> a.typeName().orElse(null));
    ARGUMENT_FIELDS.put(".offset", KernelArgument::offset);
    ARGUMENT_FIELDS.put(".size", KernelArgument::size);
    ARGUMENT_FIELDS.put(".value_kind", a -> a.valueKind().metadataName());
    ARGUMENT_FIELDS.put(".address_space", a -> a.addressSpace().map(AddressSpace::metadataName).orElse(null));
    ARGUMENT_FIELDS.put(".access", a -> a.access().map(Access::metadataName).orElse(null));
    ARGUMENT_FIELDS.put(".actual_access", a -> a.actualAccess().map(Access::metadataName).orElse(null));
    ARGUMENT_FIELDS.put(".pointee_align", a -> opt(a.pointeeAlign()));
    ARGUMENT_FIELDS.put(".is_const", a -> a.isConst() ? true : null);
    ARGUMENT_FIELDS.put(".is_restrict", a -> a.isRestrict() ? true : null);
    ARGUMENT_FIELDS.put(".is_volatile", a -> a.isVolatile() ? true : null);
    ARGUMENT_FIELDS.put(".is_pipe", a -> a.isPipe() ? true : null);
  }

  private static Object opt(OptionalInt v) {
    return v.isPresent() ? v.getAsInt() : null;
  }

  private static Object opt(OptionalLong v) {
    return v.isPresent() ? v.getAsLong() : null;
  }

  private static List<String> dim(Dim3 d) {
    return List.of(Long.toString(d.x()), Long.toString(d.y()), Long.toString(d.z()));
  }

  private static List<String> strings(List<Integer> values) {
    List<String> out = new ArrayList<>();
    for (Integer v : values) out.add(v.toString());
    return out;
  }

  static Stream<Corpus.CodeObject> codeObjects() {
    return Corpus.codeObjects().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codeObjects")
  void metadataEqualsLlvmReadobj(Corpus.CodeObject co) throws Exception {
    CodeObjectInfo info = CodeObjectInfo.read(ByteBuffer.wrap(Corpus.read(co.hsaco())));
    Map<String, Object> yaml = ReadobjYaml.metadataOf(co.file("notes.txt"));
    compare(info, yaml);
    assertThat(info.targetId().toString()).isEqualTo(co.targetId());
    assertThat(info.metadata().orElseThrow().target()).contains("amdgcn-amd-amdhsa--" + co.targetId());
  }

  @Test
  void bufferedPrintfStringsEqualLlvmReadobj() throws Exception {
    Path hsaco = BundleCorpus.extras().resolve("printf_buffered.hsaco");
    CodeObjectInfo info = CodeObjectInfo.read(ByteBuffer.wrap(Corpus.read(hsaco)));
    Map<String, Object> yaml = ReadobjYaml.metadataOf(BundleCorpus.extras().resolve("printf_buffered.hsaco.notes.txt"));
    compare(info, yaml);
    CodeObjectMetadata md = info.metadata().orElseThrow();
    assertThat(md.printf()).hasSize(2);
    assertThat(md.printf().get(0).format()).isEqualTo("lane %d of %d: %f\n");
    assertThat(md.printf().get(0).hipHash()).isPresent();
    assertThat(md.printf().get(1).format()).isEqualTo("done:%s\n");
    assertThat(md.kernel("_Z5helloif").orElseThrow().explicitArguments()).hasSize(2);
  }

  @SuppressWarnings("unchecked")
  private static void compare(CodeObjectInfo info, Map<String, Object> yaml) {
    CodeObjectMetadata md = info.metadata().orElseThrow();
    for (Map.Entry<String, Object> e : yaml.entrySet()) {
      switch (e.getKey()) {
        case "amdhsa.version":
          assertThat(e.getValue()).isEqualTo(List.of(Integer.toString(md.version().major()),
              Integer.toString(md.version().minor())));
          break;
        case "amdhsa.target":
          assertThat(md.target()).contains((String) e.getValue());
          break;
        case "amdhsa.printf": {
          List<String> raw = new ArrayList<>();
          for (PrintfFormat p : md.printf()) raw.add(p.raw());
          assertThat(raw).isEqualTo(e.getValue());
          break;
        }
        case "amdhsa.kernels": {
          List<Object> kernels = (List<Object>) e.getValue();
          assertThat(md.kernels()).hasSameSizeAs(kernels);
          for (int i = 0; i < kernels.size(); i++) {
            compareKernel(md.kernels().get(i), (Map<String, Object>) kernels.get(i));
          }
          break;
        }
        default:
          fail("llvm-readobj printed top-level key " + e.getKey() + ", which the decoder does not model");
      }
    }
    if (!md.printf().isEmpty()) assertThat(yaml).containsKey("amdhsa.printf");
    assertThat(md.otherFields()).isEmpty();
    CODE_OBJECTS.incrementAndGet();
  }

  @SuppressWarnings("unchecked")
  private static void compareKernel(KernelMetadata k, Map<String, Object> yaml) {
    for (Map.Entry<String, Function<KernelMetadata, Object>> f : KERNEL_FIELDS.entrySet()) {
      Object ours = render(f.getValue().apply(k));
      assertThat(ours).as("kernel %s %s", k.name(), f.getKey()).isEqualTo(yaml.get(f.getKey()));
    }
    for (String key : yaml.keySet()) {
      if (!key.equals(".args") && !KERNEL_FIELDS.containsKey(key)) {
        fail("llvm-readobj printed kernel key " + key + ", which the decoder does not model");
      }
    }
    List<Object> args = (List<Object>) yaml.getOrDefault(".args", List.of());
    assertThat(k.arguments()).as("arguments of %s", k.name()).hasSameSizeAs(args);
    for (int i = 0; i < args.size(); i++) {
      Map<String, Object> a = (Map<String, Object>) args.get(i);
      KernelArgument ours = k.arguments().get(i);
      for (Map.Entry<String, Function<KernelArgument, Object>> f : ARGUMENT_FIELDS.entrySet()) {
        assertThat(render(f.getValue().apply(ours))).as("kernel %s argument %d %s", k.name(), i, f.getKey())
            .isEqualTo(a.get(f.getKey()));
      }
      for (String key : a.keySet()) {
        if (!ARGUMENT_FIELDS.containsKey(key)) fail("llvm-readobj printed argument key " + key + " not modelled");
      }
      assertThat(ours.valueKind()).isNotEqualTo(ValueKind.UNKNOWN);
      assertThat(ours.otherFields()).isEmpty();
      ARGUMENTS.incrementAndGet();
    }
    assertThat(k.otherFields()).isEmpty();
    KERNELS.incrementAndGet();
  }

  private static Object render(Object value) {
    if (value == null || value instanceof List) return value;
    if (value instanceof Optional<?> o) return o.map(MetadataParityTest::render).orElse(null);
    return value.toString();
  }

  @AfterAll
  static void summary() {
    System.out.printf("metadata parity: %d code objects, %d kernels, %d arguments equal to llvm-readobj%n",
        CODE_OBJECTS.get(), KERNELS.get(), ARGUMENTS.get());
  }
}
