package dev.hipsim.hsa.queue;

/**
 * Byte offsets of {@code hsa_queue_t} / {@code amd_queue_t} (ROCr inc/hsa.h and inc/amd_hsa_queue.h; 256 bytes,
 * 64-byte aligned), the structure the runtime and the packet processor share.
 */
public final class AmdQueueLayout {
  private AmdQueueLayout() {}

  public static final int SIZE = 256;
  public static final int ALIGNMENT = 64;

  // hsa_queue_t
  public static final int TYPE = 0;
  public static final int FEATURES = 4;
  public static final int BASE_ADDRESS = 8;
  public static final int DOORBELL_SIGNAL = 16;
  public static final int QUEUE_SIZE = 24;
  public static final int ID = 32;
  // amd_queue_t
  public static final int CAPS = 40;
  public static final int WRITE_DISPATCH_ID = 56;
  public static final int GROUP_SEGMENT_APERTURE_BASE_HI = 64;
  public static final int PRIVATE_SEGMENT_APERTURE_BASE_HI = 68;
  public static final int MAX_CU_ID = 72;
  public static final int MAX_WAVE_ID = 76;
  public static final int MAX_LEGACY_DOORBELL_DISPATCH_ID_PLUS_1 = 80;
  public static final int LEGACY_DOORBELL_LOCK = 88;
  public static final int READ_DISPATCH_ID = 128;
  public static final int READ_DISPATCH_ID_FIELD_BASE_BYTE_OFFSET = 136;
  public static final int COMPUTE_TMPRING_SIZE = 140;
  public static final int SCRATCH_RESOURCE_DESCRIPTOR = 144;
  public static final int SCRATCH_BACKING_MEMORY_LOCATION = 160;
  public static final int SCRATCH_BACKING_MEMORY_BYTE_SIZE = 168;
  public static final int SCRATCH_WAVE64_LANE_BYTE_SIZE = 176;
  public static final int QUEUE_PROPERTIES = 180;
  public static final int SCRATCH_LAST_USED_INDEX = 184;
  public static final int QUEUE_INACTIVE_SIGNAL = 192;

  /** hsa_queue_type_t HSA_QUEUE_TYPE_MULTIPLE. */
  public static final int TYPE_MULTIPLE = 0;
  /** HSA_QUEUE_FEATURE_KERNEL_DISPATCH. */
  public static final int FEATURE_KERNEL_DISPATCH = 1;
  /** AMD_QUEUE_PROPERTIES_IS_PTR64. */
  public static final int PROPERTIES_IS_PTR64 = 1 << 1;
}
