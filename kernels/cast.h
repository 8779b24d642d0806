// Element conversions between the ten dtypes, static (convert<To>(v)) and by a runtime dtype code
// (load_as / store_as, used by the cast flavor). Codes follow ingot::ScalarType's enum order; the
// CPU kernel library static_asserts that they agree.
#pragma once

#include "kernels/type_traits.h"

namespace ingot {

enum class DTypeCode : int8_t {
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

// X-macro over (C++ type, DTypeCode, dtype name token) in code order.
#define INGOT_KERNEL_DTYPES(_)   \
  _(bool, Bool, bool)            \
  _(uint8_t, UInt8, uint8)       \
  _(int8_t, Int8, int8)          \
  _(int16_t, Int16, int16)       \
  _(int32_t, Int32, int32)       \
  _(int64_t, Int64, int64)       \
  _(Half, Float16, float16)      \
  _(BFloat16, BFloat16, bfloat16) \
  _(float, Float32, float32)     \
  _(double, Float64, float64)

template <typename T>
struct dtype_code;
#define INGOT_DTYPE_CODE(cpp, code, name)                 \
  template <>                                             \
  struct dtype_code<cpp> {                                \
    static constexpr DTypeCode value = DTypeCode::code;   \
  };
INGOT_KERNEL_DTYPES(INGOT_DTYPE_CODE)
#undef INGOT_DTYPE_CODE
template <typename T>
inline constexpr DTypeCode dtype_code_v = dtype_code<T>::value;

// C++ conversion rules, except: anything -> bool tests for nonzero, and Half/BFloat16 convert
// through float (their only arithmetic type).
template <typename To, typename From>
INGOT_INLINE To convert(From v) {
  if constexpr (is_same_v<To, From>) {
    return v;
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (is_reduced_float_v<To>) {
    return To(static_cast<float>(v));
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
INGOT_INLINE To load_as(const char* p, DTypeCode dtype) {
  switch (dtype) {
#define INGOT_LOAD_CASE(cpp, code, name) \
  case DTypeCode::code:                  \
    return convert<To>(*reinterpret_cast<const cpp*>(p));
    INGOT_KERNEL_DTYPES(INGOT_LOAD_CASE)
#undef INGOT_LOAD_CASE
  }
  return To();
}

template <typename From>
INGOT_INLINE void store_as(char* p, DTypeCode dtype, From v) {
  switch (dtype) {
#define INGOT_STORE_CASE(cpp, code, name)             \
  case DTypeCode::code:                               \
    *reinterpret_cast<cpp*>(p) = convert<cpp>(v);     \
    return;
    INGOT_KERNEL_DTYPES(INGOT_STORE_CASE)
#undef INGOT_STORE_CASE
  }
}

}  // namespace ingot
