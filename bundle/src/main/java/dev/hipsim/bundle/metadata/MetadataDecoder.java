package dev.hipsim.bundle.metadata;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfNote;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Decodes the MessagePack {@code NT_AMDGPU_METADATA} note of code objects v3–v6 into {@link CodeObjectMetadata}, by
 * the key and type rules of LLVM's AMDGPUUsage and metadata verifier. Required keys must be present with the right
 * type; keys this decoder does not know are kept as text in {@code otherFields}.
 */
public final class MetadataDecoder {
  private static final java.util.regex.Pattern HIP_HASH = java.util.regex.Pattern.compile("[0-9a-f]{16},");
  private MetadataDecoder() {}

  /** The metadata of a code object, or empty when it has no {@code NT_AMDGPU_METADATA} note (code object v2). */
  public static Optional<CodeObjectMetadata> of(ElfFile codeObject) throws ElfFormatException,
      MetadataFormatException {
    Optional<ElfNote> note = codeObject.amdgpuMetadataNote();
    if (note.isEmpty()) return Optional.empty();
    ElfNote n = note.get();
    return Optional.of(decode(n.descriptorView(), n.offset()));
  }

  /** Decodes a note descriptor; {@code fileOffset} is where it lies, for error messages. */
  public static CodeObjectMetadata decode(ByteBuffer descriptor, long fileOffset) throws MetadataFormatException {
    ByteBuffer view = descriptor.duplicate();
    byte[] bytes = new byte[view.remaining()];
    view.get(bytes);
    return decode(bytes, fileOffset);
  }

  public static CodeObjectMetadata decode(byte[] messagePack, long fileOffset) throws MetadataFormatException {
    MsgNode root = MsgPackTree.read(messagePack, fileOffset);
    Fields top = new Fields(root, "metadata root", fileOffset);
    List<Integer> version = top.optionalIntegers("amdhsa.version", 2)
        .orElseThrow(() -> top.error("amdhsa.version", "is missing (it is required)"));
    Optional<String> target = top.optionalString("amdhsa.target");
    List<PrintfFormat> printf = new ArrayList<>();
    int p = 0;
    for (MsgNode n : top.optionalArray("amdhsa.printf")) {
      if (!(n instanceof MsgNode.Str s)) {
        throw top.error("amdhsa.printf", "item " + p + " is " + Fields.kind(n) + ", expected a string");
      }
      printf.add(printf(s.value(), fileOffset, p++));
    }
    List<GlobalVariable> globals = new ArrayList<>();
    int g = 0;
    for (MsgNode n : top.optionalArray("amdhsa.globals")) {
      Fields f = new Fields(n, "global " + g++, fileOffset);
      globals.add(new GlobalVariable(f.string(".name"), f.unsigned(".size")));
    }
    List<KernelMetadata> kernels = new ArrayList<>();
    int k = 0;
    for (MsgNode n : top.requiredArray("amdhsa.kernels")) kernels.add(kernel(n, k++, fileOffset));
    return new CodeObjectMetadata(new MetadataVersion(version.get(0), version.get(1)), target,
        Collections.unmodifiableList(kernels), Collections.unmodifiableList(printf),
        Collections.unmodifiableList(globals), top.rest());
  }

