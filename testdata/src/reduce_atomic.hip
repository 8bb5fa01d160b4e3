// Block reduction in shared memory, combined across blocks with global atomics (int add, max, and a u64 add).
#include "common.h"
#include <vector>

__global__ void reduce(const int* in, int n, int* sum, int* maxv, unsigned long long* sum64) {
  __shared__ int tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  tile[t] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(sum, tile[0]);
  if (i < n) {
    atomicMax(maxv, v);
    atomicAdd(sum64, (unsigned long long)v * 1000003ull);
  }
}

int main() {
  const int n = 300000;
  std::vector<int> h(n);
  long long expect = 0, expect64 = 0;
  int expectMax = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (int)((i * 2654435761u) % 2001u) - 1000;
    expect += h[i];
    expect64 += (long long)h[i] * 1000003ll;
    if (h[i] > expectMax) expectMax = h[i];
  }
  int *din, *dsum, *dmax;
  unsigned long long* dsum64;
  CHECK(hipMalloc(&din, n * sizeof(int)));
  CHECK(hipMalloc(&dsum, sizeof(int)));
  CHECK(hipMalloc(&dmax, sizeof(int)));
  CHECK(hipMalloc(&dsum64, sizeof(unsigned long long)));
  CHECK(hipMemcpy(din, h.data(), n * sizeof(int), hipMemcpyHostToDevice));
  CHECK(hipMemset(dsum, 0, sizeof(int)));
  CHECK(hipMemset(dmax, 0x80, sizeof(int)));
  CHECK(hipMemset(dsum64, 0, sizeof(unsigned long long)));
  reduce<<<(n + 255) / 256, 256>>>(din, n, dsum, dmax, dsum64);
  CHECK(hipGetLastError());
  int sum = 0, maxv = 0;
  unsigned long long sum64 = 0;
  CHECK(hipMemcpy(&sum, dsum, sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&maxv, dmax, sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&sum64, dsum64, sizeof(sum64), hipMemcpyDeviceToHost));
  long errors = (sum != (int)expect) + (maxv != expectMax) + ((long long)sum64 != expect64);
  std::printf("reduce_atomic sum=%d max=%d sum64=%lld\n", sum, maxv, (long long)sum64);
  CHECK(hipFree(din)); CHECK(hipFree(dsum)); CHECK(hipFree(dmax)); CHECK(hipFree(dsum64));
  return finish(errors);
}
