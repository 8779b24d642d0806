// Reduction stubs (ops.yaml `iterator: reduce`; functors in kernels/ops/reduction.h) and the
// composite forms with two outputs (max.dim, min.dim, var_mean, std_mean), which build their
// reduction iterator here and run the same kernel library entry point.
#include <tuple>

#include "dispatch_stubs.h"
#include "native/kernel_library.h"
#include "native/meta_reduce.h"

namespace ingot::native {

namespace {

using Dims = std::optional<IntArrayRef>;
using Dtype = std::optional<ScalarType>;

double correction_value(const std::optional<Scalar>& correction) {
  return correction ? correction->to<double>() : 1.0;
}

void sum_kernel(TensorIteratorBase& iter, Dims, bool, Dtype) { lib.exec_reduce_kernel(iter, "sum"); }
void prod_kernel(TensorIteratorBase& iter, Dims, bool, Dtype) { lib.exec_reduce_kernel(iter, "prod"); }
void mean_kernel(TensorIteratorBase& iter, Dims, bool, Dtype) { lib.exec_reduce_kernel(iter, "mean"); }
void nansum_kernel(TensorIteratorBase& iter, Dims, bool, Dtype) { lib.exec_reduce_kernel(iter, "nansum"); }
void nanmean_kernel(TensorIteratorBase& iter, Dims, bool, Dtype) { lib.exec_reduce_kernel(iter, "nanmean"); }
void amax_kernel(TensorIteratorBase& iter, Dims, bool) { lib.exec_reduce_kernel(iter, "amax"); }
void amin_kernel(TensorIteratorBase& iter, Dims, bool) { lib.exec_reduce_kernel(iter, "amin"); }
void any_kernel(TensorIteratorBase& iter, Dims, bool) { lib.exec_reduce_kernel(iter, "any"); }
void all_kernel(TensorIteratorBase& iter, Dims, bool) { lib.exec_reduce_kernel(iter, "all"); }
void logsumexp_kernel(TensorIteratorBase& iter, Dims, bool) { lib.exec_reduce_kernel(iter, "logsumexp"); }
void argmax_kernel(TensorIteratorBase& iter, std::optional<int64_t>, bool) { lib.exec_reduce_kernel(iter, "argmax"); }
void argmin_kernel(TensorIteratorBase& iter, std::optional<int64_t>, bool) { lib.exec_reduce_kernel(iter, "argmin"); }
void count_nonzero_kernel(TensorIteratorBase& iter, Dims) { lib.exec_reduce_kernel(iter, "count_nonzero"); }
void var_kernel(TensorIteratorBase& iter, Dims, const std::optional<Scalar>& correction, bool) {
  lib.exec_reduce_kernel(iter, "var", correction_value(correction));
}
void std_kernel(TensorIteratorBase& iter, Dims, const std::optional<Scalar>& correction, bool) {
  lib.exec_reduce_kernel(iter, "std", correction_value(correction));
}
void norm_kernel(TensorIteratorBase& iter, const std::optional<Scalar>& p, Dims, bool, Dtype) {
  const double ord = p ? p->to<double>() : 2.0;
  lib.exec_reduce_kernel(iter, vector_norm_kernel(ord), ord);
}
void vector_norm_kernel_stub(TensorIteratorBase& iter, const Scalar& ord, Dims, bool, Dtype) {
  lib.exec_reduce_kernel(iter, vector_norm_kernel(ord.to<double>()), ord.to<double>());
}

// A reduction with two outputs; undefined outputs are allocated.
std::tuple<Tensor, Tensor> reduce2(std::string_view name, std::string_view kernel, const Tensor& out0,
                                   const Tensor& out1, const Tensor& self, uint64_t mask, bool keepdim, double param) {
  TensorIterator iter;
  iter.set_name(name);
  INGOT_CHECK(self.defined(), ValueError, name, ": self must be a defined tensor");
  build_reduce_with_kernel(iter, kernel, {out0, out1}, self, mask, keepdim);
  lib.exec_reduce_kernel(iter, kernel, param);
  return {iter.output(0), iter.output(1)};
}

uint64_t one_dim(std::string_view name, const Tensor& self, int64_t dim) {
  INGOT_CHECK(self.defined(), ValueError, name, ": self must be a defined tensor");
  return reduction_dims_mask(name, self.dim(), IntArrayRef(&dim, 1));
}

// max(self), min(self): the extreme of every element; an empty tensor has none.
Tensor& full_extreme_out(std::string_view name, std::string_view kernel, Tensor& out, const Tensor& self) {
  INGOT_CHECK(self.defined(), ValueError, name, ": self must be a defined tensor");
  TensorIterator iter;
  iter.set_name(name);
  build_reduce_with_kernel(iter, kernel, {out}, self, reduction_dims_mask(name, self.dim(), std::nullopt), false);
  lib.exec_reduce_kernel(iter, kernel);
  if (!out.defined()) out = iter.output(0);
  return out;
}

}  // namespace

REGISTER_DISPATCH(sum_stub, &sum_kernel);
REGISTER_DISPATCH(prod_stub, &prod_kernel);
REGISTER_DISPATCH(mean_stub, &mean_kernel);
REGISTER_DISPATCH(nansum_stub, &nansum_kernel);
REGISTER_DISPATCH(nanmean_stub, &nanmean_kernel);
REGISTER_DISPATCH(amax_stub, &amax_kernel);
REGISTER_DISPATCH(amin_stub, &amin_kernel);
REGISTER_DISPATCH(any_stub, &any_kernel);
REGISTER_DISPATCH(all_stub, &all_kernel);
REGISTER_DISPATCH(logsumexp_stub, &logsumexp_kernel);
REGISTER_DISPATCH(argmax_stub, &argmax_kernel);
REGISTER_DISPATCH(argmin_stub, &argmin_kernel);
REGISTER_DISPATCH(count_nonzero_stub, &count_nonzero_kernel);
REGISTER_DISPATCH(var_stub, &var_kernel);
REGISTER_DISPATCH(std_stub, &std_kernel);
REGISTER_DISPATCH(norm_stub, &norm_kernel);
REGISTER_DISPATCH(vector_norm_stub, &vector_norm_kernel_stub);

Tensor max(const Tensor& self) {
  Tensor out;
  return full_extreme_out("max", "amax", out, self);
}
Tensor& max_unary_out(Tensor& out, const Tensor& self) { return full_extreme_out("max", "amax", out, self); }
Tensor min(const Tensor& self) {
  Tensor out;
  return full_extreme_out("min", "amin", out, self);
}
Tensor& min_unary_out(Tensor& out, const Tensor& self) { return full_extreme_out("min", "amin", out, self); }

std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return reduce2("max", "max_index", Tensor(), Tensor(), self, one_dim("max", self, dim), keepdim, 0.0);
}
std::tuple<Tensor&, Tensor&> max_dim_max(Tensor& values, Tensor& indices, const Tensor& self, int64_t dim,
                                          bool keepdim) {
  std::tie(values, indices) = reduce2("max", "max_index", values, indices, self, one_dim("max", self, dim), keepdim, 0.0);
  return {values, indices};
}
std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return reduce2("min", "min_index", Tensor(), Tensor(), self, one_dim("min", self, dim), keepdim, 0.0);
}
std::tuple<Tensor&, Tensor&> min_dim_min(Tensor& values, Tensor& indices, const Tensor& self, int64_t dim,
                                          bool keepdim) {
  std::tie(values, indices) = reduce2("min", "min_index", values, indices, self, one_dim("min", self, dim), keepdim, 0.0);
  return {values, indices};
}

