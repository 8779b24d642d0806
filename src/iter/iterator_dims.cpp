// Shape, strides and dim order of a TensorIterator: broadcasting, output allocation that follows
// the inputs' layout, reordering so dim 0 moves fastest, and coalescing.
#include <cstdlib>
#include <numeric>

#include "core/shape.h"
#include "iter/tensor_iterator.h"

namespace ingot {

namespace {

// NumPy broadcasting of `shape` with `sizes`, right-aligned, in place; false (shape untouched)
// when a pair of sizes clashes.
bool broadcast_into(DimVector& shape, IntArrayRef sizes) {
  const size_t n = std::max(shape.size(), sizes.size());
  for (size_t i = 0; i < std::min(shape.size(), sizes.size()); ++i) {
    const int64_t a = shape[shape.size() - 1 - i];
    const int64_t b = sizes[sizes.size() - 1 - i];
    if (a != b && a != 1 && b != 1) return false;
  }
  while (shape.size() < n) shape.insert(shape.begin(), 1);
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t& a = shape[n - 1 - i];
    if (a == 1) a = sizes[sizes.size() - 1 - i];
  }
  return true;
}

// Byte strides of `t` broadcast to `shape` (outermost dim first); 0 where t repeats.
DimVector broadcast_byte_strides(const Tensor& t, IntArrayRef shape) {
  const int64_t offset = static_cast<int64_t>(shape.size()) - t.dim();
  const auto itemsize = static_cast<int64_t>(t.itemsize());
  DimVector strides(shape.size(), 0);
  for (int64_t d = offset; d < static_cast<int64_t>(shape.size()); ++d) {
    if (t.size(d - offset) != 1) strides[d] = t.stride(d - offset) * itemsize;
  }
  return strides;
}

}  // namespace

void TensorIteratorBase::compute_shape(const TensorIteratorConfig& config) {
  DimVector shape;
  int contributors = 0;
  // Outputs that may be resized take no part, unless nothing else gives a shape (nullary ops).
  const bool outputs_set_shape = !config.resize_outputs_ || ninputs() == 0;
  bool broadcast = false;  // some operand's shape differs from the first one's
  for (int i = 0; i < ntensors(); ++i) {
    const Tensor& t = operands_[i].tensor;
    if (!t.defined() || (operands_[i].is_output && !outputs_set_shape)) continue;
    const IntArrayRef sizes = t.sizes();
    if (contributors == 0) {
      shape = sizes;
    } else if (sizes != IntArrayRef(shape)) {
      INGOT_CHECK(broadcast_into(shape, sizes), ValueError, name_, ": shapes ", IntArrayRef(shape), " and ",
                  sizes, " cannot be broadcast (", contributors > 1 ? "broadcast of the operands before " : "",
                  i < num_outputs_ ? "output " : "input ", i < num_outputs_ ? i : i - num_outputs_, ")");
      broadcast = true;
    }
    ++contributors;
  }
  // A tensor's own shape has a countable numel; only a broadcast of several can overflow.
  if (broadcast) check_broadcast_numel(shape);
  for (int i = 0; i < num_outputs_; ++i) {
    OperandInfo& op = operands_[i];
    if (!op.tensor.defined()) {
      op.will_resize = true;
      continue;
    }
    if (op.tensor.sizes() == IntArrayRef(shape)) continue;
    // Only an empty out= is resized; resizing a non-empty one would silently drop the caller's data.
    INGOT_CHECK(config.resize_outputs_ && op.tensor.numel() == 0, ValueError, name_,
                ": output ", i, " with shape ", op.tensor.sizes(),
                " doesn't match the broadcast shape ", IntArrayRef(shape));
    check_resizable(i, shape);
    op.will_resize = true;
  }
  shape_ = std::move(shape);
}

void TensorIteratorBase::check_broadcast_numel(IntArrayRef shape) const {
  int64_t n = 1;
  bool overflow = false, empty = false;
  for (int64_t s : shape) {
    overflow = overflow || __builtin_mul_overflow(n, s, &n);
    empty = empty || s == 0;
  }
  if (!overflow || empty) return;
  std::string shapes;
  for (int i = num_outputs_; i < ntensors(); ++i) {
    shapes += detail::concat(shapes.empty() ? "" : " and ", operands_[i].tensor.sizes());
  }
  throw ValueError(detail::concat(name_, ": the broadcast shape ", shape, " of the inputs' shapes ",
                                  shapes, " has more elements than int64 can count"));
}

// PyTorch's rules for resizing an empty output: never the input of an in-place op (its shape is
// the op's contract), and never a view (fresh storage would silently detach it from its base).
void TensorIteratorBase::check_resizable(int arg, IntArrayRef shape) const {
  const Tensor& out = operands_[arg].tensor;
  for (int i = num_outputs_; i < ntensors(); ++i) {
    INGOT_CHECK(!operands_[i].tensor.is_same(out), ValueError, name_, ": output ", arg,
                " with shape ", out.sizes(), " is also input ", i - num_outputs_,
                " (an in-place op), so it cannot be resized to the broadcast shape ", shape);
  }
  INGOT_CHECK(out.storage().use_count() <= 1, ValueError, name_, ": output ", arg, " with shape ",
              out.sizes(), " is a view sharing memory with another tensor; resizing it to the "
              "broadcast shape ", shape, " would detach it from its base");
}

bool TensorIteratorBase::fast_set_up() {
  for (const auto& op : operands_) {
    if (op.will_resize) {
      if (op.tensor.defined()) return false;  // an empty out= being resized
      continue;
    }
    const TensorImpl& t = *op.tensor.impl();
    if (!t.is_contiguous || t.numel == 0 || IntArrayRef(t.sizes) != IntArrayRef(shape_)) return false;
  }
  set_up_contiguous();
  return true;
}

