// Host stubs for the predicates and logical ops (functors: kernels/ops/classification.h, logical.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void isnan_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "isnan"); }
static void isinf_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "isinf"); }
static void isfinite_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "isfinite"); }
static void isposinf_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "isposinf"); }
static void isneginf_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "isneginf"); }
static void signbit_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "signbit"); }
static void logical_not_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "logical_not"); }
static void logical_and_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "logical_and"); }
static void logical_or_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "logical_or"); }
static void logical_xor_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "logical_xor"); }

REGISTER_DISPATCH(isnan_stub, &isnan_kernel);
REGISTER_DISPATCH(isinf_stub, &isinf_kernel);
REGISTER_DISPATCH(isfinite_stub, &isfinite_kernel);
REGISTER_DISPATCH(isposinf_stub, &isposinf_kernel);
REGISTER_DISPATCH(isneginf_stub, &isneginf_kernel);
REGISTER_DISPATCH(signbit_stub, &signbit_kernel);
REGISTER_DISPATCH(logical_not_stub, &logical_not_kernel);
REGISTER_DISPATCH(logical_and_stub, &logical_and_kernel);
REGISTER_DISPATCH(logical_or_stub, &logical_or_kernel);
REGISTER_DISPATCH(logical_xor_stub, &logical_xor_kernel);

}  // namespace ingot::native
