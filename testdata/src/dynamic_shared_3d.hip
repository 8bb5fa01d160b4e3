// Dynamic shared memory (extern __shared__, size given at launch) and a 3D grid of 3D blocks.
#include "common.h"
#include <vector>

__global__ void stencil3d(const int* in, int* out, int X, int Y, int Z) {
  extern __shared__ int buf[];
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int nt = blockDim.x * blockDim.y * blockDim.z;
  bool inside = x < X && y < Y && z < Z;
  buf[t] = inside ? in[(z * Y + y) * X + x] : 0;
  buf[nt + t] = (int)(blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z);
  __syncthreads();
  // Reverse within the block: reads a value written by another thread of the workgroup.
  int mirrored = buf[nt - 1 - t];
  if (inside) out[(z * Y + y) * X + x] = mirrored * 1000 + buf[nt + (nt - 1 - t)];
}

int main() {
  const int X = 37, Y = 21, Z = 10, n = X * Y * Z;
  dim3 block(8, 4, 2), grid((X + 7) / 8, (Y + 3) / 4, (Z + 1) / 2);
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; i++) in[i] = i % 997;
  int *din, *dout;
  CHECK(hipMalloc(&din, n * 4)); CHECK(hipMalloc(&dout, n * 4));
  CHECK(hipMemcpy(din, in.data(), n * 4, hipMemcpyHostToDevice));
  size_t shmem = 2 * block.x * block.y * block.z * sizeof(int);
  stencil3d<<<grid, block, shmem>>>(din, dout, X, Y, Z);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(out.data(), dout, n * 4, hipMemcpyDeviceToHost));
  long errors = 0;
  int nt = block.x * block.y * block.z;
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++) {
        int bx = x / 8, by = y / 4, bz = z / 2, tx = x % 8, ty = y % 4, tz = z % 2;
        int t = (tz * 4 + ty) * 8 + tx, m = nt - 1 - t;
        int mx = bx * 8 + m % 8, my = by * 4 + (m / 8) % 4, mz = bz * 2 + m / 32;
        int mv = (mx < X && my < Y && mz < Z) ? in[(mz * Y + my) * X + mx] : 0;
        if (out[(z * Y + y) * X + x] != mv * 1000 + bx + 10 * by + 100 * bz) errors++;
      }
  std::printf("dynamic_shared_3d grid=%ux%ux%u shmem=%zu\n", grid.x, grid.y, grid.z, shmem);
  return finish(errors);
}
