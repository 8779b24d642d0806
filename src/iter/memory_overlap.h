// Memory-overlap tests used by the iterator's checks and by copy_.
#pragma once

#include "ingot/tensor.h"

namespace ingot {

enum class MemOverlap { None, Full, Partial };

// Full: the same elements in the same order (an in-place op is safe). Partial: the byte ranges
// intersect otherwise (conservative: interleaved views that share no element also count).
MemOverlap get_overlap(const Tensor& a, const Tensor& b);

// Some dim of size > 1 has stride 0, so several elements share one address (an expanded view).
bool has_internal_overlap(const Tensor& t);

}  // namespace ingot
