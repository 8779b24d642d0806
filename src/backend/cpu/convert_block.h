// Converting a contiguous block of values between dtypes, with the same results as convert<>()
// (kernels/cast.h) element by element. The reduced floats have vector versions: bfloat16 by
// shifts, float16 through F16C where the CPU has it (chosen at run time; the build assumes no
// particular x86-64 CPU). The CPU loops convert whole blocks through these before and after the
// functor, so no per-element dtype work remains in their inner loops.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/cast.h"

namespace ingot::cpu {

template <typename To, typename From>
inline void convert_block(To* dst, const From* src, int64_t n) {
  for (int64_t j = 0; j < n; ++j) dst[j] = convert<To>(src[j]);
}

void convert_block(float* dst, const BFloat16* src, int64_t n);
void convert_block(BFloat16* dst, const float* src, int64_t n);
void convert_block(float* dst, const Half* src, int64_t n);
void convert_block(Half* dst, const float* src, int64_t n);

// bfloat16 blocks in the paired order, for loops in which every converted operand is bfloat16 and
// the order of elements inside a block does not matter (an elementwise functor between a widening
// and a narrowing). Each whole group of 16 values widens to its 8 even-indexed values, then its 8
// odd-indexed ones: on AVX2 one shift or one mask per 8 lanes, where the in-order conversion needs
// three shuffles, and the narrowing needs no pack or permute. narrow_bf16_paired takes floats in
// that order back to bfloat16 in the original one (rounding as convert_block does); a tail of
// fewer than 16 values stays in order.
void widen_bf16_paired(float* dst, const BFloat16* src, int64_t n);
void narrow_bf16_paired(BFloat16* dst, const float* src, int64_t n);

// One group of 16 in the same paired order, inline, for a loop that widens, computes and narrows
// without its values leaving registers (the caller's 16-element arrays around these stay in
// registers once inlined). Written with GCC vector types, not intrinsics, so that each ISA clone
// of the caller (multiarch.h) compiles them at its own vector width. Same results as the block
// forms, NaN included (quieted, as convert<BFloat16> does).
#if defined(__GNUC__)
namespace detail {
using u32x8 = uint32_t __attribute__((vector_size(32)));
using i32x8 = int32_t __attribute__((vector_size(32)));
// The bfloat16 rounding of each lane's float bits, left in the high 16 bits.
INGOT_INLINE void round_high_bf16(u32x8& f) {
  const u32x8 rounded = f + 0x7fffu + ((f >> 16) & 1u);
  const u32x8 magnitude = f & 0x7fffffffu;
  const i32x8 nan = reinterpret_cast<const i32x8&>(magnitude) > 0x7f800000;
  const u32x8 nan_lanes = reinterpret_cast<const u32x8&>(nan);
  f = (nan_lanes & (f | 0x00400000u)) | (~nan_lanes & rounded);
}
}  // namespace detail
INGOT_INLINE void widen16_bf16_paired(float* dst, const BFloat16* src) {
  detail::u32x8 v;
  std::memcpy(&v, src, sizeof v);
  const detail::u32x8 even = v << 16, odd = v & 0xffff0000u;
  std::memcpy(dst, &even, sizeof even);
  std::memcpy(dst + 8, &odd, sizeof odd);
}
INGOT_INLINE void narrow16_bf16_paired(BFloat16* dst, const float* src) {
  detail::u32x8 even, odd;
  std::memcpy(&even, src, sizeof even);
  std::memcpy(&odd, src + 8, sizeof odd);
  detail::round_high_bf16(even);
  detail::round_high_bf16(odd);
  const detail::u32x8 packed = (even >> 16) | (odd & 0xffff0000u);
  std::memcpy(dst, &packed, sizeof packed);
}
#else
INGOT_INLINE void widen16_bf16_paired(float* dst, const BFloat16* src) {
  for (int k = 0; k < 8; ++k) {
    dst[k] = convert<float>(src[2 * k]);
    dst[8 + k] = convert<float>(src[2 * k + 1]);
  }
}
INGOT_INLINE void narrow16_bf16_paired(BFloat16* dst, const float* src) {
  for (int k = 0; k < 8; ++k) {
    dst[2 * k] = convert<BFloat16>(src[k]);
    dst[2 * k + 1] = convert<BFloat16>(src[8 + k]);
  }
}
#endif

// dst[j] = convert<T>(element j at src, stored as `from`, `stride` bytes apart; 0: one repeated
// element). One dtype switch per call, then a typed loop.
template <typename T>
void load_converted(T* dst, const char* src, int64_t stride, ScalarType from, int64_t n);
// Element j at dst (`stride` bytes apart, stored as `to`) = convert<to>(src[j]).
template <typename T>
void store_converted(char* dst, int64_t stride, ScalarType to, const T* src, int64_t n);

// Compiled once, in convert_block.cpp, for every dtype.
#define INGOT_DECLARE_CONVERTED(cpp, code, name)                                               \
  extern template void load_converted<cpp>(cpp*, const char*, int64_t, ScalarType, int64_t); \
  extern template void store_converted<cpp>(char*, int64_t, ScalarType, const cpp*, int64_t);
INGOT_FORALL_SCALAR_TYPES(INGOT_DECLARE_CONVERTED)
#undef INGOT_DECLARE_CONVERTED

}  // namespace ingot::cpu
