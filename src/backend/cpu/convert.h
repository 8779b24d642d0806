// Element conversion between the ten dtypes, as copy_ and to() perform it: C++ conversions, except
// that bool means "non-zero", float16/bfloat16 go through float, and floating -> integral goes
// through int64 so that narrowing wraps instead of being undefined for in-range int64 values.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ingot/half.h"

namespace ingot {

template <typename T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <typename To, typename From>
INGOT_INLINE To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_reduced_float_v<To>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace ingot
