// Host stub for pow (functor: kernels/ops/pow.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void pow_kernel(TensorIteratorBase& iter) {
  // PyTorch and NumPy refuse a negative Python-number exponent for integers (the result would be
  // 0 for most bases); a tensor exponent keeps the per-element rule of kernels/ops/pow.h.
  const Tensor& exponent = iter.input(1);
  INGOT_CHECK(is_floating_type(iter.common_dtype()) || !exponent.is_wrapped_number() ||
                  exponent.item<int64_t>() >= 0,
              ValueError, iter.name(), ": integers to negative integer powers are not allowed (",
              iter.common_dtype(), " base, exponent ", exponent.item(), ")");
  lib.exec_binary_kernel(iter, "pow");
}
REGISTER_DISPATCH(pow_stub, &pow_kernel);

}  // namespace ingot::native
