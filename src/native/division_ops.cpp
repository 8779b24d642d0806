// Host stubs for floor_divide and remainder (functors: kernels/ops/division.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void floor_divide_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "floor_divide"); }
REGISTER_DISPATCH(floor_divide_stub, &floor_divide_kernel);

static void remainder_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "remainder"); }
REGISTER_DISPATCH(remainder_stub, &remainder_kernel);

}  // namespace ingot::native
