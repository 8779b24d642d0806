// Predicates on one value: every dtype in, bool out (REGISTER_PREDICATE_OP). Integers and bool are
// finite and never NaN; signbit of an integer is x < 0.
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"

namespace ingot {

struct isnan_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    return is_nan(a);
  }
};
REGISTER_PREDICATE_OP(isnan);

struct isinf_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    return is_inf(a);
  }
};
REGISTER_PREDICATE_OP(isinf);

struct isfinite_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    return is_finite(a);
  }
};
REGISTER_PREDICATE_OP(isfinite);

struct isposinf_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    if constexpr (is_floating_point_v<T>) {
      return is_inf(a) && static_cast<opmath_t<T>>(a) > 0;
    } else {
      return false;
    }
  }
};
REGISTER_PREDICATE_OP(isposinf);

struct isneginf_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    if constexpr (is_floating_point_v<T>) {
      return is_inf(a) && static_cast<opmath_t<T>>(a) < 0;
    } else {
      return false;
    }
  }
};
REGISTER_PREDICATE_OP(isneginf);

// The sign bit itself: true for -0.0 and for NaNs with the bit set.
struct signbit_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    if constexpr (is_floating_point_v<T>) {
      using M = opmath_t<T>;
      return precise::copysign(M(1), static_cast<M>(a)) < M(0);
    } else if constexpr (is_signed_v<T>) {
      return a < 0;
    } else {
      return false;
    }
  }
};
REGISTER_PREDICATE_OP(signbit);

}  // namespace ingot
