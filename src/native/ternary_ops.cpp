// Host stubs for the ternary ops: where, clamp, lerp, addcmul, addcdiv (functors: kernels/ops/ternary.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"
#include "native/scalar_param.h"

namespace ingot::native {

static void where_kernel(TensorIteratorBase& iter) { lib.exec_ternary_kernel(iter, "where"); }
REGISTER_DISPATCH(where_stub, &where_kernel);

static void clamp_kernel(TensorIteratorBase& iter) { lib.exec_ternary_kernel(iter, "clamp"); }
REGISTER_DISPATCH(clamp_stub, &clamp_kernel);

static void lerp_kernel(TensorIteratorBase& iter) { lib.exec_ternary_kernel(iter, "lerp"); }
REGISTER_DISPATCH(lerp_stub, &lerp_kernel);

static void addcmul_kernel(TensorIteratorBase& iter, const Scalar& value) {
  INGOT_CHECK(iter.common_dtype() != kBool, TypeError, "addcmul: not supported for bool tensors");
  check_scale_param(iter, "addcmul", "value", value);
  lib.exec_ternary_kernel(iter, "addcmul", value);
}
REGISTER_DISPATCH(addcmul_stub, &addcmul_kernel);

static void addcdiv_kernel(TensorIteratorBase& iter, const Scalar& value) {
  INGOT_CHECK(is_floating_type(iter.common_dtype()), TypeError, "addcdiv: integer division is not supported ",
              "(the inputs compute in ", iter.common_dtype(), "); use floating tensors, or div with rounding_mode");
  lib.exec_ternary_kernel(iter, "addcdiv", value);
}
REGISTER_DISPATCH(addcdiv_stub, &addcdiv_kernel);

}  // namespace ingot::native
