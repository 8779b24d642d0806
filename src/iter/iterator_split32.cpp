// Sub-iterators: 32-bit indexing (DESIGN.md §5: the predicate, narrowing, the split), and the
// split of iterations with more dims than a kernel takes.
#include <cstdlib>

#include "iter/tensor_iterator.h"

namespace ingot {

namespace {

constexpr int64_t kMax32 = INT32_MAX;

// Largest byte offset from element 0 that `strides` reach over `shape`, in either direction.
int64_t max_byte_offset(IntArrayRef shape, IntArrayRef strides) {
  int64_t total = 0;
  for (size_t d = 0; d < shape.size(); ++d) total += (shape[d] - 1) * std::abs(strides[d]);
  return total;
}

// The dim whose byte extent is largest over all operands; the largest dim when all strides are 0.
int dim_to_split(const TensorIteratorBase& iter) {
  int best = 0;
  int64_t best_extent = -1;
  for (int d = 0; d < iter.ndim(); ++d) {
    int64_t extent = 0;
    for (int k = 0; k < iter.ntensors(); ++k) {
      extent = std::max(extent, (iter.shape()[d] - 1) * std::abs(iter.strides(k)[d]));
    }
    if (extent > best_extent || (extent == best_extent && iter.shape()[d] > iter.shape()[best])) {
      best = d;
      best_extent = extent;
    }
  }
  return best;
}

// The longest piece of dim `d` whose sub-iterator passes the predicate; 0 when even one index of
// `d` is too large (the rest of the dims must then be split too).
int64_t max_piece(const TensorIteratorBase& iter, int d) {
  const int64_t size = iter.shape()[d];
  const int64_t rest_numel = iter.numel() / size;
  int64_t piece = rest_numel > kMax32 ? 0 : kMax32 / rest_numel;
  for (int k = 0; k < iter.ntensors(); ++k) {
    const int64_t step = std::abs(iter.strides(k)[d]);
    if (step == 0) continue;
    const int64_t rest = max_byte_offset(iter.shape(), iter.strides(k)) - (size - 1) * step;
    piece = std::min(piece, rest > kMax32 ? 0 : (kMax32 - rest) / step + 1);
  }
  return piece;
}

void split_into(const TensorIteratorBase& iter, std::vector<TensorIteratorBase>& pieces) {
  if (iter.can_use_32bit_indexing()) {
    pieces.push_back(iter);
    return;
  }
  const int d = dim_to_split(iter);
  const int64_t size = iter.shape()[d];
  const int64_t piece = std::max<int64_t>(max_piece(iter, d), 1);
  for (int64_t start = 0; start < size; start += piece) {
    TensorIteratorBase sub = iter;
    sub.narrow(d, start, std::min(piece, size - start));
    split_into(sub, pieces);
  }
}

}  // namespace

bool TensorIteratorBase::can_use_32bit_indexing() const {
  const int64_t n = numel();
  if (n == 0) return true;
  if (n > kMax32) return false;
  for (const auto& op : operands_) {
    if (max_byte_offset(shape_, op.stride_bytes) > kMax32) return false;
  }
  return true;
}

std::vector<TensorIteratorBase> TensorIteratorBase::with_32bit_indexing() const {
  std::vector<TensorIteratorBase> pieces;
  split_into(*this, pieces);
  return pieces;
}

void TensorIteratorBase::narrow(int dim, int64_t start, int64_t size) {
  INGOT_CHECK(dim >= 0 && dim < ndim(), IndexError, name_, ": narrow dim ", dim,
              " out of range for an iterator with ", ndim(), " dims");
  INGOT_CHECK(start >= 0 && size >= 0 && start + size <= shape_[dim], IndexError, name_,
              ": narrow range [", start, ", ", start + size, ") out of bounds for dim ", dim,
              " of size ", shape_[dim]);
  for (auto& op : operands_) op.data += start * op.stride_bytes[dim];
  shape_[dim] = size;
}

bool TensorIteratorBase::is_aligned(int arg) const {
  const auto size = static_cast<int64_t>(element_size(operands_[arg].dtype));
  if (reinterpret_cast<uintptr_t>(operands_[arg].data) % static_cast<uintptr_t>(size) != 0) return false;
  for (int64_t s : operands_[arg].stride_bytes) {
    if (s % size != 0) return false;
  }
  return true;
}

void TensorIteratorBase::for_each_within_dims(int max_dims, FunctionRef<void(const TensorIteratorBase&)> f) const {
  if (ndim() <= max_dims) {
    f(*this);
    return;
  }
  if (numel() == 0) return;
  TensorIteratorBase sub = *this;
  sub.shape_.resize(static_cast<size_t>(max_dims));
  for (auto& op : sub.operands_) op.stride_bytes.resize(static_cast<size_t>(max_dims));
  std::vector<int64_t> index(static_cast<size_t>(ndim()), 0);  // over dims [max_dims, ndim)
  for (;;) {
    for (int k = 0; k < ntensors(); ++k) {
      char* p = operands_[k].data;
      for (int d = max_dims; d < ndim(); ++d) p += index[d] * operands_[k].stride_bytes[d];
      sub.operands_[k].data = p;
    }
    f(sub);
    int d = max_dims;
    for (; d < ndim() && ++index[d] == shape_[d]; ++d) index[d] = 0;
    if (d == ndim()) return;
  }
}

}  // namespace ingot
