// Wavefront (warp) intrinsics: shuffles, shuffle-down/xor reductions, ballot, any/all, lane id.
#include "common.h"
#include <vector>

__global__ void shuffles(const int* in, int* rotated, int* wavesum, int* xorsum,
                         unsigned long long* ballots, int* votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int v = in[i];
  rotated[i] = __shfl(v, (lane + 5) % warpSize);
  int s = v;
  for (int off = warpSize / 2; off > 0; off /= 2) s += __shfl_down(s, off);
  if (lane == 0) wavesum[i / warpSize] = s;
  int x = v;
  for (int m = 1; m < warpSize; m <<= 1) x += __shfl_xor(x, m);
  xorsum[i] = x;
  unsigned long long b = __ballot(v % 3 == 0);
  if (lane == 0) ballots[i / warpSize] = b;
  votes[i] = (__any(v == 7) ? 1 : 0) | (__all(v >= 0) ? 2 : 0) | (__lane_id() == lane ? 4 : 0);
}

int main() {
  const int blocks = 8, threads = 128, n = blocks * threads, W = 64;
  std::vector<int> in(n), rotated(n), wavesum(n / W), xorsum(n), votes(n);
  std::vector<unsigned long long> ballots(n / W);
  for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 101 - (i % 200 == 0 ? 300 : 0);
  int *din, *drot, *dws, *dxs, *dvotes;
  unsigned long long* dball;
  CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&drot, n * 4)); CHECK(hipMalloc(&dws, n / W * 4));
  CHECK(hipMalloc(&dxs, n * 4)); CHECK(hipMalloc(&dvotes, n * 4)); CHECK(hipMalloc(&dball, n / W * 8));
  CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  shuffles<<<blocks, threads>>>(din, drot, dws, dxs, dball, dvotes);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(rotated.data(), drot, n * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(wavesum.data(), dws, n / W * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(xorsum.data(), dxs, n * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(votes.data(), dvotes, n * 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ballots.data(), dball, n / W * 8, hipMemcpyDeviceToHost));
  long errors = 0;
  for (int w = 0; w < n / W; w++) {
    int sum = 0, any7 = 0, allpos = 1;
    unsigned long long ball = 0;
    for (int l = 0; l < W; l++) {
      int v = in[w * W + l];
      sum += v;
      if (v % 3 == 0) ball |= 1ull << l;
      any7 |= v == 7;
      allpos &= v >= 0;
    }
    if (wavesum[w] != sum) errors++;
    if (ballots[w] != ball) errors++;
    for (int l = 0; l < W; l++) {
      int i = w * W + l;
      if (rotated[i] != in[w * W + (l + 5) % W]) errors++;
      if (xorsum[i] != sum) errors++;
      if (votes[i] != (any7 | (allpos << 1) | 4)) errors++;
    }
  }
  std::printf("warp_shuffle warpSize=%d\n", W);
  return finish(errors);
}
