#include "native/meta_reduce.h"

#include <string>

#include "backend/reduce_registry.h"
#include "ingot/type_promotion.h"

namespace ingot::native {

namespace {

void check_self(const TensorIterator& iter, const Tensor& self) {
  INGOT_CHECK(self.defined(), ValueError, iter.name(), ": self must be a defined tensor");
}

Tensor converted(const Tensor& self, std::optional<ScalarType> dtype) {
  return dtype && *dtype != self.dtype() ? self.to(*dtype) : self;
}

}  // namespace

void build_reduce_with_kernel(TensorIterator& iter, std::string_view kernel, const std::vector<Tensor>& outs,
                              const Tensor& self, uint64_t dims_mask, bool keepdim,
                              std::optional<ScalarType> result) {
  const ReduceSignature* sig = reduce_registry().find(kernel, self.dtype());
  if (sig == nullptr) {
    std::string have;
    for (const ReduceSignature* s : reduce_registry().signatures(kernel)) {
      have += detail::concat(have.empty() ? "" : ", ", s->in);
    }
    throw TypeError(detail::concat(iter.name(), ": input dtype ", self.dtype(), " is not supported; ", iter.name(),
                                   " takes ", have.empty() ? "no dtype" : have,
                                   is_floating_type(self.dtype()) ? "" : " (pass dtype= or convert the input)"));
  }
  if (result && *result != sig->out) {
    INGOT_CHECK(can_cast(sig->out, *result), TypeError, iter.name(), ": dtype=", *result,
                " is not supported: ", iter.name(), " of ", self.dtype(), " gives ", sig->out,
                ", which does not cast to ", *result);
  }
  std::vector<ScalarType> dtypes = {result.value_or(sig->out)};
  if (sig->out2) dtypes.push_back(*sig->out2);
  iter.build_reduction(outs, dtypes, self, dims_mask, keepdim);
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
                     bool keepdim, std::optional<ScalarType> dtype) {
  check_self(iter, self);
  const Tensor input = converted(self, dtype);
  build_reduce_with_kernel(iter, iter.name(), {out}, input, reduction_dims_mask(iter.name(), input.dim(), dim),
                           keepdim, dtype);
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
                     bool keepdim) {
  build_reduce_op(iter, out, self, dim, keepdim, std::nullopt);
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<int64_t> dim,
                     bool keepdim) {
  check_self(iter, self);
  if (dim) {
    const int64_t d = *dim;
    build_reduce_with_kernel(iter, iter.name(), {out}, self,
                             reduction_dims_mask(iter.name(), self.dim(), IntArrayRef(&d, 1)), keepdim);
    return;
  }
  // The index into the flattened tensor; keepdim keeps every dim as 1.
  std::vector<int64_t> shape(static_cast<size_t>(std::max<int64_t>(self.dim(), 1)), 1);
  shape.back() = self.numel();
  if (!keepdim) shape = {self.numel()};
  const Tensor flat = self.dim() == 0 ? self : self.reshape(shape);
  const uint64_t mask = flat.dim() == 0 ? 0 : uint64_t{1} << (flat.dim() - 1);
  build_reduce_with_kernel(iter, iter.name(), {out}, flat, mask, keepdim);
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
                     const std::optional<Scalar>&, bool keepdim) {
  build_reduce_op(iter, out, self, dim, keepdim, std::nullopt);
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim) {
  build_reduce_op(iter, out, self, dim, false, std::nullopt);
}

std::string_view vector_norm_kernel(double ord) {
  if (ord == 2.0) return "vector_norm_l2";
  if (ord == 1.0) return "vector_norm_l1";
  if (ord == 0.0) return "vector_norm_l0";
  if (ord > 0.0 && ord - ord != 0.0) return "vector_norm_linf";
  if (ord < 0.0 && ord - ord != 0.0) return "vector_norm_lneginf";
  return "vector_norm_lp";
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, const std::optional<Scalar>& p,
                     std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  check_self(iter, self);
  const double ord = p ? p->to<double>() : 2.0;
  INGOT_CHECK(ord == ord, ValueError, iter.name(), ": the norm order must not be NaN");
  const Tensor input = converted(self, dtype);
  build_reduce_with_kernel(iter, vector_norm_kernel(ord), {out}, input,
                           reduction_dims_mask(iter.name(), input.dim(), dim), keepdim, dtype);
}

void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, const Scalar& ord,
                     std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  build_reduce_op(iter, out, self, std::optional<Scalar>(ord), dim, keepdim, dtype);
}

}  // namespace ingot::native
