// copy_ and fill_ (Tensor methods in src/core/copy.cpp, not ops.yaml ops): the identity on every
// dtype. A copy between dtypes runs the cast flavor (read in the source's dtype, computed in its
// compute type, stored in the destination's), so it converts exactly as every kernel does; fill_
// is a copy from a 0-d value, lifted into the scalar flavor.
#pragma once

#include "kernels/registration.h"

namespace ingot {

struct copy_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    return a;
  }
};
REGISTER_UNARY_OP(copy);

}  // namespace ingot
