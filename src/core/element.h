// Reading and writing one host element of a runtime dtype (private to src/).
#pragma once

#include "ingot/dtype.h"
#include "ingot/scalar.h"
#include "kernels/cast.h"

namespace ingot {

// The element at `p` (host memory) as a Scalar of its kind (bool, integer or floating).
inline Scalar read_element(ScalarType dtype, const void* p) {
  return visit_dtype(dtype, [p](auto tag) {
    using T = typename decltype(tag)::type;
    return Scalar(*static_cast<const T*>(p));
  });
}

// `value` converted to T by the kernels' element conversion (kernels/cast.h), from its own kind.
template <typename T>
T convert_scalar(const Scalar& value) {
  switch (value.kind()) {
    case Scalar::Kind::Float:
      return convert<T>(value.to<double>());
    case Scalar::Kind::Int:
      return convert<T>(value.to<int64_t>());
    default:
      return convert<T>(value.to<bool>());
  }
}

// Stores `value` converted to `dtype` at `p` (host memory).
inline void write_element(ScalarType dtype, void* p, const Scalar& value) {
  visit_dtype(dtype, [p, &value](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(p) = convert_scalar<T>(value);
  });
}

}  // namespace ingot
