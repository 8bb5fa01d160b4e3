// Kernels built alone into a code-object file (hipcc --genco), loaded at run time by module_api.
#include <hip/hip_runtime.h>

__device__ int moduleCounter;
__constant__ float moduleScale = 1.5f;

extern "C" __global__ void scaleArray(float* data, int n, float offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * moduleScale + offset;
  if (i == 0) atomicAdd(&moduleCounter, 1);
}

extern "C" __global__ void fillValue(int* data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value + i;
}
