// SAXPY with a grid-stride loop: fewer threads than elements, each thread handles several.
#include "common.h"
#include <vector>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 18;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), ref(n);
  for (int i = 0; i < n; i++) { x[i] = (i % 1000) * 0.001f; y[i] = (i % 77) - 38.0f; ref[i] = std::fma(a, x[i], y[i]); }
  float *dx, *dy;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dy, n * sizeof(float)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(saxpy, dim3(64), dim3(256), 0, 0, n, a, dx, dy);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  long errors = 0;
  // The device contracts a*x+y into one fma; allow the unfused result too.
  for (int i = 0; i < n; i++) if (y[i] != ref[i] && y[i] != a * x[i] + ((i % 77) - 38.0f)) errors++;
  CHECK(hipFree(dx)); CHECK(hipFree(dy));
  std::printf("saxpy n=%d\n", n);
  return finish(errors);
}
