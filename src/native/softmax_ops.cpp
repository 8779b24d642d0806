// Softmax-like dim ops (kernels/ops/softmax.h): each overload is one call into dim_ops.h.
#include "dispatch_stubs.h"
#include "native/dim_ops.h"

namespace ingot::native {

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like("softmax", self, dim, dtype);
}
Tensor& softmax_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like_out("softmax", out, self, dim, dtype);
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_like("log_softmax", self, dim, dtype);
}
Tensor& log_softmax_out(Tensor& out, const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype) {
  return softmax_like_out("log_softmax", out, self, dim, dtype);
}

}  // namespace ingot::native
