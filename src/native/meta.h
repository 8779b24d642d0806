// Meta-step helpers the generated structured ops call (codegen/emit.py): iterator builders for
// configurations TensorIteratorBase has no builder for (ops.yaml `iterator:` values that name a
// native:: builder, codegen/model.py), and the check that numbers fit the compute dtype.
#pragma once

#include <optional>
#include <string_view>

#include "iter/tensor_iterator.h"
#include "native/meta_reduce.h"

namespace ingot::native {

// Any input dtype, bool result (isnan, signbit, logical_not); a given out= may have any dtype and
// receives 0/1, as for comparisons.
void build_unary_predicate_op(TensorIterator& iter, const Tensor& out, const Tensor& self);

// div: true division promotes integers to float32 (binary_float); with a rounding_mode the
// integers stay integers (binary).
void build_div_op(TensorIterator& iter, const Tensor& out, const Tensor& self, const Tensor& other,
                  std::optional<std::string_view> rounding_mode);

// self's dtype in and out; each Scalar parameter becomes an extra 0-dim input holding it in the
// compute type (float for float16/bfloat16), so a ternary kernel receives them (softplus's beta
// and threshold). The parameters take no part in type promotion.
TensorIteratorConfig unary_scalar_operands_config(const TensorIterator& iter, const Tensor& out, const Tensor& self);
Tensor scalar_operand(const Scalar& value, ScalarType dtype);

template <typename... Params>
void build_unary_scalar_operands_op(TensorIterator& iter, const Tensor& out, const Tensor& self,
                                    const Params&... params) {
  TensorIteratorConfig config = unary_scalar_operands_config(iter, out, self);
  const ScalarType compute = self.dtype() == kFloat16 || self.dtype() == kBFloat16 ? kFloat32 : self.dtype();
  (config.add_input(scalar_operand(params, compute)), ...);
  iter = config.build();
}

// Called after the builder. OverflowError naming the op, the number and the dtype when an integer wrapped number (a Python
// int, a C++ Scalar) lies outside the range of an integer common dtype (int8_tensor + 1000,
// uint8_tensor << 300, uint8_tensor + -1), instead of wrapping it silently (NumPy 2 and PyTorch
// refuse too). Floating common dtypes take any number; bool does not occur (bool + int is int64).
void check_wrapped_numbers_fit(const TensorIteratorBase& iter);

}  // namespace ingot::native
