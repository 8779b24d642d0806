// Memory-overlap checks: an elementwise kernel may write an element only after it read every input
// element at the same address, which holds for identical views and for disjoint memory only.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "iter/memory_overlap.h"
#include "iter/tensor_iterator.h"

namespace ingot {

namespace {

struct ByteRange {
  uintptr_t begin, end;  // [begin, end)
};

ByteRange byte_range(const Tensor& t) {
  const auto itemsize = static_cast<int64_t>(t.itemsize());
  const auto base = reinterpret_cast<uintptr_t>(t.data_ptr());
  if (t.is_contiguous()) return {base, base + static_cast<uintptr_t>(t.numel() * itemsize)};
  const IntArrayRef sizes = t.sizes(), strides = t.strides();
  int64_t low = 0, high = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t extent = (sizes[d] - 1) * strides[d] * itemsize;
    (extent < 0 ? low : high) += extent;
  }
  return {base + static_cast<uintptr_t>(low), base + static_cast<uintptr_t>(high + itemsize)};
}

// Every element of a and b sits at base + a multiple of g, where g is the gcd of all byte
// strides: when the element bytes [base, base + itemsize) of the two never meet modulo g, no
// element is shared (interleaved views such as x[::2] and x[1::2]).
bool disjoint_modulo_strides(const Tensor& a, const Tensor& b) {
  uint64_t g = 0;
  for (const Tensor* t : {&a, &b}) {
    for (int64_t d = 0; d < t->dim(); ++d) {
      if (t->size(d) > 1) g = std::gcd(g, static_cast<uint64_t>(std::abs(t->stride(d))) * t->itemsize());
    }
  }
  if (g == 0 || a.itemsize() > g || b.itemsize() > g) return false;
  const uint64_t ra = reinterpret_cast<uintptr_t>(a.data_ptr()) % g;
  const uint64_t rb = reinterpret_cast<uintptr_t>(b.data_ptr()) % g;
  const uint64_t a_to_b = (rb + g - ra) % g;  // distance from a's residue forward to b's
  return a_to_b >= a.itemsize() && g - a_to_b >= b.itemsize();
}

// Sorted start addresses of every element of t.
std::vector<uintptr_t> element_addresses(const Tensor& t) {
  std::vector<uintptr_t> out;
  out.reserve(static_cast<size_t>(t.numel()));
  std::vector<int64_t> index(static_cast<size_t>(t.dim()), 0);
  const auto base = reinterpret_cast<intptr_t>(t.data_ptr());
  const auto itemsize = static_cast<intptr_t>(t.itemsize());
  for (int64_t n = 0; n < t.numel(); ++n) {
    intptr_t offset = 0;
    for (int64_t d = 0; d < t.dim(); ++d) offset += index[d] * t.stride(d) * itemsize;
    out.push_back(static_cast<uintptr_t>(base + offset));
    for (int64_t d = t.dim() - 1; d >= 0 && ++index[d] == t.size(d); --d) index[d] = 0;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether some element of a shares a byte with some element of b, by listing both; exact.
bool share_an_element(const Tensor& a, const Tensor& b) {
  const std::vector<uintptr_t> xs = element_addresses(a), ys = element_addresses(b);
  for (uintptr_t x : xs) {
    // The first element of b starting after x - b.itemsize() is the only candidate to overlap x.
    auto it = std::upper_bound(ys.begin(), ys.end(), x - b.itemsize());
    if (it != ys.end() && *it < x + a.itemsize()) return true;
  }
  return false;
}

// Above this many elements per operand the exact listing costs more than the op; stay
// conservative (Partial) instead.
constexpr int64_t kMaxListedElements = int64_t{1} << 16;

}  // namespace

MemOverlap get_overlap(const Tensor& a, const Tensor& b) {
  if (a.numel() == 0 || b.numel() == 0 || a.device() != b.device()) return MemOverlap::None;
  if (a.data_ptr() == b.data_ptr() && a.itemsize() == b.itemsize() && a.sizes() == b.sizes() &&
      a.strides() == b.strides()) {
    return MemOverlap::Full;
  }
  const ByteRange ra = byte_range(a), rb = byte_range(b);
  if (ra.end <= rb.begin || rb.end <= ra.begin) return MemOverlap::None;
  if (disjoint_modulo_strides(a, b)) return MemOverlap::None;
  if (a.numel() <= kMaxListedElements && b.numel() <= kMaxListedElements && !share_an_element(a, b)) {
    return MemOverlap::None;
  }
  return MemOverlap::Partial;
}

bool has_internal_overlap(const Tensor& t) {
  if (t.is_contiguous()) return false;
  const IntArrayRef sizes = t.sizes(), strides = t.strides();
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1 && strides[d] == 0) return true;
  }
  return false;
}

void TensorIteratorBase::check_mem_overlap() const {
  for (int o = 0; o < num_outputs_; ++o) {
    const Tensor& out = operands_[o].tensor;
    if (!out.defined() || operands_[o].will_resize || out.numel() == 0) continue;
    INGOT_CHECK(!has_internal_overlap(out), ValueError, name_, ": output ", o, " with shape ",
                out.sizes(), " and strides ", out.strides(),
                " has internal overlap (several elements share one memory location, as in an "
                "expanded view); clone it before writing");
    for (int i = num_outputs_; i < ntensors(); ++i) {
      INGOT_CHECK(get_overlap(operands_[i].tensor, out) != MemOverlap::Partial, ValueError, name_,
                  ": input ", i - num_outputs_, " partially overlaps output ", o,
                  " in memory (some elements would be written before they are read); clone the "
                  "input first");
    }
  }
}

}  // namespace ingot
