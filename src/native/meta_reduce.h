// Meta step of the reductions (ops.yaml `iterator: reduce`): the generated structured ops call
// native::build_reduce_op(iter, out, <the op's other arguments>). Each overload turns the op's
// arguments into a reduction iterator (TensorIteratorBase::build_reduction); the output dtype is
// the one the op's registered kernel declares for self's dtype (sum of int32: int64), so a dtype
// with no kernel is a TypeError naming the op and the dtypes it takes. dtype= (sum, prod, mean,
// nansum, nanmean, norm, vector_norm) is the result's dtype, as in PyTorch: self is converted to
// it, the kernel runs in its own output dtype and the result is cast (sum(int32, dtype=int32) is
// int32, wrapping as PyTorch's does).
#pragma once

#include <optional>

#include "iter/tensor_iterator.h"

namespace ingot::native {

// sum, prod, mean, nansum, nanmean: dtype= converts self before reducing and is the result's dtype.
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
                     bool keepdim, std::optional<ScalarType> dtype);
// amax, amin, any, all, logsumexp.
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
                     bool keepdim);
// argmax, argmin: one dim, or none for the index into the flattened tensor.
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<int64_t> dim,
                     bool keepdim);
// var, std (the correction goes to the stub).
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
                     const std::optional<Scalar>& correction, bool keepdim);
// count_nonzero.
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim);
// norm (p), vector_norm (ord): dtype= converts self first and is the result's dtype.
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, const std::optional<Scalar>& p,
                     std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype);
void build_reduce_op(TensorIterator& iter, const Tensor& out, const Tensor& self, const Scalar& ord,
                     std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype);

// For composite reductions with two outputs (max.dim, var_mean): builds `iter` reducing `self`
// with kernel `kernel` into outs (undefined ones allocated in the kernel's dtypes, or the first in
// `result` when given: the kernel's output is then cast to it).
void build_reduce_with_kernel(TensorIterator& iter, std::string_view kernel, const std::vector<Tensor>& outs,
                              const Tensor& self, uint64_t dims_mask, bool keepdim,
                              std::optional<ScalarType> result = std::nullopt);

// The reduction kernel a vector norm of order `ord` runs ("vector_norm_l2", ...).
std::string_view vector_norm_kernel(double ord);

}  // namespace ingot::native
