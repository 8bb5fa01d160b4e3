// 64-bit integer arithmetic: multiply, signed and unsigned division and remainder, shifts, mul-hi.
#include "common.h"
#include <vector>
#include <cstdint>

__global__ void int64ops(const int64_t* a, const int64_t* b, int64_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int64_t x = a[i], y = b[i];
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  int64_t* o = out + 8 * (int64_t)i;
  o[0] = x * y;
  o[1] = x / y;
  o[2] = x % y;
  o[3] = (int64_t)(ux / uy);
  o[4] = (int64_t)(ux % uy);
  o[5] = (x << (i & 63)) ^ (x >> (y & 63)) ^ (int64_t)(ux >> (i % 61));
  o[6] = (int64_t)__umul64hi(ux, uy);
  o[7] = __mul64hi(x, y) + (x < y ? 1 : -1);
}

int main() {
  const int n = 4096;
  std::vector<int64_t> a(n), b(n), out(8 * n);
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < n; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    a[i] = (int64_t)s >> (i % 40);
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    b[i] = (int64_t)s >> (20 + i % 43);
    if (b[i] == 0) b[i] = 3;
  }
  int64_t *da, *db, *dout;
  CHECK(hipMalloc(&da, n * 8)); CHECK(hipMalloc(&db, n * 8)); CHECK(hipMalloc(&dout, 8 * n * 8));
  CHECK(hipMemcpy(da, a.data(), n * 8, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b.data(), n * 8, hipMemcpyHostToDevice));
  int64ops<<<(n + 127) / 128, 128>>>(da, db, dout, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out.data(), dout, 8 * n * 8, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) {
    int64_t x = a[i], y = b[i];
    uint64_t ux = x, uy = y;
    int64_t r[8];
    r[0] = (int64_t)(ux * uy);
    r[1] = x / y;
    r[2] = x % y;
    r[3] = (int64_t)(ux / uy);
    r[4] = (int64_t)(ux % uy);
    r[5] = (int64_t)(ux << (i & 63)) ^ (x >> (y & 63)) ^ (int64_t)(ux >> (i % 61));
    r[6] = (int64_t)(uint64_t)(((unsigned __int128)ux * uy) >> 64);
    r[7] = (int64_t)(((__int128)x * y) >> 64) + (x < y ? 1 : -1);
    for (int k = 0; k < 8; k++)
      if (out[8 * i + k] != r[k]) {
        if (errors < 5) std::printf("i=%d op=%d got %lld want %lld\n", i, k, (long long)out[8 * i + k], (long long)r[k]);
        errors++;
      }
  }
  std::printf("int64_math n=%d\n", n);
  return finish(errors);
}
