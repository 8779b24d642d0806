// Host stubs for rounding, sign and activation ops (functors: kernels/ops/rounding.h, unary.h,
// activation.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

// PyTorch's rule: these have no meaning for bool; a typed error instead of a missing kernel.
static void exec_unary_no_bool(TensorIteratorBase& iter, const char* op) {
  INGOT_CHECK(iter.input_dtype(0) != kBool, TypeError, op, ": not supported for bool tensors");
  lib.exec_unary_kernel(iter, op);
}

static void floor_kernel(TensorIteratorBase& iter) { exec_unary_no_bool(iter, "floor"); }
static void ceil_kernel(TensorIteratorBase& iter) { exec_unary_no_bool(iter, "ceil"); }
static void trunc_kernel(TensorIteratorBase& iter) { exec_unary_no_bool(iter, "trunc"); }
static void round_kernel(TensorIteratorBase& iter, int64_t decimals) {
  if (decimals == 0) return exec_unary_no_bool(iter, "round");
  INGOT_CHECK(is_floating_type(iter.input_dtype(0)), TypeError, "round: decimals (", decimals,
              ") needs a floating tensor, got ", iter.input_dtype(0));
  lib.exec_unary_kernel(iter, "round", Scalar(decimals));
}
static void frac_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "frac"); }
static void sign_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "sign"); }
static void sgn_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "sgn"); }
static void positive_kernel(TensorIteratorBase& iter) { exec_unary_no_bool(iter, "positive"); }
static void square_kernel(TensorIteratorBase& iter) { exec_unary_no_bool(iter, "square"); }
static void relu_kernel(TensorIteratorBase& iter) { exec_unary_no_bool(iter, "relu"); }
static void silu_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "silu"); }
static void mish_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "mish"); }
static void gelu_kernel(TensorIteratorBase& iter, std::string_view approximate) {
  INGOT_CHECK(approximate == "none" || approximate == "tanh", ValueError,
              "gelu: approximate must be 'none' or 'tanh', got '", approximate, "'");
  lib.exec_unary_kernel(iter, approximate == "tanh" ? "gelu_tanh" : "gelu");
}
// beta and threshold are the iterator's extra operands (unary_scalar_operands).
static void softplus_kernel(TensorIteratorBase& iter, const Scalar&, const Scalar&) {
  lib.exec_ternary_kernel(iter, "softplus");
}

REGISTER_DISPATCH(floor_stub, &floor_kernel);
REGISTER_DISPATCH(ceil_stub, &ceil_kernel);
REGISTER_DISPATCH(trunc_stub, &trunc_kernel);
REGISTER_DISPATCH(round_stub, &round_kernel);
REGISTER_DISPATCH(frac_stub, &frac_kernel);
REGISTER_DISPATCH(sign_stub, &sign_kernel);
REGISTER_DISPATCH(sgn_stub, &sgn_kernel);
REGISTER_DISPATCH(positive_stub, &positive_kernel);
REGISTER_DISPATCH(square_stub, &square_kernel);
REGISTER_DISPATCH(relu_stub, &relu_kernel);
REGISTER_DISPATCH(silu_stub, &silu_kernel);
REGISTER_DISPATCH(mish_stub, &mish_kernel);
REGISTER_DISPATCH(gelu_stub, &gelu_kernel);
REGISTER_DISPATCH(softplus_stub, &softplus_kernel);

}  // namespace ingot::native
