package dev.hipsim.hsa;

/**
 * {@code hsa_status_t}: the error codes of hsa.h and hsa_ext_amd.h, with their numeric values so that a native shim
 * can hand them on unchanged.
 */
public enum HsaStatus {
  ERROR(0x1000),
  INVALID_ARGUMENT(0x1001),
  INVALID_QUEUE_CREATION(0x1002),
  INVALID_ALLOCATION(0x1003),
  INVALID_AGENT(0x1004),
  INVALID_REGION(0x1005),
  INVALID_SIGNAL(0x1006),
  INVALID_QUEUE(0x1007),
  OUT_OF_RESOURCES(0x1008),
  INVALID_PACKET_FORMAT(0x1009),
  RESOURCE_FREE(0x100A),
  NOT_INITIALIZED(0x100B),
  INCOMPATIBLE_ARGUMENTS(0x100D),
  INVALID_ISA(0x100F),
  INVALID_CODE_OBJECT(0x1010),
  INVALID_EXECUTABLE(0x1011),
  FROZEN_EXECUTABLE(0x1012),
  INVALID_SYMBOL_NAME(0x1013),
  VARIABLE_ALREADY_DEFINED(0x1014),
  VARIABLE_UNDEFINED(0x1015),
  EXCEPTION(0x1016),
  INVALID_FILE(0x1020),
  INVALID_CODE_OBJECT_READER(0x1021),
  /** hsa_ext_amd.h. */
  INVALID_MEMORY_POOL(40),
  MEMORY_APERTURE_VIOLATION(41),
  ILLEGAL_INSTRUCTION(42),
  MEMORY_FAULT(43);

  private final int code;

  HsaStatus(int code) {
    this.code = code;
  }

  /** The C enumerator's value. */
  public int code() {
    return code;
  }

  /** The C enumerator's name, e.g. {@code HSA_STATUS_ERROR_INVALID_ARGUMENT}. */
  public String cName() {
    return this == ERROR ? "HSA_STATUS_ERROR" : "HSA_STATUS_ERROR_" + name();
  }
}
