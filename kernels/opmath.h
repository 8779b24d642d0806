// Compute and accumulation types (DESIGN.md §4): float16/bfloat16 compute in float32 and are
// rounded once on store; integer sums accumulate in int64.
#pragma once

#include "kernels/type_traits.h"

namespace ingot {

template <typename T>
struct opmath_type {
  using type = T;
};
template <>
struct opmath_type<Half> {
  using type = float;
};
template <>
struct opmath_type<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename opmath_type<T>::type;

template <typename T, typename Enable = void>
struct accum_type {
  using type = opmath_t<T>;
};
template <typename T>
struct accum_type<T, enable_if_t<is_integral_v<T>>> {
  using type = int64_t;
};
template <typename T>
using accum_t = typename accum_type<T>::type;

}  // namespace ingot
