// Views: new sizes/strides/offset over the same storage; none of these copy.
#include <algorithm>

#include "core/shape.h"
#include "ingot/tensor.h"

namespace ingot {

namespace {

Tensor make_view(const Tensor& base, DimVector sizes, DimVector strides,
                 int64_t offset) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.storage();
  impl->dtype = base.dtype();
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->storage_offset = offset;
  impl->refresh();
  return Tensor(std::move(impl));
}

// Wraps every dim in `dims` and rejects repeats; used by permute and flip.
DimVector wrap_unique_dims(std::string_view op, IntArrayRef dims, int64_t ndim) {
  DimVector out;
  std::vector<bool> seen(static_cast<size_t>(ndim), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(op, d, ndim);
    INGOT_CHECK(!seen[static_cast<size_t>(w)], ValueError, op, ": dim ", d,
                " appears more than once in ", dims);
    seen[static_cast<size_t>(w)] = true;
    out.push_back(w);
  }
  return out;
}

Tensor expand_impl(std::string_view op, const Tensor& self, IntArrayRef sizes) {
  const int64_t ndim = self.dim();
  const int64_t new_ndim = static_cast<int64_t>(sizes.size());
  INGOT_CHECK(new_ndim >= ndim, ValueError, op, ": the target shape ", sizes,
              " has fewer dims than the tensor's shape ", self.sizes());
  DimVector out_sizes(sizes.size());
  DimVector out_strides(sizes.size());
  for (int64_t i = new_ndim - 1; i >= 0; --i) {
    const int64_t src = i - (new_ndim - ndim);  // aligned from the right
    int64_t target = sizes[i];
    if (src < 0) {
      INGOT_CHECK(target >= 0, ValueError, op, ": size ", target,
                  " is invalid for new leading dim ", i, " of target shape ", sizes);
      out_sizes[i] = target;
      out_strides[i] = 0;
      continue;
    }
    const int64_t have = self.sizes()[src];
    if (target == -1) target = have;
    INGOT_CHECK(target >= 0, ValueError, op, ": invalid size ", target, " in target shape ", sizes);
    INGOT_CHECK(have == target || have == 1, ValueError, op, ": the size ", have, " of shape ",
                self.sizes(), " at dim ", src, " must match the target size ", target,
                " (or be 1) to expand to ", sizes);
    out_sizes[i] = target;
    out_strides[i] = have == target ? self.strides()[src] : 0;
  }
  checked_numel(op, out_sizes);
  return make_view(self, std::move(out_sizes), std::move(out_strides), self.storage_offset());
}

}  // namespace

Tensor Tensor::view(IntArrayRef sizes) const {
  DimVector shape = infer_size("view", sizes, numel());
  std::optional<DimVector> strides = view_strides(this->sizes(), this->strides(), shape);
  INGOT_CHECK(strides.has_value(), ValueError, "view: shape ", IntArrayRef(shape),
              " is not compatible with the input's sizes ", this->sizes(), " and strides ",
              this->strides(),
              " (at least one dim spans non-contiguous memory); use reshape instead");
  return make_view(*this, std::move(shape), std::move(*strides), storage_offset());
}

Tensor Tensor::as_strided(IntArrayRef sizes, IntArrayRef strides,
                          std::optional<int64_t> storage_offset) const {
  INGOT_CHECK(sizes.size() == strides.size(), ValueError, "as_strided: sizes ", sizes,
              " and strides ", strides, " differ in length");
  const int64_t offset = storage_offset.value_or(this->storage_offset());
  INGOT_CHECK(offset >= 0, ValueError, "as_strided: negative storage offset ", offset);
  const int64_t n = checked_numel("as_strided", sizes);
  if (n > 0) {
    const OffsetRange range = offset_range("as_strided", sizes, strides);
    const int64_t lo = checked_add("as_strided", sizes, offset, range.lo);
    const int64_t hi = checked_add("as_strided", sizes, offset, range.hi);
    const int64_t capacity = static_cast<int64_t>(storage().nbytes() / itemsize());
    INGOT_CHECK(lo >= 0 && hi < capacity, ValueError, "as_strided: sizes ", sizes, ", strides ",
                strides, " and offset ", offset, " reach elements [", lo, ", ", hi,
                "] outside the storage of ", capacity, " elements");
  }
  return make_view(*this, sizes.vec(), strides.vec(), offset);
}

