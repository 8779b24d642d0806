// CPU copy and fill kernels (the CPU side of Tensor::copy_, fill_, contiguous, clone, to).
#pragma once

#include "ingot/scalar.h"
#include "iter/tensor_iterator.h"

namespace ingot {

// Writes input 0, converted to the output's dtype, into output 0.
void cpu_copy_kernel(const TensorIteratorBase& iter);
// Writes `value` (already checked to fit the output dtype) into every element of output 0.
void cpu_fill_kernel(const TensorIteratorBase& iter, const Scalar& value);

}  // namespace ingot
