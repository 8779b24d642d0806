// Device memory for CUDA tensors: stream-ordered allocations from each device's default memory
// pool, which keeps freed blocks for reuse; memory_stats() and friends are declared in ingot/cuda.h.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/stream.h"
#include "ingot/cuda.h"
#include "ingot/error.h"
#include "ingot/storage.h"

namespace ingot::cuda {

namespace {

// Blocks of at most kMaxCachedBytes are rounded up to a power of two and, when freed, kept on a
// host-side free list for the next allocation of their class: a small op then costs no driver
// call at all. Reuse is safe without events because all of a device's work is on one stream.
constexpr size_t kMinBlock = 512;
constexpr size_t kMaxCachedBytes = size_t{1} << 20;
constexpr int kNumClasses = 12;  // 512 B .. 1 MiB

int size_class(size_t n) {
  int c = 0;
  while ((kMinBlock << c) < n) ++c;
  return c;
}

struct DeviceMemory {
  std::atomic<int64_t> allocated{0}, peak{0}, live{0}, total{0};
  std::once_flag pool_configured;
  std::mutex mutex;  // guards free
  std::vector<void*> free[kNumClasses];
};
std::array<DeviceMemory, kMaxDevices>& devices_memory() {
  static auto* all = new std::array<DeviceMemory, kMaxDevices>();  // outlives tensors freed at exit
  return *all;
}

// Keeps freed memory in the pool (the default threshold of 0 hands it back at every sync).
void configure_pool(int device) {
  if (!device_properties(device).memory_pools_supported) return;
  CUmemoryPool pool = nullptr;
  CUdevice handle = 0;
  INGOT_CU_CHECK(driver().cuDeviceGet(&handle, device));
  INGOT_CU_CHECK(driver().cuDeviceGetDefaultMemPool(&pool, handle));
  cuuint64_t keep = UINT64_MAX;
  INGOT_CU_CHECK(driver().cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));
}

CUresult free_block(int device, void* ptr) {
  const CUdeviceptr p = reinterpret_cast<CUdeviceptr>(ptr);
  return device_properties(device).memory_pools_supported ? driver().cuMemFreeAsync(p, stream(device))
                                                          : driver().cuMemFree(p);
}

// The bytes a request really takes: its size class for small blocks, at least one byte (a 0-byte
// tensor still gets a unique address).
size_t block_bytes(size_t nbytes) {
  return nbytes <= kMaxCachedBytes ? kMinBlock << size_class(nbytes) : nbytes;
}

// Returns the cached blocks to the pool at exit, so that a leak checker sees them freed. Created on
// the first fresh allocation, after the driver loaded, it is destroyed before the driver's own exit
// handlers run.
struct ReleaseCachedBlocksAtExit {
  ~ReleaseCachedBlocksAtExit() {
    if (driver_or_null() == nullptr) return;
    for (int d = 0; d < kMaxDevices; ++d) {
      DeviceMemory& m = devices_memory()[static_cast<size_t>(d)];
      const std::lock_guard<std::mutex> lock(m.mutex);
      for (std::vector<void*>& list : m.free) {
        for (void* p : list) {
          try {
            set_current_device(d);
            (void)free_block(d, p);
          } catch (...) {  // the process is ending: nothing to report to
          }
        }
        list.clear();
      }
    }
  }
};

class CudaAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device device) override {
    const int d = device.index;
    DeviceMemory& m = devices_memory()[static_cast<size_t>(d)];
    const size_t n = block_bytes(nbytes);
    void* ptr = nullptr;
    if (n <= kMaxCachedBytes) {
      const std::lock_guard<std::mutex> lock(m.mutex);
      std::vector<void*>& list = m.free[size_class(n)];
      if (!list.empty()) {
        ptr = list.back();
        list.pop_back();
      }
    }
    if (ptr == nullptr) ptr = fresh_block(d, n, nbytes);
    const int64_t now = m.allocated.fetch_add(static_cast<int64_t>(n)) + static_cast<int64_t>(n);
    int64_t peak = m.peak.load();
    while (now > peak && !m.peak.compare_exchange_weak(peak, now)) {
    }
    m.live.fetch_add(1);
    m.total.fetch_add(1);
    return ptr;
  }

  void deallocate(void* ptr, size_t nbytes, Device device) override {
    const int d = device.index;
    DeviceMemory& m = devices_memory()[static_cast<size_t>(d)];
    const size_t n = block_bytes(nbytes);
    m.allocated.fetch_sub(static_cast<int64_t>(n));
    m.live.fetch_sub(1);
    if (n <= kMaxCachedBytes) {
      const std::lock_guard<std::mutex> lock(m.mutex);
      m.free[size_class(n)].push_back(ptr);
      return;
    }
    set_current_device(d);
    const CUresult r = free_block(d, ptr);
    // Freeing during process teardown, after the driver unloaded, is not an error worth raising.
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED) check_driver(r, "cuMemFreeAsync");
  }

 private:
  static void* fresh_block(int d, size_t n, size_t asked) {
    static ReleaseCachedBlocksAtExit release_at_exit;
    set_current_device(d);
    DeviceMemory& m = devices_memory()[static_cast<size_t>(d)];
    std::call_once(m.pool_configured, configure_pool, d);
    CUdeviceptr p = 0;
    CUresult r = device_properties(d).memory_pools_supported ? driver().cuMemAllocAsync(&p, n, stream(d))
                                                             : driver().cuMemAlloc(&p, n);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {  // give the cached blocks back and try once more
      empty_cache(d);
      r = device_properties(d).memory_pools_supported ? driver().cuMemAllocAsync(&p, n, stream(d))
                                                      : driver().cuMemAlloc(&p, n);
    }
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      throw OutOfMemoryError(detail::concat("cuda:", d, ": out of memory allocating ", asked, " bytes (",
                                            m.allocated.load(), " bytes held by tensors)"));
    }
    check_driver(r, "cuMemAllocAsync");
    return reinterpret_cast<void*>(p);
  }
};

