// pow: floats through precise::pow in opmath_t; integers by exponentiation by squaring in the
// unsigned type, so results wrap modulo 2^bits like mul.
#pragma once

#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

struct pow_functor {
  INGOT_VEC_BINARY(pow)
  template <typename T>
  INGOT_INLINE T operator()(T base, T exp) const {
    if constexpr (is_same_v<T, bool>) {
      return base || !exp;
    } else if constexpr (is_floating_point_v<T>) {
      return static_cast<T>(precise::pow(base, exp));
    } else {
      if constexpr (is_signed_v<T>) {
        // 1 / base**|exp| truncated, as PyTorch: 1 for base 1, ±1 for base -1, else 0 (0 ** -1 too).
        if (exp < 0) return base == 1 ? T(1) : base == T(-1) ? static_cast<T>(exp % 2 == 0 ? 1 : -1) : T(0);
      }
      using U = wrap_unsigned_t<T>;
      U result = 1, square = static_cast<U>(base);
      for (U e = static_cast<U>(exp); e != 0; e >>= 1) {
        if (e & 1) result *= square;
        square *= square;
      }
      return static_cast<T>(result);
    }
  }
};
REGISTER_BINARY_OP(pow);

}  // namespace ingot
