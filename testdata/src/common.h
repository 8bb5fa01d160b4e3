// Shared helpers for the self-checking test programs: every HIP call is checked, and each program ends
// by printing PASSED or FAILED and exiting 0 or 1.
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    hipError_t err_ = (call);                                                                \
    if (err_ != hipSuccess) {                                                                \
      std::printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(err_)); \
      std::printf("FAILED\n");                                                               \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

static inline int finish(long errors) {
  if (errors) {
    std::printf("%ld mismatches\nFAILED\n", errors);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
