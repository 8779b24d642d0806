// Tensor: a refcounted handle to (storage, dtype, sizes, element strides, storage offset).
// Strides are in elements and may be negative or zero; views share storage with their base.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ingot/array_ref.h"
#include "ingot/device.h"
#include "ingot/dtype.h"
#include "ingot/scalar.h"
#include "ingot/small_vector.h"
#include "ingot/storage.h"

namespace ingot {

// dtype + device for factories. Converts from either alone: zeros({2}, kInt32), zeros({2},
// Device(kCUDA)). The *_set_ flags record what the caller gave, so full/arange can infer a dtype
// and *_like can keep the source tensor's dtype or device when only the other one is given.
struct TensorOptions {
  ScalarType dtype_ = kFloat32;
  Device device_ = Device();
  bool dtype_set_ = false;
  bool device_set_ = false;

  TensorOptions() = default;
  TensorOptions(ScalarType d) : dtype_(d), dtype_set_(true) {}
  TensorOptions(Device d) : device_(d), device_set_(true) {}
  TensorOptions(DeviceType t) : device_(t), device_set_(true) {}
  TensorOptions dtype(ScalarType d) const {
    TensorOptions o = *this;
    o.dtype_ = d;
    o.dtype_set_ = true;
    return o;
  }
  TensorOptions device(Device d) const {
    TensorOptions o = *this;
    o.device_ = d;
    o.device_set_ = true;
    return o;
  }
};

// Sizes or strides of a tensor: inline up to six dims.
using DimVector = SmallVector<int64_t, 6>;

struct TensorImpl {
  // User-provided, so make_shared does not zero the whole object before constructing it (every
  // member has an initializer; the shape vectors' inline buffers need none).
  TensorImpl() noexcept {}

  Storage storage;
  DimVector sizes;
  DimVector strides;  // in elements
  int64_t storage_offset = 0;    // in elements
  ScalarType dtype = kFloat32;
  // True for tensors made from a Python/C++ number: ranked below dimensioned tensors in promotion.
  bool is_wrapped_number = false;
  int64_t numel = 1;
  bool is_contiguous = true;

  // Recomputes numel and is_contiguous after sizes/strides change.
  void refresh();
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  // A tensor over `storage` with the given geometry (no copy, no checks beyond dims matching).
  static Tensor make(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides,
                     int64_t storage_offset);

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* impl() const { return impl_.get(); }
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  // metadata
  IntArrayRef sizes() const { return checked_impl().sizes; }
  IntArrayRef strides() const { return checked_impl().strides; }
  IntArrayRef shape() const { return checked_impl().sizes; }
  int64_t size(int64_t dim) const;  // negative dims count from the end
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return static_cast<int64_t>(checked_impl().sizes.size()); }
  int64_t numel() const { return checked_impl().numel; }
  ScalarType dtype() const { return checked_impl().dtype; }
  Device device() const { return checked_impl().storage.device(); }
  int64_t storage_offset() const { return checked_impl().storage_offset; }
  size_t itemsize() const { return element_size(checked_impl().dtype); }
  // numel() * itemsize(); ValueError when that overflows (an expanded view of 2^62 elements).
  size_t nbytes() const;
  const Storage& storage() const { return checked_impl().storage; }
  bool is_contiguous() const { return checked_impl().is_contiguous; }
  // No overlap and no gaps, in some dim order (a permuted contiguous tensor).
  bool is_non_overlapping_and_dense() const;
  bool is_wrapped_number() const { return checked_impl().is_wrapped_number; }

  // Address of element 0 (storage data + offset).
  void* data_ptr() const {
    return static_cast<char*>(checked_impl().storage.data()) +
           checked_impl().storage_offset * static_cast<int64_t>(itemsize());
  }
  // Typed address of element 0; throws TypeError when T is not the tensor's dtype.
  template <typename T>
  T* data_ptr() const {
    INGOT_CHECK(dtype_v<T> == dtype(), TypeError, "data_ptr: tensor has dtype ", dtype(),
                ", asked for ", dtype_v<T>);
    return static_cast<T*>(data_ptr());
  }

  // views (share storage; never copy)
  Tensor view(IntArrayRef sizes) const;  // -1 infers one size; fails when strides do not allow it
  Tensor as_strided(IntArrayRef sizes, IntArrayRef strides,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;  // transpose of a <= 2-d tensor
  // NumPy slice semantics along one dim: clamped bounds, any nonzero step (negative reverses).
  Tensor slice(int64_t dim, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor expand(IntArrayRef sizes) const;  // -1 keeps a size
  Tensor broadcast_to(IntArrayRef sizes) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor flip(IntArrayRef dims) const;  // a view with negative strides

  // may copy
  Tensor reshape(IntArrayRef sizes) const;  // a view when strides allow, else a contiguous copy
  Tensor flatten() const;
  Tensor contiguous() const;
  Tensor clone() const;
  Tensor to(ScalarType dtype, bool copy = false) const;
  Tensor to(Device device, bool copy = false) const;  // contiguous on the new device

  // in place
  Tensor& copy_(const Tensor& src);  // broadcasts src and converts dtype
  Tensor& fill_(const Scalar& value);

  // One-element tensors only; throws ValueError otherwise.
  Scalar item() const;
  template <typename T>
  T item() const {
    return item().to<T>();
  }

  std::string str() const;

#include "ingot/generated/tensor_methods.inc"

 private:
  // Every metadata access goes through here: a default-constructed Tensor raises instead of
  // dereferencing null (one predictable branch).
  const TensorImpl& checked_impl() const {
    INGOT_CHECK(impl_ != nullptr, ValueError,
                "Tensor: this tensor is undefined (default-constructed); it has no data, shape or dtype");
    return *impl_;
  }

  std::shared_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

// A 0-dim tensor holding a number, flagged as a wrapped number for type promotion.
Tensor scalar_to_tensor(const Scalar& s, Device device = Device());

}  // namespace ingot
