package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.LastError;

/** Error reporting: last error per host thread, and the names and descriptions of error codes. */
final class ErrorApi implements ApiProvider {
  private final LastError lastError;

  ErrorApi(LastError lastError) {
    this.lastError = lastError;
  }

  @Override
  public void register(ApiRegistry api) {
    api.hipErrorQueryFrom("hipGetLastError", this);
    api.hipErrorQueryFrom("hipExtGetLastError", this);
    api.hipErrorQueryFrom("hipPeekAtLastError", this);
    api.stringFrom("hipGetErrorName", this);
    api.stringFrom("hipGetErrorString", this);
    api.hipErrorQueryFrom("hipDrvGetErrorName", this);
    api.hipErrorQueryFrom("hipDrvGetErrorString", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "hipGetLastError":
        return a -> toError(lastError.getAndClear());
      case "hipExtGetLastError":
        return a -> toError(lastError.getAndClear());
      case "hipPeekAtLastError":
        return a -> toError(lastError.peek());
      case "hipDrvGetErrorName":
        // CLR returns these directly, without touching the last error; unknown codes are hipErrorInvalidValue.
        return a -> driverLookup(a.i32(0), a.pointer(1), HipError.nameOf(a.i32(0)),
            a.memory());
      case "hipDrvGetErrorString":
        return a -> driverLookup(a.i32(0), a.pointer(1),
            HipError.descriptionOf(a.i32(0)), a.memory());
      default:
        return null;
    }
  }

  @Override
  public ApiCall.ReturningString stringFunction(String symbol) {
    switch (symbol) {
      case "hipGetErrorName":
        return a -> HipError.nameOf(a.i32(0));
      case "hipGetErrorString":
        return a -> HipError.descriptionOf(a.i32(0));
      default:
        return null;
    }
  }


  private static HipError driverLookup(int code, long out, String text, dev.hipsim.hip.api.HostMemory memory) {
    if (out == 0) return HipError.INVALID_VALUE;
    memory.writeLong(out, memory.internString(text));
    boolean known = code == HipError.UNKNOWN.code() || !HipError.nameOf(code).equals(HipError.UNKNOWN.headerName());
    return known ? HipError.SUCCESS : HipError.INVALID_VALUE;
  }

  private static HipError toError(int code) {
    HipError e = HipError.forCode(code);
    return e == null ? HipError.UNKNOWN : e;
  }
}
