// The peer-comparison kernels (copy of ../shared/perf/kernels.hip, run by ../shared/perf/compare.sh): vadd, sgemm, reduce.
#include <hip/hip_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
#define T 16
__global__ void sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.f;
    Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < T; k++) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
__global__ void reduce(const int* in, int* out, int n) {
  __shared__ int tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  tile[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) { if (t < s) tile[t] += tile[t + s]; __syncthreads(); }
  if (t == 0) atomicAdd(out, tile[0]);
}
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "vadd"; int size = argc > 2 ? atoi(argv[2]) : 1 << 20;
  double t0, t1; long bad = 0;
  if (!strcmp(which, "sgemm")) {
    int M = size, N = size, K = size; size_t bytes = (size_t)M * N * 4;
    std::vector<float> A(M * N), B(M * N), C(M * N);
    for (int i = 0; i < M * N; i++) { A[i] = (i % 17) - 8; B[i] = (i % 13) - 6; }
    float *dA, *dB, *dC; hipMalloc(&dA, bytes); hipMalloc(&dB, bytes); hipMalloc(&dC, bytes);
    hipMemcpy(dA, A.data(), bytes, hipMemcpyHostToDevice); hipMemcpy(dB, B.data(), bytes, hipMemcpyHostToDevice);
    t0 = now(); hipLaunchKernelGGL(sgemm, dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, 0, dA, dB, dC, M, N, K); hipDeviceSynchronize(); t1 = now();
    hipMemcpy(C.data(), dC, bytes, hipMemcpyDeviceToHost);
    for (int i = 0; i < M; i += 7) for (int j = 0; j < N; j += 5) { float r = 0; for (int k = 0; k < K; k++) r += A[i * K + k] * B[k * N + j]; if (r != C[i * N + j]) bad++; }
  } else if (!strcmp(which, "reduce")) {
    int n = size; std::vector<int> h(n); long expect = 0; for (int i = 0; i < n; i++) { h[i] = i % 1000; expect += h[i]; }
    int *di, *dout, got = 0; hipMalloc(&di, n * 4); hipMalloc(&dout, 4); hipMemset(dout, 0, 4);
    hipMemcpy(di, h.data(), n * 4, hipMemcpyHostToDevice);
    t0 = now(); hipLaunchKernelGGL(reduce, dim3((n + 255) / 256), dim3(256), 0, 0, di, dout, n); hipDeviceSynchronize(); t1 = now();
    hipMemcpy(&got, dout, 4, hipMemcpyDeviceToHost); bad = got != (int)expect;
  } else {
    int n = size; std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
    float *da, *db, *dc; hipMalloc(&da, n * 4); hipMalloc(&db, n * 4); hipMalloc(&dc, n * 4);
    hipMemcpy(da, a.data(), n * 4, hipMemcpyHostToDevice); hipMemcpy(db, b.data(), n * 4, hipMemcpyHostToDevice);
    t0 = now(); hipLaunchKernelGGL(vadd, dim3((n + 255) / 256), dim3(256), 0, 0, da, db, dc, n); hipDeviceSynchronize(); t1 = now();
    hipMemcpy(c.data(), dc, n * 4, hipMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) if (c[i] != 3.f * i) bad++;
  }
  printf("%s size=%d kernel_seconds=%.4f %s\n", which, size, t1 - t0, bad ? "FAILED" : "PASSED");
  return bad != 0;
}
