// The ten element types and their traits. Names follow NumPy ("float32", "bfloat16").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>
#include <type_traits>

#include "ingot/error.h"
#include "ingot/half.h"
#include "ingot/scalar_type.h"

namespace ingot {

constexpr std::string_view dtype_name(ScalarType t) {
  switch (t) {
#define INGOT_DTYPE_NAME(cpp, name, str) \
  case ScalarType::name:                 \
    return #str;
    INGOT_FORALL_SCALAR_TYPES(INGOT_DTYPE_NAME)
#undef INGOT_DTYPE_NAME
  }
  return "unknown";
}

constexpr size_t element_size(ScalarType t) {
  switch (t) {
#define INGOT_DTYPE_SIZE(cpp, name, str) \
  case ScalarType::name:                 \
    return sizeof(cpp);
    INGOT_FORALL_SCALAR_TYPES(INGOT_DTYPE_SIZE)
#undef INGOT_DTYPE_SIZE
  }
  return 0;
}

constexpr bool is_floating_type(ScalarType t) {
  return t == kFloat16 || t == kBFloat16 || t == kFloat32 || t == kFloat64;
}
constexpr bool is_integral_type(ScalarType t, bool include_bool) {
  return (include_bool && t == kBool) || t == kUInt8 || t == kInt8 || t == kInt16 || t == kInt32 ||
         t == kInt64;
}
constexpr bool is_signed_type(ScalarType t) { return t != kBool && t != kUInt8; }

// Parses a dtype name ("float32", "int64", ...); nullopt when unknown.
std::optional<ScalarType> dtype_from_name(std::string_view name);

inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << dtype_name(t); }

template <typename T>
struct type_tag {
  using type = T;
};

// Calls f(type_tag<T>{}) with the C++ type of `t`: the runtime-to-compile-time dtype switch.
template <typename F>
decltype(auto) visit_dtype(ScalarType t, F&& f) {
  switch (t) {
#define INGOT_DTYPE_VISIT(cpp, name, str) \
  case ScalarType::name:                  \
    return std::forward<F>(f)(type_tag<cpp>{});
    INGOT_FORALL_SCALAR_TYPES(INGOT_DTYPE_VISIT)
#undef INGOT_DTYPE_VISIT
  }
  throw TypeError(detail::concat("visit_dtype: invalid dtype ", static_cast<int>(t)));
}

}  // namespace ingot
