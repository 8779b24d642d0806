// Memory-overlap tests used by the iterator's checks and by copy_.
#pragma once

#include "ingot/tensor.h"

namespace ingot {

enum class MemOverlap { None, Full, Partial };

// Full: the same elements in the same order (an in-place op is safe). Partial: some element is
// shared otherwise. Exact for disjoint byte ranges, for views interleaved by their strides, and
// for operands up to 2^16 elements; larger ones whose ranges intersect count as Partial.
MemOverlap get_overlap(const Tensor& a, const Tensor& b);

// Some dim of size > 1 has stride 0, so several elements share one address (an expanded view).
bool has_internal_overlap(const Tensor& t);

}  // namespace ingot
