package dev.hipsim.hsa.dispatch;

/**
 * What the language runtime supplies for the hidden kernel arguments that are not derived from the launch or the
 * queue: the buffers and pointers CLR allocates on demand. Zero means none.
 *
 * @param printfBuffer {@code hidden_printf_buffer}: the buffered-printf buffer (OpenCL, HIP buffered printf)
 * @param hostcallBuffer {@code hidden_hostcall_buffer}: the hostcall buffer (HIP device printf, malloc)
 * @param multigridSync {@code hidden_multigrid_sync_arg}: the cooperative-launch sync info
 * @param heap {@code hidden_heap_v1}: the device-malloc heap
 * @param defaultQueue {@code hidden_default_queue}: the device-enqueue queue (OpenCL)
 * @param completionAction {@code hidden_completion_action}: device-enqueue scheduler parameter (OpenCL)
 */
public record HiddenArguments(long printfBuffer, long hostcallBuffer, long multigridSync, long heap,
    long defaultQueue, long completionAction) {

  public static final HiddenArguments NONE = new HiddenArguments(0, 0, 0, 0, 0, 0);

  public HiddenArguments withHostcallBuffer(long address) {
    return new HiddenArguments(printfBuffer, address, multigridSync, heap, defaultQueue, completionAction);
  }

  public HiddenArguments withPrintfBuffer(long address) {
    return new HiddenArguments(address, hostcallBuffer, multigridSync, heap, defaultQueue, completionAction);
  }

  public HiddenArguments withHeap(long address) {
    return new HiddenArguments(printfBuffer, hostcallBuffer, multigridSync, address, defaultQueue, completionAction);
  }

  public HiddenArguments withMultigridSync(long address) {
    return new HiddenArguments(printfBuffer, hostcallBuffer, address, heap, defaultQueue, completionAction);
  }
}
