#include <hip/hip_runtime.h>
#include <cstdio>

// The device libraries this corpus is built with predate buffered printf; this stub lets the code object link.
// Only the metadata matters here: amdhsa.printf lists every format string.
extern "C" __device__ __attribute__((used)) char* __printf_alloc(unsigned int) { return nullptr; }

__global__ void hello(int n, float x) {
  printf("lane %d of %d: %f\n", (int)threadIdx.x, n, x);
  printf("done:%s\n", "ok");
}
