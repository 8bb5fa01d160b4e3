package dev.hipsim.kfd;

/**
 * {@code struct kfd_ioctl_create_queue_args}, inputs. {@code ringSize} is in bytes; for an AQL queue the read and
 * write pointers are the addresses of {@code amd_queue_t.read_dispatch_id} and {@code write_dispatch_id}.
 */
public record CreateQueueArgs(long ringBaseAddress, long writePointerAddress, long readPointerAddress,
    long ringSize, int gpuId, int queueType, int queuePercentage, int queuePriority, long eopBufferAddress,
    long eopBufferSize, long ctxSaveRestoreAddress, int ctxSaveRestoreSize, int ctlStackSize) {

  public static final int TYPE_COMPUTE = 0;
  public static final int TYPE_SDMA = 1;
  public static final int TYPE_COMPUTE_AQL = 2;
  public static final int TYPE_SDMA_XGMI = 3;
  public static final int TYPE_SDMA_BY_ENG_ID = 4;
  public static final int MAX_PRIORITY = 15;
  public static final int MAX_PERCENTAGE = 100;

  /** An AQL compute queue at full percentage and normal priority (7), as ROCr creates them. */
  public static CreateQueueArgs aql(int gpuId, long ringBase, long ringSize, long writePointer, long readPointer) {
    return new CreateQueueArgs(ringBase, writePointer, readPointer, ringSize, gpuId, TYPE_COMPUTE_AQL,
        MAX_PERCENTAGE, 7, 0, 0, 0, 0, 0);
  }
}
