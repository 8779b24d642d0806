// The CPU loop driver for index kernels (kernels/index.h): walks [begin, end) of an iteration of
// (out, in, index) row by row and applies the kernel to each element.
#pragma once

#include "backend/cpu/elementwise_loops.h"
#include "kernels/index.h"

namespace ingot::cpu {

template <typename K>
void index_loop(const ElementwiseArgs& a, int64_t begin, int64_t end, const IndexParams& params,
                ErrorBuffer* errors) {
  const int64_t s0 = a.strides[0][0], s1 = a.strides[1][0], s2 = a.strides[2][0];
  for_each_row<3>(a, begin, end, [&](char** p, int64_t n) {
    for (int64_t j = 0; j < n; ++j)
      K::apply(p[0] + j * s0, p[1] + j * s1, p[2] + j * s2, params, errors);
  });
}

}  // namespace ingot::cpu
