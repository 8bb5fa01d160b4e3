// Matrix cores: one wave computes a 32x32 tile D = A*B + C with v_mfma_f32_32x32x8f16 (K = 8 per step),
// and a 16x16 f32 tile with v_mfma_f32_16x16x4f32. Small integers, so the products are exact.
#include "common.h"
#include <vector>

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));
typedef float float4v __attribute__((ext_vector_type(4)));

// A is 32xK row-major, B is Kx32 row-major, C/D 32x32 row-major, K a multiple of 8.
__global__ void mfma32(const _Float16* A, const _Float16* B, float* D, int K) {
  int lane = threadIdx.x;
  float16v acc;
  for (int r = 0; r < 16; r++) acc[r] = 1.0f;  // C = all ones
  for (int k0 = 0; k0 < K; k0 += 8) {
    half4 a, b;
    for (int e = 0; e < 4; e++) {
      int k = k0 + (lane / 32) * 4 + e;
      a[e] = A[(lane % 32) * K + k];
      b[e] = B[k * 32 + (lane % 32)];
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++) {
    int row = (r % 4) + 8 * (r / 4) + 4 * (lane / 32);
    D[row * 32 + (lane % 32)] = acc[r];
  }
}

// 16x16x4 f32: A 16x4, B 4x16, D 16x16.
__global__ void mfma16(const float* A, const float* B, float* D) {
  int lane = threadIdx.x;
  float a = A[(lane % 16) * 4 + lane / 16];
  float b = B[(lane / 16) * 16 + (lane % 16)];
  float4v acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, acc, 0, 0, 0);
  for (int r = 0; r < 4; r++) D[(4 * (lane / 16) + r) * 16 + (lane % 16)] = acc[r];
}

int main() {
  const int K = 32;
  std::vector<_Float16> A(32 * K), B(K * 32);
  std::vector<float> D(32 * 32);
  for (int i = 0; i < 32 * K; i++) A[i] = (_Float16)((i % 9) - 4);
  for (int i = 0; i < K * 32; i++) B[i] = (_Float16)((i % 7) - 3);
  _Float16 *dA, *dB;
  float* dD;
  CHECK(hipMalloc(&dA, A.size() * 2)); CHECK(hipMalloc(&dB, B.size() * 2)); CHECK(hipMalloc(&dD, D.size() * 4));
  CHECK(hipMemcpy(dA, A.data(), A.size() * 2, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dB, B.data(), B.size() * 2, hipMemcpyHostToDevice));
  mfma32<<<1, 64>>>(dA, dB, dD, K);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(D.data(), dD, D.size() * 4, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) {
      float r = 1.0f;
      for (int k = 0; k < K; k++) r += (float)A[i * K + k] * (float)B[k * 32 + j];
      if (D[i * 32 + j] != r) errors++;
    }
  std::vector<float> A2(64), B2(64), D2(256);
  for (int i = 0; i < 64; i++) { A2[i] = (i % 5) - 2; B2[i] = (i % 3) + 0.5f; }
  float *dA2, *dB2, *dD2;
  CHECK(hipMalloc(&dA2, 256)); CHECK(hipMalloc(&dB2, 256)); CHECK(hipMalloc(&dD2, 1024));
  CHECK(hipMemcpy(dA2, A2.data(), 256, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dB2, B2.data(), 256, hipMemcpyHostToDevice));
  mfma16<<<1, 64>>>(dA2, dB2, dD2);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(D2.data(), dD2, 1024, hipMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      float r = 0;
      for (int k = 0; k < 4; k++) r += A2[i * 4 + k] * B2[k * 16 + j];
      if (D2[i * 16 + j] != r) errors++;
    }
  std::printf("mfma 32x32x%d and 16x16x4\n", K);
  return finish(errors);
}
