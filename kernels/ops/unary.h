// Unary arithmetic and exponential functors.
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
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a) const {
    return static_cast<T>(precise::exp(a));
  }
};
REGISTER_FLOAT_UNARY_OP(exp);
REGISTER_INT2FLOAT_UNARY_OP(exp);

}  // namespace ingot
