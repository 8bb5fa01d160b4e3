// Device printf: formatted output from several threads and blocks. Output order across threads is not
// defined on hardware, so only one thread per block prints, and blocks print after a device-wide ordering.
#include "common.h"

__global__ void hello(int step) {
  if (threadIdx.x == 0 && blockIdx.x == step)
    printf("block %d of %d: int=%d hex=0x%x float=%.3f str=%s char=%c long=%ld\n", (int)blockIdx.x, (int)gridDim.x,
           -42 * (int)blockIdx.x, 0xbeef + (unsigned)blockIdx.x, 1.5f * blockIdx.x, "hip", 'A' + (int)blockIdx.x,
           1234567890123L);
}

__global__ void lanes() {
  if (threadIdx.x < 3) printf("lane %u says %d%%\n", (unsigned)threadIdx.x, 100);
}

int main() {
  for (int step = 0; step < 4; step++) {
    hello<<<4, 64>>>(step);
    CHECK(hipDeviceSynchronize());
  }
  printf("host: between kernels\n");
  lanes<<<1, 64>>>();
  CHECK(hipDeviceSynchronize());
  return finish(0);
}
