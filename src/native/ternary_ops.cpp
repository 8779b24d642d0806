// Host stubs for the ternary ops (functors: kernels/ops/ternary.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void where_kernel(TensorIteratorBase& iter) { lib.exec_ternary_kernel(iter, "where"); }
REGISTER_DISPATCH(where_stub, &where_kernel);

}  // namespace ingot::native