  private static KernelMetadata kernel(MsgNode node, int index, long fileOffset) throws MetadataFormatException {
    String where = "kernel " + index;
    if (node instanceof MsgNode.Obj o && o.fields().get(".name") instanceof MsgNode.Str s) {
      where += " (" + s.value() + ")";
    }
    Fields f = new Fields(node, where, fileOffset);
    String name = f.string(".name");
    String symbol = f.string(".symbol");
    Optional<String> language = f.optionalString(".language");
    List<Integer> languageVersion = f.optionalIntegers(".language_version", 2).orElse(List.of());
    List<KernelArgument> args = new ArrayList<>();
    int a = 0;
    for (MsgNode n : f.optionalArray(".args")) args.add(argument(n, where + " argument " + a++, fileOffset));
    return new KernelMetadata(name, symbol, language, languageVersion, Collections.unmodifiableList(args),
        f.unsigned(".kernarg_segment_size"), f.unsigned(".kernarg_segment_align"),
        f.unsigned(".group_segment_fixed_size"), f.unsigned(".private_segment_fixed_size"),
        f.smallUnsigned(".wavefront_size"), f.smallUnsigned(".sgpr_count"), f.smallUnsigned(".vgpr_count"),
        f.optionalSmallUnsigned(".agpr_count"), f.smallUnsigned(".max_flat_workgroup_size"),
        f.optionalSmallUnsigned(".sgpr_spill_count"), f.optionalSmallUnsigned(".vgpr_spill_count"),
        f.optionalBoolean(".uses_dynamic_stack"), f.optionalSmallUnsigned(".uniform_work_group_size"),
        f.optionalSmallUnsigned(".workgroup_processor_mode"), f.optionalDim3(".reqd_workgroup_size"),
        f.optionalDim3(".workgroup_size_hint"), f.optionalString(".vec_type_hint"),
        f.optionalString(".device_enqueue_symbol"), f.optionalString(".kind"), f.optionalDim3(".cluster_dims"),
        f.rest());
  }

  private static KernelArgument argument(MsgNode node, String where, long fileOffset)
      throws MetadataFormatException {
    Fields f = new Fields(node, where, fileOffset);
    Optional<String> name = f.optionalString(".name");
    Optional<String> typeName = f.optionalString(".type_name");
    long offset = f.unsigned(".offset");
    long size = f.unsigned(".size");
    String kindName = f.string(".value_kind");
    Optional<String> spaceName = f.optionalString(".address_space");
    Optional<AddressSpace> space = spaceName.isEmpty() ? Optional.empty()
        : Optional.of(enumValue(f, ".address_space", AddressSpace.of(spaceName.get())));
    Optional<Access> access = accessOf(f, ".access");
    Optional<Access> actual = accessOf(f, ".actual_access");
    return new KernelArgument(name, typeName, offset, size, ValueKind.of(kindName), kindName, space, access, actual,
        f.optionalUnsigned(".pointee_align"), f.optionalBoolean(".is_const").orElse(false),
        f.optionalBoolean(".is_restrict").orElse(false), f.optionalBoolean(".is_volatile").orElse(false),
        f.optionalBoolean(".is_pipe").orElse(false), f.rest());
  }

  private static Optional<Access> accessOf(Fields f, String key) throws MetadataFormatException {
    Optional<String> text = f.optionalString(key);
    return text.isEmpty() ? Optional.empty() : Optional.of(enumValue(f, key, Access.of(text.get())));
  }

  private static <E> E enumValue(Fields f, String key, Optional<E> value) throws MetadataFormatException {
    if (value.isEmpty()) throw f.error(key, "has a value this decoder does not know");
    return value.get();
  }

  /** Parses {@code ID:N:S1:…:SN:FORMAT}; the format may itself contain colons. */
  static PrintfFormat printf(String raw, long fileOffset, int index) throws MetadataFormatException {
    String[] head = raw.split(":", 3);
    try {
      if (head.length < 3) throw new NumberFormatException("too few fields");
      long id = Long.parseLong(head[0]);
      int count = Integer.parseInt(head[1]);
      if (id < 0 || count < 0 || count > raw.length()) throw new NumberFormatException("negative or too many");
      String[] parts = head[2].split(":", count + 1);
      if (parts.length != count + 1) throw new NumberFormatException("fewer argument sizes than " + count);
      List<Integer> sizes = new ArrayList<>(count);
      for (int i = 0; i < count; i++) sizes.add(Integer.parseInt(parts[i]));
      String format = parts[count];
      Optional<String> hash = Optional.empty();
      if (count == 0 && HIP_HASH.matcher(format).lookingAt()) {
        hash = Optional.of(format.substring(0, 16));
        format = format.substring(17);
      }
      return new PrintfFormat(id, Collections.unmodifiableList(sizes), hash, format, raw);
    } catch (NumberFormatException e) {
      throw new MetadataFormatException(fileOffset, "amdhsa.printf item " + index + " '" + raw
          + "' is not ID:N:sizes:format (" + e.getMessage() + ")");
    }
  }
}
