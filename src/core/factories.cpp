#include "ingot/factories.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/shape.h"

namespace ingot {

namespace {

size_t checked_nbytes(std::string_view op, int64_t numel, ScalarType dtype) {
  size_t nbytes = 0;
  INGOT_CHECK(!__builtin_mul_overflow(static_cast<size_t>(numel), element_size(dtype), &nbytes),
              ValueError, op, ": ", numel, " elements of ", dtype, " do not fit in memory");
  return nbytes;
}

// Elements a strided layout with non-negative strides must address: 1 + the largest offset (0
// when empty).
int64_t storage_extent(std::string_view op, IntArrayRef sizes, IntArrayRef strides) {
  if (checked_numel(op, sizes) == 0) return 0;
  return checked_add(op, sizes, offset_range(op, sizes, strides).hi, 1);
}

// Dense strides with the dims ordered as in `t` (largest |stride| outermost, ties in dim order).
std::vector<int64_t> strides_like(const Tensor& t) {
  if (t.is_contiguous()) return contiguous_strides(t.sizes());
  std::vector<size_t> order(static_cast<size_t>(t.dim()));
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::abs(t.strides()[a]) > std::abs(t.strides()[b]);
  });
  std::vector<int64_t> strides(order.size());
  int64_t acc = 1;
  for (size_t k = order.size(); k-- > 0;) {
    strides[order[k]] = acc;
    acc = checked_mul("empty_like", t.sizes(), acc, std::max<int64_t>(t.sizes()[order[k]], 1));
  }
  return strides;
}

TensorOptions options_like(const Tensor& t, const std::optional<TensorOptions>& options) {
  TensorOptions out = TensorOptions(t.dtype()).device(t.device());
  if (options && options->dtype_set_) out = out.dtype(options->dtype_);
  if (options && options->device_set_) out = out.device(options->device_);
  return out;
}

void zero_(Tensor& t) {
  if (t.device().is_cpu()) {
    // Fresh dense storage: one memset instead of a strided fill.
    if (t.storage().nbytes() > 0) std::memset(t.storage().data(), 0, t.storage().nbytes());
  } else {
    t.fill_(0);
  }
}

// full's dtype when none is given: bool, int64 or the default float32, by the value's kind.
TensorOptions with_inferred_dtype(TensorOptions options, const Scalar& value) {
  if (options.dtype_set_) return options;
  return options.dtype(value.is_bool() ? kBool : value.is_integral() ? kInt64 : kFloat32);
}

// empty() with errors naming the factory the caller used.
Tensor empty_for(std::string_view op, IntArrayRef sizes, TensorOptions options) {
  const int64_t n = checked_numel(op, sizes);
  Storage storage = Storage::allocate(checked_nbytes(op, n, options.dtype_), options.device_);
  return Tensor::make(std::move(storage), options.dtype_, sizes, contiguous_strides(sizes), 0);
}

}  // namespace

Tensor empty(IntArrayRef sizes, TensorOptions options) {
  return empty_for("empty", sizes, options);
}

Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  INGOT_CHECK(sizes.size() == strides.size(), ValueError, "empty_strided: sizes ", sizes,
              " and strides ", strides, " differ in length");
  for (int64_t s : strides) {
    INGOT_CHECK(s >= 0, ValueError, "empty_strided: negative stride ", s, " in ", strides,
                " (make a view with flip for reversed layouts)");
  }
  const int64_t extent = storage_extent("empty_strided", sizes, strides);
  Storage storage =
      Storage::allocate(checked_nbytes("empty_strided", extent, options.dtype_), options.device_);
  return Tensor::make(std::move(storage), options.dtype_, sizes, strides, 0);
}

Tensor zeros(IntArrayRef sizes, TensorOptions options) {
  Tensor t = empty_for("zeros", sizes, options);
  zero_(t);
  return t;
}

Tensor ones(IntArrayRef sizes, TensorOptions options) {
  Tensor t = empty_for("ones", sizes, options);
  t.fill_(1);
  return t;
}

Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options) {
  Tensor t = empty_for("full", sizes, with_inferred_dtype(options, value));
  t.fill_(value);
  return t;
}

Tensor eye(int64_t n, std::optional<int64_t> m, TensorOptions options) {
  const int64_t cols = m.value_or(n);
  INGOT_CHECK(n >= 0 && cols >= 0, ValueError, "eye: n and m must be non-negative, got n=", n,
              ", m=", cols);
  Tensor t = zeros({n, cols}, options);
  t.diagonal().fill_(1);
  return t;
}

Tensor empty_like(const Tensor& t, std::optional<TensorOptions> options) {
  return empty_strided(t.sizes(), strides_like(t), options_like(t, options));
}

Tensor zeros_like(const Tensor& t, std::optional<TensorOptions> options) {
  Tensor out = empty_like(t, options);
  zero_(out);
  return out;
}

Tensor ones_like(const Tensor& t, std::optional<TensorOptions> options) {
  return full_like(t, 1, options);
}

Tensor full_like(const Tensor& t, const Scalar& value, std::optional<TensorOptions> options) {
  Tensor out = empty_like(t, options);
  out.fill_(value);
  return out;
}

Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options,
                 std::function<void(void*)> deleter) {
  checked_numel("from_blob", sizes);
  return from_blob(data, sizes, contiguous_strides(sizes), options, std::move(deleter));
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options,
                 std::function<void(void*)> deleter) {
  INGOT_CHECK(sizes.size() == strides.size(), ValueError, "from_blob: sizes ", sizes,
              " and strides ", strides, " differ in length");
  const int64_t n = checked_numel("from_blob", sizes);
  INGOT_CHECK(data != nullptr || n == 0, ValueError, "from_blob: null data for shape ", sizes);
  // Kernels load elements through typed pointers; NumPy-style unaligned memory must be copied.
  INGOT_CHECK(reinterpret_cast<uintptr_t>(data) % element_size(options.dtype_) == 0, ValueError,
              "from_blob: data at address ", data, " is not aligned to the ",
              element_size(options.dtype_), "-byte elements of ", options.dtype_);
  // Negative strides reach below `data`: the storage starts at the lowest element addressed.
  const auto [lo, hi] = offset_range("from_blob", sizes, strides);
  const auto itemsize = static_cast<int64_t>(element_size(options.dtype_));
  const int64_t extent = checked_add("from_blob", sizes, checked_add("from_blob", sizes, hi, -lo), 1);
  // Address arithmetic in integers: the elements must lie inside the address space (found by fuzzing).
  const auto address = reinterpret_cast<uintptr_t>(data);
  const auto below = uintptr_t{0} - static_cast<uintptr_t>(checked_mul("from_blob", sizes, lo, itemsize));
  const auto above = static_cast<uintptr_t>(checked_mul("from_blob", sizes, hi, itemsize));
  INGOT_CHECK(n == 0 || (below <= address && above <= UINTPTR_MAX - address), ValueError, "from_blob: shape ",
              sizes, " and strides ", strides, " reach outside the address space from ", data);
  char* base = reinterpret_cast<char*>(address - below);
  const size_t nbytes = n > 0 ? checked_nbytes("from_blob", extent, options.dtype_) : 0;
  // The deleter gets back the caller's pointer, not the storage base.
  std::function<void(void*)> storage_deleter;
  if (deleter) storage_deleter = [data, d = std::move(deleter)](void*) { d(data); };
  Storage storage = Storage::from_blob(base, nbytes, options.device_, std::move(storage_deleter));
  return Tensor::make(std::move(storage), options.dtype_, sizes, strides, -lo);
}

}  // namespace ingot
