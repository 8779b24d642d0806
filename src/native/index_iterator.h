// What every index op shares (kernels/index.h): the iterator over (out, in, index) views of one
// shape in which the operand addressed through the index has stride 0 along the indexed dim, the
// argument checks, and the conversion of several index tensors into one checked offset tensor.
// A new index op: a functor in kernels/ops/index.h (or an existing one), a declaration in
// ops/ops.yaml, and a native function here that makes the views and calls run_gather/run_scatter.
#pragma once

#include <string_view>
#include <vector>

#include "ingot/tensor.h"
#include "kernels/index.h"

namespace ingot::native {

// TypeError unless `index` is int32 or int64; ValueError unless it is on self's device.
void check_index_tensor(std::string_view op, const Tensor& self, const Tensor& index,
                        std::string_view name = "index");

// The dim `dim` of `t` as a kernel sees it: its size, its byte stride.
IndexParams indexed_dim(const Tensor& t, int64_t dim);

// A view of `t` with the sizes `shape` (same rank), its strides, and stride 0 along `dim`.
Tensor restride_indexed_dim(const Tensor& t, int64_t dim, IntArrayRef shape);

// out = in[index] (kernel "gather"): out, in and index have the iteration shape (out may be an
// empty tensor the iterator resizes). `in` has stride 0 along the indexed dim that p describes.
void run_gather(std::string_view op, const Tensor& out, const Tensor& in, const Tensor& index,
                const IndexParams& p);

// out[index] = src or += src (kernel "scatter" or "scatter_add"); out has stride 0 along p's dim.
void run_scatter(std::string_view op, std::string_view kernel, const Tensor& out, const Tensor& src,
                 const Tensor& index, const IndexParams& p);

// Advanced indexing of the leading dims of `self` by `indices` (int tensors, broadcast together;
// bool masks stand for their nonzero() columns): the view of self (stride 0 over the broadcast
// index dims, self's strides over the rest), the checked byte offsets of the indexed elements
// from that view's start (shape: the index dims then 1s), and the kernel parameters.
struct AdvancedIndex {
  Tensor view;
  Tensor offsets;
  IndexParams params;
  std::vector<int64_t> shape;  // the result shape: broadcast index shape + self's other dims
};
AdvancedIndex make_advanced_index(std::string_view op, const Tensor& self,
                                  const std::vector<Tensor>& indices);

}  // namespace ingot::native