std::tuple<Tensor, Tensor> var_mean(const Tensor& self, Dims dim, const std::optional<Scalar>& correction,
                                    bool keepdim) {
  INGOT_CHECK(self.defined(), ValueError, "var_mean: self must be a defined tensor");
  return reduce2("var_mean", "var_mean", Tensor(), Tensor(), self, reduction_dims_mask("var_mean", self.dim(), dim),
                 keepdim, correction_value(correction));
}
std::tuple<Tensor&, Tensor&> var_mean_correction_out(Tensor& out0, Tensor& out1, const Tensor& self, Dims dim,
                                                     const std::optional<Scalar>& correction, bool keepdim) {
  INGOT_CHECK(self.defined(), ValueError, "var_mean: self must be a defined tensor");
  std::tie(out0, out1) = reduce2("var_mean", "var_mean", out0, out1, self,
                                 reduction_dims_mask("var_mean", self.dim(), dim), keepdim, correction_value(correction));
  return {out0, out1};
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, Dims dim, const std::optional<Scalar>& correction,
                                    bool keepdim) {
  INGOT_CHECK(self.defined(), ValueError, "std_mean: self must be a defined tensor");
  return reduce2("std_mean", "std_mean", Tensor(), Tensor(), self, reduction_dims_mask("std_mean", self.dim(), dim),
                 keepdim, correction_value(correction));
}
std::tuple<Tensor&, Tensor&> std_mean_correction_out(Tensor& out0, Tensor& out1, const Tensor& self, Dims dim,
                                                     const std::optional<Scalar>& correction, bool keepdim) {
  INGOT_CHECK(self.defined(), ValueError, "std_mean: self must be a defined tensor");
  std::tie(out0, out1) = reduce2("std_mean", "std_mean", out0, out1, self,
                                 reduction_dims_mask("std_mean", self.dim(), dim), keepdim, correction_value(correction));
  return {out0, out1};
}

}  // namespace ingot::native
