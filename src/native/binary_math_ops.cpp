// Host stubs for maximum/minimum/fmax/fmin and the binary float math (functors:
// kernels/ops/minmax.h, binary_math.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void maximum_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "maximum"); }
static void minimum_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "minimum"); }
static void fmax_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "fmax"); }
static void fmin_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "fmin"); }
static void copysign_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "copysign"); }
static void hypot_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "hypot"); }
static void logaddexp_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "logaddexp"); }
static void logaddexp2_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "logaddexp2"); }
static void xlogy_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "xlogy"); }
static void nextafter_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "nextafter"); }

static void fmod_kernel(TensorIteratorBase& iter) {
  INGOT_CHECK(iter.common_dtype() != kBool, TypeError, "fmod: not supported for bool tensors");
  lib.exec_binary_kernel(iter, "fmod");
}

// clamp_min and clamp_max are maximum and minimum with the bound as the second operand.
static void clamp_min_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "maximum"); }
static void clamp_max_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "minimum"); }

REGISTER_DISPATCH(maximum_stub, &maximum_kernel);
REGISTER_DISPATCH(clamp_min_stub, &clamp_min_kernel);
REGISTER_DISPATCH(clamp_max_stub, &clamp_max_kernel);
REGISTER_DISPATCH(minimum_stub, &minimum_kernel);
REGISTER_DISPATCH(fmax_stub, &fmax_kernel);
REGISTER_DISPATCH(fmin_stub, &fmin_kernel);
REGISTER_DISPATCH(copysign_stub, &copysign_kernel);
REGISTER_DISPATCH(hypot_stub, &hypot_kernel);
REGISTER_DISPATCH(logaddexp_stub, &logaddexp_kernel);
REGISTER_DISPATCH(logaddexp2_stub, &logaddexp2_kernel);
REGISTER_DISPATCH(xlogy_stub, &xlogy_kernel);
REGISTER_DISPATCH(nextafter_stub, &nextafter_kernel);
REGISTER_DISPATCH(fmod_stub, &fmod_kernel);

}  // namespace ingot::native
