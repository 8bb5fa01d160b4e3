package dev.hipsim.kfd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each ioctl rejects bad arguments with the errno kfd_chardev.c / amdgpu_amdkfd_gpuvm.c return. */
class KfdErrnoTest {
  private static final long VA = 0x10_0000_0000L;
  private Rig rig;
  private KfdProcess p;

  @BeforeEach
  void setUp() throws Exception {
    rig = new Rig(8L << 20);
    p = rig.process;
  }

  @AfterEach
  void tearDown() {
    rig.close();
  }

  private static void fails(Errno errno, String ioctl, ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(KfdException.class, e -> {
      assertThat(e.errno()).as(e.getMessage()).isEqualTo(errno);
      assertThat(e.ioctl()).isEqualTo(ioctl);
    });
  }

  private static final String ALLOC = "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU";

  @Test
  void versionAndApertures() {
    assertThat(p.getVersion()).isEqualTo(new KfdVersion(1, 17));
    ProcessApertures a = p.getProcessAperturesNew().get(0);
    assertThat(a.gpuId()).isEqualTo(rig.gpu);
    assertThat(a.ldsBase()).isEqualTo(0x1_0000_0000_0000L);
    assertThat(a.ldsLimit()).isEqualTo(0x1_0000_ffff_ffffL);
    assertThat(a.scratchBase()).isEqualTo(0x2_0000_0000_0000L);
    assertThat(a.scratchLimit()).isEqualTo(0x2_0000_ffff_ffffL);
    assertThat(a.gpuvmBase()).isEqualTo(0x1_0000L);
    assertThat(a.gpuvmLimit()).isEqualTo(0x7fff_ffff_ffffL);
  }

