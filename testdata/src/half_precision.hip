// Half precision: __half arithmetic, conversions and packed __half2 operations.
#include "common.h"
#include <hip/hip_fp16.h>
#include <vector>
#include <cmath>

__global__ void halves(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half ha = __float2half(a[i]), hb = __float2half(b[i]);
  __half s = __hadd(ha, hb);
  __half p = __hmul(ha, hb);
  __half f = __hfma(ha, hb, s);
  __half2 v = __halves2half2(ha, hb);
  __half2 w = __hmul2(v, v);
  out[4 * i + 0] = __half2float(s);
  out[4 * i + 1] = __half2float(p);
  out[4 * i + 2] = __half2float(f);
  out[4 * i + 3] = __low2float(w) + __high2float(w);
}

// Host-side reference of IEEE binary16 round-to-nearest-even, so the check does not depend on a host __half.
static float roundHalf(double x) {
  if (x == 0 || std::isinf(x) || std::isnan(x)) return x;
  int e;
  std::frexp(x, &e);               // x = m * 2^e, 0.5 <= |m| < 1
  int exp = e - 1;                  // x = 1.f * 2^exp
  if (exp < -14) exp = -14;         // subnormal spacing
  double ulp = std::ldexp(1.0, exp - 10);
  double r = std::nearbyint(x / ulp) * ulp;
  if (std::fabs(r) > 65504.0) return x > 0 ? INFINITY : -INFINITY;
  return (float)r;
}

int main() {
  const int n = 4096;
  std::vector<float> a(n), b(n), out(4 * n);
  for (int i = 0; i < n; i++) { a[i] = roundHalf((i % 300) * 0.173f - 20.0f); b[i] = roundHalf(((i * 7) % 211) * 0.041f - 3.0f); }
  float *da, *db, *dout;
  CHECK(hipMalloc(&da, n * 4)); CHECK(hipMalloc(&db, n * 4)); CHECK(hipMalloc(&dout, 4 * n * 4));
  CHECK(hipMemcpy(da, a.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(db, b.data(), n * 4, hipMemcpyHostToDevice));
  halves<<<n / 128, 128>>>(da, db, dout, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out.data(), dout, 4 * n * 4, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) {
    float s = roundHalf((double)a[i] + b[i]);
    float p = roundHalf((double)a[i] * b[i]);
    float f = roundHalf((double)a[i] * b[i] + s);
    float w = roundHalf((double)a[i] * a[i]) + roundHalf((double)b[i] * b[i]);
    if (out[4 * i] != s || out[4 * i + 1] != p || out[4 * i + 2] != f || out[4 * i + 3] != w) {
      if (errors < 5) std::printf("i=%d got %g %g %g %g want %g %g %g %g\n", i, out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], s, p, f, w);
      errors++;
    }
  }
  std::printf("half_precision n=%d\n", n);
  return finish(errors);
}
