// Host stub for pow (functor: kernels/ops/pow.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void pow_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "pow"); }
REGISTER_DISPATCH(pow_stub, &pow_kernel);

}  // namespace ingot::native
