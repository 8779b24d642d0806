// CUDA devices: availability, count, cached properties, and the primary context that ingot runs
// every device's work in (one per device, retained once and kept for the life of the process).
#pragma once

#include <cuda.h>

#include "ingot/cuda.h"

namespace ingot::cuda {

// is_available(), device_count(), DeviceProperties and device_properties(index) are public
// (ingot/cuda.h): is_available() never throws and prints nothing; device_properties() caches, and
// throws IndexError naming the index and the count, or AcceleratorError without CUDA.

// Per-device state kept in fixed tables (the allocator's pools, the error buffers, the reduction
// counters) covers device indices below this.
inline constexpr int kMaxDevices = 128;

// Device `index`'s primary context, retained on first use. Throws like device_properties().
CUcontext context(int index);

// Makes device `index`'s primary context current on the calling thread (a no-op when it already
// is), so that later driver calls on this thread act on that device.
void set_current_device(int index);

// The device whose primary context is current on the calling thread, or -1 when none of them is.
int current_device();

}  // namespace ingot::cuda
