package dev.hipsim.hip.api;

import dev.hipsim.hip.abi.ApiFunction;

/** How one API function is served: an implementation of the right shape, or the not-supported fallback. */
sealed interface Binding {
  ApiFunction function();

  /** Raw C return value. */
  long invoke(Args args, Dispatcher d) throws HipException;

  /** A hipError_t function; {@code recordsLastError} is false only for the last-error queries themselves. */
  record Error(ApiFunction function, ApiCall.ReturningError impl, boolean recordsLastError) implements Binding {
    @Override
    public long invoke(Args args, Dispatcher d) throws HipException {
      HipError e = impl.call(args);
      if (e == null) throw new IllegalStateException("implementation returned null instead of a HipError");
      if (recordsLastError) d.lastError().record(e.code());
      return e.code();
    }
  }

  record CString(ApiFunction function, ApiCall.ReturningString impl) implements Binding {
    @Override
    public long invoke(Args args, Dispatcher d) throws HipException {
      String s = impl.string(args);
      return s == null ? 0 : d.memory().internString(s);
    }
  }

  record Value(ApiFunction function, ApiCall.ReturningValue impl) implements Binding {
    @Override
    public long invoke(Args args, Dispatcher d) throws HipException {
      return impl.value(args);
    }
  }
}
