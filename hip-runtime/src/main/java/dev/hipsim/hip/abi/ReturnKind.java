package dev.hipsim.hip.abi;

/**
 * What an API function returns, as far as error handling is concerned: the bridge needs to know what to hand back
 * when a function is not implemented, throws, or cannot reach the Java runtime at all.
 */
public enum ReturnKind {
  /** {@code hipError_t}: the call's status, recorded as the thread's last error. */
  HIP_ERROR,
  /** {@code hiprtcResult}. */
  HIPRTC_RESULT,
  /** {@code const char*}: a string owned by the runtime. */
  C_STRING,
  /** {@code void}. */
  VOID,
  /** A struct returned by value (written through the hidden result slot). */
  STRUCT,
  /** Any other scalar or pointer, returned raw. */
  VALUE;

  /** {@code hipErrorNotSupported}. */
  public static final int HIP_ERROR_NOT_SUPPORTED = 801;
  /** {@code hipErrorUnknown}. */
  public static final int HIP_ERROR_UNKNOWN = 999;
  /** {@code HIPRTC_ERROR_INTERNAL_ERROR}. */
  public static final int HIPRTC_ERROR_INTERNAL_ERROR = 11;

  public static ReturnKind of(CType type) {
    return switch (type.baseName()) {
      case "hipError_t" -> HIP_ERROR;
      case "hiprtcResult" -> HIPRTC_RESULT;
      case "char*" -> type.spelling().startsWith("const") ? C_STRING : VALUE;
      default -> type.isVoid() ? VOID : type.isStruct() ? STRUCT : VALUE;
    };
  }

  /** What a function that is not implemented returns. */
  public long notSupportedValue() {
    return switch (this) {
      case HIP_ERROR -> HIP_ERROR_NOT_SUPPORTED;
      case HIPRTC_RESULT -> HIPRTC_ERROR_INTERNAL_ERROR;
      default -> 0;
    };
  }

  /** What a function whose implementation failed unexpectedly returns. */
  public long internalErrorValue() {
    return switch (this) {
      case HIP_ERROR -> HIP_ERROR_UNKNOWN;
      case HIPRTC_RESULT -> HIPRTC_ERROR_INTERNAL_ERROR;
      default -> 0;
    };
  }
}
