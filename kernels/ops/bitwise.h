// Bitwise functors: bool and integer dtypes only (the stubs reject floating inputs by name).
// Shifts never shift by a negative count or by >= the bit width, which is undefined in C++:
// such counts give what NumPy and PyTorch give (0, or the sign fill for a right shift).
#pragma once

#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

struct bitwise_and_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
REGISTER_INTEGER_BINARY_OP(bitwise_and);

struct bitwise_or_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};
REGISTER_INTEGER_BINARY_OP(bitwise_or);

struct bitwise_xor_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};
REGISTER_INTEGER_BINARY_OP(bitwise_xor);

// bool: logical not (~true would be -2, nonzero); integers: ones' complement.
struct bitwise_not_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a) const {
    if constexpr (is_same_v<T, bool>) {
      return !a;
    } else {
      return static_cast<T>(~a);
    }
  }
};
REGISTER_INTEGER_UNARY_OP(bitwise_not);

namespace bitwise_detail {
template <typename T>
INGOT_INLINE bool is_negative(T a) {
  if constexpr (is_signed_v<T>) {
    return a < 0;
  } else {
    return false;  // spelled out: `a < 0` on an unsigned type is a -Wtype-limits warning
  }
}

template <typename T>
INGOT_INLINE bool shift_out_of_range(T count) {
  return is_negative(count) || count >= static_cast<T>(sizeof(T) * 8);
}
}  // namespace bitwise_detail

// A count outside [0, width) shifts every bit out: 0. Shifting in the unsigned type wraps.
struct bitwise_left_shift_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    if (bitwise_detail::shift_out_of_range(b)) return T(0);
    return static_cast<T>(static_cast<wrap_unsigned_t<T>>(a) << b);
  }
};
REGISTER_INTEGER_BINARY_OP_NO_BOOL(bitwise_left_shift);

// Arithmetic for signed types: a count outside [0, width) leaves the sign fill (0 or -1).
// A negative a shifts as ~(~a >> b) so that only non-negative values are ever shifted.
struct bitwise_right_shift_functor {
  template <typename T>
  INGOT_INLINE T operator()(T a, T b) const {
    const bool all_out = bitwise_detail::shift_out_of_range(b);
    if (bitwise_detail::is_negative(a)) return static_cast<T>(~(all_out ? T(0) : static_cast<T>(~a >> b)));
    return all_out ? T(0) : static_cast<T>(a >> b);
  }
};
REGISTER_INTEGER_BINARY_OP_NO_BOOL(bitwise_right_shift);

}  // namespace ingot
