// Tensor::copy_, fill_, contiguous, clone and to(): all run through TensorIterator and the
// backend's kernel library (the `copy` kernel of kernels/ops/copy.h).
#include <cmath>
#include <limits>

#include "backend/kernel_library.h"
#include "core/element.h"
#include "ingot/factories.h"
#include "iter/memory_overlap.h"

namespace ingot {

namespace {

void run_copy(TensorIteratorBase& iter) {
  kernel_library(iter.device_type(), iter.name()).exec_unary_kernel(iter, "copy");
}

// A new tensor with `self`'s values as `dtype`, laid out in `self`'s dim order.
Tensor copy_to_new(const Tensor& self, ScalarType dtype, std::string_view name) {
  INGOT_CHECK(self.defined(), ValueError, name, ": called on an undefined tensor");
  auto iter = TensorIteratorConfig()
                  .name(name)
                  .add_output(Tensor())
                  .add_input(self)
                  .check_all_same_dtype(false)
                  .declare_static_output_dtype(dtype)
                  .build();
  run_copy(iter);
  return iter.output();
}

constexpr double max_finite(ScalarType t) {
  switch (t) {
    case kFloat16:
      return 65504.0;
    case kBFloat16:
      return 3.3895313892515355e38;
    case kFloat32:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

// PyTorch's fill_ rejects values the dtype cannot hold instead of wrapping them.
void check_fill_value(const Scalar& value, ScalarType dtype) {
  if (dtype == kBool || value.is_bool()) return;
  const bool fits = visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      if (value.is_integral()) {
        const auto v = value.to<int64_t>();
        return v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
               (v <= 0 || static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max()));
      }
      const double t = std::trunc(value.to<double>());
      const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);
      return std::isfinite(t) && t >= (std::is_signed_v<T> ? -limit : 0.0) && t < limit;
    } else {
      const double v = value.to<double>();
      return !std::isfinite(v) || std::fabs(v) <= max_finite(dtype);
    }
  });
  INGOT_CHECK(fits, ValueError, "fill_: value ", value, " cannot be converted to dtype ", dtype,
              " without overflow");
}

// Between devices: convert and lay out on the source's device, move one contiguous block of bytes
// through the non-CPU backend, then lay out on the destination's device.
void copy_across_devices(Tensor& self, const Tensor& src) {
  const Tensor packed = src.to(self.dtype()).broadcast_to(self.sizes()).contiguous();
  Tensor landing = self.is_contiguous() ? self : empty(self.sizes(), TensorOptions(self.dtype()).device(self.device()));
  const DeviceType backend = self.device().is_cpu() ? src.device().type : self.device().type;
  kernel_library(backend, "copy_").copy_bytes(landing.data_ptr(), landing.device(), packed.data_ptr(), packed.device(),
                                              landing.nbytes());
  if (!landing.is_same(self)) self.copy_(landing);
}

}  // namespace

Tensor& Tensor::copy_(const Tensor& src) {
  INGOT_CHECK(defined() && src.defined(), ValueError, "copy_: self and src must be defined tensors");
  if (device() != src.device() && !(src.dim() == 0 && src.device().is_cpu())) {
    copy_across_devices(*this, src);
    return *this;
  }
  const MemOverlap overlap = get_overlap(*this, src);
  if (overlap == MemOverlap::Full && dtype() == src.dtype()) return *this;
  // Reading all of src before writing any of self keeps overlapping copies exact.
  const Tensor source = overlap == MemOverlap::Partial ? src.clone() : src;
  auto iter = TensorIteratorConfig()
                  .name("copy_")
                  .add_output(*this)
                  .add_input(source)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .build();
  run_copy(iter);
  return *this;
}

Tensor& Tensor::fill_(const Scalar& value) {
  INGOT_CHECK(defined(), ValueError, "fill_: called on an undefined tensor");
  check_fill_value(value, dtype());
  // The value as a 0-d host tensor of self's dtype: the kernel library lifts it into a parameter.
  Tensor value_tensor = empty({}, dtype());
  write_element(dtype(), value_tensor.data_ptr(), value);
  auto iter = TensorIteratorConfig()
                  .name("fill_")
                  .add_output(*this)
                  .add_input(value_tensor)
                  .resize_outputs(false)
                  .build();
  run_copy(iter);
  return *this;
}

Tensor Tensor::contiguous() const {
  INGOT_CHECK(defined(), ValueError, "contiguous: called on an undefined tensor");
  if (is_contiguous()) return *this;
  Tensor out = empty(sizes(), TensorOptions(dtype()).device(device()));
  out.copy_(*this);
  return out;
}

Tensor Tensor::clone() const { return copy_to_new(*this, defined() ? dtype() : kFloat32, "clone"); }

Tensor Tensor::to(Device device, bool copy) const {
  INGOT_CHECK(defined(), ValueError, "to: called on an undefined tensor");
  if (device == this->device() && !copy) return *this;
  Tensor out = empty(sizes(), TensorOptions(dtype()).device(device));
  out.copy_(*this);
  return out;
}

Tensor Tensor::to(ScalarType dtype, bool copy) const {
  INGOT_CHECK(defined(), ValueError, "to: called on an undefined tensor");
  if (dtype == this->dtype() && !copy) return *this;
  return copy_to_new(*this, dtype, "to");
}

}  // namespace ingot
