// PyTorch's type promotion (DESIGN.md §4): the dtype lattice, then the category rule that ranks
// 0-dim tensors and wrapped numbers below dimensioned tensors unless of a higher category
// (bool < integer < floating).
#pragma once

#include <variant>
#include <vector>

#include "ingot/dtype.h"
#include "ingot/scalar.h"
#include "ingot/tensor.h"

namespace ingot {

// The lattice join of two dtypes (uint8+int8 -> int16, float16+bfloat16 -> float32, ...).
ScalarType promote_types(ScalarType a, ScalarType b);

using TensorOrScalar = std::variant<Tensor, Scalar>;
// The dtype an op over these operands computes in. Scalars count as wrapped numbers; the default
// floating dtype (float32) stands in when only wrapped floats lift the category.
ScalarType result_type(const std::vector<TensorOrScalar>& operands);
ScalarType result_type(const Tensor& a, const Tensor& b);
// result_type of tensors alone, without building variants (the iterator's hot path).
ScalarType tensors_result_type(ArrayRef<Tensor> tensors);
ScalarType tensors_result_type(ArrayRef<const Tensor*> tensors);
ScalarType result_type(const Tensor& a, const Scalar& b);

// Whether a result of dtype `from` may be written to `to` by an op (out= and in-place): no
// floating -> integral, no non-bool -> bool.
bool can_cast(ScalarType from, ScalarType to);

}  // namespace ingot
