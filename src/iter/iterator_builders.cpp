// Meta-step builders: the iterator configuration each op family shares (ops.yaml `iterator:`).
#include "ingot/type_promotion.h"
#include "iter/tensor_iterator.h"

namespace ingot {

namespace {

// Inputs promote to a common dtype; the result is cast to a given out= only when that is safe.
TensorIteratorConfig promoting_config(const Tensor& out, std::string_view name, bool borrow) {
  TensorIteratorConfig config;
  config.name(name)
      .borrow_operands(borrow)
      .add_output(out)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true);
  return config;
}

// The name set by set_name(), else the family's.
std::string_view op_name(std::string_view set, std::string_view family) {
  return set.empty() ? family : set;
}

}  // namespace

void TensorIteratorBase::build_binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  auto config = promoting_config(out, op_name(name_, "binary_op"), borrow_operands_);
  config.add_input(a).add_input(b);
  build(config);
}

void TensorIteratorBase::build_binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  auto config = promoting_config(out, op_name(name_, "binary_float_op"), borrow_operands_);
  config.add_input(a).add_input(b).promote_integer_inputs_to_float(true);
  build(config);
}

void TensorIteratorBase::build_comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  auto config = promoting_config(out, op_name(name_, "comparison_op"), borrow_operands_);
  // A given out= of any dtype receives 0/1; only an allocated output is fixed to bool.
  config.add_input(a).add_input(b).enforce_safe_casting_to_output(false).declare_static_output_dtype(kBool);
  build(config);
}

void TensorIteratorBase::build_unary_op(const Tensor& out, const Tensor& a) {
  auto config = promoting_config(out, op_name(name_, "unary_op"), borrow_operands_);
  config.add_input(a);
  build(config);
}

void TensorIteratorBase::build_unary_float_op(const Tensor& out, const Tensor& a) {
  auto config = promoting_config(out, op_name(name_, "unary_float_op"), borrow_operands_);
  config.add_input(a).promote_integer_inputs_to_float(true);
  build(config);
}

void TensorIteratorBase::build_ternary_op(const Tensor& out, const Tensor& a, const Tensor& b,
                                          const Tensor& c) {
  auto config = promoting_config(out, op_name(name_, "ternary_op"), borrow_operands_);
  config.add_input(a).add_input(b).add_input(c);
  build(config);
}

void TensorIteratorBase::build_where_op(const Tensor& out, const Tensor& cond, const Tensor& a,
                                        const Tensor& b) {
  const std::string_view name = op_name(name_, "where");
  INGOT_CHECK(cond.defined() && a.defined() && b.defined(), ValueError, name,
              ": condition, self and other must be defined tensors");
  INGOT_CHECK(cond.dtype() == kBool, TypeError, name, ": condition must have dtype bool, got ",
              cond.dtype());
  auto config = promoting_config(out, name, borrow_operands_);
  config.add_input(cond).add_input(a).add_input(b).declare_static_common_dtype(result_type(a, b));
  build(config);
}

}  // namespace ingot
