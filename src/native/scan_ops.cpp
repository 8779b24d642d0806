// Scans along a dim (kernels/ops/scan.h): each overload is one call into dim_ops.h.
#include "dispatch_stubs.h"
#include "native/dim_ops.h"

namespace ingot::native {

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan("cumsum", self, dim, dtype);
}
Tensor& cumsum_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan_out("cumsum", out, self, dim, dtype);
}

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan("cumprod", self, dim, dtype);
}
Tensor& cumprod_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan_out("cumprod", out, self, dim, dtype);
}

std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  return index_scan("cummax", self, dim);
}
std::tuple<Tensor&, Tensor&> cummax_out(Tensor& values, Tensor& indices, const Tensor& self,
                                        int64_t dim) {
  return index_scan_out("cummax", values, indices, self, dim);
}

std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  return index_scan("cummin", self, dim);
}
std::tuple<Tensor&, Tensor&> cummin_out(Tensor& values, Tensor& indices, const Tensor& self,
                                        int64_t dim) {
  return index_scan_out("cummin", values, indices, self, dim);
}

}  // namespace ingot::native
