// Tiled matrix multiply with shared memory and __syncthreads; integers in floats so the result is exact.
#include "common.h"
#include <vector>

#define TILE 16

__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (col < N && k0 + ty < K) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

int main() {
  const int M = 100, N = 72, K = 90;
  std::vector<float> A(M * K), B(K * N), C(M * N);
  for (int i = 0; i < M * K; i++) A[i] = (i % 7) - 3;
  for (int i = 0; i < K * N; i++) B[i] = (i % 5) - 2;
  float *dA, *dB, *dC;
  CHECK(hipMalloc(&dA, A.size() * sizeof(float)));
  CHECK(hipMalloc(&dB, B.size() * sizeof(float)));
  CHECK(hipMalloc(&dC, C.size() * sizeof(float)));
  CHECK(hipMemcpy(dA, A.data(), A.size() * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dB, B.data(), B.size() * sizeof(float), hipMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(C.data(), dC, C.size() * sizeof(float), hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float r = 0;
      for (int k = 0; k < K; k++) r += A[i * K + k] * B[k * N + j];
      if (r != C[i * N + j]) errors++;
    }
  CHECK(hipFree(dA)); CHECK(hipFree(dB)); CHECK(hipFree(dC));
  std::printf("matmul_tiled %dx%dx%d\n", M, N, K);
  return finish(errors);
}
