package dev.hipsim.hip.runtime;

import dev.hipsim.hip.api.ApiCall;
import dev.hipsim.hip.api.ApiProvider;
import dev.hipsim.hip.api.ApiRegistry;
import dev.hipsim.hip.api.HipError;

/** Runtime and driver versions, and {@code hipInit}. */
final class VersionApi implements ApiProvider {
  @Override
  public void register(ApiRegistry api) {
    api.hipErrorFrom("hipRuntimeGetVersion", this);
    api.hipErrorFrom("hipDriverGetVersion", this);
    api.hipErrorFrom("hipInit", this);
  }

  @Override
  public ApiCall.ReturningError errorFunction(String symbol) {
    switch (symbol) {
      case "hipRuntimeGetVersion":
        return a -> writeVersion(a.pointer(0), a.memory());
      case "hipDriverGetVersion":
        return a -> writeVersion(a.pointer(0), a.memory());
      case "hipInit":
        return a -> a.u32(0) == 0 ? HipError.SUCCESS : HipError.INVALID_VALUE;
      default:
        return null;
    }
  }


  private static HipError writeVersion(long out, dev.hipsim.hip.api.HostMemory memory) {
    if (out == 0) return HipError.INVALID_VALUE;
    memory.writeInt(out, HipRuntime.HIP_VERSION);
    return HipError.SUCCESS;
  }
}
