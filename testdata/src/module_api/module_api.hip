// The module API: hipModuleLoad of a code-object file next to the executable, hipModuleLoadData of the same bytes,
// hipModuleGetFunction / hipModuleGetGlobal, and hipModuleLaunchKernel with kernelParams and with `extra`.
#include "../common.h"
#include <string>
#include <vector>
#include <fstream>
#include <iterator>
#include <unistd.h>

static std::string besideExecutable(const char* name) {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return name;
  path[n] = 0;
  std::string dir(path);
  return dir.substr(0, dir.rfind('/') + 1) + name;
}

int main() {
  const int n = 1000;
  std::string file = besideExecutable("module_kernels.co");
  hipModule_t module, module2;
  CHECK(hipModuleLoad(&module, file.c_str()));
  hipFunction_t scale, fill;
  CHECK(hipModuleGetFunction(&scale, module, "scaleArray"));
  if (hipModuleGetFunction(&fill, module, "noSuchKernel") == hipSuccess) {
    std::printf("found a missing kernel\nFAILED\n");
    return 1;
  }
  CHECK(hipModuleGetFunction(&fill, module, "fillValue"));

  float* d;
  CHECK(hipMalloc(&d, n * sizeof(float)));
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = i;
  CHECK(hipMemcpy(d, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float offset = 2.0f;
  int count = n;
  void* params[] = {&d, &count, &offset};
  CHECK(hipModuleLaunchKernel(scale, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  CHECK(hipMemcpy(h.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  long errors = 0;
  for (int i = 0; i < n; i++) if (h[i] != i * 1.5f + 2.0f) errors++;

  // The same code object from memory, launched through `extra`.
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(hipModuleLoadData(&module2, bytes.data()));
  hipFunction_t fill2;
  CHECK(hipModuleGetFunction(&fill2, module2, "fillValue"));
  int* di;
  CHECK(hipMalloc(&di, n * sizeof(int)));
  struct { int* data; int n; int value; } args{di, n, 40};
  size_t argSize = sizeof args;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &argSize, HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(fill2, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  std::vector<int> hi(n);
  CHECK(hipMemcpy(hi.data(), di, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) if (hi[i] != 40 + i) errors++;

  hipDeviceptr_t counterPtr;
  size_t counterSize = 0;
  CHECK(hipModuleGetGlobal(&counterPtr, &counterSize, module, "moduleCounter"));
  int counter = 0;
  CHECK(hipMemcpy(&counter, (void*)counterPtr, sizeof counter, hipMemcpyDeviceToHost));
  if (counterSize != sizeof(int) || counter != 1) errors++;

  CHECK(hipModuleUnload(module2));
  CHECK(hipModuleUnload(module));
  CHECK(hipFree(d));
  CHECK(hipFree(di));
  std::printf("module_api n=%d counter=%d\n", n, counter);
  return finish(errors);
}
