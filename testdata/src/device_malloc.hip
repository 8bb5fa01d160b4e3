// Device-side malloc and free. Small blocks come from the heap's slabs (code object v5+: the heap the runtime passes
// in hidden_heap_v1; v4: a heap inside the code object); slabs and large blocks come from the runtime through the
// hostcall device-memory service.
#include "common.h"

__global__ void smallBlocks(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int len = 1 + i % 13;
  int* p = static_cast<int*>(malloc(len * sizeof(int)));
  if (!p) {
    out[i] = -1;
    return;
  }
  for (int k = 0; k < len; k++) p[k] = i + k;
  int s = 0;
  for (int k = 0; k < len; k++) s += p[k];
  free(p);
  out[i] = s;
}

__global__ void largeBlock(long* out) {
  if (threadIdx.x != 0) return;
  const int n = 100000;
  long* p = static_cast<long*>(malloc(n * sizeof(long)));
  if (!p) {
    out[0] = -1;
    return;
  }
  for (int k = 0; k < n; k++) p[k] = k;
  long s = 0;
  for (int k = 0; k < n; k++) s += p[k];
  free(p);
  out[0] = s;
}

int main() {
  const int n = 1000;
  int* d;
  long* dl;
  CHECK(hipMalloc(&d, n * sizeof(int)));
  CHECK(hipMalloc(&dl, sizeof(long)));
  smallBlocks<<<(n + 127) / 128, 128>>>(d, n);
  CHECK(hipGetLastError());
  largeBlock<<<1, 64>>>(dl);
  CHECK(hipGetLastError());
  CHECK(hipDeviceSynchronize());
  int h[n];
  long hl = 0;
  CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&hl, dl, sizeof hl, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) {
    int len = 1 + i % 13;
    if (h[i] != len * i + len * (len - 1) / 2) errors++;
  }
  if (hl != 100000L * 99999L / 2) errors++;
  std::printf("device_malloc n=%d large=%ld\n", n, hl);
  return finish(errors);
}
