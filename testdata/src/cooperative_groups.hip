// A cooperative launch: every block writes partial sums, the whole grid synchronises (grid.sync()), then block 0
// combines them; a second phase reads what other blocks wrote after the barrier.
#include "common.h"
#include <hip/hip_cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

__global__ void twoPhase(const int* in, int* partial, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = tile[0];
  grid.sync();
  if (blockIdx.x == 0 && t == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; b++) sum += partial[b];
    out[0] = sum;
  }
  grid.sync();
  if (i < n) out[1 + i] = in[i] + out[0] + partial[(blockIdx.x + 1) % gridDim.x];
}

int main() {
  int device = 0, supports = 0;
  CHECK(hipDeviceGetAttribute(&supports, hipDeviceAttributeCooperativeLaunch, device));
  if (!supports) { std::printf("cooperative launch not supported\nFAILED\n"); return 1; }
  const int blocks = 8, threads = 256, n = blocks * threads - 100;
  std::vector<int> in(n), out(n + 1);
  long expect = 0;
  for (int i = 0; i < n; i++) { in[i] = (i * 7) % 31 - 15; expect += in[i]; }
  int *din, *dpartial, *dout;
  CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&dpartial, blocks * 4)); CHECK(hipMalloc(&dout, (n + 1) * 4));
  CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  int count = n;
  void* args[] = {&din, &dpartial, &dout, &count};
  CHECK(hipLaunchCooperativeKernel((const void*)twoPhase, dim3(blocks), dim3(threads), args, 0, nullptr));
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(out.data(), dout, (n + 1) * 4, hipMemcpyDeviceToHost));
  std::vector<int> partial(blocks, 0);
  for (int i = 0; i < n; i++) partial[i / threads] += in[i];
  long errors = out[0] != expect;
  for (int i = 0; i < n; i++) if (out[1 + i] != in[i] + (int)expect + partial[(i / threads + 1) % blocks]) errors++;
  std::printf("cooperative_groups blocks=%d sum=%d\n", blocks, out[0]);
  return finish(errors);
}
