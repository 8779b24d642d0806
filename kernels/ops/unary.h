// Unary arithmetic and exponential functors: neg, abs, exp, sign, sgn, positive, square.
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

// Integers wrap (-INT_MIN == INT_MIN, -uint8(1) == 255); bool has no negation.
struct neg_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_integral_v<T>) {
      return wrapping_neg(a);
    } else {
      return -a;
    }
  }
};
REGISTER_FLOAT_UNARY_OP(neg);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(neg);

// fabs clears the sign of -0.0 and NaN; signed integers wrap (abs(INT_MIN) == INT_MIN); bool and
// unsigned values are their own absolute value, as in NumPy.
struct abs_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_floating_point_v<T>) {
      return static_cast<T>(precise::fabs(a));
    } else if constexpr (is_signed_v<T>) {
      return a < 0 ? wrapping_neg(a) : a;
    } else {
      return a;
    }
  }
};
REGISTER_UNARY_OP(abs);

struct exp_functor {
  INGOT_VEC_UNARY(exp)
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a) const {
    return static_cast<T>(precise::exp(a));
  }
};
REGISTER_FLOAT_UNARY_OP(exp);
REGISTER_INT2FLOAT_UNARY_OP(exp);

// -1, 0 or 1 in the input's dtype; ±0 gives +0 and NaN stays NaN (as NumPy); bool is itself.
struct sign_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_same_v<T, bool>) {
      return a;
    } else if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      const M x = static_cast<M>(a);
      return static_cast<T>(x > M(0) ? M(1) : x < M(0) ? M(-1) : is_nan(x) ? x : M(0));
    } else {
      return static_cast<T>((T(0) < a) - (a < T(0)));
    }
  }
};
REGISTER_UNARY_OP(sign);

// sign for real dtypes (PyTorch's sgn differs from sign only for complex numbers).
struct sgn_functor : sign_functor {};
REGISTER_UNARY_OP(sgn);

// Unary +: a copy; bool has none (the host stub says so).
struct positive_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    return a;
  }
};
REGISTER_FLOAT_UNARY_OP(positive);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(positive);

// x * x; integers wrap. bool has none (the host stub says so).
struct square_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_integral_v<T>) {
      return wrapping_mul(a, a);
    } else {
      const opmath_t<T> x = static_cast<opmath_t<T>>(a);
      return static_cast<T>(x * x);
    }
  }
};
REGISTER_FLOAT_UNARY_OP(square);
REGISTER_INTEGER_UNARY_OP_NO_BOOL(square);

}  // namespace ingot
