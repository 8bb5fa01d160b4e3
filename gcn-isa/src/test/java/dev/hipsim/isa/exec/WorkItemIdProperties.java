package dev.hipsim.isa.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.isa.dispatch.DispatchGeometry;
import dev.hipsim.isa.dispatch.DispatchPacket;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The work-item IDs WaveSetup puts in v0–v2 (or packed into v0) are each lane's x, y and z in its workgroup, for
 * every workgroup shape, partial workgroups at the grid's edges included.
 */
class WorkItemIdProperties {
  @Property(tries = 400)
  void everyLaneGetsItsCoordinates(@ForAll @IntRange(min = 1, max = 64) int sx,
      @ForAll @IntRange(min = 1, max = 16) int sy, @ForAll @IntRange(min = 1, max = 8) int sz,
      @ForAll @IntRange(min = 1, max = 3) int groupsX, @ForAll @IntRange(min = 0, max = 63) int trimX,
      @ForAll @IntRange(min = 0, max = 15) int trimY, @ForAll boolean packed) throws Exception {
    check(sx, sy, sz, groupsX, trimX, trimY, packed);
  }

  /** One-dimensional workgroups of up to 16 waves, the commonest shape, which WaveSetup counts out directly. */
  @Property(tries = 200)
  void oneDimensionalGroupsOfManyWaves(@ForAll @IntRange(min = 1, max = 1024) int sx,
      @ForAll @IntRange(min = 1, max = 3) int groupsX, @ForAll @IntRange(min = 0, max = 1023) int trimX,
      @ForAll boolean packed) throws Exception {
    check(sx, 1, 1, groupsX, trimX, 0, packed);
  }

  private static void check(int sx, int sy, int sz, int groupsX, int trimX, int trimY, boolean packed)
      throws Exception {
    if (sx * sy * sz > 1024) return;
    int gridX = Math.max(1, groupsX * sx - trimX % sx);
    int gridY = Math.max(1, 2 * sy - trimY % sy);
    int gridZ = sz;
    ByteBuffer kd = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    kd.putLong(16, 256);
    kd.putInt(48, 1 | (3 << 16) | (3 << 18));
    kd.putInt(52, (2 << 1) | (1 << 7) | (2 << 11)); // work-item IDs x, y and z
    kd.putShort(56, (short) (1 << 3));
    DispatchPacket p = new DispatchPacket(2, 3, sx, sy, sz, gridX, gridY, gridZ, 0, 0, 0x1000, 0x8000, 0);
    DispatchGeometry geometry = DispatchGeometry.of(p, 64);
    KernelLaunch launch = new KernelLaunch("ids", p, 0x2000, 0x3000, 1, KernelDescriptor.parse(kd), geometry, 0, 0,
        0, packed, false, 2L << 48, 1L << 48, new int[0]);
    for (long index = 0; index < geometry.workgroupCount(); index++) {
      Workgroup g = new Workgroup(geometry.wavesPerFullWorkgroup(), 0);
      g.place(index, geometry, 0);
      int ax = geometry.actualSizeX(g.x);
      int ay = geometry.actualSizeY(g.y);
      int items = ax * ay * geometry.actualSizeZ(g.z);
      for (int wave = 0; wave < g.waveCount; wave++) {
        Wave w = g.waves[wave];
        WaveSetup.initialize(w, launch, g, wave);
        for (int lane = 0; lane < Wave.LANES && wave * 64 + lane < items; lane++) {
          int id = wave * 64 + lane;
          int x = id % ax;
          int y = id / ax % ay;
          int z = id / (ax * ay);
          if (packed) {
            assertThat(w.v[lane]).as("group %d lane %d", index, id).isEqualTo(x | y << 10 | z << 20);
          } else {
            assertThat(new int[] {w.v[lane], w.v[64 + lane], w.v[128 + lane]}).as("group %d lane %d", index, id)
                .containsExactly(x, y, z);
          }
        }
      }
    }
  }
}
