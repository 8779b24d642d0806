// CRTP bases for functors whose math is a function f of the compute type: the base takes the
// stored values (float16/bfloat16 widened to float) and rounds f's result once. Float inputs only;
// integer inputs reach these functors already converted (REGISTER_INT2FLOAT_*).
#pragma once

#include "kernels/opmath.h"

namespace ingot {

template <typename Derived>
struct FloatMath {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a) const {
    return static_cast<T>(Derived::f(static_cast<opmath_t<T>>(a)));
  }
};

template <typename Derived>
struct FloatMath2 {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T b) const {
    using M = opmath_t<T>;
    return static_cast<T>(Derived::f(static_cast<M>(a), static_cast<M>(b)));
  }
};

}  // namespace ingot
