package dev.hipsim.hsa.dispatch;

import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.bundle.metadata.ValueKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Metadata with every code-object-v5 hidden argument at its ABI offset (AMDGPUUsage's implicit kernel argument
 * table), for kinds no corpus kernel uses (printf buffer, dynamic LDS size, private and shared base).
 */
final class HiddenLayouts {
  private HiddenLayouts() {}

  static KernelMetadata codeObjectV5(int hiddenStart) {
    Object[][] table = {
        {ValueKind.HIDDEN_BLOCK_COUNT_X, 0, 4}, {ValueKind.HIDDEN_BLOCK_COUNT_Y, 4, 4},
        {ValueKind.HIDDEN_BLOCK_COUNT_Z, 8, 4}, {ValueKind.HIDDEN_GROUP_SIZE_X, 12, 2},
        {ValueKind.HIDDEN_GROUP_SIZE_Y, 14, 2}, {ValueKind.HIDDEN_GROUP_SIZE_Z, 16, 2},
        {ValueKind.HIDDEN_REMAINDER_X, 18, 2}, {ValueKind.HIDDEN_REMAINDER_Y, 20, 2},
        {ValueKind.HIDDEN_REMAINDER_Z, 22, 2}, {ValueKind.HIDDEN_GLOBAL_OFFSET_X, 40, 8},
        {ValueKind.HIDDEN_GLOBAL_OFFSET_Y, 48, 8}, {ValueKind.HIDDEN_GLOBAL_OFFSET_Z, 56, 8},
        {ValueKind.HIDDEN_GRID_DIMS, 64, 2}, {ValueKind.HIDDEN_PRINTF_BUFFER, 72, 8},
        {ValueKind.HIDDEN_HOSTCALL_BUFFER, 80, 8}, {ValueKind.HIDDEN_MULTIGRID_SYNC_ARG, 88, 8},
        {ValueKind.HIDDEN_HEAP_V1, 96, 8}, {ValueKind.HIDDEN_DEFAULT_QUEUE, 104, 8},
        {ValueKind.HIDDEN_COMPLETION_ACTION, 112, 8}, {ValueKind.HIDDEN_DYNAMIC_LDS_SIZE, 120, 4},
        {ValueKind.HIDDEN_PRIVATE_BASE, 192, 4}, {ValueKind.HIDDEN_SHARED_BASE, 196, 4},
        {ValueKind.HIDDEN_QUEUE_PTR, 200, 8}};
    List<KernelArgument> args = new ArrayList<>();
    args.add(argument(ValueKind.BY_VALUE, 0, 16));
    for (Object[] row : table) args.add(argument((ValueKind) row[0], hiddenStart + (int) row[1], (int) row[2]));
    return new KernelMetadata("k", "k.kd", Optional.of("OpenCL C"), List.of(2, 0), args, hiddenStart + 256, 8, 0, 0,
        64, 16, 16, OptionalInt.empty(), 1024, OptionalInt.empty(), OptionalInt.empty(), Optional.empty(),
        OptionalInt.empty(), OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Map.of());
  }

  private static KernelArgument argument(ValueKind kind, long offset, long size) {
    return new KernelArgument(Optional.empty(), Optional.empty(), offset, size, kind, kind.metadataName(),
        Optional.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty(), false, false, false, false,
        Map.of());
  }
}
