// The CUDA runtime as users see it: availability, devices, synchronization and memory statistics.
// Without a GPU, a driver or a CUDA build, is_available() is false and device_count() 0; nothing
// here prints or throws for that. The driver and NVRTC are loaded at run time, so one build runs
// with or without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ingot::cuda {

bool is_available();
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

// IndexError for an index out of range; an error naming the cause when CUDA is not available.
const DeviceProperties& device_properties(int index);

// Waits until every kernel and copy ingot enqueued on `device` has finished.
void synchronize(int device = 0);

// Makes `consumer_stream` (a CUstream handle as an integer; DLPack's 1 = legacy default stream,
// 2 = per-thread default stream) wait for the work ingot enqueued so far on `device`, without
// blocking the host: an event recorded on ingot's stream, waited on by the consumer's.
void make_stream_wait(int device, std::uintptr_t consumer_stream);

struct MemoryStats {
  int64_t allocated_bytes = 0;       // held by live tensors (small blocks: their size class)
  int64_t peak_allocated_bytes = 0;  // since start or reset_peak_memory_stats()
  int64_t allocations = 0;           // live allocations
  int64_t total_allocations = 0;     // every allocation ever made
  int64_t reserved_bytes = 0;        // held by the device's pool (live + cached for reuse)
};

MemoryStats memory_stats(int device = 0);
void reset_peak_memory_stats(int device = 0);
// Returns cached, unused pool memory to the driver.
void empty_cache(int device = 0);

// Compiles every registered kernel module for compute capability major.minor into the kernel
// cache (memory, and disk unless disabled), `jobs` at a time; needs NVRTC, not a GPU. `only_op`
// (if not empty) limits it to one op. Compile errors are collected, not thrown.
struct PrecompileReport {
  int modules = 0;     // signatures visited
  int from_cache = 0;  // already in the cache
  double seconds = 0;
  std::vector<std::string> failures;  // "<kernel>: <first lines of the log>"
};
PrecompileReport precompile(int major, int minor, int jobs = 1, const std::string& only_op = "");

}  // namespace ingot::cuda
