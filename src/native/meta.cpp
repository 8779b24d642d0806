#include "native/meta.h"

#include <limits>

#include "ingot/factories.h"

namespace ingot::native {

namespace {

template <typename T>
bool fits(int64_t v) {
  if (v < 0) return v >= static_cast<int64_t>(std::numeric_limits<T>::min());
  return static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max());
}

// [lo, hi] of an integer dtype, for the message.
template <typename T>
std::string range_of() {
  return detail::concat(static_cast<int64_t>(std::numeric_limits<T>::min()), " to ",
                        static_cast<uint64_t>(std::numeric_limits<T>::max()));
}

}  // namespace

void build_unary_predicate_op(TensorIterator& iter, const Tensor& out, const Tensor& self) {
  iter = TensorIteratorConfig()
             .name(iter.name())
             .add_output(out)
             .add_input(self)
             .promote_inputs_to_common_dtype(true)
             .cast_common_dtype_to_outputs(true)
             .declare_static_output_dtype(kBool)
             .build();
}

void build_div_op(TensorIterator& iter, const Tensor& out, const Tensor& self, const Tensor& other,
                  std::optional<std::string_view> rounding_mode) {
  if (rounding_mode) {
    iter.build_binary_op(out, self, other);
  } else {
    iter.build_binary_float_op(out, self, other);
  }
}

TensorIteratorConfig unary_scalar_operands_config(const TensorIterator& iter, const Tensor& out,
                                                 const Tensor& self) {
  INGOT_CHECK(self.defined(), ValueError, iter.name(), ": self must be a defined tensor");
  TensorIteratorConfig config;
  config.name(iter.name())
      .add_output(out)
      .add_input(self)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .declare_static_common_dtype(self.dtype());
  return config;
}

Tensor scalar_operand(const Scalar& value, ScalarType dtype) { return full({}, value, dtype); }

void check_wrapped_numbers_fit(const TensorIteratorBase& iter) {
  const ScalarType dtype = iter.common_dtype();
  if (!is_integral_type(dtype, /*include_bool=*/false) || dtype == kInt64) return;
  for (int i = 0; i < iter.ninputs(); ++i) {
    const Tensor& t = iter.input(i);
    if (!t.defined() || !t.is_wrapped_number() || !is_integral_type(t.dtype(), false) || !t.device().is_cpu()) {
      continue;
    }
    const int64_t v = t.item<int64_t>();
    bool ok = true;
    std::string range;
    switch (dtype) {
      case kUInt8:
        ok = fits<uint8_t>(v), range = range_of<uint8_t>();
        break;
      case kInt8:
        ok = fits<int8_t>(v), range = range_of<int8_t>();
        break;
      case kInt16:
        ok = fits<int16_t>(v), range = range_of<int16_t>();
        break;
      default:  // int32; int64 returned above
        ok = fits<int32_t>(v), range = range_of<int32_t>();
        break;
    }
    INGOT_CHECK(ok, OverflowError, iter.name(), ": the number ", v, " does not fit in ", dtype, " (", range,
                "), the dtype this op computes in; convert the tensor to a wider dtype first");
  }
}

}  // namespace ingot::native
