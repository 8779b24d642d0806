// Host stubs for the comparison ops (functors: kernels/ops/comparison.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void eq_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "eq"); }
static void ne_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "ne"); }
static void lt_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "lt"); }
static void le_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "le"); }
static void gt_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "gt"); }
static void ge_kernel(TensorIteratorBase& iter) { lib.exec_binary_kernel(iter, "ge"); }

REGISTER_DISPATCH(eq_stub, &eq_kernel);
REGISTER_DISPATCH(ne_stub, &ne_kernel);
REGISTER_DISPATCH(lt_stub, &lt_kernel);
REGISTER_DISPATCH(le_stub, &le_kernel);
REGISTER_DISPATCH(gt_stub, &gt_kernel);
REGISTER_DISPATCH(ge_stub, &ge_kernel);

}  // namespace ingot::native
