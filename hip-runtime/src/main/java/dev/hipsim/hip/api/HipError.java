package dev.hipsim.hip.api;

/**
 * {@code hipError_t}: every code of ROCm's hip_runtime_api.h with the name and description the HIP runtime reports
 * for it ({@code hipGetErrorName} / {@code hipGetErrorString}, CLR hipamd/src/hip_error.cpp). Codes that CLR's
 * tables do not list report {@code hipErrorUnknown} / {@code unknown error}, as CLR does; so does any value that is
 * not a code at all.
 */
public enum HipError {
  SUCCESS(0, "hipSuccess", "no error"),
  INVALID_VALUE(1, "hipErrorInvalidValue", "invalid argument"),
  OUT_OF_MEMORY(2, "hipErrorOutOfMemory", "out of memory"),
  NOT_INITIALIZED(3, "hipErrorNotInitialized", "initialization error"),
  DEINITIALIZED(4, "hipErrorDeinitialized", "driver shutting down"),
  PROFILER_DISABLED(5, "hipErrorProfilerDisabled", "profiler disabled while using external profiling tool"),
  PROFILER_NOT_INITIALIZED(6, "hipErrorProfilerNotInitialized", "profiler is not initialized"),
  PROFILER_ALREADY_STARTED(7, "hipErrorProfilerAlreadyStarted", "profiler already started"),
  PROFILER_ALREADY_STOPPED(8, "hipErrorProfilerAlreadyStopped", "profiler already stopped"),
  INVALID_CONFIGURATION(9, "hipErrorInvalidConfiguration", "invalid configuration argument"),
  INVALID_PITCH_VALUE(12, "hipErrorInvalidPitchValue", "invalid pitch argument"),
  INVALID_SYMBOL(13, "hipErrorInvalidSymbol", "invalid device symbol"),
  INVALID_DEVICE_POINTER(17, "hipErrorInvalidDevicePointer", "invalid device pointer"),
  INVALID_MEMCPY_DIRECTION(21, "hipErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"),
  INSUFFICIENT_DRIVER(35, "hipErrorInsufficientDriver", "driver version is insufficient for runtime version"),
  MISSING_CONFIGURATION(52, "hipErrorMissingConfiguration", "__global__ function call is not configured"),
  PRIOR_LAUNCH_FAILURE(53, "hipErrorPriorLaunchFailure", "unspecified launch failure in prior launch"),
  INVALID_DEVICE_FUNCTION(98, "hipErrorInvalidDeviceFunction", "invalid device function"),
  NO_DEVICE(100, "hipErrorNoDevice", "no ROCm-capable device is detected"),
  INVALID_DEVICE(101, "hipErrorInvalidDevice", "invalid device ordinal"),
  INVALID_IMAGE(200, "hipErrorInvalidImage", "device kernel image is invalid"),
  INVALID_CONTEXT(201, "hipErrorInvalidContext", "invalid device context"),
  CONTEXT_ALREADY_CURRENT(202, "hipErrorContextAlreadyCurrent", "context is already current context"),
  MAP_FAILED(205, "hipErrorMapFailed", "mapping of buffer object failed"),
  UNMAP_FAILED(206, "hipErrorUnmapFailed", "unmapping of buffer object failed"),
  ARRAY_IS_MAPPED(207, "hipErrorArrayIsMapped", "array is mapped"),
  ALREADY_MAPPED(208, "hipErrorAlreadyMapped", "resource already mapped"),
  NO_BINARY_FOR_GPU(209, "hipErrorNoBinaryForGpu", "no kernel image is available for execution on the device"),
  ALREADY_ACQUIRED(210, "hipErrorAlreadyAcquired", "resource already acquired"),
  NOT_MAPPED(211, "hipErrorNotMapped", "resource not mapped"),
  NOT_MAPPED_AS_ARRAY(212, "hipErrorNotMappedAsArray", "resource not mapped as array"),
  NOT_MAPPED_AS_POINTER(213, "hipErrorNotMappedAsPointer", "resource not mapped as pointer"),
  ECC_NOT_CORRECTABLE(214, "hipErrorECCNotCorrectable", "uncorrectable ECC error encountered"),
  UNSUPPORTED_LIMIT(215, "hipErrorUnsupportedLimit", "limit is not supported on this architecture"),
  CONTEXT_ALREADY_IN_USE(216, "hipErrorContextAlreadyInUse", "exclusive-thread device already in use by a different thread"),
  PEER_ACCESS_UNSUPPORTED(217, "hipErrorPeerAccessUnsupported", "peer access is not supported between these two devices"),
  INVALID_KERNEL_FILE(218, "hipErrorInvalidKernelFile", "invalid kernel file"),
  INVALID_GRAPHICS_CONTEXT(219, "hipErrorInvalidGraphicsContext", "invalid OpenGL or DirectX context"),
  INVALID_SOURCE(300, "hipErrorInvalidSource", "device kernel image is invalid"),
  FILE_NOT_FOUND(301, "hipErrorFileNotFound", "file not found"),
  SHARED_OBJECT_SYMBOL_NOT_FOUND(302, "hipErrorSharedObjectSymbolNotFound", "shared object symbol not found"),
  SHARED_OBJECT_INIT_FAILED(303, "hipErrorSharedObjectInitFailed", "shared object initialization failed"),
  OPERATING_SYSTEM(304, "hipErrorOperatingSystem", "OS call failed or operation not supported on this OS"),
  INVALID_HANDLE(400, "hipErrorInvalidHandle", "invalid resource handle"),
  ILLEGAL_STATE(401, "hipErrorIllegalState", "the operation cannot be performed in the present state"),
  NOT_FOUND(500, "hipErrorNotFound", "named symbol not found"),
  NOT_READY(600, "hipErrorNotReady", "device not ready"),
  ILLEGAL_ADDRESS(700, "hipErrorIllegalAddress", "an illegal memory access was encountered"),
  LAUNCH_OUT_OF_RESOURCES(701, "hipErrorLaunchOutOfResources", "too many resources requested for launch"),
  LAUNCH_TIME_OUT(702, "hipErrorLaunchTimeOut", "the launch timed out and was terminated"),
  PEER_ACCESS_ALREADY_ENABLED(704, "hipErrorPeerAccessAlreadyEnabled", "peer access is already enabled"),
  PEER_ACCESS_NOT_ENABLED(705, "hipErrorPeerAccessNotEnabled", "peer access has not been enabled"),
  SET_ON_ACTIVE_PROCESS(708, "hipErrorSetOnActiveProcess", "cannot set while device is active in this process"),
  CONTEXT_IS_DESTROYED(709, "hipErrorContextIsDestroyed", "context is destroyed"),
  ASSERT(710, "hipErrorAssert", "device-side assert triggered"),
  HOST_MEMORY_ALREADY_REGISTERED(712, "hipErrorHostMemoryAlreadyRegistered",
      "part or all of the requested memory range is already mapped"),
  HOST_MEMORY_NOT_REGISTERED(713, "hipErrorHostMemoryNotRegistered",
      "pointer does not correspond to a registered memory region"),
  LAUNCH_FAILURE(719, "hipErrorLaunchFailure", "unspecified launch failure"),
  COOPERATIVE_LAUNCH_TOO_LARGE(720, "hipErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"),
  NOT_SUPPORTED(801, "hipErrorNotSupported", "operation not supported"),
  STREAM_CAPTURE_UNSUPPORTED(900, "hipErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"),
  STREAM_CAPTURE_INVALIDATED(901, "hipErrorStreamCaptureInvalidated",
      "operation failed due to a previous error during capture"),
  STREAM_CAPTURE_MERGE(902, "hipErrorStreamCaptureMerge",
      "operation would result in a merge of separate capture sequences"),
  STREAM_CAPTURE_UNMATCHED(903, "hipErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"),
  STREAM_CAPTURE_UNJOINED(904, "hipErrorStreamCaptureUnjoined", "capturing stream has unjoined work"),
  STREAM_CAPTURE_ISOLATION(905, "hipErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"),
  STREAM_CAPTURE_IMPLICIT(906, "hipErrorStreamCaptureImplicit",
      "operation would make the legacy stream depend on a capturing blocking stream"),
  CAPTURED_EVENT(907, "hipErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"),
  STREAM_CAPTURE_WRONG_THREAD(908, "hipErrorStreamCaptureWrongThread",
      "attempt to terminate a thread-local capture sequence from another thread"),
  GRAPH_EXEC_UPDATE_FAILURE(910, "hipErrorGraphExecUpdateFailure",
      "the graph update was not performed because it included changes which violated constraints specific to"
          + " instantiated graph update"),
  INVALID_CHANNEL_DESCRIPTOR(911, "hipErrorInvalidChannelDescriptor",
      "invalid resource description of texture passed to the api"),
  INVALID_TEXTURE(912, "hipErrorInvalidTexture", "invalid texture object passed to the api"),
  // CLR's name and description tables do not list the next four codes: they report hipErrorUnknown / unknown error.
  INVALID_RESOURCE_TYPE(914, "hipErrorInvalidResourceType", null),
  INVALID_RESOURCE_CONFIGURATION(915, "hipErrorInvalidResourceConfiguration", null),
  STREAM_DETACHED(916, "hipErrorStreamDetached", null),
  UNKNOWN(999, "hipErrorUnknown", "unknown error"),
  RUNTIME_MEMORY(1052, "hipErrorRuntimeMemory", "runtime memory call returned error"),
  RUNTIME_OTHER(1053, "hipErrorRuntimeOther", "runtime call other than memory returned error"),
  INVALID_CLUSTER_SIZE(1054, "hipErrorInvalidClusterSize", null) {
    @Override
    public String description() {
      return "a kernel launch error has occurred due to cluster misconfiguration";
    }
  },
  TBD(1055, "hipErrorTbd", null) {
    @Override
    public String runtimeName() {
      return "hipErrorTbd";
    }
  };

