// Element conversions between the ten dtypes, static (convert<To>(v)) and by a runtime dtype code
// (load_as / store_as, used by the cast flavor).
#pragma once

#include "ingot/scalar_type.h"
#include "kernels/type_traits.h"

namespace ingot {

// C++ conversion rules, except: anything -> bool tests for nonzero, Half/BFloat16 convert through
// float (their arithmetic type) and are rounded to once, and floating -> integral truncates to
// int64 (truncate_to_int64: defined for NaN, inf and out-of-range values too) and then narrowing
// wraps. copy_, to() and the kernels all convert with this one function.
template <typename To, typename From>
INGOT_INLINE To convert(From v) {
  if constexpr (is_same_v<To, From>) {
    return v;
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_reduced_float_v<To>) {
    // From double directly (int32/int64 through exact-or-once-rounded double): rounding through
    // float first would round twice.
    if constexpr (is_same_v<From, double> || (is_integral_v<From> && sizeof(From) >= 4)) {
      return To(static_cast<double>(v));
    } else {
      return To(static_cast<float>(v));
    }
  } else if constexpr (is_integral_v<To> && is_floating_point_v<From>) {
    return static_cast<To>(truncate_to_int64(v));
  } else {
    return static_cast<To>(v);
  }
}

// Reads a T from possibly unaligned bytes.
template <typename T>
INGOT_INLINE T read_bytes(const void* p) {
  T v;
  const unsigned char* src = static_cast<const unsigned char*>(p);
  unsigned char* dst = reinterpret_cast<unsigned char*>(&v);
  for (unsigned i = 0; i < sizeof(T); ++i) dst[i] = src[i];
  return v;
}

template <typename To>
INGOT_INLINE To load_as(const char* p, ScalarType dtype) {
  switch (dtype) {
#define INGOT_LOAD_CASE(cpp, code, name) \
  case ScalarType::code:                  \
    return convert<To>(*reinterpret_cast<const cpp*>(p));
    INGOT_FORALL_SCALAR_TYPES(INGOT_LOAD_CASE)
#undef INGOT_LOAD_CASE
  }
  return To();
}

template <typename From>
INGOT_INLINE void store_as(char* p, ScalarType dtype, From v) {
  switch (dtype) {
#define INGOT_STORE_CASE(cpp, code, name)             \
  case ScalarType::code:                               \
    *reinterpret_cast<cpp*>(p) = convert<cpp>(v);     \
    return;
    INGOT_FORALL_SCALAR_TYPES(INGOT_STORE_CASE)
#undef INGOT_STORE_CASE
  }
}

}  // namespace ingot
