// Vector add: one thread per element, a partial last block.
#include "common.h"
#include <vector>

__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 100000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; i++) { a[i] = 0.5f * i; b[i] = 1.0f - 0.25f * i; }
  float *da, *db, *dc;
  CHECK(hipMalloc(&da, n * sizeof(float)));
  CHECK(hipMalloc(&db, n * sizeof(float)));
  CHECK(hipMalloc(&dc, n * sizeof(float)));
  CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(c.data(), dc, n * sizeof(float), hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) if (c[i] != a[i] + b[i]) errors++;
  CHECK(hipFree(da)); CHECK(hipFree(db)); CHECK(hipFree(dc));
  std::printf("vector_add n=%d\n", n);
  return finish(errors);
}
