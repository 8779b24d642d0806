#include "ingot/tensor.h"

#include <algorithm>
#include <numeric>

#include "core/element.h"
#include "core/shape.h"
#include "ingot/factories.h"

namespace ingot {

void TensorImpl::refresh() {
  numel = checked_numel("tensor", sizes);
  // Size-1 dims never move, so their strides do not matter; an empty tensor is contiguous.
  is_contiguous = true;
  if (numel == 0) return;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) {
      is_contiguous = false;
      return;
    }
    expected *= sizes[i];
  }
}

Tensor Tensor::make(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
                    int64_t storage_offset) {
  INGOT_CHECK(sizes.size() == strides.size(), ValueError, "Tensor::make: sizes ", sizes,
              " and strides ", strides, " differ in length");
  for (int64_t s : sizes) {
    INGOT_CHECK(s >= 0, ValueError, "Tensor::make: negative size ", s, " in ", sizes);
  }
  INGOT_CHECK(storage_offset >= 0, ValueError, "Tensor::make: negative storage offset ",
              storage_offset);
  // Every element's byte offset must be computable: kernels add stride * index in bytes.
  const OffsetRange range = offset_range("Tensor::make", sizes, strides);
  const auto itemsize = static_cast<int64_t>(element_size(dtype));
  checked_mul("Tensor::make", sizes, checked_add("Tensor::make", sizes, storage_offset, range.hi), itemsize);
  checked_mul("Tensor::make", sizes, range.lo, itemsize);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->dtype = dtype;
  impl->sizes = sizes;
  impl->strides = strides;
  impl->storage_offset = storage_offset;
  impl->refresh();
  return Tensor(std::move(impl));
}

size_t Tensor::nbytes() const {
  return static_cast<size_t>(checked_mul("nbytes", sizes(), numel(), static_cast<int64_t>(itemsize())));
}

int64_t Tensor::size(int64_t dim) const { return checked_impl().sizes[wrap_dim("size", dim, this->dim())]; }

int64_t Tensor::stride(int64_t dim) const {
  return checked_impl().strides[wrap_dim("stride", dim, this->dim())];
}

bool Tensor::is_non_overlapping_and_dense() const {
  if (numel() == 0) return true;
  // Visit dims from the smallest stride up; each must step exactly over the dims before it.
  std::vector<size_t> order(static_cast<size_t>(dim()));
  std::iota(order.begin(), order.end(), size_t{0});
  const auto& sz = checked_impl().sizes;
  const auto& st = checked_impl().strides;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (sz[a] < 2 || sz[b] < 2) return sz[a] >= 2 && sz[b] < 2;  // size-0/1 dims last
    return st[a] < st[b];
  });
  int64_t expected = 1;
  for (size_t d : order) {
    if (sz[d] == 1) continue;
    if (st[d] != expected) return false;
    expected *= sz[d];
  }
  return true;
}

Scalar Tensor::item() const {
  INGOT_CHECK(numel() == 1, ValueError, "item: a tensor with ", numel(), " elements (shape ",
              sizes(), ") cannot be converted to a scalar; only one-element tensors can");
  if (device().is_cpu()) return read_element(dtype(), data_ptr());
  Tensor host = empty({}, dtype());
  host.copy_(view({}));  // device -> host copy through the backend
  return read_element(dtype(), host.data_ptr());
}

Tensor scalar_to_tensor(const Scalar& s, Device device) {
  Tensor t = empty({}, s.dtype());
  write_element(t.dtype(), t.data_ptr(), s);
  if (!device.is_cpu()) {
    Tensor on_device = empty({}, TensorOptions(s.dtype()).device(device));
    on_device.copy_(t);
    t = on_device;
  }
  t.impl()->is_wrapped_number = true;
  return t;
}

}  // namespace ingot
