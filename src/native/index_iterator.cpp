#include "native/index_iterator.h"

#include <algorithm>
#include <limits>

#include "core/shape.h"
#include "ingot/factories.h"
#include "ingot/generated/functions.h"
#include "iter/tensor_iterator.h"
#include "native/kernel_library.h"

namespace ingot::native {

namespace {

std::vector<int64_t> broadcast_shape(std::string_view op, const std::vector<Tensor>& ts) {
  std::vector<int64_t> shape;
  for (const Tensor& t : ts) {
    const auto s = t.sizes();
    if (s.size() > shape.size()) shape.insert(shape.begin(), s.size() - shape.size(), 1);
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& have = shape[shape.size() - s.size() + i];
      const int64_t want = s[i];
      INGOT_CHECK(have == want || have == 1 || want == 1, IndexError, op,
                  ": shape mismatch: the index tensors cannot be broadcast together (", t.sizes(),
                  ")");
      if (have == 1) have = want;
    }
  }
  return shape;
}

// Bool masks become their nonzero() columns, one int64 index per mask dim.
std::vector<Tensor> expand_masks(std::string_view op, const Tensor& self,
                                 const std::vector<Tensor>& indices) {
  std::vector<Tensor> out;
  for (const Tensor& ix : indices) {
    INGOT_CHECK(ix.defined(), ValueError, op, ": an index tensor is undefined");
    if (ix.dtype() != kBool) {
      out.push_back(ix);
      continue;
    }
    INGOT_CHECK(ix.dim() > 0, NotImplementedError, op,
                ": 0-dimensional boolean indices are not supported");
    const int64_t first = static_cast<int64_t>(out.size());
    INGOT_CHECK(first + ix.dim() <= self.dim(), IndexError, op,
                ": too many indices for a tensor of dimension ", self.dim());
    for (int64_t d = 0; d < ix.dim(); ++d) {
      INGOT_CHECK(ix.size(d) == self.size(first + d), IndexError, op, ": the shape of the mask ",
                  ix.sizes(), " at index ", d, " does not match the shape of the indexed tensor ",
                  self.sizes(), " at index ", first + d);
    }
    check_index_tensor(op, self, ix, "mask");
    const Tensor nz = nonzero(ix);
    for (int64_t d = 0; d < ix.dim(); ++d) out.push_back(nz.select(1, d));
  }
  return out;
}

}  // namespace

void check_index_tensor(std::string_view op, const Tensor& self, const Tensor& index,
                        std::string_view name) {
  INGOT_CHECK(index.defined(), ValueError, op, ": ", name, " must be a defined tensor");
  INGOT_CHECK(index.dtype() == kInt64 || index.dtype() == kInt32 ||
                  (name == "mask" && index.dtype() == kBool),
              TypeError, op, ": ", name, " must be an int64 or int32 tensor, got ", index.dtype());
  INGOT_CHECK(index.device() == self.device(), ValueError, op, ": ", name, " is on ",
              index.device(), " but self is on ", self.device());
}

IndexParams indexed_dim(const Tensor& t, int64_t dim) {
  return IndexParams{t.size(dim), t.stride(dim) * static_cast<int64_t>(t.itemsize()), dim};
}

Tensor restride_indexed_dim(const Tensor& t, int64_t dim, IntArrayRef shape) {
  std::vector<int64_t> strides = t.strides().vec();
  strides[static_cast<size_t>(dim)] = 0;
  return t.as_strided(shape, strides, t.storage_offset());
}

void run_gather(std::string_view op, const Tensor& out, const Tensor& in, const Tensor& index,
                const IndexParams& p) {
  TensorIterator iter = TensorIteratorConfig()
                            .name(op)
                            .add_output(out)
                            .add_input(in)
                            .add_input(index)
                            .check_all_same_dtype(false)
                            .build();
  lib.exec_index_kernel(iter, "gather", p);
}

