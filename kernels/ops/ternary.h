// Ternary functors.
#pragma once

#include "kernels/registration.h"

namespace ingot {

// where(condition, a, b): a where condition holds, else b.
struct where_functor {
  template <typename T>
  INGOT_INLINE T operator()(bool condition, T a, T b) const {
    return condition ? a : b;
  }
};
REGISTER_SELECT_OP(where);

}  // namespace ingot
