// __device__ and __constant__ globals, written and read with hipMemcpyToSymbol / hipMemcpyFromSymbol,
// plus hipGetSymbolAddress and a device-side table of function pointers (dynamic relocations).
#include "common.h"
#include <vector>

__constant__ float coeffs[16];
__device__ int counter;
__device__ int table[256];
__device__ float scale = 3.0f;

__device__ int twice(int x) { return 2 * x; }
__device__ int square(int x) { return x * x; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {twice, square};

__global__ void useGlobals(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0;
  for (int k = 0; k < 16; k++) acc += coeffs[k] * (float)((i + k) % 5);
  out[i] = acc * scale + (float)table[i % 256] + (float)ops[i & 1](i % 100);
  atomicAdd(&counter, 1);
}

int main() {
  const int n = 5000;
  float hc[16];
  for (int k = 0; k < 16; k++) hc[k] = 0.25f * k;
  std::vector<int> ht(256);
  for (int k = 0; k < 256; k++) ht[k] = 1000 - k;
  int zero = 0;
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc, sizeof hc));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(table), ht.data(), 256 * sizeof(int)));
  CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof zero));
  float* dscale = nullptr;
  size_t scaleSize = 0;
  CHECK(hipGetSymbolAddress((void**)&dscale, HIP_SYMBOL(scale)));
  CHECK(hipGetSymbolSize(&scaleSize, HIP_SYMBOL(scale)));
  float initialScale = 0;
  CHECK(hipMemcpy(&initialScale, dscale, sizeof(float), hipMemcpyDeviceToHost));
  float* dout;
  CHECK(hipMalloc(&dout, n * 4));
  useGlobals<<<(n + 255) / 256, 256>>>(dout, n);
  CHECK(hipGetLastError());
  std::vector<float> out(n);
  CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  int count = 0;
  CHECK(hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof count));
  long errors = (count != n) + (scaleSize != sizeof(float)) + (initialScale != 3.0f);
  for (int i = 0; i < n; i++) {
    float acc = 0;
    for (int k = 0; k < 16; k++) acc += hc[k] * (float)((i + k) % 5);
    int v = i % 100;
    float want = acc * 3.0f + (float)ht[i % 256] + (float)((i & 1) ? v * v : 2 * v);
    if (out[i] != want) errors++;
  }
  std::printf("device_globals counter=%d\n", count);
  return finish(errors);
}
