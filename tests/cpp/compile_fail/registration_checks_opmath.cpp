// Compiled by ctest, not linked: the registration's static_assert must check the functor call the
// kernels make (float for float16), so this file must fail to compile with its message. With
// -DINGOT_COMPILE_CONTROL the functor is correct and the file must compile (the control proves the
// failure comes from the static_assert, not from a broken include).
#include "kernels/registration.h"

namespace ingot {

struct storage_typed_functor {
  INGOT_INLINE Half operator()(Half a, Half) const { return a; }
#ifdef INGOT_COMPILE_CONTROL
  INGOT_INLINE float operator()(float a, float) const { return a; }
#else
  INGOT_INLINE double operator()(float a, float) const { return a; }  // what float16 kernels call
#endif
};

INGOT_BINARY_(storage_typed, ::ingot::Half, float16, float32)

}  // namespace ingot
