// A kernel that stores through a pointer no allocation covers. On an MI210 or MI300X the GPU raises a page fault,
// ROCr prints "Memory access fault by GPU node-N (Agent handle: 0x...) on address 0x10000. Reason: Page not present
// or supervisor privilege." and aborts the process (SIGABRT, exit status 134): the program never reaches its end.
#include "common.h"

__global__ void poke(int* bad, int lane) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == lane) *bad = i;
}

int main() {
  int* valid;
  CHECK(hipMalloc(&valid, 4096));
  std::printf("memory_fault: storing to 0x10000 from work-item 70\n");
  std::fflush(stdout);
  poke<<<2, 64>>>(reinterpret_cast<int*>(0x10000), 70);
  hipError_t e = hipDeviceSynchronize();
  std::printf("memory_fault: no fault was reported (%s)\nFAILED\n", hipGetErrorString(e));
  return 1;
}