  private static final HipError[] BY_CODE = new HipError[1056];

  static {
    for (HipError e : values()) BY_CODE[e.code] = e;
  }

  private final int code;
  private final String headerName;
  private final String description;

  HipError(int code, String headerName, String description) {
    this.code = code;
    this.headerName = headerName;
    this.description = description;
  }

  public int code() {
    return code;
  }

  /** The enumerator's name in hip_runtime_api.h. */
  public String headerName() {
    return headerName;
  }

  /** What {@code hipGetErrorName} returns for this code. */
  public String runtimeName() {
    return description == null ? UNKNOWN.headerName : headerName;
  }

  /** What {@code hipGetErrorString} returns for this code. */
  public String description() {
    return description == null ? UNKNOWN.description : description;
  }

  /** The error with this code, or null if no {@code hipError_t} enumerator has it. */
  public static HipError forCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  /** {@code hipGetErrorName} for any value, including ones that are not codes. */
  public static String nameOf(int code) {
    HipError e = forCode(code);
    return e == null ? UNKNOWN.runtimeName() : e.runtimeName();
  }

  /** {@code hipGetErrorString} for any value. */
  public static String descriptionOf(int code) {
    HipError e = forCode(code);
    return e == null ? UNKNOWN.description() : e.description();
  }

  @Override
  public String toString() {
    return headerName + " (" + code + ")";
  }
}
