package dev.hipsim.hip.api;

/** The Java implementations of API functions, one shape per kind of C return value. */
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
    String call(Args args) throws HipException;
  }

  /**
   * Any other function (void, pointers, integers, {@code hiprtcResult}, struct results written through
   * {@link Args#resultAddress()}); the long is the raw return value (float results as their bit pattern).
   */
  @FunctionalInterface
  public interface ReturningValue {
    long call(Args args) throws HipException;
  }
}