CudaAllocator cuda_allocator;
[[maybe_unused]] const bool cuda_allocator_registered = (register_allocator(kCUDA, &cuda_allocator), true);

}  // namespace

MemoryStats memory_stats(int device) {
  device_properties(device);  // validates the index
  const DeviceMemory& c = devices_memory()[static_cast<size_t>(device)];
  MemoryStats s;
  s.allocated_bytes = c.allocated.load();
  s.peak_allocated_bytes = c.peak.load();
  s.allocations = c.live.load();
  s.total_allocations = c.total.load();
  if (device_properties(device).memory_pools_supported) {
    set_current_device(device);
    CUmemoryPool pool = nullptr;
    CUdevice handle = 0;
    INGOT_CU_CHECK(driver().cuDeviceGet(&handle, device));
    INGOT_CU_CHECK(driver().cuDeviceGetDefaultMemPool(&pool, handle));
    cuuint64_t reserved = 0;
    INGOT_CU_CHECK(
        driver().cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved));
    s.reserved_bytes = static_cast<int64_t>(reserved);
  } else {
    s.reserved_bytes = s.allocated_bytes;
  }
  return s;
}

void reset_peak_memory_stats(int device) {
  device_properties(device);
  DeviceMemory& c = devices_memory()[static_cast<size_t>(device)];
  c.peak.store(c.allocated.load());
}

void empty_cache(int device) {
  DeviceMemory& m = devices_memory()[static_cast<size_t>(device)];
  {
    const std::lock_guard<std::mutex> lock(m.mutex);
    set_current_device(device);
    for (std::vector<void*>& list : m.free) {
      for (void* p : list) check_driver(free_block(device, p), "cuMemFreeAsync");
      list.clear();
    }
  }
  if (!device_properties(device).memory_pools_supported) return;
  synchronize(device);
  CUmemoryPool pool = nullptr;
  CUdevice handle = 0;
  INGOT_CU_CHECK(driver().cuDeviceGet(&handle, device));
  INGOT_CU_CHECK(driver().cuDeviceGetDefaultMemPool(&pool, handle));
  INGOT_CU_CHECK(driver().cuMemPoolTrimTo(pool, 0));
}

}  // namespace ingot::cuda
