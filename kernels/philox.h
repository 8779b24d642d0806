// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC'11)
// and the element scheme every backend uses, so a seed gives the same tensor everywhere.
// Portable subset (DESIGN.md §4): host compilers and NVRTC compile this same text.
//
// Counter scheme: a call that draws n elements with generator state (seed, offset) reserves the
// counters offset .. offset+n-1. Element i (row-major index in the output) takes
//   words = philox4x32_10(counter = {lo32(offset+i), hi32(offset+i), 0, 0},
//                         key     = {lo32(seed), hi32(seed)})
// so its value depends only on (seed, offset, i), and then:
//   uniform, d digits (24 float32, 11 float16, 8 bfloat16): (words[0] >> (32 - d)) * 2^-d
//   uniform float64: (u64(words[1], words[0]) >> 11) * 2^-53
//   normal (every dtype, computed in double, then rounded once to the dtype):
//     u1 = uniform float64 of (words[1], words[0]), u2 = same of (words[3], words[2]),
//     sqrt(-2 log(1 - u1)) * cos(2 pi u2)
//   integer in [low, high): low + u64(words[1], words[0]) mod (high - low)
// Uniforms are exact multiples of 2^-d, so they are identical on every backend and never round
// up to 1 in the output dtype; normals match to the backend's double log/cos/sqrt rounding.
#pragma once

#include "ingot/portable.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define INGOT_PHILOX_MATH(fn) ::fn
#else
#define INGOT_PHILOX_MATH(fn) __builtin_##fn
#endif

namespace ingot::philox {

struct Counter {
  uint32_t w[4];
};
struct Key {
  uint32_t k[2];
};

INGOT_INLINE Counter philox4x32_10(Counter c, Key key) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;  // key schedule increments
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key.k[0] += kWeyl0;
      key.k[1] += kWeyl1;
    }
    const uint64_t p0 = static_cast<uint64_t>(kMul0) * c.w[0];
    const uint64_t p1 = static_cast<uint64_t>(kMul1) * c.w[2];
    const Counter next = {
        {static_cast<uint32_t>(p1 >> 32) ^ c.w[1] ^ key.k[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c.w[3] ^ key.k[1], static_cast<uint32_t>(p0)}};
    c = next;
  }
  return c;
}

// The four words for element `i` of a draw at (seed, offset); see the scheme above.
INGOT_INLINE Counter element_words(uint64_t seed, uint64_t offset, uint64_t i) {
  const uint64_t n = offset + i;
  const Counter c = {{static_cast<uint32_t>(n), static_cast<uint32_t>(n >> 32), 0u, 0u}};
  const Key k = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  return philox4x32_10(c, k);
}

INGOT_INLINE uint64_t join64(uint32_t hi, uint32_t lo) {
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

// A multiple of 2^-digits in [0, 1), for 1 <= digits <= 24.
INGOT_INLINE float uniform_float(const Counter& r, int digits) {
  const float scale = 1.0f / static_cast<float>(1u << digits);
  return static_cast<float>(r.w[0] >> (32 - digits)) * scale;
}

INGOT_INLINE double uniform_double(uint32_t hi, uint32_t lo) {
  return static_cast<double>(join64(hi, lo) >> 11) * (1.0 / 9007199254740992.0);  // 2^-53
}

INGOT_INLINE double normal_double(const Counter& r) {
  const double u1 = uniform_double(r.w[1], r.w[0]);
  const double u2 = uniform_double(r.w[3], r.w[2]);
  const double radius = INGOT_PHILOX_MATH(sqrt)(-2.0 * INGOT_PHILOX_MATH(log)(1.0 - u1));
  return radius * INGOT_PHILOX_MATH(cos)(6.283185307179586476925 * u2);
}

// low + (64 random bits mod range), range = high - low > 0 (a tiny bias for ranges near 2^64).
INGOT_INLINE int64_t integer_in_range(const Counter& r, int64_t low, uint64_t range) {
  return static_cast<int64_t>(static_cast<uint64_t>(low) + join64(r.w[1], r.w[0]) % range);
}

}  // namespace ingot::philox
