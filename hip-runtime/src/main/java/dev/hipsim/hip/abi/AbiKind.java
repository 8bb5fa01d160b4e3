package dev.hipsim.hip.abi;

/**
 * How a C value crosses the x86-64 SysV call boundary, which is all the bridge needs to know about a type. Scalars
 * travel in one 64-bit slot; structs are described by size and alignment (see {@link CType}).
 */
public enum AbiKind {
  VOID("void"),
  BOOL("_Bool"),
  I8("int8_t"),
  U8("uint8_t"),
  I16("int16_t"),
  U16("uint16_t"),
  I32("int32_t"),
  U32("uint32_t"),
  I64("int64_t"),
  U64("uint64_t"),
  F32("float"),
  F64("double"),
  PTR("void*"),
  STRUCT(null);

  private final String cSpelling;

  AbiKind(String cSpelling) {
    this.cSpelling = cSpelling;
  }

  /** The C type the generated stubs declare for a value of this kind (structs get a generated typedef). */
  public String cSpelling() {
    if (cSpelling == null) throw new IllegalStateException("structs are spelled by CType");
    return cSpelling;
  }

  /** The spelling used in hip-types.tsv. */
  public static AbiKind parse(String text) throws AbiFormatException {
    for (AbiKind k : values()) {
      if (k.name().equalsIgnoreCase(text)) return k;
    }
    throw new AbiFormatException("unknown ABI kind '" + text + "'");
  }
}
