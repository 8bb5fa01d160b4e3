package dev.hipsim.hip.abi;

import java.util.List;

/**
 * One exported function: its symbol, the ELF version node it is defined in, its C signature and the layout of its
 * arguments in the slot array. A struct return adds one trailing slot holding the address of the result.
 */
public record ApiFunction(int id, String symbol, String versionNode, CType returnType, List<Param> params, int line) {
  public ApiFunction {
    params = List.copyOf(params);
  }

  public ReturnKind returnKind() {
    return ReturnKind.of(returnType);
  }

  /** Slots taken by the parameters (excluding the struct-result slot). */
  public int parameterSlots() {
    return params.isEmpty() ? 0 : params.get(params.size() - 1).firstSlot() + params.get(params.size() - 1).slotCount();
  }

  /** Total slots passed to Java, including the struct-result slot. */
  public int slotCount() {
    return parameterSlots() + (returnType.isStruct() ? 1 : 0);
  }

  public Param param(String name) {
    for (Param p : params) {
      if (p.name().equals(name)) return p;
    }
    throw new IllegalArgumentException(symbol + " has no parameter " + name);
  }

  /** The C prototype as written in the table, for messages and generated comments. */
  public String prototype() {
    StringBuilder sb = new StringBuilder(returnType.spelling()).append(' ').append(symbol).append('(');
    for (int i = 0; i < params.size(); i++) {
      if (i > 0) sb.append(", ");
      sb.append(params.get(i).type().spelling()).append(' ').append(params.get(i).name());
    }
    return sb.append(')').toString();
  }
}
