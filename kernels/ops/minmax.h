// Elementwise maximum/minimum (the rules: kernels/minmax_math.h). maximum and minimum propagate
// NaN; fmax and fmin ignore a NaN operand (NaN only when both are).
#pragma once

#include "kernels/minmax_math.h"
#include "kernels/registration.h"

namespace ingot {

struct maximum_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<true, true>(a, b);
  }
};
REGISTER_BINARY_OP(maximum);

struct minimum_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<false, true>(a, b);
  }
};
REGISTER_BINARY_OP(minimum);

struct fmax_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<true, false>(a, b);
  }
};
REGISTER_BINARY_OP(fmax);

struct fmin_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return minmax_detail::apply<false, false>(a, b);
  }
};
REGISTER_BINARY_OP(fmin);

}  // namespace ingot
