package dev.hipsim.hip.api;

/**
 * A group of HIP API implementations (errors, devices, memory, launches, …). Each registers its functions with the
 * registry when the runtime starts; see {@code dev.hipsim.hip.runtime.HipRuntime} for the list.
 */
@FunctionalInterface
public interface ApiProvider {
  void register(ApiRegistry api);
}
