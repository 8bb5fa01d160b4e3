package dev.hipsim.hip.api;

/**
 * The Java implementations of API functions, one shape per kind of C return value. Each method has a name of its own,
 * so that one class can be all three ({@code ApiRegistry}'s implementations made at the first call).
 */
public final class ApiCall {
  private ApiCall() {}

  /** A function returning {@code hipError_t}. */
  @FunctionalInterface
  public interface ReturningError {
    HipError call(Args args) throws HipException;
  }

  /** A function returning {@code const char*}: the string is copied once into native memory and kept. */
  @FunctionalInterface
  public interface ReturningString {
    String string(Args args) throws HipException;
  }

  /**
   * Any other function (void, pointers, integers, {@code hiprtcResult}, struct results written through
   * {@link Args#resultAddress()}); the long is the raw return value (float results as their bit pattern).
   */
  @FunctionalInterface
  public interface ReturningValue {
    long value(Args args) throws HipException;
  }
}
