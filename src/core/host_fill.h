// Builds a tensor whose element i (row-major) is computed on the host, then moves it to the target
// device. Used by factories whose values are a formula of the index (arange, linspace, random).
#pragma once

#include <string_view>
#include <type_traits>

#include "core/shape.h"
#include "ingot/factories.h"
#include "kernels/cast.h"

namespace ingot {

// value(type_tag<T>, int64_t i) -> T for each element i.
template <typename F>
Tensor fill_on_host(IntArrayRef sizes, TensorOptions options, F&& value) {
  Tensor host = empty(sizes, options.dtype_);
  visit_dtype(options.dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = static_cast<T*>(host.data_ptr());
    for (int64_t i = 0; i < host.numel(); ++i) out[i] = value(tag, i);
  });
  if (options.device_.is_cpu()) return host;
  Tensor dev = empty(sizes, options);
  dev.copy_(host);
  return dev;
}

}  // namespace ingot
