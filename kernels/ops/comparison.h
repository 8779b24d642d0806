// Comparison functors: every dtype in, bool out. NaN compares unequal to everything.
#pragma once

#include "kernels/registration.h"

namespace ingot {

struct eq_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return a == b;
  }
};
REGISTER_COMPARISON_OP(eq);

}  // namespace ingot
