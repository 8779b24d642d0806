// Portable base for headers compiled by the host compiler and by NVRTC (DESIGN.md §4):
// fixed-width integers, inline/host-device markers and bit casts without the standard library.
#pragma once

#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#else
#include <cstdint>
#include <cstring>
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define INGOT_HOST_DEVICE __host__ __device__
#define INGOT_INLINE __host__ __device__ __forceinline__
#else
#define INGOT_HOST_DEVICE
#define INGOT_INLINE inline __attribute__((always_inline))
#endif

namespace ingot {

// Reinterprets the bits of a trivially copyable value; usable in every compiler ingot supports.
template <typename To, typename From>
INGOT_INLINE To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs types of the same size");
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  To to;
  const unsigned char* src = reinterpret_cast<const unsigned char*>(&from);
  unsigned char* dst = reinterpret_cast<unsigned char*>(&to);
  for (unsigned i = 0; i < sizeof(To); ++i) dst[i] = src[i];
  return to;
#else
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
#endif
}

// Floating -> int64 truncation defined for every input: NaN, infinities and values outside int64
// (undefined behaviour for a plain cast) give INT64_MIN, the value x86 produces, so results match
// NumPy and PyTorch on x86.
template <typename F>
INGOT_INLINE int64_t truncate_to_int64(F v) {
  constexpr F kTwo63 = static_cast<F>(9223372036854775808.0);
  return v >= -kTwo63 && v < kTwo63 ? static_cast<int64_t>(v) : static_cast<int64_t>(-9223372036854775807LL - 1);
}

}  // namespace ingot
