package dev.hipsim.hip.gpu.hostcall;

import dev.hipsim.hip.api.Diagnostics;
import dev.hipsim.hip.gpu.printf.HostcallPrintf;
import dev.hipsim.hip.gpu.printf.PrintfSink;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The host side of each hostcall service the device libraries use (CLR's {@code handlePayload}): printf (2), as
 * messages; device memory (3), for malloc's slabs and large blocks; the function-call service (1) cannot call into
 * the program from here and answers 0, saying so once.
 */
public final class HostcallServices implements HostcallBuffer.Handler {
  public static final int SERVICE_FUNCTION_CALL = 1;
  public static final int SERVICE_PRINTF = 2;
  public static final int SERVICE_DEVMEM = 3;

  /** Device memory for {@code __ockl_devmem_request}: allocate (address 0) or free (size 0). */
  public interface DeviceMemory {
    /** Returns the address of {@code bytes} of device memory, or 0 if there is none. */
    long allocate(long bytes);

    void free(long address);
  }

  private final MessageAssembler messages = new MessageAssembler();
  private final PrintfSink printf;
  private final DeviceMemory memory;
  private final Diagnostics diagnostics;
  private final AtomicBoolean reportedFunctionCall = new AtomicBoolean();
  private final AtomicBoolean reportedProtocol = new AtomicBoolean();
  private final AtomicBoolean reportedUnknown = new AtomicBoolean();

  public HostcallServices(PrintfSink printf, DeviceMemory memory, Diagnostics diagnostics) {
    this.printf = printf;
    this.memory = memory;
    this.diagnostics = diagnostics;
  }

  @Override
  public void handle(int service, long[] slot) {
    switch (service) {
      case SERVICE_PRINTF:
        if (!messages.handle(slot, (message, length) -> HostcallPrintf.print(message, length, printf))) {
          once(reportedProtocol, "hipsim: device printf: a hostcall names no message in progress (ignored)");
        }
        return;
      case SERVICE_DEVMEM:
        if (slot[0] != 0) {
          memory.free(slot[0]);
          slot[0] = 0;
        } else {
          slot[0] = slot[1] == 0 ? 0 : memory.allocate(slot[1]);
        }
        slot[1] = 0;
        return;
      case SERVICE_FUNCTION_CALL:
        once(reportedFunctionCall, "hipsim: the hostcall function-call service is not supported (answering 0)");
        slot[0] = 0;
        slot[1] = 0;
        return;
      default:
        once(reportedUnknown, "hipsim: hostcall service " + service + " is not supported (answering 0)");
        slot[0] = 0;
        slot[1] = 0;
    }
  }

  private void once(AtomicBoolean flag, String line) {
    if (flag.compareAndSet(false, true)) diagnostics.line(line);
  }
}
