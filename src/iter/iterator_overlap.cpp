// Memory-overlap checks: an elementwise kernel may write an element only after it read every input
// element at the same address, which holds for identical views and for disjoint memory only.
#include <cstdint>

#include "iter/memory_overlap.h"
#include "iter/tensor_iterator.h"

namespace ingot {

namespace {

struct ByteRange {
  uintptr_t begin, end;  // [begin, end)
};

ByteRange byte_range(const Tensor& t) {
  const auto itemsize = static_cast<int64_t>(t.itemsize());
  int64_t low = 0, high = 0;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t extent = (t.size(d) - 1) * t.stride(d) * itemsize;
    (extent < 0 ? low : high) += extent;
  }
  const auto base = reinterpret_cast<uintptr_t>(t.data_ptr());
  return {base + static_cast<uintptr_t>(low), base + static_cast<uintptr_t>(high + itemsize)};
}

}  // namespace

MemOverlap get_overlap(const Tensor& a, const Tensor& b) {
  if (a.numel() == 0 || b.numel() == 0 || a.device() != b.device()) return MemOverlap::None;
  if (a.data_ptr() == b.data_ptr() && a.itemsize() == b.itemsize() && a.sizes() == b.sizes() &&
      a.strides() == b.strides()) {
    return MemOverlap::Full;
  }
  const ByteRange ra = byte_range(a), rb = byte_range(b);
  return ra.end <= rb.begin || rb.end <= ra.begin ? MemOverlap::None : MemOverlap::Partial;
}

bool has_internal_overlap(const Tensor& t) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) > 1 && t.stride(d) == 0) return true;
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
