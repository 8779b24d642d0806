// Logical ops: a value is true when it is nonzero (NaN is true, -0.0 false); the result is bool.
#pragma once

#include "kernels/registration.h"

namespace ingot {

template <typename T>
INGOT_INLINE bool truth(T a) {
  return static_cast<opmath_t<T>>(a) != opmath_t<T>(0);
}

struct logical_not_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a) const {
    return !truth(a);
  }
};
REGISTER_PREDICATE_OP(logical_not);

struct logical_and_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return truth(a) && truth(b);
  }
};
REGISTER_COMPARISON_OP(logical_and);

struct logical_or_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return truth(a) || truth(b);
  }
};
REGISTER_COMPARISON_OP(logical_or);

struct logical_xor_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return truth(a) != truth(b);
  }
};
REGISTER_COMPARISON_OP(logical_xor);

}  // namespace ingot
