// A program of several translation units: main plus two kernel files, each with its own .hip_fatbin bundle.
#include "../common.h"
#include "multi.h"
#include <vector>

__global__ void negate(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = -data[i];
}

int main() {
  const int n = 1000;
  int* d;
  CHECK(hipMalloc(&d, n * sizeof(int)));
  launchFill(d, n, -500);
  launchSquare(d, n);
  negate<<<(n + 255) / 256, 256>>>(d, n);
  CHECK(hipGetLastError());
  std::vector<int> h(n);
  CHECK(hipMemcpy(h.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) {
    int v = -500 + i;
    if (h[i] != -(v * v + 7)) errors++;
  }
  CHECK(hipFree(d));
  std::printf("multi_tu n=%d\n", n);
  return finish(errors);
}
