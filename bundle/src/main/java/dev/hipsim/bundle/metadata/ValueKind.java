package dev.hipsim.bundle.metadata;

/**
 * How a kernel argument is passed ({@code .value_kind}): explicit arguments, and the hidden ones the runtime fills
 * in (code object v4's global offsets and buffers, v5's block counts, group sizes, remainders and the rest).
 */
public enum ValueKind {
  BY_VALUE("by_value"),
  GLOBAL_BUFFER("global_buffer"),
  DYNAMIC_SHARED_POINTER("dynamic_shared_pointer"),
  SAMPLER("sampler"),
  IMAGE("image"),
  PIPE("pipe"),
  QUEUE("queue"),
  HIDDEN_GLOBAL_OFFSET_X("hidden_global_offset_x"),
  HIDDEN_GLOBAL_OFFSET_Y("hidden_global_offset_y"),
  HIDDEN_GLOBAL_OFFSET_Z("hidden_global_offset_z"),
  HIDDEN_NONE("hidden_none"),
  HIDDEN_PRINTF_BUFFER("hidden_printf_buffer"),
  HIDDEN_HOSTCALL_BUFFER("hidden_hostcall_buffer"),
  HIDDEN_DEFAULT_QUEUE("hidden_default_queue"),
  HIDDEN_COMPLETION_ACTION("hidden_completion_action"),
  HIDDEN_MULTIGRID_SYNC_ARG("hidden_multigrid_sync_arg"),
  HIDDEN_BLOCK_COUNT_X("hidden_block_count_x"),
  HIDDEN_BLOCK_COUNT_Y("hidden_block_count_y"),
  HIDDEN_BLOCK_COUNT_Z("hidden_block_count_z"),
  HIDDEN_GROUP_SIZE_X("hidden_group_size_x"),
  HIDDEN_GROUP_SIZE_Y("hidden_group_size_y"),
  HIDDEN_GROUP_SIZE_Z("hidden_group_size_z"),
  HIDDEN_REMAINDER_X("hidden_remainder_x"),
  HIDDEN_REMAINDER_Y("hidden_remainder_y"),
  HIDDEN_REMAINDER_Z("hidden_remainder_z"),
  HIDDEN_GRID_DIMS("hidden_grid_dims"),
  HIDDEN_HEAP_V1("hidden_heap_v1"),
  HIDDEN_DYNAMIC_LDS_SIZE("hidden_dynamic_lds_size"),
  HIDDEN_PRIVATE_BASE("hidden_private_base"),
  HIDDEN_SHARED_BASE("hidden_shared_base"),
  HIDDEN_QUEUE_PTR("hidden_queue_ptr"),
  /** A kind newer than this decoder; {@link KernelArgument#valueKindName()} has its spelling. */
  UNKNOWN("");

  private final String metadataName;

  ValueKind(String metadataName) {
    this.metadataName = metadataName;
  }

  /** The spelling in the metadata, e.g. {@code hidden_block_count_x}. */
  public String metadataName() {
    return metadataName;
  }

  /** Whether the runtime, not the caller, supplies this argument. */
  public boolean isHidden() {
    return metadataName.startsWith("hidden_");
  }

  public static ValueKind of(String name) {
    for (ValueKind k : values()) {
      if (k != UNKNOWN && k.metadataName.equals(name)) return k;
    }
    return UNKNOWN;
  }
}
