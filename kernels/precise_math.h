// Math that is accurate on every backend (DESIGN.md §4): no fast-math approximations. On the host
// these call the C math library; under CUDA/NVRTC the CUDA math library of the same name, which
// has documented ULP bounds. float16/bfloat16 arguments compute in float32 and the caller rounds
// once. Each function returns opmath_t of its argument type.
#pragma once

#include "kernels/opmath.h"
#include "kernels/vec_math.h"  // the CPU vector overloads functors declare beside their math

#if !defined(__CUDACC_RTC__)
#include <math.h>
#endif

namespace ingot {
namespace precise {

#define INGOT_PRECISE_UNARY(name)                                   \
  INGOT_INLINE float name(float x) { return ::name##f(x); }         \
  INGOT_INLINE double name(double x) { return ::name(x); }          \
  template <typename T, enable_if_t<is_reduced_float_v<T>, bool> = true> \
  INGOT_INLINE float name(T x) {                                    \
    return ::name##f(static_cast<float>(x));                        \
  }

#define INGOT_PRECISE_BINARY(name)                                             \
  INGOT_INLINE float name(float x, float y) { return ::name##f(x, y); }        \
  INGOT_INLINE double name(double x, double y) { return ::name(x, y); }        \
  template <typename T, enable_if_t<is_reduced_float_v<T>, bool> = true>       \
  INGOT_INLINE float name(T x, T y) {                                          \
    return ::name##f(static_cast<float>(x), static_cast<float>(y));            \
  }

INGOT_PRECISE_UNARY(exp)
INGOT_PRECISE_UNARY(exp2)
INGOT_PRECISE_UNARY(expm1)
INGOT_PRECISE_UNARY(log)
INGOT_PRECISE_UNARY(log2)
INGOT_PRECISE_UNARY(log10)
INGOT_PRECISE_UNARY(log1p)
INGOT_PRECISE_UNARY(sqrt)
INGOT_PRECISE_UNARY(sin)
INGOT_PRECISE_UNARY(cos)
INGOT_PRECISE_UNARY(tan)
INGOT_PRECISE_UNARY(asin)
INGOT_PRECISE_UNARY(acos)
INGOT_PRECISE_UNARY(atan)
INGOT_PRECISE_UNARY(sinh)
INGOT_PRECISE_UNARY(cosh)
INGOT_PRECISE_UNARY(tanh)
INGOT_PRECISE_UNARY(asinh)
INGOT_PRECISE_UNARY(acosh)
INGOT_PRECISE_UNARY(atanh)
INGOT_PRECISE_UNARY(cbrt)
INGOT_PRECISE_UNARY(erf)
INGOT_PRECISE_UNARY(erfc)
INGOT_PRECISE_UNARY(fabs)
INGOT_PRECISE_UNARY(floor)
INGOT_PRECISE_UNARY(ceil)
INGOT_PRECISE_UNARY(trunc)
INGOT_PRECISE_UNARY(rint)  // to nearest, ties to even (the default rounding mode; ingot never changes it)
INGOT_PRECISE_BINARY(atan2)
INGOT_PRECISE_BINARY(pow)
INGOT_PRECISE_BINARY(fmod)
INGOT_PRECISE_BINARY(hypot)
INGOT_PRECISE_BINARY(copysign)
INGOT_PRECISE_BINARY(nextafter)

// x * y + z rounded once (fmaf/fma exist in the C library and in CUDA).
INGOT_INLINE float fma(float x, float y, float z) { return ::fmaf(x, y, z); }
INGOT_INLINE double fma(double x, double y, double z) { return ::fma(x, y, z); }

// lgamma: the host's lgammaf/lgamma write the global signgam (a data race in parallel loops), so
// the host uses the reentrant _r forms; CUDA's lgammaf/lgamma have no such side effect.
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
INGOT_INLINE float lgamma(float x) { return ::lgammaf(x); }
INGOT_INLINE double lgamma(double x) { return ::lgamma(x); }
#else
INGOT_INLINE float lgamma(float x) {
  int sign = 0;
  return ::lgammaf_r(x, &sign);
}
INGOT_INLINE double lgamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}
#endif

#undef INGOT_PRECISE_UNARY
#undef INGOT_PRECISE_BINARY

}  // namespace precise

// x != x: needs no <cmath> classification functions, which NVRTC lacks.
template <typename T>
INGOT_INLINE bool is_nan(T x) {
  if constexpr (is_floating_point_v<T>) {
    const opmath_t<T> v = static_cast<opmath_t<T>>(x);
    return v != v;
  } else {
    return false;
  }
}

// +inf and a quiet NaN of a compute type, without <limits> or INFINITY (absent under NVRTC).
template <typename M>
INGOT_INLINE M infinity() {
  if constexpr (is_same_v<M, double>) {
    return bit_cast<double>(static_cast<uint64_t>(0x7ff0000000000000ull));
  } else {
    return bit_cast<float>(static_cast<uint32_t>(0x7f800000u));
  }
}
template <typename M>
INGOT_INLINE M quiet_nan() {
  if constexpr (is_same_v<M, double>) {
    return bit_cast<double>(static_cast<uint64_t>(0x7ff8000000000000ull));
  } else {
    return bit_cast<float>(static_cast<uint32_t>(0x7fc00000u));
  }
}

// inf - inf and NaN - NaN are NaN; every finite x - x is 0.
template <typename T>
INGOT_INLINE bool is_finite(T x) {
  if constexpr (is_floating_point_v<T>) {
    const opmath_t<T> v = static_cast<opmath_t<T>>(x);
    return !is_nan(v - v);
  } else {
    return true;
  }
}
template <typename T>
INGOT_INLINE bool is_inf(T x) {
  return !is_nan(x) && !is_finite(x);
}

}  // namespace ingot
