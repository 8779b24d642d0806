// The parameter block of every CUDA elementwise kernel: filled on the host from ElementwiseArgs
// (src/backend/cuda/kernel_library.cpp), read by the kernels (device/elementwise.cuh). Compiled by
// the host compiler and by NVRTC, so it stays in the portable subset. Offsets fit in int32: the
// kernel library launches only iterators that passed can_use_32bit_indexing().
#pragma once

#include "kernels/elementwise.h"

namespace ingot::cuda {

inline constexpr int kBlockThreads = 128;

// Vector width and work per thread follow the widest operand: a 16-byte access per operand, and
// 16 elements per thread (8 for 8-byte types) so that every thread has several loads in flight.
// (Doubling that for kernels that read one input measured no faster on the H200, and slower for
// heavy functors such as atan2, whose unrolled bodies then spill.)
INGOT_HOST_DEVICE constexpr int vector_elems(int widest_bytes) {
  return widest_bytes >= 16 ? 1 : 16 / widest_bytes;
}
INGOT_HOST_DEVICE constexpr int elems_per_thread(int widest_bytes) { return widest_bytes >= 8 ? 8 : 16; }
// The tiled flavor's square tile side, for every dtype. (64 for 2-byte types, to fill 128-byte
// lines, measured slower on the H200: transposed bfloat16 add went from 41% to 28% of copy.)
inline constexpr int kTileSide = 32;
template <typename... Ts>
INGOT_HOST_DEVICE constexpr int max_element_bytes() {
  int m = 1;
  ((m = static_cast<int>(sizeof(Ts)) > m ? static_cast<int>(sizeof(Ts)) : m), ...);
  return m;
}

// n / d and n % d for 0 <= n < 2^31 by a multiply-high and a shift (d >= 1): with
// s = ceil(log2 d) and m = floor(2^32 (2^s - d) / d) + 1, n / d == (umulhi(n, m) + n) >> s.
struct IntDivider {
  uint32_t divisor;
  uint32_t mult;
  uint32_t shift;

#if !defined(__CUDACC_RTC__)
  static IntDivider make(uint32_t d) {
    IntDivider r{d, 0, 0};
    while (r.shift < 32 && (uint64_t{1} << r.shift) < d) ++r.shift;
    r.mult = static_cast<uint32_t>(((uint64_t{1} << 32) * ((uint64_t{1} << r.shift) - d)) / d + 1);
    return r;
  }
#endif
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  __device__ __forceinline__ uint32_t div(uint32_t n) const {
    return (__umulhi(n, mult) + n) >> shift;
  }
#else
  uint32_t div(uint32_t n) const {
    return static_cast<uint32_t>(((static_cast<uint64_t>(n) * mult >> 32) + n) >> shift);
  }
#endif
};

struct Params {
  char* data[kMaxOperands];
  int32_t strides[kMaxOperands][kMaxDims];  // bytes, dim 0 fastest
  IntDivider sizes[kMaxDims];
  int32_t ndim;
  int32_t numel;
  // scalar: the input held at `scalar`; broadcast: the input that repeats one value per row (-1:
  // none); strided/cast: an input whose value is `scalar` (a host 0-d operand), or -1.
  int32_t fixed_input;
  int32_t aligned;  // dense/scalar/broadcast: every base (and row stride) allows 16-byte accesses
  ScalarType dtypes[kMaxOperands];
  ScalarArg scalar;
  ScalarArg alpha;
};

}  // namespace ingot::cuda