void run_scatter(std::string_view op, std::string_view kernel, const Tensor& out, const Tensor& src,
                 const Tensor& index, const IndexParams& p) {
  // out repeats along the indexed dim (stride 0) on purpose: no overlap check, no resizing.
  TensorIterator iter = TensorIteratorConfig()
                            .name(op)
                            .add_output(out)
                            .add_input(src)
                            .add_input(index)
                            .check_all_same_dtype(false)
                            .resize_outputs(false)
                            .check_mem_overlap(false)
                            .build();
  lib.exec_index_kernel(iter, kernel, p);
}

AdvancedIndex make_advanced_index(std::string_view op, const Tensor& self,
                                  const std::vector<Tensor>& raw) {
  const std::vector<Tensor> indices = expand_masks(op, self, raw);
  const int64_t k = static_cast<int64_t>(indices.size());
  INGOT_CHECK(k >= 1, ValueError, op, ": at least one index tensor is needed");
  INGOT_CHECK(k <= self.dim(), IndexError, op, ": too many indices for a tensor of dimension ",
              self.dim(), " (", k, " given)");
  for (const Tensor& ix : indices) check_index_tensor(op, self, ix);
  const std::vector<int64_t> bshape = broadcast_shape(op, indices);
  const auto item = static_cast<int64_t>(self.itemsize());
  if (k == 1) {  // one index: the kernel checks it against dim 0 itself (t[idx], the common case)
    AdvancedIndex r;
    r.shape = bshape;
    std::vector<int64_t> strides(bshape.size(), 0);
    for (int64_t d = 1; d < self.dim(); ++d) {
      r.shape.push_back(self.size(d));
      strides.push_back(self.stride(d));
    }
    INGOT_CHECK(self.size(0) > 0 || indices[0].numel() == 0, IndexError, op,
                ": index is out of bounds for dimension 0 with size 0");
    std::vector<int64_t> offset_shape = bshape;
    offset_shape.resize(r.shape.size(), 1);
    r.view = self.as_strided(r.shape, strides, self.storage_offset());
    r.offsets = indices[0].reshape(offset_shape).expand(r.shape);
    r.params = indexed_dim(self, 0);
    return r;
  }
  // Each index, wrapped and checked by the gather kernel reading arange(size): a bad index
  // raises (CPU) or is reported and left 0 (GPU), so every offset stays inside self.
  Tensor offsets;
  int64_t lowest = 0, highest = 0;  // byte offsets of the extreme indexed elements
  for (int64_t j = 0; j < k; ++j) {
    const int64_t size = self.size(j);
    const int64_t stride = self.stride(j) * item;
    INGOT_CHECK(size > 0 || indices[j].numel() == 0 ||
                    std::find(bshape.begin(), bshape.end(), 0) != bshape.end(),
                IndexError, op, ": index is out of bounds for dimension ", j, " with size 0");
    const Tensor positions =
        arange(std::max<int64_t>(size, 1), TensorOptions(kInt64).device(self.device()));
    Tensor checked = zeros(bshape, TensorOptions(kInt64).device(self.device()));
    if (checked.numel() > 0 && size > 0) {
      const Tensor in = positions.as_strided(bshape, std::vector<int64_t>(bshape.size(), 0), 0);
      run_gather(op, checked, in, indices[j].expand(bshape), IndexParams{size, 8, j});
    }
    const Tensor term = mul(checked, Scalar(stride));
    offsets = offsets.defined() ? add(offsets, term) : term;
    (stride < 0 ? lowest : highest) += (std::max<int64_t>(size, 1) - 1) * stride;
  }
  // Offsets from the lowest indexed element, so they are >= 0 and checked against the span.
  if (lowest != 0) offsets = sub(offsets, Scalar(lowest));
  AdvancedIndex r;
  r.shape = bshape;
  std::vector<int64_t> strides(bshape.size(), 0);
  for (int64_t d = k; d < self.dim(); ++d) {
    r.shape.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  std::vector<int64_t> offset_shape = bshape;
  offset_shape.resize(r.shape.size(), 1);
  r.view = self.as_strided(r.shape, strides, self.storage_offset() + lowest / item);
  r.offsets = offsets.reshape(offset_shape).expand(r.shape);
  r.params = IndexParams{highest - lowest + 1, 1, 0};
  return r;
}

}  // namespace ingot::native
