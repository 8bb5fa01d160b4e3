// Private (scratch) memory: a per-thread array indexed at run time, and a recursive device function.
#include "common.h"
#include <vector>

__device__ __noinline__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__device__ __noinline__ long ackermannish(int depth, long acc) {
  if (depth == 0) return acc;
  return ackermannish(depth - 1, acc * 3 + depth) ^ depth;
}

__global__ void scratchy(const int* idx, int* out, long* out2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int local[40];
  for (int k = 0; k < 40; k++) local[k] = k * k + i;
  int sum = 0;
  for (int k = 0; k < 10; k++) sum += local[(idx[i] + 7 * k) % 40];
  out[i] = sum + fib(i % 15);
  out2[i] = ackermannish(i % 20, i);
}

static int hostFib(int k) { return k < 2 ? k : hostFib(k - 1) + hostFib(k - 2); }
static long hostAck(int depth, long acc) { return depth == 0 ? acc : hostAck(depth - 1, acc * 3 + depth) ^ depth; }

int main() {
  const int n = 1000;
  std::vector<int> idx(n), out(n);
  std::vector<long> out2(n);
  for (int i = 0; i < n; i++) idx[i] = (i * 13) % 97;
  int *didx, *dout;
  long* dout2;
  CHECK(hipMalloc(&didx, n * 4)); CHECK(hipMalloc(&dout, n * 4)); CHECK(hipMalloc(&dout2, n * 8));
  CHECK(hipMemcpy(didx, idx.data(), n * 4, hipMemcpyHostToDevice));
  scratchy<<<(n + 63) / 64, 64>>>(didx, dout, dout2, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(out2.data(), dout2, n * 8, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) {
    int sum = 0;
    for (int k = 0; k < 10; k++) { int j = (idx[i] + 7 * k) % 40; sum += j * j + i; }
    if (out[i] != sum + hostFib(i % 15)) errors++;
    if (out2[i] != hostAck(i % 20, i)) errors++;
  }
  std::printf("scratch_recursion n=%d\n", n);
  return finish(errors);
}
