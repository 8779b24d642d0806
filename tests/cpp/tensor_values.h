// Test helpers that read and write CPU tensors through sizes/strides/data_ptr only, so they do not
// depend on the library's own copy or print code.
#pragma once

#include <vector>

#include "ingot/factories.h"
#include "ingot/tensor.h"

namespace ingot::testing {

// Elements of `t` in row-major logical order.
template <typename T>
std::vector<T> values(const Tensor& t) {
  std::vector<T> out;
  const T* base = static_cast<const T*>(t.data_ptr());
  if (t.numel() == 0) return out;
  std::vector<int64_t> idx(static_cast<size_t>(t.dim()), 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    int64_t off = 0;
    for (int64_t d = 0; d < t.dim(); ++d) off += idx[d] * t.stride(d);
    out.push_back(base[off]);
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++idx[d] < t.size(d)) break;
      idx[d] = 0;
    }
  }
  return out;
}

// A contiguous float32 tensor holding 0, 1, 2, ... in row-major order.
inline Tensor iota_tensor(IntArrayRef sizes, ScalarType dtype = kFloat32) {
  Tensor t = empty(sizes, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<T>(static_cast<float>(i));
  });
  return t;
}

}  // namespace ingot::testing
