package dev.hipsim.hsa.dispatch;

import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;

/**
 * The shape of a launch as an NDRange: the number of dimensions, the grid size in work-items and the work-group
 * size per dimension (unused dimensions are 1), and the global offsets (0 for HIP).
 */
public record LaunchGeometry(int dimensions, long gridX, long gridY, long gridZ, int groupX, int groupY, int groupZ,
    long offsetX, long offsetY, long offsetZ) {

  public LaunchGeometry {
    if (dimensions < 1 || dimensions > 3) throw new IllegalArgumentException("dimensions must be 1..3: " + dimensions);
  }

  /**
   * HIP's launch: {@code blocks} work-groups of {@code threads} work-items per dimension, always as a 3-dimensional
   * NDRange, as CLR's hipLaunchKernel builds it.
   */
  public static LaunchGeometry hip(long blocksX, long blocksY, long blocksZ, int threadsX, int threadsY, int threadsZ)
      throws HsaException {
    LaunchGeometry g = new LaunchGeometry(3, blocksX * threadsX, blocksY * threadsY, blocksZ * threadsZ, threadsX,
        threadsY, threadsZ, 0, 0, 0);
    if (blocksX < 1 || blocksY < 1 || blocksZ < 1) {
      throw new HsaException(HsaStatus.INVALID_ARGUMENT, String.format("grid of %dx%dx%d blocks has an empty dimension",
          blocksX, blocksY, blocksZ));
    }
    g.validate();
    return g;
  }

  /** A one-dimensional NDRange of {@code items} work-items in groups of {@code group}. */
  public static LaunchGeometry linear(long items, int group) throws HsaException {
    LaunchGeometry g = new LaunchGeometry(1, items, 1, 1, group, 1, 1, 0, 0, 0);
    g.validate();
    return g;
  }

  /** Checks the sizes against what an AQL packet and the agent allow. */
  public void validate() throws HsaException {
    long[] grid = {gridX, gridY, gridZ};
    int[] group = {groupX, groupY, groupZ};
    for (int i = 0; i < 3; i++) {
      if (group[i] < 1 || group[i] > GpuAgent.WORKGROUP_MAX_SIZE) {
        throw bad("work-group dimension " + "xyz".charAt(i) + " is " + group[i] + " (1.." + GpuAgent.WORKGROUP_MAX_SIZE
            + ")");
      }
      if (grid[i] < 1 || grid[i] > GpuAgent.GRID_MAX_SIZE) {
        throw bad("grid dimension " + "xyz".charAt(i) + " is " + grid[i] + " work-items (1..4294967295)");
      }
      if (i >= dimensions && (grid[i] != 1 || group[i] != 1)) {
        throw bad("a " + dimensions + "-dimensional launch has grid and group size 1 in dimension " + "xyz".charAt(i));
      }
    }
    if (workgroupSize() > GpuAgent.WORKGROUP_MAX_SIZE) {
      throw bad(String.format("work-group %dx%dx%d has %d work-items (at most %d)", groupX, groupY, groupZ,
          workgroupSize(), GpuAgent.WORKGROUP_MAX_SIZE));
    }
  }

  private static HsaException bad(String message) {
    return new HsaException(HsaStatus.INVALID_ARGUMENT, message);
  }

  public long workgroupSize() {
    return (long) groupX * groupY * groupZ;
  }

  /** Waves of 64 in one full work-group. */
  public int wavesPerGroup() {
    return (int) ((workgroupSize() + 63) / 64);
  }

  public long grid(int dim) {
    return dim == 0 ? gridX : dim == 1 ? gridY : gridZ;
  }

  public int group(int dim) {
    return dim == 0 ? groupX : dim == 1 ? groupY : groupZ;
  }

  public long offset(int dim) {
    return dim == 0 ? offsetX : dim == 1 ? offsetY : offsetZ;
  }
}
