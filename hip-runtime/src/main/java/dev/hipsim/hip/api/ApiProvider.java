package dev.hipsim.hip.api;

/**
 * A group of HIP API implementations (errors, devices, memory, launches, …). Each registers its functions with the
 * registry when the runtime starts; see {@code dev.hipsim.hip.runtime.HipRuntime} for the list.
 *
 * <p>A provider registers a function with itself as its maker ({@link ApiRegistry#hipErrorFrom} and the like) and
 * makes the implementation in {@link #errorFunction}, {@link #stringFunction} or {@link #valueFunction} when the
 * function is first called. Registering 151 lambdas linked each one's call site as the runtime started, about 20 ms
 * of a cold JVM, while a program calls a dozen or two of them.
 */
@FunctionalInterface
public interface ApiProvider {
  void register(ApiRegistry api);

  /** The implementation of the {@code hipError_t} function {@code symbol}, or null if this provider has none. */
  default ApiCall.ReturningError errorFunction(String symbol) {
    return null;
  }

  /** The implementation of the {@code const char*} function {@code symbol}, or null if this provider has none. */
  default ApiCall.ReturningString stringFunction(String symbol) {
    return null;
  }

  /** The implementation of the function {@code symbol} of another result, or null if this provider has none. */
  default ApiCall.ReturningValue valueFunction(String symbol) {
    return null;
  }
}
