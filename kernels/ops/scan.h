// Scans along a dim (kernels/dim.h). Value scans combine an accumulator with the next element and
// must be associative (the CUDA kernels scan in blocks); index scans say when a later element
// replaces the best so far.
#pragma once

#include "kernels/dim.h"

namespace ingot {

struct cumsum_functor {
  template <typename A>
  INGOT_INLINE A operator()(A acc, A x) const {
    return accumulate_add(acc, x);
  }
};
REGISTER_SCAN_OP(cumsum);

struct cumprod_functor {
  template <typename A>
  INGOT_INLINE A operator()(A acc, A x) const {
    return accumulate_mul(acc, x);
  }
};
REGISTER_SCAN_OP(cumprod);

// PyTorch's rule: a NaN replaces anything (so the index is the latest NaN's), nothing replaces a
// NaN, and ties move to the later index (>=).
struct cummax_functor {
  template <typename A>
  INGOT_INLINE bool operator()(A best, A x) const {
    return is_nan(x) || (!is_nan(best) && x >= best);
  }
};
REGISTER_INDEX_SCAN_OP(cummax);

struct cummin_functor {
  template <typename A>
  INGOT_INLINE bool operator()(A best, A x) const {
    return is_nan(x) || (!is_nan(best) && x <= best);
  }
};
REGISTER_INDEX_SCAN_OP(cummin);

}  // namespace ingot
