package dev.hipsim.hip.abi;

/**
 * A C type as written in the API table ({@code spelling}, e.g. {@code hipStream_t} or {@code const void*}) and how it
 * is passed. Structs by value up to 16 bytes travel as their raw bytes in {@code ceil(size / 8)} slots (the SysV
 * INTEGER class, which holds for every such struct in the HIP API: they have integer fields only); larger ones are
 * passed to Java as one slot holding the address of the caller's copy, valid for the duration of the call.
 */
public record CType(String spelling, AbiKind kind, int size, int alignment) {
  /** Largest struct that the SysV ABI passes in registers (and the bridge in slots). */
  public static final int MAX_REGISTER_STRUCT = 16;

  public CType {
    if (kind == AbiKind.STRUCT && (size <= 0 || alignment <= 0 || size % alignment != 0)) {
      throw new IllegalArgumentException(spelling + ": bad struct size " + size + " / alignment " + alignment);
    }
  }

  public static CType scalar(String spelling, AbiKind kind) {
    return new CType(spelling, kind, 0, 0);
  }

  public boolean isVoid() {
    return kind == AbiKind.VOID;
  }

  public boolean isStruct() {
    return kind == AbiKind.STRUCT;
  }

  /** True for a struct that is passed to Java by address rather than in slots. */
  public boolean isPassedByAddress() {
    return isStruct() && size > MAX_REGISTER_STRUCT;
  }

  /** Number of 64-bit argument slots a parameter of this type occupies. */
  public int slotCount() {
    if (isVoid()) return 0;
    if (isStruct() && !isPassedByAddress()) return (size + 7) / 8;
    return 1;
  }

  /** The spelling without {@code const}, as looked up in the type table and used for typedef names. */
  public String baseName() {
    return spelling.replace("const ", "").trim();
  }

  /** Name of the generated C typedef for a struct type. */
  public String cStructName() {
    return "hipsim_struct_" + baseName();
  }

  /** The C type the generated stub declares. */
  public String cSpelling() {
    return isStruct() ? cStructName() : kind.cSpelling();
  }
}
