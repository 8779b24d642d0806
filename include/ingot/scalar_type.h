// The ten element types, in the portable subset (ingot/portable.h) so that host code and kernels
// compiled by NVRTC share one enum, one type list and one C++-type -> dtype map.
#pragma once

#include "ingot/half.h"
#include "ingot/portable.h"

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

}  // namespace ingot
