// A shared library carrying kernels: its .hip_fatbin is registered when the library is loaded.
#include <hip/hip_runtime.h>
#include "libkern.h"

__global__ void polyEval(const float* x, float* y, int n, float c0, float c1, float c2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = c0 + x[i] * (c1 + x[i] * c2);
}

hipError_t libkernPoly(const float* x, float* y, int n, float c0, float c1, float c2) {
  polyEval<<<(n + 255) / 256, 256>>>(x, y, n, c0, c1, c2);
  return hipGetLastError();
}
