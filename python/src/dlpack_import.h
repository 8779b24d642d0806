// The Python-free half of DLPack import: a producer's DLTensor -> an ingot Tensor. Kept apart from
// the capsule handling (dlpack.cpp) so the fuzz target (tests/fuzz/) can drive it without Python.
#pragma once

#include <functional>
#include <optional>

#include "dlpack.h"
#include "ingot/ingot.h"

namespace ingot::python::dlpack {

// The producer's memory or device cannot be taken as asked (Python's BufferError).
class BufferError : public Error {
  using Error::Error;
};

ScalarType from_dl_dtype(DLDataType d);
DLDataType to_dl_dtype(ScalarType t);

// A tensor over `dl`'s memory. `release` (the producer's deleter) runs exactly once if this
// returns, when the last view goes away or at once when the data was copied; never if it throws,
// so the caller can leave the capsule unconsumed. Memory not aligned to the element size (an
// unaligned NumPy array) is copied into aligned storage unless `copy` is false (BufferError).
// Malformed tensors (negative sizes, a null shape, sizes whose byte offsets overflow) raise.
Tensor from_dltensor(const DLTensor& dl, std::function<void()> release, std::optional<bool> copy);

}  // namespace ingot::python::dlpack
