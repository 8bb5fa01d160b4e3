package dev.hipsim.hip.abi;

/** One parameter of an API function and where its value sits in the slot array passed to Java. */
public record Param(String name, CType type, int firstSlot) {
  public int slotCount() {
    return type.slotCount();
  }
}
