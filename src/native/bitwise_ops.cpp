// Host stubs for the bitwise ops (functors: kernels/ops/bitwise.h). The kernels exist only for
// bool and integer dtypes; a floating (or, for shifts, bool) compute dtype is a TypeError that
// names the op rather than a missing-kernel error.
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void check_integral(const char* op, ScalarType dtype, bool allow_bool) {
  INGOT_CHECK(is_integral_type(dtype, allow_bool), TypeError, op, ": not supported for dtype ", dtype,
              allow_bool ? "; it needs bool or integer tensors" : "; it needs integer tensors");
}

// Binary inputs are checked in their common dtype: int32 & 1.5 computes in float32 and is an error.
static void exec_binary_integral(TensorIteratorBase& iter, const char* op, bool allow_bool) {
  check_integral(op, iter.common_dtype(), allow_bool);
  lib.exec_binary_kernel(iter, op);
}

static void bitwise_and_kernel(TensorIteratorBase& iter) { exec_binary_integral(iter, "bitwise_and", true); }
static void bitwise_or_kernel(TensorIteratorBase& iter) { exec_binary_integral(iter, "bitwise_or", true); }
static void bitwise_xor_kernel(TensorIteratorBase& iter) { exec_binary_integral(iter, "bitwise_xor", true); }
static void bitwise_left_shift_kernel(TensorIteratorBase& iter) {
  exec_binary_integral(iter, "bitwise_left_shift", false);
}
static void bitwise_right_shift_kernel(TensorIteratorBase& iter) {
  exec_binary_integral(iter, "bitwise_right_shift", false);
}
static void bitwise_not_kernel(TensorIteratorBase& iter) {
  check_integral("bitwise_not", iter.input_dtype(0), true);
  lib.exec_unary_kernel(iter, "bitwise_not");
}

REGISTER_DISPATCH(bitwise_and_stub, &bitwise_and_kernel);
REGISTER_DISPATCH(bitwise_or_stub, &bitwise_or_kernel);
REGISTER_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel);
REGISTER_DISPATCH(bitwise_not_stub, &bitwise_not_kernel);
REGISTER_DISPATCH(bitwise_left_shift_stub, &bitwise_left_shift_kernel);
REGISTER_DISPATCH(bitwise_right_shift_stub, &bitwise_right_shift_kernel);

}  // namespace ingot::native
