// floor_divide, remainder and div's "trunc" rounding. floor_divide and remainder have Python semantics: the quotient rounds toward -inf and the
// remainder takes the divisor's sign. Integer division by zero is defined (x // 0 == 0 and
// x % 0 == 0, as NumPy) and INT_MIN // -1 wraps to INT_MIN, so no input traps.
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

// Truncated remainder with the divisor's sign restored: fmod for floats (Python and NumPy give
// -0.0 % 3 == 0.0, so a zero remainder takes the divisor's sign too), % for integers.
template <typename T>
INGOT_INLINE T python_mod(T a, T b) {
  if constexpr (is_floating_point_v<T>) {
    const T m = precise::fmod(a, b);
    if (m == 0) return precise::copysign(T(0), b);
    return (b < 0) != (m < 0) ? m + b : m;
  } else {
    const T m = static_cast<T>(a % b);
    return m != 0 && (b < 0) != (m < 0) ? static_cast<T>(m + b) : m;
  }
}

// C's truncating a / b for integers, defined everywhere: x / 0 == 0 and INT_MIN / -1 wraps.
template <typename T>
INGOT_INLINE T trunc_div(T a, T b) {
  if (b == 0) return T(0);
  if constexpr (is_signed_v<T>) {
    if (b == T(-1)) return wrapping_neg(a);  // INT_MIN / -1 overflows
  }
  return static_cast<T>(a / b);
}

struct floor_divide_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      return static_cast<T>(float_floor_div(static_cast<M>(a), static_cast<M>(b)));
    } else {
      const T q = trunc_div(a, b);
      if constexpr (is_signed_v<T>) {
        if (b != 0 && b != T(-1) && a % b != 0 && (a < 0) != (b < 0)) return static_cast<T>(q - 1);
      }
      return q;
    }
  }

  // NumPy's npy_floor_divide (PyTorch's div_floor): (a - fmod(a, b)) / b is exact up to rounding,
  // then corrected to the floor; b == 0 gives IEEE a / b (±inf or NaN).
  template <typename M>
  INGOT_INLINE static M float_floor_div(M a, M b) {
    if (b == 0) return a / b;
    const M mod = precise::fmod(a, b);
    M div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= M(1);
    if (div == 0) return precise::copysign(M(0), a / b);
    M floored = precise::floor(div);
    if (div - floored > M(0.5)) floored += M(1);
    return floored;
  }
};
REGISTER_BINARY_OP(floor_divide);

struct remainder_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return false;  // a % True == 0, and a % False is 0 like every integer modulo by zero
    } else if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      return static_cast<T>(python_mod(static_cast<M>(a), static_cast<M>(b)));
    } else if constexpr (is_signed_v<T>) {
      return b == 0 || b == T(-1) ? T(0) : python_mod(a, b);  // INT_MIN % -1 overflows
    } else {
      return b == 0 ? T(0) : static_cast<T>(a % b);
    }
  }
};
REGISTER_BINARY_OP(remainder);

// div(a, b, rounding_mode="trunc"): the quotient rounded toward zero. Floats: trunc(a / b) in the
// compute type (as PyTorch); integers: C division with x / 0 == 0 and INT_MIN / -1 wrapping;
// bool: a and b (like floor_divide).
struct div_trunc_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    if constexpr (is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      return static_cast<T>(precise::trunc(static_cast<M>(a) / static_cast<M>(b)));
    } else {
      return trunc_div(a, b);
    }
  }
};
REGISTER_BINARY_OP(div_trunc);

}  // namespace ingot