Tensor Tensor::permute(IntArrayRef dims) const {
  INGOT_CHECK(static_cast<int64_t>(dims.size()) == dim(), ValueError, "permute: dims ", dims,
              " has ", dims.size(), " entries but the tensor has ", dim(), " dims");
  const DimVector order = wrap_unique_dims("permute", dims, dim());
  DimVector sizes, strides;
  for (int64_t d : order) {
    sizes.push_back(checked_impl().sizes[d]);
    strides.push_back(checked_impl().strides[d]);
  }
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  const int64_t a = wrap_dim("transpose", dim0, dim(), true);
  const int64_t b = wrap_dim("transpose", dim1, dim(), true);
  DimVector sizes = checked_impl().sizes, strides = checked_impl().strides;
  if (dim() > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::t() const {
  INGOT_CHECK(dim() <= 2, ValueError, "t: expects a tensor with <= 2 dims, got ", dim(),
              " dims (shape ", sizes(), "); use transpose or permute");
  return dim() < 2 ? transpose(0, 0) : transpose(0, 1);
}

Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  const int64_t d = wrap_dim("slice", dim, this->dim());
  INGOT_CHECK(step != 0, ValueError, "slice: step must be nonzero (dim ", dim, ")");
  const int64_t n = checked_impl().sizes[d];
  // Python's slice.indices: negative bounds count from the end, then clamp into range.
  auto adjust = [n](std::optional<int64_t> v, int64_t dflt, int64_t lo, int64_t hi) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::clamp(x, lo, hi);
  };
  int64_t first, len;
  if (step > 0) {
    first = adjust(start, 0, 0, n);
    const int64_t stop = adjust(end, n, 0, n);
    len = stop > first ? (stop - first + step - 1) / step : 0;
  } else {
    first = adjust(start, n - 1, -1, n - 1);
    const int64_t stop = adjust(end, -1, -1, n - 1);
    len = first > stop ? (first - stop - 1) / (-step) + 1 : 0;
  }
  DimVector sizes = checked_impl().sizes, strides = checked_impl().strides;
  const int64_t offset = storage_offset() + (len > 0 ? first * strides[d] : 0);
  sizes[d] = len;
  strides[d] = checked_mul("slice", this->sizes(), strides[d], step);
  return make_view(*this, std::move(sizes), std::move(strides), offset);
}

Tensor Tensor::select(int64_t dim, int64_t index) const {
  const int64_t d = wrap_dim("select", dim, this->dim());
  const int64_t n = checked_impl().sizes[d];
  INGOT_CHECK(index >= -n && index < n, IndexError, "select: index ", index,
              " is out of range for dim ", dim, " of size ", n);
  const int64_t i = index < 0 ? index + n : index;
  DimVector sizes = checked_impl().sizes, strides = checked_impl().strides;
  const int64_t offset = storage_offset() + i * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return make_view(*this, std::move(sizes), std::move(strides), offset);
}

Tensor Tensor::expand(IntArrayRef sizes) const { return expand_impl("expand", *this, sizes); }

Tensor Tensor::broadcast_to(IntArrayRef sizes) const {
  return expand_impl("broadcast_to", *this, sizes);
}

Tensor Tensor::squeeze() const {
  DimVector sizes, strides;
  for (int64_t i = 0; i < dim(); ++i) {
    if (checked_impl().sizes[i] == 1) continue;
    sizes.push_back(checked_impl().sizes[i]);
    strides.push_back(checked_impl().strides[i]);
  }
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::squeeze(int64_t dim) const {
  const int64_t d = wrap_dim("squeeze", dim, this->dim(), true);
  DimVector sizes = checked_impl().sizes, strides = checked_impl().strides;
  if (this->dim() > 0 && sizes[d] == 1) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  const int64_t d = wrap_dim("unsqueeze", dim, this->dim() + 1);
  DimVector sizes = checked_impl().sizes, strides = checked_impl().strides;
  const int64_t stride = d < this->dim() ? checked_mul("unsqueeze", this->sizes(), sizes[d], strides[d]) : 1;
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return make_view(*this, std::move(sizes), std::move(strides), storage_offset());
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  const int64_t a = wrap_dim("diagonal", dim1, dim());
  const int64_t b = wrap_dim("diagonal", dim2, dim());
  INGOT_CHECK(a != b, ValueError, "diagonal: dim1 (", dim1, ") and dim2 (", dim2,
              ") must name different dims");
  const int64_t na = checked_impl().sizes[a], nb = checked_impl().sizes[b];
  const int64_t len =
      std::max<int64_t>(offset >= 0 ? std::min(na, nb - offset) : std::min(na + offset, nb), 0);
  int64_t start = storage_offset();
  if (len > 0) start += offset >= 0 ? offset * checked_impl().strides[b] : -offset * checked_impl().strides[a];
  DimVector sizes, strides;
  for (int64_t i = 0; i < dim(); ++i) {
    if (i == a || i == b) continue;
    sizes.push_back(checked_impl().sizes[i]);
    strides.push_back(checked_impl().strides[i]);
  }
  sizes.push_back(len);
  strides.push_back(checked_add("diagonal", this->sizes(), checked_impl().strides[a], checked_impl().strides[b]));
  return make_view(*this, std::move(sizes), std::move(strides), start);
}

Tensor Tensor::flip(IntArrayRef dims) const {
  DimVector strides = checked_impl().strides;
  int64_t offset = storage_offset();
  for (int64_t d : wrap_unique_dims("flip", dims, dim())) {
    // An empty tensor has no last element to start from; its offset is irrelevant.
    if (numel() > 0) offset += (checked_impl().sizes[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  return make_view(*this, checked_impl().sizes, std::move(strides), offset);
}

Tensor Tensor::reshape(IntArrayRef sizes) const {
  DimVector shape = infer_size("reshape", sizes, numel());
  if (std::optional<DimVector> strides =
          view_strides(this->sizes(), this->strides(), shape)) {
    return make_view(*this, std::move(shape), std::move(*strides), storage_offset());
  }
  return contiguous().view(shape);
}

Tensor Tensor::flatten() const { return reshape({-1}); }

}  // namespace ingot
