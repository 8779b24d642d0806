// Index ops (kernels/index.h): the functor gets the output and input element addresses and the
// byte offset of the indexed element, already bounds-checked.
#pragma once

#include "kernels/index_registration.h"

namespace ingot {

// out = in[index] along the indexed dim: gather, index_select, take, take_along_dim, t[idx].
struct gather_functor {
  static constexpr bool kWritesThroughIndex = false;
  template <typename T>
  INGOT_INLINE void apply(char* out, const char* in, int64_t offset) const {
    *reinterpret_cast<T*>(out) = *reinterpret_cast<const T*>(in + offset);
  }
};
REGISTER_INDEX_MOVE_OP(gather);

// out[index] = in along the indexed dim: scatter, index_put, t[idx] = v. With duplicate indices
// one of the values wins (the last one on the CPU).
struct scatter_functor {
  static constexpr bool kWritesThroughIndex = true;
  template <typename T>
  INGOT_INLINE void apply(char* out, const char* in, int64_t offset) const {
    *reinterpret_cast<T*>(out + offset) = *reinterpret_cast<const T*>(in);
  }
};
REGISTER_INDEX_MOVE_OP(scatter);

// out[index] += in: scatter_add, index_put(accumulate=True). Duplicates all add.
struct scatter_add_functor {
  static constexpr bool kWritesThroughIndex = true;
  template <typename T>
  INGOT_INLINE void apply(char* out, const char* in, int64_t offset) const {
    accumulate(reinterpret_cast<T*>(out + offset), *reinterpret_cast<const T*>(in));
  }
};
REGISTER_INDEX_ACCUMULATE_OP(scatter_add);

}  // namespace ingot
