package dev.hipsim.isa.dispatch;

/**
 * How a dispatch's grid decomposes into workgroups and wave64s. Grid sizes are in work-items, as in the AQL packet;
 * the last workgroup along an axis may be partial.
 */
public record DispatchGeometry(
    int gridX, int gridY, int gridZ, int groupX, int groupY, int groupZ, int waveSize) {

  /** Validates and builds the geometry of a packet; rejects sizes the hardware cannot dispatch. */
  public static DispatchGeometry of(DispatchPacket p, int waveSize) throws DispatchException {
    int dims = p.dimensions();
    if (dims < 1 || dims > 3) throw new DispatchException("dispatch packet has " + dims + " dimensions (1 to 3)");
    int[] grid = {p.gridSizeX(), p.gridSizeY(), p.gridSizeZ()};
    int[] group = {p.workgroupSizeX(), p.workgroupSizeY(), p.workgroupSizeZ()};
    for (int d = 0; d < 3; d++) {
      if (d >= dims) {
        grid[d] = Math.max(grid[d], 1);
        group[d] = Math.max(group[d], 1);
      }
      if (grid[d] <= 0 || Integer.toUnsignedLong(grid[d]) > 0xffff_ffffL) {
        throw new DispatchException("grid size " + "xyz".charAt(d) + " is " + Integer.toUnsignedString(grid[d]));
      }
      if (group[d] <= 0) throw new DispatchException("workgroup size " + "xyz".charAt(d) + " is " + group[d]);
    }
    long items = (long) group[0] * group[1] * group[2];
    if (items > 1024) {
      throw new DispatchException("workgroup of " + group[0] + "x" + group[1] + "x" + group[2] + " = " + items
          + " work-items exceeds the device's 1024");
    }
    return new DispatchGeometry(grid[0], grid[1], grid[2], group[0], group[1], group[2], waveSize);
  }

  public int workgroupsX() { return ceilDiv(gridX, groupX); }

  public int workgroupsY() { return ceilDiv(gridY, groupY); }

  public int workgroupsZ() { return ceilDiv(gridZ, groupZ); }

  public long workgroupCount() { return (long) workgroupsX() * workgroupsY() * workgroupsZ(); }

  /** Work-items of the workgroup at (x, y, z): partial at the grid's edges. */
  public int actualSizeX(int wgX) { return Math.min(groupX, gridX - wgX * groupX); }

  public int actualSizeY(int wgY) { return Math.min(groupY, gridY - wgY * groupY); }

  public int actualSizeZ(int wgZ) { return Math.min(groupZ, gridZ - wgZ * groupZ); }

  /** Waves needed by the workgroup at (x, y, z). */
  public int wavesIn(int wgX, int wgY, int wgZ) {
    int items = actualSizeX(wgX) * actualSizeY(wgY) * actualSizeZ(wgZ);
    return ceilDiv(items, waveSize);
  }

  /** Waves of a full workgroup. */
  public int wavesPerFullWorkgroup() {
    return ceilDiv(groupX * groupY * groupZ, waveSize);
  }

  private static int ceilDiv(int a, int b) {
    return (int) ((Integer.toUnsignedLong(a) + b - 1) / b);
  }
}
