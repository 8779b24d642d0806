// Ternary functors: where, clamp, lerp, addcmul, addcdiv.
#pragma once

#include "kernels/minmax_math.h"
#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

// where(condition, a, b): a where condition holds, else b.
struct where_functor {
  template <typename T>
  INGOT_INLINE T operator()(bool condition, T a, T b) const {
    return condition ? a : b;
  }
};
REGISTER_SELECT_OP(where);

// min(max(x, lo), hi) with maximum/minimum's rules: NaN in any operand gives NaN, lo > hi gives hi.
struct clamp_functor {
  template <typename T>
  INGOT_INLINE T operator()(T x, T lo, T hi) const {
    return minmax_detail::apply<false, true>(minmax_detail::apply<true, true>(x, lo), hi);
  }
};
REGISTER_TERNARY_OP(clamp);

// self + weight * (end - self), written from the end for weight >= 0.5 so that weight 1 gives end
// exactly (as PyTorch).
struct lerp_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T self, T end, T weight) const {
    using M = opmath_t<T>;
    const M a = static_cast<M>(self), b = static_cast<M>(end), w = static_cast<M>(weight);
    return static_cast<T>(w < M(0.5) ? a + w * (b - a) : b - (b - a) * (M(1) - w));
  }
};
REGISTER_FLOAT_TERNARY_OP(lerp);

// self + value * t1 * t2; integers wrap.
struct addcmul_functor {
  template <typename T>
  INGOT_INLINE T operator()(T self, T t1, T t2, T value) const {
    if constexpr (is_integral_v<T>) {
      return wrapping_add(self, wrapping_mul(wrapping_mul(value, t1), t2));
    } else {
      using M = opmath_t<T>;
      return static_cast<T>(static_cast<M>(self) + static_cast<M>(value) * static_cast<M>(t1) * static_cast<M>(t2));
    }
  }
};
REGISTER_FLOAT_TERNARY_PARAM_OP(addcmul);
REGISTER_INTEGER_TERNARY_PARAM_OP_NO_BOOL(addcmul);

// self + value * t1 / t2; floats only (integer division here is ambiguous; the stub refuses it).
struct addcdiv_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T self, T t1, T t2, T value) const {
    using M = opmath_t<T>;
    return static_cast<T>(static_cast<M>(self) + static_cast<M>(value) * (static_cast<M>(t1) / static_cast<M>(t2)));
  }
};
REGISTER_FLOAT_TERNARY_PARAM_OP(addcdiv);

}  // namespace ingot
