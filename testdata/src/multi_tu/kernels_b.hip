// Translation unit B: a kernel with the same body shape but a different name, plus a __device__ global.
#include <hip/hip_runtime.h>
#include "multi.h"

__device__ int bias = 7;

__global__ void squareAddBias(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i] + bias;
}

void launchSquare(int* data, int n) { squareAddBias<<<(n + 127) / 128, 128>>>(data, n); }