void TensorIteratorBase::set_up_contiguous() {
  const int n = ndim();
  const int64_t count = numel();
  for (auto& op : operands_) {
    if (!op.will_resize) continue;
    const auto itemsize = static_cast<int64_t>(element_size(op.dtype));
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = Storage::allocate(static_cast<size_t>(checked_mul(name_, shape_, count, itemsize)), device_);
    impl->dtype = op.dtype;
    impl->sizes = shape_;
    impl->strides.resize(static_cast<size_t>(n));
    int64_t step = 1;
    for (int d = n - 1; d >= 0; --d) {
      impl->strides[d] = step;
      step *= shape_[d];
    }
    impl->numel = count;
    impl->is_contiguous = true;
    op.tensor = Tensor(std::move(impl));
  }
  // One iteration dim of `count` elements (none for 0-dim operands); a single element steps 0
  // bytes, as broadcast_byte_strides gives a size-1 dim.
  if (n > 0) {
    shape_.resize(1);
    shape_[0] = count;
  }
  for (auto& op : operands_) {
    op.stride_bytes.resize(n > 0 ? 1 : 0);
    if (n > 0) op.stride_bytes[0] = count == 1 ? 0 : static_cast<int64_t>(element_size(op.dtype));
    op.data = static_cast<char*>(op.tensor.data_ptr());
  }
}

void TensorIteratorBase::compute_strides_and_allocate() {
  const int n = ndim();
  for (auto& op : operands_) {
    if (!op.will_resize) op.stride_bytes = broadcast_byte_strides(op.tensor, shape_);
  }
  // perm[i] is the tensor dim that iteration dim i walks; start innermost-first, then let the
  // operands' strides (smallest first) decide, as PyTorch's reorder_dimensions does.
  SmallVector<int, 6> perm(static_cast<size_t>(n));
  std::iota(perm.rbegin(), perm.rend(), 0);
  auto should_swap = [&](int dim0, int dim1) {
    for (const auto& op : operands_) {
      if (op.will_resize) continue;
      const int64_t s0 = std::abs(op.stride_bytes[dim0]), s1 = std::abs(op.stride_bytes[dim1]);
      if (s0 == 0 || s1 == 0) continue;  // broadcast dims carry no preference
      if (s0 != s1) return s0 > s1 ? 1 : -1;
      if (shape_[dim0] > shape_[dim1]) return 1;
    }
    return 0;
  };
  for (int i = 1; i < n; ++i) {
    int dim1 = i;
    for (int dim0 = i - 1; dim0 >= 0; --dim0) {
      const int cmp = should_swap(perm[dim0], perm[dim1]);
      if (cmp > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  // New outputs are dense in the iteration order, so they inherit the inputs' layout.
  DimVector out_strides(static_cast<size_t>(n));
  int64_t step = 1;
  for (int i = 0; i < n; ++i) {
    out_strides[perm[i]] = step;
    step = checked_mul(name_, shape_, step, std::max<int64_t>(shape_[perm[i]], 1));
  }
  const bool empty = numel() == 0;
  for (auto& op : operands_) {
    if (!op.will_resize) continue;
    const int64_t nbytes =
        empty ? 0 : checked_mul(name_, shape_, step, static_cast<int64_t>(element_size(op.dtype)));
    Storage storage = Storage::allocate(static_cast<size_t>(nbytes), device_);
    if (!op.tensor.defined()) {
      op.tensor = Tensor::make(std::move(storage), op.dtype, shape_, out_strides, 0);
    } else {
      TensorImpl* impl = op.tensor.impl();
      impl->storage = std::move(storage);
      impl->sizes = shape_;
      impl->strides = out_strides;
      impl->storage_offset = 0;
      impl->refresh();
    }
    op.stride_bytes = broadcast_byte_strides(op.tensor, shape_);
  }
  // Apply the permutation in place through one scratch buffer (out_strides, no longer needed).
  DimVector& scratch = out_strides;
  const auto permute_in_place = [&](DimVector& v) {
    for (int i = 0; i < n; ++i) scratch[i] = v[perm[i]];
    std::copy(scratch.begin(), scratch.end(), v.begin());
  };
  permute_in_place(shape_);
  for (auto& op : operands_) {
    permute_in_place(op.stride_bytes);
    op.data = static_cast<char*>(op.tensor.data_ptr());
  }
}

// Merges iteration dims d-1 and d when every operand steps through them as through one dim.
void TensorIteratorBase::coalesce_dimensions() {
  if (ndim() <= 1) return;
  auto can_coalesce = [&](int dim0, int dim1) {
    if (shape_[dim0] == 1 || shape_[dim1] == 1) return true;
    for (const auto& op : operands_) {
      if (op.stride_bytes[dim0] * shape_[dim0] != op.stride_bytes[dim1]) return false;
    }
    return true;
  };
  auto take_stride = [&](int to, int from) {
    for (auto& op : operands_) op.stride_bytes[to] = op.stride_bytes[from];
  };
  int prev = 0;
  for (int dim = 1; dim < ndim(); ++dim) {
    if (can_coalesce(prev, dim)) {
      if (shape_[prev] == 1) take_stride(prev, dim);
      shape_[prev] *= shape_[dim];
    } else {
      ++prev;
      if (prev != dim) {
        take_stride(prev, dim);
        shape_[prev] = shape_[dim];
      }
    }
  }
  shape_.resize(prev + 1);
  for (auto& op : operands_) op.stride_bytes.resize(prev + 1);
}

}  // namespace ingot
