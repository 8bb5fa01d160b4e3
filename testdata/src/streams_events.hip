// Two streams with asynchronous copies, events for ordering (hipStreamWaitEvent) and timing.
#include "common.h"
#include <vector>

__global__ void scaleAdd(float* data, float mul, float add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * mul + add;
}

int main() {
  const int n = 1 << 16;
  float *hA, *hB;
  CHECK(hipHostMalloc((void**)&hA, n * sizeof(float), hipHostMallocDefault));
  CHECK(hipHostMalloc((void**)&hB, n * sizeof(float), hipHostMallocDefault));
  for (int i = 0; i < n; i++) { hA[i] = i; hB[i] = -i; }
  float *dA, *dB;
  CHECK(hipMalloc(&dA, n * sizeof(float))); CHECK(hipMalloc(&dB, n * sizeof(float)));
  hipStream_t s1, s2;
  CHECK(hipStreamCreate(&s1)); CHECK(hipStreamCreate(&s2));
  hipEvent_t start, aDone, stop;
  CHECK(hipEventCreate(&start)); CHECK(hipEventCreate(&aDone)); CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, s1));
  CHECK(hipMemcpyAsync(dA, hA, n * sizeof(float), hipMemcpyHostToDevice, s1));
  CHECK(hipMemcpyAsync(dB, hB, n * sizeof(float), hipMemcpyHostToDevice, s2));
  scaleAdd<<<n / 256, 256, 0, s1>>>(dA, 2.0f, 1.0f, n);
  CHECK(hipEventRecord(aDone, s1));
  // s2 must see A finished before it copies A into B's second half.
  CHECK(hipStreamWaitEvent(s2, aDone, 0));
  CHECK(hipMemcpyAsync(dB + n / 2, dA, n / 2 * sizeof(float), hipMemcpyDeviceToDevice, s2));
  scaleAdd<<<n / 256, 256, 0, s2>>>(dB, 1.0f, 0.5f, n);
  CHECK(hipEventRecord(stop, s2));
  CHECK(hipMemcpyAsync(hA, dA, n * sizeof(float), hipMemcpyDeviceToHost, s1));
  CHECK(hipMemcpyAsync(hB, dB, n * sizeof(float), hipMemcpyDeviceToHost, s2));
  CHECK(hipStreamSynchronize(s1));
  CHECK(hipStreamSynchronize(s2));
  CHECK(hipEventSynchronize(stop));
  float ms = -1;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  long errors = ms < 0;
  if (hipEventQuery(stop) != hipSuccess) errors++;
  if (hipStreamQuery(s1) != hipSuccess) errors++;
  for (int i = 0; i < n; i++) {
    if (hA[i] != 2.0f * i + 1.0f) errors++;
    float b = i < n / 2 ? -(float)i + 0.5f : 2.0f * (i - n / 2) + 1.0f + 0.5f;
    if (hB[i] != b) errors++;
  }
  CHECK(hipEventDestroy(start)); CHECK(hipEventDestroy(aDone)); CHECK(hipEventDestroy(stop));
  CHECK(hipStreamDestroy(s1)); CHECK(hipStreamDestroy(s2));
  CHECK(hipFree(dA)); CHECK(hipFree(dB));
  CHECK(hipHostFree(hA)); CHECK(hipHostFree(hB));
  std::printf("streams_events n=%d\n", n);
  return finish(errors);
}
