// Streams and synchronization. Each device's work runs on its legacy default stream, the stream
// PyTorch and CuPy use by default, so DLPack exchanges need no extra ordering in the common case.
#pragma once

#include <cuda.h>

#include "ingot/cuda.h"

namespace ingot::cuda {

// The stream ingot enqueues work for `device` on.
inline CUstream stream(int /*device*/) { return nullptr; }
// synchronize(device) is declared in ingot/cuda.h.

}  // namespace ingot::cuda
