// Half (IEEE binary16) and BFloat16 value types, in the portable subset so that host code and
// NVRTC-compiled kernels share one definition. Conversions from float and from double round to
// nearest even (once) and keep NaN, infinities, signed zero and subnormals; arithmetic happens in
// float.
#pragma once

#include "ingot/portable.h"

namespace ingot {

namespace detail {

INGOT_INLINE uint16_t float_to_half_bits(float value) {
#if defined(__CUDA_ARCH__)
  uint16_t h;  // the hardware conversion rounds the same way (NaNs come out canonical)
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(value));
  return h;
#else
  uint32_t f = bit_cast<uint32_t>(value);
  const uint32_t sign = (f >> 16) & 0x8000u;
  f &= 0x7fffffffu;
  if (f >= 0x7f800000u) {  // inf or NaN; NaN stays quiet and keeps its top payload bits
    return static_cast<uint16_t>(sign | (f > 0x7f800000u ? 0x7e00u | ((f >> 13) & 0x3ffu) : 0x7c00u));
  }
  if (f >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
  if (f < 0x38800000u) {
    // Below the smallest normal half: adding 0.5f aligns the half subnormal unit (2^-24) with the
    // float ulp at 0.5, so the FPU's round-to-nearest-even does the rounding.
    const float shifted = bit_cast<float>(f) + 0.5f;
    return static_cast<uint16_t>(sign | (bit_cast<uint32_t>(shifted) - 0x3f000000u));
  }
  const uint32_t odd = (f >> 13) & 1u;
  f += 0xc8000fffu + odd;  // rebias the exponent by -112 and round half to even
  return static_cast<uint16_t>(sign | (f >> 13));
#endif
}

// double -> float toward zero, with the last bit set when inexact ("round to odd"). Rounding that
// to nearest into a format with at least two fewer significand bits (float16: 11, bfloat16: 8,
// float: 24) equals rounding the double directly, so float64 -> float16 rounds once.
INGOT_INLINE float double_to_float_round_odd(double d) {
  const float f = static_cast<float>(d);
  if (static_cast<double>(f) == d || f != f) return f;  // exact, or NaN
  const double magnitude_f = f < 0 ? -static_cast<double>(f) : static_cast<double>(f);
  uint32_t bits = bit_cast<uint32_t>(f);
  if (magnitude_f > (d < 0 ? -d : d)) --bits;  // rounded away from zero: step back toward it
  return bit_cast<float>(bits | 1u);
}

INGOT_INLINE float half_bits_to_float(uint16_t h) {
#if defined(__CUDA_ARCH__)
  float f;  // exact, like the software path
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
#endif
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x1fu) return bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    const float magnitude = static_cast<float>(mant) * 5.9604644775390625e-08f;  // mant * 2^-24
    return bit_cast<float>(sign | bit_cast<uint32_t>(magnitude));
  }
  return bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

INGOT_INLINE uint16_t float_to_bfloat16_bits(float value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint16_t b;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(value));
  return b;
#endif
  const uint32_t f = bit_cast<uint32_t>(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((f >> 16) | 0x40u);  // quiet NaN
  return static_cast<uint16_t>((f + 0x7fffu + ((f >> 16) & 1u)) >> 16);
}

INGOT_INLINE float bfloat16_bits_to_float(uint16_t b) {
#if defined(__CUDA_ARCH__)
  // One register move: bit_cast's portable byte loop left masks and shifts per byte in the SASS
  // (six instructions per bfloat16 load; a bfloat16 sum ran at 70% of copy bandwidth).
  return __uint_as_float(static_cast<unsigned int>(b) << 16);
#else
  return bit_cast<float>(static_cast<uint32_t>(b) << 16);
#endif
}

}  // namespace detail

struct from_bits_t {};
constexpr from_bits_t from_bits{};

struct alignas(2) Half {
  uint16_t x;
  Half() = default;
  constexpr INGOT_HOST_DEVICE Half(uint16_t bits, from_bits_t) : x(bits) {}
  INGOT_INLINE Half(float value) : x(detail::float_to_half_bits(value)) {}
  INGOT_INLINE Half(double value) : x(detail::float_to_half_bits(detail::double_to_float_round_odd(value))) {}
  // Integers (the types with %) through double, so Half(1) picks neither float nor double.
  template <typename I, typename = decltype(I(1) % I(1))>
  INGOT_INLINE Half(I value) : Half(static_cast<double>(value)) {}
  INGOT_INLINE operator float() const { return detail::half_bits_to_float(x); }
};

struct alignas(2) BFloat16 {
  uint16_t x;
  BFloat16() = default;
  constexpr INGOT_HOST_DEVICE BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  INGOT_INLINE BFloat16(float value) : x(detail::float_to_bfloat16_bits(value)) {}
  INGOT_INLINE BFloat16(double value)
      : x(detail::float_to_bfloat16_bits(detail::double_to_float_round_odd(value))) {}
  template <typename I, typename = decltype(I(1) % I(1))>
  INGOT_INLINE BFloat16(I value) : BFloat16(static_cast<double>(value)) {}
  INGOT_INLINE operator float() const { return detail::bfloat16_bits_to_float(x); }
};

}  // namespace ingot
