package dev.hipsim.hip.runtime;

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
    api.hipErrorQuery("hipGetLastError", a -> toError(lastError.getAndClear()));
    api.hipErrorQuery("hipExtGetLastError", a -> toError(lastError.getAndClear()));
    api.hipErrorQuery("hipPeekAtLastError", a -> toError(lastError.peek()));
    api.string("hipGetErrorName", a -> HipError.nameOf(a.i32(0)));
    api.string("hipGetErrorString", a -> HipError.descriptionOf(a.i32(0)));
    // CLR returns these directly, without touching the last error; unknown codes are hipErrorInvalidValue.
    api.hipErrorQuery("hipDrvGetErrorName", a -> driverLookup(a.i32(0), a.pointer(1), HipError.nameOf(a.i32(0)),
        a.memory()));
    api.hipErrorQuery("hipDrvGetErrorString", a -> driverLookup(a.i32(0), a.pointer(1),
        HipError.descriptionOf(a.i32(0)), a.memory()));
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
