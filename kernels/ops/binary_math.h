// Binary float math: copysign, hypot, logaddexp, logaddexp2, xlogy (integer inputs compute in
// float32), nextafter (floats only), and fmod (C's truncated remainder, every dtype but bool).
#pragma once

#include "kernels/float_math.h"
#include "kernels/precise_math.h"
#include "kernels/registration.h"

namespace ingot {

// log_B(B^a + B^b) for B = e or 2: max + log_B(1 + B^-|a - b|). Equal arguments (infinities
// included) give a + log_B(2) directly, since inf - inf would be NaN.
template <bool Base2, typename M>
INGOT_INLINE M log_add_exp(M a, M b) {
  if (is_nan(a) || is_nan(b)) return a + b;
  if (a == b) return a + (Base2 ? M(1) : M(0.69314718055994530942));
  const M m = a > b ? a : b, d = -precise::fabs(a - b);
  if constexpr (Base2) {
    return m + precise::log1p(precise::exp2(d)) * M(1.44269504088896340736);
  } else {
    return m + precise::log1p(precise::exp(d));
  }
}

struct copysign_functor : FloatMath2<copysign_functor> {
  template <typename M>
  INGOT_INLINE static M f(M a, M b) {
    return precise::copysign(a, b);
  }
};
REGISTER_FLOAT_BINARY_OP(copysign);
REGISTER_INT2FLOAT_BINARY_OP(copysign);

struct hypot_functor : FloatMath2<hypot_functor> {
  INGOT_VEC_BINARY(hypot)
  // When one magnitude is below 2^-27 of the other, the result is the larger, correctly rounded
  // (the square of the ratio is under half an ulp). Answering that case directly also avoids
  // CUDA's float64 hypot returning inf for hypot(5e-324, DBL_MAX) (seen on the H200). NaNs and
  // infinities go to hypot itself (hypot(inf, NaN) is inf).
  template <typename M>
  INGOT_INLINE static M f(M a, M b) {
    const M x = precise::fabs(a), y = precise::fabs(b);
    const M hi = x > y ? x : y, lo = x > y ? y : x;
    if (lo <= hi * M(7.450580596923828125e-9)) return hi;  // 2^-27
    return precise::hypot(a, b);
  }
};
REGISTER_FLOAT_BINARY_OP(hypot);
REGISTER_INT2FLOAT_BINARY_OP(hypot);

struct logaddexp_functor : FloatMath2<logaddexp_functor> {
  template <typename M>
  INGOT_INLINE static M f(M a, M b) {
    return log_add_exp<false>(a, b);
  }
};
REGISTER_FLOAT_BINARY_OP(logaddexp);
REGISTER_INT2FLOAT_BINARY_OP(logaddexp);

struct logaddexp2_functor : FloatMath2<logaddexp2_functor> {
  template <typename M>
  INGOT_INLINE static M f(M a, M b) {
    return log_add_exp<true>(a, b);
  }
};
REGISTER_FLOAT_BINARY_OP(logaddexp2);
REGISTER_INT2FLOAT_BINARY_OP(logaddexp2);

// x * log(y), defined as 0 where x == 0 (even for y == 0 or inf) unless y is NaN (as PyTorch).
struct xlogy_functor : FloatMath2<xlogy_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x, M y) {
    if (is_nan(y)) return y;
    if (x == M(0)) return M(0);
    return x * precise::log(y);
  }
};
REGISTER_FLOAT_BINARY_OP(xlogy);
REGISTER_INT2FLOAT_BINARY_OP(xlogy);

// The next representable value after a toward b, in the storage dtype: float16/bfloat16 step by
// their own spacing, so they are computed on the bits rather than in float32.
struct nextafter_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T b) const {
    if constexpr (is_reduced_float_v<T>) {
      const float x = static_cast<float>(a), y = static_cast<float>(b);
      if (is_nan(x) || is_nan(y)) return static_cast<T>(x + y);
      if (x == y) return b;
      if (x == 0.0f) return bit_cast<T>(static_cast<uint16_t>((y > 0.0f ? 0x0000u : 0x8000u) | 1u));
      const uint16_t bits = bit_cast<uint16_t>(a);
      const bool away = (x < y) == (x > 0.0f);  // moving away from zero grows the magnitude bits
      return bit_cast<T>(static_cast<uint16_t>(away ? bits + 1u : bits - 1u));
    } else {
      return precise::nextafter(a, b);
    }
  }
};
REGISTER_STORAGE_FLOAT_BINARY_OP(nextafter);

// C's fmod: the remainder takes the dividend's sign. Integers: x fmod 0 == 0 (like remainder) and
// INT_MIN fmod -1 == 0, so no input traps.
struct fmod_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      return static_cast<T>(precise::fmod(static_cast<M>(a), static_cast<M>(b)));
    } else if constexpr (is_signed_v<T>) {
      return b == T(0) || b == T(-1) ? T(0) : static_cast<T>(a % b);
    } else {
      return b == T(0) ? T(0) : static_cast<T>(a % b);
    }
  }
};
REGISTER_FLOAT_BINARY_OP(fmod);
REGISTER_INTEGER_BINARY_OP_NO_BOOL(fmod);

}  // namespace ingot
