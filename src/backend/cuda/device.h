// CUDA devices: availability, count, cached properties, and the primary context that ingot runs
// every device's work in (one per device, retained once and kept for the life of the process).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>

namespace ingot::cuda {

// True when the driver loads, cuInit succeeds and there is at least one device. Never throws and
// prints nothing, so it is safe to ask on machines without a GPU.
bool is_available();

// The number of CUDA devices; 0 when CUDA is not available.
int device_count();

struct DeviceProperties {
  std::string name;
  int major = 0;  // compute capability
  int minor = 0;
  int multiprocessor_count = 0;
  std::size_t total_memory = 0;  // bytes
  int max_threads_per_block = 0;
  int max_block_dim[3] = {0, 0, 0};
  int max_grid_dim[3] = {0, 0, 0};
  int warp_size = 0;
  int max_shared_memory_per_block = 0;        // bytes, without opting in
  int max_shared_memory_per_block_optin = 0;  // bytes, with cuFuncSetAttribute
  int max_shared_memory_per_multiprocessor = 0;
  int l2_cache_size = 0;                // bytes
  int memory_clock_rate = 0;            // kHz; 0 where the driver no longer reports it
  int memory_bus_width = 0;             // bits; 0 where the driver no longer reports it
  bool memory_pools_supported = false;  // cuMemAllocAsync and the cuMemPool* calls
};

// The properties of device `index`, queried once and cached. Throws IndexError naming the index
// and the device count for a bad index, AcceleratorError when CUDA is not available.
const DeviceProperties& device_properties(int index);

// Device `index`'s primary context, retained on first use. Throws like device_properties().
CUcontext context(int index);

// Makes device `index`'s primary context current on the calling thread (a no-op when it already
// is), so that later driver calls on this thread act on that device.
void set_current_device(int index);

// The device whose primary context is current on the calling thread, or -1 when none of them is.
int current_device();

}  // namespace ingot::cuda
