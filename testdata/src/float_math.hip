// Float and double math through the device libraries (ocml): results within a few ulps of the host libm.
#include "common.h"
#include <vector>
#include <cmath>
#include <cstring>
#include <cstdint>

__global__ void fmath(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float* o = out + 8 * i;
  o[0] = sinf(v);
  o[1] = cosf(v);
  o[2] = expf(v * 0.1f);
  o[3] = logf(fabsf(v) + 1.0f);
  o[4] = sqrtf(fabsf(v));
  o[5] = powf(fabsf(v) + 0.5f, 1.7f);
  o[6] = atan2f(v, 3.0f);
  o[7] = v / (v * v + 1.0f);
}

__global__ void dmath(const double* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  double* o = out + 8 * i;
  o[0] = sin(v);
  o[1] = cos(v);
  o[2] = exp(v * 0.1);
  o[3] = log(fabs(v) + 1.0);
  o[4] = sqrt(fabs(v));
  o[5] = pow(fabs(v) + 0.5, 1.7);
  o[6] = atan2(v, 3.0);
  o[7] = v / (v * v + 1.0);
}

template <typename T, typename U>
static long ulpDiff(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1L << 40;
  U ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  if ((ia < 0) != (ib < 0)) return a == b ? 0 : 1L << 40;
  long d = (long)(ia - ib);
  return d < 0 ? -d : d;
}

int main() {
  const int n = 2048;
  std::vector<float> xf(n), of(8 * n);
  std::vector<double> xd(n), od(8 * n);
  for (int i = 0; i < n; i++) { xf[i] = (i - n / 2) * 0.0371f; xd[i] = (i - n / 2) * 0.0371; }
  float *dxf, *dof;
  double *dxd, *dod;
  CHECK(hipMalloc(&dxf, n * 4)); CHECK(hipMalloc(&dof, 8 * n * 4));
  CHECK(hipMalloc(&dxd, n * 8)); CHECK(hipMalloc(&dod, 8 * n * 8));
  CHECK(hipMemcpy(dxf, xf.data(), n * 4, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dxd, xd.data(), n * 8, hipMemcpyHostToDevice));
  fmath<<<n / 256, 256>>>(dxf, dof, n);
  dmath<<<n / 256, 256>>>(dxd, dod, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(of.data(), dof, 8 * n * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(od.data(), dod, 8 * n * 8, hipMemcpyDeviceToHost));
  long errors = 0, worstF = 0, worstD = 0;
  for (int i = 0; i < n; i++) {
    float v = xf[i];
    float rf[8] = {std::sin(v), std::cos(v), std::exp(v * 0.1f), std::log(std::fabs(v) + 1.0f), std::sqrt(std::fabs(v)),
                   std::pow(std::fabs(v) + 0.5f, 1.7f), std::atan2(v, 3.0f), v / (v * v + 1.0f)};
    double w = xd[i];
    double rd[8] = {std::sin(w), std::cos(w), std::exp(w * 0.1), std::log(std::fabs(w) + 1.0), std::sqrt(std::fabs(w)),
                    std::pow(std::fabs(w) + 0.5, 1.7), std::atan2(w, 3.0), w / (w * w + 1.0)};
    for (int k = 0; k < 8; k++) {
      long uf = ulpDiff<float, int32_t>(of[8 * i + k], rf[k]);
      long ud = ulpDiff<double, int64_t>(od[8 * i + k], rd[k]);
      if (uf > worstF) worstF = uf;
      if (ud > worstD) worstD = ud;
      // sin/cos near their zeros lose relative precision; compare absolutely there.
      bool nearZeroF = std::fabs(rf[k]) < 1e-6f && std::fabs(of[8 * i + k] - rf[k]) < 1e-6f;
      bool nearZeroD = std::fabs(rd[k]) < 1e-14 && std::fabs(od[8 * i + k] - rd[k]) < 1e-14;
      if (uf > 4 && !nearZeroF) errors++;
      if (ud > 4 && !nearZeroD) errors++;
    }
  }
  std::printf("float_math n=%d\n", n);
  return finish(errors);
}
