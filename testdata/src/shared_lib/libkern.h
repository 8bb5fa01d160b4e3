#pragma once
#include <hip/hip_runtime.h>
hipError_t libkernPoly(const float* x, float* y, int n, float c0, float c1, float c2);
