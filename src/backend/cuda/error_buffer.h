// Each stream's ErrorBuffer (kernels/error_buffer.h, DESIGN.md §6). It lives in mapped pinned host
// memory: kernels write reports through its device address, and after a synchronization that
// happens anyway (synchronize(), a device-to-host copy) the host reads the count in place, with no
// copy and no synchronization of its own.
#pragma once

#include "kernels/error_buffer.h"

namespace ingot::cuda {

// The device address of the error buffer of the stream ingot uses on `device` (stream(device)),
// to pass as a kernel's `ingot::ErrorBuffer*` parameter. Allocated (zeroed) on first use and kept
// for the life of the process. Throws like device_properties() without CUDA.
ErrorBuffer* error_buffer(int device);

// Called right after the host synchronized with `device`'s stream: when a kernel reported an
// error, clears the buffer and throws AcceleratorError with the first report and how many there
// were. Costs one read of host memory; does nothing before error_buffer(device) was first used.
void check_error_buffer(int device);

}  // namespace ingot::cuda
