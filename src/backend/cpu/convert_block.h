// Converting a contiguous block of values between dtypes, with the same results as convert<>()
// (kernels/cast.h) element by element. The reduced floats have vector versions: bfloat16 by
// shifts, float16 through F16C where the CPU has it (chosen at run time; the build assumes no
// particular x86-64 CPU). The CPU loops convert whole blocks through these before and after the
// functor, so no per-element dtype work remains in their inner loops.
#pragma once

#include <cstdint>

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
