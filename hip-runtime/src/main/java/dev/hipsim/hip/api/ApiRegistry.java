package dev.hipsim.hip.api;

import dev.hipsim.hip.abi.ApiFunction;
import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.abi.ReturnKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Where implementations of HIP API functions are registered, by exported symbol. Registration checks the symbol
 * exists in the ABI table and that the implementation's shape matches the C return type, so mistakes show up when
 * the runtime starts (and in its unit tests), not as corrupted return values. Anything not registered is served by
 * the not-supported fallback.
 */
public final class ApiRegistry {
  private final ApiTable table;
  private final Binding[] bindings;

  public ApiRegistry(ApiTable table) {
    this.table = table;
    this.bindings = new Binding[table.size()];
  }

  public ApiTable table() {
    return table;
  }

  /** A {@code hipError_t} function; its result becomes the calling thread's last error. */
  public void hipError(String symbol, ApiCall.ReturningError impl) {
    ApiFunction f = lookup(symbol, ReturnKind.HIP_ERROR);
    put(f, new Binding.Error(f, impl, true));
  }

  /** A {@code hipError_t} function that reports rather than sets the last error (the last-error queries). */
  public void hipErrorQuery(String symbol, ApiCall.ReturningError impl) {
    ApiFunction f = lookup(symbol, ReturnKind.HIP_ERROR);
    put(f, new Binding.Error(f, impl, false));
  }

  /** A {@code const char*} function. */
  public void string(String symbol, ApiCall.ReturningString impl) {
    ApiFunction f = lookup(symbol, ReturnKind.C_STRING);
    put(f, new Binding.CString(f, impl));
  }

  /** Any other function (void, pointer, integer, {@code hiprtcResult} or struct result). */
  public void value(String symbol, ApiCall.ReturningValue impl) {
    ApiFunction f = table.find(symbol).orElseThrow(() -> unknown(symbol));
    ReturnKind k = f.returnKind();
    if (k == ReturnKind.HIP_ERROR || k == ReturnKind.C_STRING) {
      throw new IllegalArgumentException(symbol + " returns " + f.returnType().spelling() + ": register it with "
          + (k == ReturnKind.HIP_ERROR ? "hipError" : "string"));
    }
    put(f, new Binding.Value(f, impl));
  }

  /** {@link #hipError}, with the implementation made by {@code provider} when the function is first called. */
  public void hipErrorFrom(String symbol, ApiProvider provider) {
    hipError(symbol, new Lazy(provider, symbol));
  }

  /** {@link #hipErrorQuery}, with the implementation made by {@code provider} when the function is first called. */
  public void hipErrorQueryFrom(String symbol, ApiProvider provider) {
    hipErrorQuery(symbol, new Lazy(provider, symbol));
  }

  /** {@link #string}, with the implementation made by {@code provider} when the function is first called. */
  public void stringFrom(String symbol, ApiProvider provider) {
    string(symbol, new Lazy(provider, symbol));
  }

  /** {@link #value}, with the implementation made by {@code provider} when the function is first called. */
  public void valueFrom(String symbol, ApiProvider provider) {
    value(symbol, new Lazy(provider, symbol));
  }

  /**
   * Makes every implementation registered to be made on first call now, and fails naming the first function whose
   * provider makes none: what a test runs, so that a registration without its implementation is found before a
   * program calls it.
   */
  public void makeAll() {
    for (Binding b : bindings) {
      if (b instanceof Binding.Error e && e.impl() instanceof Lazy l) l.error();
      if (b instanceof Binding.CString c && c.impl() instanceof Lazy l) l.string();
      if (b instanceof Binding.Value v && v.impl() instanceof Lazy l) l.value();
    }
  }

  private static IllegalStateException noImplementation(ApiProvider provider, String symbol) {
    return new IllegalStateException(provider.getClass().getSimpleName() + " registered " + symbol
        + " but makes no implementation of it");
  }

