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

namespace ingot {

enum class ScalarType : int8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};
inline constexpr int kNumScalarTypes = 10;

inline constexpr ScalarType kBool = ScalarType::Bool;
inline constexpr ScalarType kUInt8 = ScalarType::UInt8;
inline constexpr ScalarType kInt8 = ScalarType::Int8;
inline constexpr ScalarType kInt16 = ScalarType::Int16;
inline constexpr ScalarType kInt32 = ScalarType::Int32;
inline constexpr ScalarType kInt64 = ScalarType::Int64;
inline constexpr ScalarType kFloat16 = ScalarType::Float16;
inline constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
inline constexpr ScalarType kFloat32 = ScalarType::Float32;
inline constexpr ScalarType kFloat64 = ScalarType::Float64;

// X-macro over (C++ type, ScalarType enumerator, name) in enum order.
#define INGOT_FORALL_SCALAR_TYPES(_) \
  _(bool, Bool, bool)                \
  _(uint8_t, UInt8, uint8)           \
  _(int8_t, Int8, int8)              \
  _(int16_t, Int16, int16)           \
  _(int32_t, Int32, int32)           \
  _(int64_t, Int64, int64)           \
  _(::ingot::Half, Float16, float16) \
  _(::ingot::BFloat16, BFloat16, bfloat16) \
  _(float, Float32, float32)         \
  _(double, Float64, float64)

template <typename T>
struct dtype_of;
#define INGOT_DTYPE_OF(cpp, name, str) \
  template <>                          \
  struct dtype_of<cpp> {               \
    static constexpr ScalarType value = ScalarType::name; \
  };
INGOT_FORALL_SCALAR_TYPES(INGOT_DTYPE_OF)
#undef INGOT_DTYPE_OF
template <typename T>
inline constexpr ScalarType dtype_v = dtype_of<T>::value;

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
