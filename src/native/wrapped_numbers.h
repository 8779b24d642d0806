// Part of every structured op's meta step (emitted by codegen after the iterator is built): a
// number given for a Tensor parameter must fit the integer dtype the op computes in.
#pragma once

#include "iter/tensor_iterator.h"

namespace ingot::native {

// OverflowError naming the op, the number and the dtype when an integer wrapped number (a Python
// int, a C++ Scalar) lies outside the range of an integer common dtype (int8_tensor + 1000,
// uint8_tensor << 300, uint8_tensor + -1), instead of wrapping it silently (NumPy 2 and PyTorch
// refuse too). Floating common dtypes take any number; bool does not occur (bool + int is int64).
void check_wrapped_numbers_fit(const TensorIteratorBase& iter);

}  // namespace ingot::native
