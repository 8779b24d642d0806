// A host number of one of three kinds (bool, integer, floating), as Python numbers are: the
// `other` of add.Scalar, fill values, alpha. Its kind, not its C++ width, drives type promotion.
#pragma once

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "ingot/dtype.h"

namespace ingot {

class Scalar {
 public:
  enum class Kind : int8_t { Bool, Int, Float };

  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(Kind::Bool) { v_.i = v; }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, bool> = true>
  Scalar(T v) : kind_(Kind::Int) {
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, bool> = true>
  Scalar(T v) : kind_(Kind::Float) {
    v_.d = static_cast<double>(v);
  }
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}

  Kind kind() const { return kind_; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_integral() const { return kind_ == Kind::Int; }
  bool is_floating_point() const { return kind_ == Kind::Float; }

  // The value converted to T as the kernels convert (kernels/cast.h): float -> int truncates
  // (NaN and out-of-range values give INT64_MIN before narrowing), float16/bfloat16 round once.
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      return T(kind_ == Kind::Float ? v_.d : static_cast<double>(v_.i));  // rounded once
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      return static_cast<T>(kind_ == Kind::Float ? truncate_to_int64(v_.d) : v_.i);
    } else {
      return kind_ == Kind::Float ? static_cast<T>(v_.d) : static_cast<T>(v_.i);
    }
  }

  // The dtype a tensor made from this scalar gets: bool, int64 or float64.
  ScalarType dtype() const {
    return kind_ == Kind::Bool ? kBool : kind_ == Kind::Int ? kInt64 : kFloat64;
  }

  friend bool operator==(const Scalar& a, const Scalar& b) {
    if (a.kind_ != b.kind_) return false;
    return a.kind_ == Kind::Float ? a.v_.d == b.v_.d : a.v_.i == b.v_.i;
  }

 private:
  Kind kind_;
  union {
    int64_t i;
    double d;
  } v_;
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

}  // namespace ingot
