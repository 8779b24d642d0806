// Integer arithmetic that wraps modulo 2^bits (like NumPy and PyTorch) instead of overflowing,
// which is undefined behaviour for signed types in C++. Computed in an unsigned type at least as
// wide as unsigned int so that integer promotion cannot overflow either.
#pragma once

#include "kernels/type_traits.h"

namespace ingot {

template <typename T>
using wrap_unsigned_t = conditional_t<(sizeof(T) < sizeof(uint32_t)), uint32_t, make_unsigned_t<T>>;

template <typename T>
INGOT_INLINE T wrapping_add(T a, T b) {
  return static_cast<T>(static_cast<wrap_unsigned_t<T>>(a) + static_cast<wrap_unsigned_t<T>>(b));
}
template <typename T>
INGOT_INLINE T wrapping_sub(T a, T b) {
  return static_cast<T>(static_cast<wrap_unsigned_t<T>>(a) - static_cast<wrap_unsigned_t<T>>(b));
}
template <typename T>
INGOT_INLINE T wrapping_mul(T a, T b) {
  return static_cast<T>(static_cast<wrap_unsigned_t<T>>(a) * static_cast<wrap_unsigned_t<T>>(b));
}
template <typename T>
INGOT_INLINE T wrapping_neg(T a) {
  return static_cast<T>(wrap_unsigned_t<T>(0) - static_cast<wrap_unsigned_t<T>>(a));
}

// An accumulator's + and *: integer accumulators (int64 for sums and products of integers) wrap
// as above, as NumPy's and PyTorch's do; floating ones use plain arithmetic.
template <typename A>
INGOT_INLINE A accumulate_add(A a, A b) {
  if constexpr (is_integral_v<A>) {
    return wrapping_add(a, b);
  } else {
    return a + b;
  }
}
template <typename A>
INGOT_INLINE A accumulate_mul(A a, A b) {
  if constexpr (is_integral_v<A>) {
    return wrapping_mul(a, b);
  } else {
    return a * b;
  }
}

}  // namespace ingot
