// A program that links the kernel library libkern.so and launches through it, plus a kernel of its own.
#include "../common.h"
#include "libkern.h"
#include <vector>

__global__ void addOne(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 1.0f;
}

int main() {
  const int n = 3000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) x[i] = (i % 64) * 0.5f;
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * 4)); CHECK(hipMalloc(&dy, n * 4));
  CHECK(hipMemcpy(dx, x.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(libkernPoly(dx, dy, n, 1.0f, 2.0f, 0.5f));
  addOne<<<(n + 255) / 256, 256>>>(dy, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(y.data(), dy, n * 4, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) {
    float v = x[i];
    // Inputs are multiples of 0.5 below 32: every intermediate is exact, fused or not.
    if (y[i] != 1.0f + v * (2.0f + v * 0.5f) + 1.0f) errors++;
  }
  std::printf("shared_lib n=%d\n", n);
  return finish(errors);
}
