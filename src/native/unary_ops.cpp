// Host stubs for the unary ops (functors: kernels/ops/unary.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void neg_kernel(TensorIteratorBase& iter) {
  INGOT_CHECK(iter.input_dtype(0) != kBool, TypeError,
              "neg: negation of a bool tensor is not supported; use logical_not");
  lib.exec_unary_kernel(iter, "neg");
}

static void exp_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "exp"); }
static void abs_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "abs"); }

REGISTER_DISPATCH(neg_stub, &neg_kernel);
REGISTER_DISPATCH(exp_stub, &exp_kernel);
REGISTER_DISPATCH(abs_stub, &abs_kernel);

}  // namespace ingot::native