  /**
   * The implementation of one function, made by its provider at the function's first call (two threads racing may
   * both make it). One class for the three kinds of result: a registration uses the one its function's kind calls.
   */
  private static final class Lazy implements ApiCall.ReturningError, ApiCall.ReturningString, ApiCall.ReturningValue {
    private final ApiProvider provider;
    private final String symbol;
    private volatile ApiCall.ReturningError error;
    private volatile ApiCall.ReturningString string;
    private volatile ApiCall.ReturningValue value;

    Lazy(ApiProvider provider, String symbol) {
      this.provider = provider;
      this.symbol = symbol;
    }

    private <T> T made(T made) {
      if (made == null) throw noImplementation(provider, symbol);
      return made;
    }

    ApiCall.ReturningError error() {
      ApiCall.ReturningError m = error;
      if (m == null) error = m = made(provider.errorFunction(symbol));
      return m;
    }

    ApiCall.ReturningString string() {
      ApiCall.ReturningString m = string;
      if (m == null) string = m = made(provider.stringFunction(symbol));
      return m;
    }

    ApiCall.ReturningValue value() {
      ApiCall.ReturningValue m = value;
      if (m == null) value = m = made(provider.valueFunction(symbol));
      return m;
    }

    @Override
    public HipError call(Args args) throws HipException {
      return error().call(args);
    }

    @Override
    public String string(Args args) throws HipException {
      return string().string(args);
    }

    @Override
    public long value(Args args) throws HipException {
      return value().value(args);
    }
  }

  /**
   * Serves {@code symbol} with the implementation already registered for {@code target} (e.g. the {@code _spt}
   * variants, or a C++-mangled export of a C function); the two must have identical parameter and return types.
   */
  public void alias(String symbol, String target) {
    ApiFunction f = table.find(symbol).orElseThrow(() -> unknown(symbol));
    ApiFunction t = table.find(target).orElseThrow(() -> unknown(target));
    Binding b = bindings[t.id()];
    if (b == null) throw new IllegalStateException(target + " must be registered before its alias " + symbol);
    if (!sameSignature(f, t)) {
      throw new IllegalArgumentException(symbol + " and " + target + " have different signatures: " + f.prototype()
          + " vs " + t.prototype());
    }
    Binding copy;
    if (b instanceof Binding.Error e) {
      copy = new Binding.Error(f, e.impl(), e.recordsLastError());
    } else if (b instanceof Binding.CString s) {
      copy = new Binding.CString(f, s.impl());
    } else {
      copy = new Binding.Value(f, ((Binding.Value) b).impl());
    }
    put(f, copy);
  }

  private static boolean sameSignature(ApiFunction a, ApiFunction b) {
    if (!a.returnType().baseName().equals(b.returnType().baseName()) || a.params().size() != b.params().size()) return false;
    for (int i = 0; i < a.params().size(); i++) {
      var pa = a.params().get(i).type();
      var pb = b.params().get(i).type();
      if (pa.kind() != pb.kind() || pa.size() != pb.size()) return false;
    }
    return true;
  }

  private ApiFunction lookup(String symbol, ReturnKind expected) {
    ApiFunction f = table.find(symbol).orElseThrow(() -> unknown(symbol));
    if (f.returnKind() != expected) {
      throw new IllegalArgumentException(symbol + " returns " + f.returnType().spelling() + ", not " + expected);
    }
    return f;
  }

  private static IllegalArgumentException unknown(String symbol) {
    return new IllegalArgumentException(symbol + " is not exported by libamdhip64 (not in hip-api.tsv)");
  }

  private void put(ApiFunction f, Binding b) {
    if (bindings[f.id()] != null) throw new IllegalStateException(f.symbol() + " is registered twice");
    bindings[f.id()] = b;
  }

  /** The functions that have an implementation. */
  public List<ApiFunction> implemented() {
    List<ApiFunction> out = new ArrayList<>();
    for (Binding b : bindings) {
      if (b != null) out.add(b.function());
    }
    return out;
  }

  /** Freezes the registrations into a dispatcher. */
  public Dispatcher dispatcher(HostMemory memory, Diagnostics diagnostics, LastError lastError) {
    return new Dispatcher(table, bindings.clone(), memory, diagnostics, lastError);
  }
}
