// Host stubs for the binary arithmetic ops (functors: kernels/ops/binary.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"
#include "native/scalar_param.h"

namespace ingot::native {

static void add_kernel(TensorIteratorBase& iter, const Scalar& alpha) {
  check_scale_param(iter, "add", "alpha", alpha);
  lib.exec_binary_kernel(iter, "add", alpha);
}
REGISTER_DISPATCH(add_stub, &add_kernel);

static void sub_kernel(TensorIteratorBase& iter, const Scalar& alpha) {
  INGOT_CHECK(iter.input_dtype(0) != kBool && iter.input_dtype(1) != kBool, TypeError,
              "sub: subtraction with a bool tensor is not supported (inputs are ", iter.input_dtype(0),
              " and ", iter.input_dtype(1), "); use logical_xor or logical_not");
  check_scale_param(iter, "sub", "alpha", alpha);
  lib.exec_binary_kernel(iter, "sub", alpha);
}
REGISTER_DISPATCH(sub_stub, &sub_kernel);

static void mul_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "mul"); }
REGISTER_DISPATCH(mul_stub, &mul_kernel);

// rounding_mode "floor" is floor_divide's kernel; "trunc" has its own (kernels/ops/division.h).
static void div_kernel(TensorIteratorBase& iter, std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return lib.exec_binary_kernel(iter, "div");
  INGOT_CHECK(*rounding_mode == "trunc" || *rounding_mode == "floor", ValueError,
              "div: rounding_mode must be None, 'trunc' or 'floor', got '", *rounding_mode, "'");
  lib.exec_binary_kernel(iter, *rounding_mode == "trunc" ? "div_trunc" : "floor_divide");
}
REGISTER_DISPATCH(div_stub, &div_kernel);

static void atan2_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "atan2"); }
REGISTER_DISPATCH(atan2_stub, &atan2_kernel);

}  // namespace ingot::native
