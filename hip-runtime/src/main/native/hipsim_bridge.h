/* The replacement libamdhip64: every exported HIP function is a generated stub (hipsim_exports.c) that packs its
 * arguments into 64-bit slots and calls hipsim_call, which runs the Java implementation in the in-process JVM. */
#ifndef HIPSIM_BRIDGE_H
#define HIPSIM_BRIDGE_H

#include <stdint.h>
#include <string.h>

#define HIPSIM_EXPORT __attribute__((visibility("default")))

/* Calls API function `id` (line order of hip-api.tsv) with `count` argument slots; returns the raw C result. Starts
 * the JVM on the first call and attaches the calling thread. Never fails: when the Java runtime cannot be reached,
 * returns the function's "unavailable" value (hipErrorNotInitialized, or hipErrorDeinitialized after exit began). */
int64_t hipsim_call(int32_t id, int64_t* slots, int32_t count);

static inline uint32_t hipsim_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline uint64_t hipsim_f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static inline float hipsim_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline double hipsim_bits_f64(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

#endif
