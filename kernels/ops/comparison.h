// Comparison functors: every dtype in, bool out. IEEE rules: NaN compares false except under ne,
// and 0.0 == -0.0.
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

struct ne_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return a != b;
  }
};
REGISTER_COMPARISON_OP(ne);

struct lt_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return a < b;
  }
};
REGISTER_COMPARISON_OP(lt);

struct le_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return a <= b;
  }
};
REGISTER_COMPARISON_OP(le);

struct gt_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return a > b;
  }
};
REGISTER_COMPARISON_OP(gt);

struct ge_functor {
  template <typename T>
  INGOT_INLINE bool operator()(T a, T b) const {
    return a >= b;
  }
};
REGISTER_COMPARISON_OP(ge);

}  // namespace ingot
