// Host stubs for the comparison ops (functors: kernels/ops/comparison.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void eq_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "eq"); }
REGISTER_DISPATCH(eq_stub, &eq_kernel);

}  // namespace ingot::native
