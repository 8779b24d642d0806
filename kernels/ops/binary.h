// Binary arithmetic functors. Floating math runs in opmath_t (float for float16/bfloat16) and is
// rounded once; integers wrap on overflow; bool add is logical or and bool mul logical and.
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

// a + alpha * b
struct add_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b, T alpha) const {
    if constexpr (is_same_v<T, bool>) {
      return a || (b && alpha);
    } else if constexpr (is_integral_v<T>) {
      return wrapping_add(a, wrapping_mul(alpha, b));
    } else {
      return a + alpha * b;
    }
  }
};
REGISTER_BINARY_ALPHA_OP(add);

// a - alpha * b; bool has no subtraction (the host stub says so).
struct sub_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b, T alpha) const {
    if constexpr (is_integral_v<T>) {
      return wrapping_sub(a, wrapping_mul(alpha, b));
    } else {
      return a - alpha * b;
    }
  }
};
REGISTER_FLOAT_BINARY_ALPHA_OP(sub);
REGISTER_INTEGER_BINARY_ALPHA_OP_NO_BOOL(sub);

struct mul_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_integral_v<T>) {
      return wrapping_mul(a, b);
    } else {
      return a * b;
    }
  }
};
REGISTER_BINARY_OP(mul);

// True division: integer inputs compute in float32, so x / 0 is ±inf (x != 0) or NaN (0 / 0).
struct div_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T b) const {
    return a / b;
  }
};
REGISTER_FLOAT_BINARY_OP(div);
REGISTER_INT2FLOAT_BINARY_OP(div);

struct atan2_functor {
  INGOT_VEC_BINARY(atan2)
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T b) const {
    return static_cast<T>(precise::atan2(a, b));
  }
};
REGISTER_FLOAT_BINARY_OP(atan2);
REGISTER_INT2FLOAT_BINARY_OP(atan2);

}  // namespace ingot
