package dev.hipsim.hip.api;

import dev.hipsim.hip.abi.ApiFunction;
import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.abi.ReturnKind;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Routes a call from the C stubs (function id + argument slots) to its implementation, and is the one place that
 * turns every way a call can go wrong into a C return value: not implemented → the not-supported value and one
 * line on stderr (once per function); {@link HipException} → its error code; anything else thrown → an internal
 * error code and a one-line message. {@link #dispatch} never throws.
 */
public final class Dispatcher {
  private final ApiTable table;
  private final Binding[] bindings;
  private final HostMemory memory;
  private final Diagnostics diagnostics;
  private final LastError lastError;
  private final AtomicIntegerArray reportedUnsupported;

  Dispatcher(ApiTable table, Binding[] bindings, HostMemory memory, Diagnostics diagnostics, LastError lastError) {
    this.table = table;
    this.bindings = bindings;
    this.memory = memory;
    this.diagnostics = diagnostics;
    this.lastError = lastError;
    this.reportedUnsupported = new AtomicIntegerArray(bindings.length);
  }

  HostMemory memory() {
    return memory;
  }

  LastError lastError() {
    return lastError;
  }

  public ApiTable table() {
    return table;
  }

  /** Serves one call; the result is the raw C return value. */
  public long dispatch(int id, long[] slots) {
    if (id < 0 || id >= bindings.length) {
      diagnostics.line("hipsim: internal error: call to unknown function id " + id + " (library and runtime out of step)");
      return ReturnKind.HIP_ERROR_UNKNOWN;
    }
    ApiFunction f = table.function(id);
    Binding b = bindings[id];
    if (b == null) return notSupported(f);
    try {
      return b.invoke(new Args(f, slots, memory), this);
    } catch (HipException e) {
      return failed(f, e.error().code());
    } catch (Throwable t) {
      return internalError(f, t);
    }
  }

  private long notSupported(ApiFunction f) {
    ReturnKind k = f.returnKind();
    if (reportedUnsupported.compareAndSet(f.id(), 0, 1)) {
      diagnostics.line("hipsim: " + f.symbol() + " is not supported (" + consequence(k, k.notSupportedValue()) + ")");
    }
    if (k == ReturnKind.HIP_ERROR) lastError.record((int) k.notSupportedValue());
    return k.notSupportedValue();
  }

  private long failed(ApiFunction f, int code) {
    ReturnKind k = f.returnKind();
    if (k == ReturnKind.HIP_ERROR) {
      lastError.record(code);
      return code;
    }
    return k == ReturnKind.HIPRTC_RESULT ? code : 0;
  }

  private long internalError(ApiFunction f, Throwable t) {
    ReturnKind k = f.returnKind();
    long value = k.internalErrorValue();
    try {
      diagnostics.line("hipsim: internal error in " + f.symbol() + ": " + oneLine(t) + " (" + consequence(k, value) + ")");
      if (System.getenv("HIPSIM_DEBUG") != null) t.printStackTrace();
    } catch (Throwable ignored) {
      // Reporting must not turn a handled failure into an escaping one.
    }
    if (k == ReturnKind.HIP_ERROR) lastError.record((int) value);
    return value;
  }

  private static String oneLine(Throwable t) {
    String s = t.toString();
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static String consequence(ReturnKind k, long value) {
    return switch (k) {
      case HIP_ERROR -> "returning " + HipError.nameOf((int) value);
      case HIPRTC_RESULT -> "returning HIPRTC_ERROR_INTERNAL_ERROR";
      case VOID -> "call ignored";
      case C_STRING -> "returning NULL";
      case STRUCT -> "returning zeros";
      case VALUE -> "returning " + value;
    };
  }
}
