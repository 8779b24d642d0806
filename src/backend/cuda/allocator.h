// Device memory for CUDA tensors: stream-ordered allocations from each device's default memory
// pool, which keeps freed blocks for reuse instead of returning them to the driver. The
// statistics are declared in ingot/cuda.h.
#pragma once

#include "ingot/cuda.h"