  @Test
  void allocationErrors() throws Exception {
    int vram = AllocFlags.VRAM | AllocFlags.WRITABLE;
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA, 0, rig.gpu, vram)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA, 4096, 0xbeef, vram)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA, 4096, rig.gpu, AllocFlags.WRITABLE)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA + 12, 4096, rig.gpu, vram)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(0x1000, 4096, rig.gpu, vram)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(1L << 47, 4096, rig.gpu, vram)));
    fails(Errno.ENOMEM, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA, 9L << 20, rig.gpu, vram)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA, 4096, rig.gpu, AllocFlags.DOORBELL)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA, 8192, rig.gpu, AllocFlags.MMIO_REMAP)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(
        AllocRequest.of(VA, 3 * 4096, rig.gpu, AllocFlags.GTT | AllocFlags.AQL_QUEUE_MEM)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(
        AllocRequest.userptr(VA, 4096, rig.gpu, 0, 0, ByteBuffer.allocate(4096))));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(
        AllocRequest.userptr(VA, 4096, rig.gpu, 0, 0x7000_0000_0010L, ByteBuffer.allocate(4096))));
    fails(Errno.EFAULT, ALLOC, () -> p.allocMemoryOfGpu(
        AllocRequest.userptr(VA, 8192, rig.gpu, 0, 0x7000_0000_0000L, ByteBuffer.allocate(4096))));
    p.allocMemoryOfGpu(AllocRequest.of(VA, 8192, rig.gpu, vram));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA + 4096, 4096, rig.gpu, vram)));
    fails(Errno.EINVAL, ALLOC, () -> p.allocMemoryOfGpu(AllocRequest.of(VA - 4096, 8192, rig.gpu, vram)));
    p.allocMemoryOfGpu(AllocRequest.of(VA + 8192, 4096, rig.gpu, vram)); // adjacent is fine

    KfdProcess other = rig.kfd.open();
    fails(Errno.ENODEV, ALLOC, () -> other.allocMemoryOfGpu(AllocRequest.of(VA, 4096, rig.gpu, vram)));
    other.close();
    fails(Errno.EBADF, ALLOC, () -> other.allocMemoryOfGpu(AllocRequest.of(VA, 4096, rig.gpu, vram)));
  }

  @Test
  void mapUnmapAndFreeErrors() throws Exception {
    long h = p.allocMemoryOfGpu(AllocRequest.of(VA, 4096, rig.gpu, AllocFlags.VRAM)).handle();
    assertThat(h >>> 32).as("MAKE_HANDLE(gpu_id, idr)").isEqualTo(rig.gpu);
    String map = "AMDKFD_IOC_MAP_MEMORY_TO_GPU";
    String unmap = "AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU";
    fails(Errno.EINVAL, map, () -> p.mapMemoryToGpu(h));
    fails(Errno.EINVAL, map, () -> p.mapMemoryToGpu(h + 99, rig.gpu));
    fails(Errno.EINVAL, map, () -> p.mapMemoryToGpu(h, 0xbeef));
    fails(Errno.EINVAL, unmap, () -> p.unmapMemoryFromGpu(h, rig.gpu));
    assertThat(p.mapMemoryToGpu(h, rig.gpu)).isEqualTo(1);
    assertThat(p.mapMemoryToGpu(h, rig.gpu)).as("mapping again is a no-op").isEqualTo(1);
    fails(Errno.EBUSY, "AMDKFD_IOC_FREE_MEMORY_OF_GPU", () -> p.freeMemoryOfGpu(h));
    try {
      p.mapMemoryToGpu(h, rig.gpu, 0xbeef);
    } catch (MapException e) {
      assertThat(e.successes()).as("n_success").isEqualTo(1);
    }
    assertThat(p.unmapMemoryFromGpu(h, rig.gpu)).isEqualTo(1);
    p.freeMemoryOfGpu(h);
    fails(Errno.EINVAL, "AMDKFD_IOC_FREE_MEMORY_OF_GPU", () -> p.freeMemoryOfGpu(h));
  }

  @Test
  void queueErrors() throws Exception {
    String create = "AMDKFD_IOC_CREATE_QUEUE";
    rig.mapped(VA, 4096, AllocFlags.GTT | AllocFlags.WRITABLE);
    long unmapped = p.allocMemoryOfGpu(AllocRequest.of(VA + 0x10000, 4096, rig.gpu, AllocFlags.GTT)).handle();
    CreateQueueArgs ok = CreateQueueArgs.aql(rig.gpu, VA, 1024, VA + 2048 + 56, VA + 2048 + 128);
    fails(Errno.EINVAL, create, () -> p.createQueue(with(ok, 1000, -1, -1, -1)));
    fails(Errno.EINVAL, create, () -> p.createQueue(with(ok, -1, 101, -1, -1)));
    fails(Errno.EINVAL, create, () -> p.createQueue(with(ok, -1, -1, 16, -1)));
    fails(Errno.ENOTSUPP, create, () -> p.createQueue(with(ok, -1, -1, -1, CreateQueueArgs.TYPE_SDMA)));
    fails(Errno.EINVAL, create, () -> p.createQueue(CreateQueueArgs.aql(0xbeef, VA, 1024, VA + 2048, VA + 2056)));
    fails(Errno.EINVAL, create, () -> p.createQueue(CreateQueueArgs.aql(rig.gpu, VA + 0x10000, 1024, VA, VA + 8)));
    fails(Errno.EINVAL, create, () -> p.createQueue(CreateQueueArgs.aql(rig.gpu, VA, 8192, VA, VA + 8)));
    fails(Errno.EINVAL, create, () -> p.createQueue(CreateQueueArgs.aql(rig.gpu, VA, 1024, VA + 2052, VA + 8)));
    fails(Errno.EINVAL, create, () -> p.createQueue(CreateQueueArgs.aql(rig.gpu, VA, 1024, VA, 0x9999_0000L)));
    KfdProcess other = rig.kfd.open();
    fails(Errno.ESRCH, create, () -> other.createQueue(ok));
    other.close();
    CreateQueueResult q = p.createQueue(ok);
    assertThat(q.queueId()).isZero();
    assertThat(p.createQueue(ok).queueId()).isEqualTo(1);
    fails(Errno.EINVAL, "AMDKFD_IOC_DESTROY_QUEUE", () -> p.destroyQueue(7));
    p.freeMemoryOfGpu(unmapped);
  }

  private static CreateQueueArgs with(CreateQueueArgs a, long ringSize, int percentage, int priority, int type) {
    return new CreateQueueArgs(a.ringBaseAddress(), a.writePointerAddress(), a.readPointerAddress(),
        ringSize < 0 ? a.ringSize() : ringSize, a.gpuId(), type < 0 ? a.queueType() : type,
        percentage < 0 ? a.queuePercentage() : percentage, priority < 0 ? a.queuePriority() : priority, 0, 0, 0, 0, 0);
  }

  @Test
  void eventErrors() throws Exception {
    fails(Errno.EINVAL, "AMDKFD_IOC_CREATE_EVENT", () -> p.createEvent(42, false, 0, 0));
    long vramPage = rig.mapped(VA, 32768, AllocFlags.VRAM);
    fails(Errno.EINVAL, "AMDKFD_IOC_CREATE_EVENT", () -> p.createEvent(0, false, 0, vramPage));
    fails(Errno.EINVAL, "AMDKFD_IOC_SET_EVENT", () -> p.setEvent(3));
    fails(Errno.EINVAL, "AMDKFD_IOC_WAIT_EVENTS", () -> p.waitEvents(new int[] {3}, false, 0));
    CreateEventResult e = p.createEvent(0, true, 0, 0);
    assertThat(e.eventPageOffset() >>> 62).as("events mmap type").isEqualTo(2);
    p.destroyEvent(e.eventId());
    fails(Errno.EINVAL, "AMDKFD_IOC_DESTROY_EVENT", () -> p.destroyEvent(e.eventId()));
  }

  @Test
  void vramIsNotSharedWithOtherGpus() throws Exception {
    Kfd two = Kfd.create(1L << 30, java.util.List.of(
        new dev.hipsim.kfd.topology.DeviceConfig(dev.hipsim.kfd.topology.GpuModel.GFX90A, 8L << 20),
        new dev.hipsim.kfd.topology.DeviceConfig(dev.hipsim.kfd.topology.GpuModel.GFX942, 8L << 20)));
    KfdProcess q = two.open();
    int g0 = two.devices().get(0).gpuId();
    int g1 = two.devices().get(1).gpuId();
    assertThat(g0).isNotEqualTo(g1);
    q.acquireVm(g0);
    q.acquireVm(g1);
    long vram = q.allocMemoryOfGpu(AllocRequest.of(VA, 4096, g0, AllocFlags.VRAM)).handle();
    long gtt = q.allocMemoryOfGpu(AllocRequest.of(VA + 4096, 4096, g0, AllocFlags.GTT | AllocFlags.WRITABLE)).handle();
    assertThat(q.mapMemoryToGpu(gtt, g0, g1)).as("system memory maps on every GPU").isEqualTo(2);
    fails(Errno.EINVAL, "AMDKFD_IOC_MAP_MEMORY_TO_GPU", () -> q.mapMemoryToGpu(vram, g1));
    q.gpuVm(g0).store32(VA + 4096, 5);
    assertThat(q.gpuVm(g1).load32(VA + 4096)).isEqualTo(5);
    q.close();
    assertThat(two.devices().get(0).vramUsedBytes()).isZero();
    assertThat(two.devices().get(1).vramUsedBytes()).isZero();
  }
}
