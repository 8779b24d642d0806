// Softmax-like dim ops: F(x, max, sum) per element, where the kernel supplies the row's maximum
// and sum of exp(x - max) (kernels/dim.h). A row of -inf gives NaN (-inf - -inf), as PyTorch.
#pragma once

#include "kernels/dim.h"

namespace ingot {

struct softmax_functor {
  template <typename A>
  INGOT_INLINE A operator()(A x, A max, A sum) const {
    return precise::exp(x - max) / sum;
  }
  template <typename A>
  INGOT_INLINE A from_exp(A e, A sum) const {
    return e / sum;
  }
  template <typename A>
  INGOT_INLINE A from_exp_scaled(A e, A inv_sum) const {
    return e * inv_sum;
  }
};
REGISTER_SOFTMAX_OP(softmax);

struct log_softmax_functor {
  template <typename A>
  INGOT_INLINE A operator()(A x, A max, A sum) const {
    return from_log_sum(x, max, precise::log(sum));
  }
  template <typename A>
  INGOT_INLINE A from_log_sum(A x, A max, A log_sum) const {
    return (x - max) - log_sum;
  }
};
REGISTER_SOFTMAX_OP(log_softmax);

}  // namespace ingot
