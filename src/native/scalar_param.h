// Checks on scalar parameters that scale a result (add's alpha, addcmul's value), shared by stubs.
#pragma once

#include <string_view>

#include "iter/tensor_iterator.h"

namespace ingot::native {

// PyTorch's rules: a bool parameter only for a bool result, a floating one only for a floating
// result. TypeError naming the op, the parameter and the result dtype.
inline void check_scale_param(const TensorIteratorBase& iter, std::string_view op, std::string_view name,
                              const Scalar& value) {
  const ScalarType dtype = iter.common_dtype();
  INGOT_CHECK(!value.is_bool() || dtype == kBool, TypeError, op, ": a bool ", name, " (", value,
              ") needs a bool result, the result dtype is ", dtype);
  INGOT_CHECK(is_floating_type(dtype) || !value.is_floating_point(), TypeError, op, ": ", name, " ", value,
              " must not be a floating point number for the integral result dtype ", dtype);
}

}  // namespace ingot::native
