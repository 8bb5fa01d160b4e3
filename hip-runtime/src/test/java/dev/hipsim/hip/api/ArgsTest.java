package dev.hipsim.hip.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hipsim.hip.abi.ApiTable;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ArgsTest {
  private final ApiTable table = ApiTable.standard();
  private final FakeHostMemory memory = new FakeHostMemory(4096);

  private Args args(String symbol, long... slots) {
    return new Args(table.find(symbol).orElseThrow(), slots, memory);
  }

  @Property
  void dim3RoundTripsThroughItsTwoSlots(@ForAll int x, @ForAll int y, @ForAll int z) {
    long xy = Integer.toUnsignedLong(x) | (long) y << 32;
    Args a = args("__hipPushCallConfiguration", xy, Integer.toUnsignedLong(z), 0, 0, 0, 0);
    assertThat(a.dim3(0)).isEqualTo(new Dim3(x, y, z));
  }

  @Property
  void floatsTravelAsTheirBits(@ForAll float value) {
    Args a = args("hipTexRefSetMipmapLevelBias", 0, Integer.toUnsignedLong(Float.floatToRawIntBits(value)));
    assertThat(Float.floatToRawIntBits(a.f32(1))).isEqualTo(Float.floatToRawIntBits(value));
  }

  @Test
  void integersAreReadWithTheirSignedness() {
    Args a = args("hipMemsetD8", 0x1000, 0xff, 3);
    assertThat(a.small(1)).isEqualTo(255);
    assertThat(a.i64(2)).isEqualTo(3);
    Args b = args("hipSetDevice", -1L);
    assertThat(b.i32(0)).isEqualTo(-1);
    Args c = args("hipInit", 0xffff_ffffL);
    assertThat(c.u32(0)).isEqualTo(0xffff_ffffL);
  }

  @Test
  void stringsAndStructAddressesAreReachable() {
    long s = memory.internString("kernel_name");
    Args a = args("hipModuleGetFunction", 0, 0, s);
    assertThat(a.string(2)).isEqualTo("kernel_name");
    Args b = args("hipModuleGetFunction", 0, 0, 0);
    assertThat(b.string(2)).isNull();
    Args m = args("hipMemset3D", 0x1234, 7, 0x5678);
    assertThat(m.structAddress(0)).isEqualTo(0x1234);
    assertThatThrownBy(() -> m.structSlots(0)).hasMessageContaining("passed by address");
    Args c = args("hipCreateChannelDesc", 1, 2, 3, 4, 5, 0x9999);
    assertThat(c.resultAddress()).isEqualTo(0x9999);
    assertThatThrownBy(() -> a.resultAddress()).hasMessageContaining("does not return a struct");
  }

  @Test
  void slotCountMustMatch() {
    assertThatThrownBy(() -> args("hipMalloc", 1)).hasMessage("hipMalloc expects 2 argument slots, got 1");
  }
}
