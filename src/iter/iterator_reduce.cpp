// Reduction mode of the TensorIterator (DESIGN.md §5): outputs are viewed with self's shape and a
// zero stride along each reduced dim, so the ordinary build (dim reordering by the input's
// strides, coalescing) applies; kernel libraries then tell reduced dims (every output stride 0)
// from output dims.
#include <algorithm>

#include "core/shape.h"
#include "iter/tensor_iterator.h"

namespace ingot {

uint64_t reduction_dims_mask(std::string_view op, int64_t ndim, std::optional<IntArrayRef> dims) {
  INGOT_CHECK(ndim <= 64, ValueError, op, ": reductions support at most 64 dims, got ", ndim);
  const uint64_t all = ndim == 64 ? ~uint64_t{0} : (uint64_t{1} << ndim) - 1;
  if (!dims || dims->empty()) return all;
  uint64_t mask = 0;
  const int64_t range = std::max<int64_t>(ndim, 1);  // a 0-d tensor takes dim 0 or -1, as PyTorch
  for (int64_t d : *dims) {
    INGOT_CHECK(d >= -range && d < range, IndexError, op, ": dim ", d, " is out of range for a tensor with ",
                ndim, " dims (expected a dim in [", -range, ", ", range - 1, "])");
    const int64_t w = d < 0 ? d + range : d;
    if (ndim == 0) continue;
    INGOT_CHECK(!(mask & (uint64_t{1} << w)), ValueError, op, ": dim ", w, " appears more than once in dim=",
                *dims);
    mask |= uint64_t{1} << w;
  }
  return mask;
}

int64_t TensorIteratorBase::reduction_size() const {
  const Tensor& self = operands_[num_outputs_].tensor;
  int64_t n = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (reduction_dims_mask_ & (uint64_t{1} << d)) n *= self.size(d);
  }
  return n;
}

void TensorIteratorBase::build_reduction(const std::vector<Tensor>& outs, const std::vector<ScalarType>& out_dtypes,
                                         const Tensor& self, uint64_t dims_mask, bool keepdim) {
  INGOT_CHECK(self.defined(), ValueError, name_, ": self must be a defined tensor");
  INGOT_CHECK(!outs.empty() && outs.size() <= 2 && outs.size() == out_dtypes.size(), ValueError, name_,
              ": a reduction has one or two outputs, each with a dtype");
  const int64_t ndim = self.dim();
  std::vector<int64_t> result_shape, keep_shape;
  for (int64_t d = 0; d < ndim; ++d) {
    const bool reduced = dims_mask & (uint64_t{1} << d);
    keep_shape.push_back(reduced ? 1 : self.size(d));
    if (!reduced || keepdim) result_shape.push_back(keep_shape.back());
  }
  TensorIteratorConfig config;
  config.name(name_).check_all_same_dtype(false).resize_outputs(false).check_mem_overlap(false);
  std::vector<Tensor> results;
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor out = outs[i];
    const char* which = i == 0 ? "out" : "second out";
    if (!out.defined()) {
      out = Tensor::make(Storage::allocate(static_cast<size_t>(checked_numel(name_, result_shape)) *
                                               element_size(out_dtypes[i]),
                                           self.device()),
                         out_dtypes[i], result_shape, contiguous_strides(result_shape), 0);
    } else {
      INGOT_CHECK(out.device() == self.device(), ValueError, name_, ": expected ", which, " on ", self.device(),
                  " (the device of self), got ", out.device());
      if (out.sizes() != IntArrayRef(result_shape)) {
        INGOT_CHECK(out.numel() == 0, ValueError, name_, ": ", which, " has shape ", out.sizes(),
                    " but the result has shape ", IntArrayRef(result_shape));
        INGOT_CHECK(out.storage().use_count() <= 1, ValueError, name_, ": ", which, " with shape ", out.sizes(),
                    " is a view sharing memory with another tensor; resizing it to ", IntArrayRef(result_shape),
                    " would detach it from its base");
        TensorImpl* impl = out.impl();
        impl->storage = Storage::allocate(
            static_cast<size_t>(checked_numel(name_, result_shape)) * out.itemsize(), self.device());
        impl->sizes = result_shape;
        impl->strides = contiguous_strides(result_shape);
        impl->storage_offset = 0;
        impl->refresh();
      }
      for (int64_t d = 0; d < out.dim(); ++d) {
        INGOT_CHECK(out.size(d) <= 1 || out.stride(d) != 0, ValueError, name_, ": ", which,
                    " has overlapping elements (stride 0 along dim ", d, "); pass a tensor without internal overlap");
      }
      INGOT_CHECK(out.numel() == 0 || self.numel() == 0 || out.storage().data() != self.storage().data(),
                  ValueError, name_, ": ", which, " shares memory with the input");
    }
    // The result viewed with self's shape: stride 0 along every reduced dim.
    std::vector<int64_t> view_strides(static_cast<size_t>(ndim), 0);
    for (int64_t d = 0, k = 0; d < ndim; ++d) {
      const bool reduced = dims_mask & (uint64_t{1} << d);
      if (!reduced || keepdim) {
        if (!reduced) view_strides[d] = out.stride(k);
        ++k;
      }
    }
    config.add_output(Tensor::make(out.storage(), out.dtype(), self.sizes(), view_strides, out.storage_offset()));
    results.push_back(out);
  }
  config.add_input(self);
  build(config);
  for (size_t i = 0; i < results.size(); ++i) operands_[i].tensor = results[i];
  is_reduction_ = true;
  reduction_dims_mask_ = dims_mask;
  reduction_keepdim_ = keepdim;
}

}  // namespace ingot
