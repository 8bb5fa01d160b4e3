// Translation unit A of the multi-TU program: its own kernels and its own fat binary.
#include <hip/hip_runtime.h>
#include "multi.h"

__global__ void fillIota(int* data, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = base + i;
}

void launchFill(int* data, int n, int base) { fillIota<<<(n + 127) / 128, 128>>>(data, n, base); }
