#include "backend/cuda/allocator.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/stream.h"
#include "ingot/error.h"
#include "ingot/storage.h"

namespace ingot::cuda {

namespace {

constexpr int kMaxDevices = 128;

struct Counters {
  std::atomic<int64_t> allocated{0}, peak{0}, live{0}, total{0};
  std::once_flag pool_configured;
};
std::array<Counters, kMaxDevices>& counters() {
  static auto* all = new std::array<Counters, kMaxDevices>();  // outlives tensors freed at exit
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

class CudaAllocator final : public Allocator {
 public:
  void* allocate(size_t nbytes, Device device) override {
    const int d = device.index;
    set_current_device(d);
    Counters& c = counters()[static_cast<size_t>(d)];
    std::call_once(c.pool_configured, configure_pool, d);
    CUdeviceptr p = 0;
    const size_t n = std::max<size_t>(nbytes, 1);  // a 0-byte tensor still gets a unique address
    const CUresult r = device_properties(d).memory_pools_supported
                           ? driver().cuMemAllocAsync(&p, n, stream(d))
                           : driver().cuMemAlloc(&p, n);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      throw OutOfMemoryError(detail::concat("cuda:", d, ": out of memory allocating ", nbytes,
                                            " bytes (", c.allocated.load(),
                                            " bytes held by tensors)"));
    }
    check_driver(r, "cuMemAllocAsync");
    const int64_t now = c.allocated.fetch_add(static_cast<int64_t>(n)) + static_cast<int64_t>(n);
    int64_t peak = c.peak.load();
    while (now > peak && !c.peak.compare_exchange_weak(peak, now)) {
    }
    c.live.fetch_add(1);
    c.total.fetch_add(1);
    return reinterpret_cast<void*>(p);
  }

  void deallocate(void* ptr, Device device) override {
    const int d = device.index;
    size_t n = 0;
    // The size is asked of the driver instead of kept in a map: no lock, no per-tensor node.
    CUdeviceptr base = 0;
    const CUdeviceptr p = reinterpret_cast<CUdeviceptr>(ptr);
    if (driver().cuMemGetAddressRange(&base, &n, p) != CUDA_SUCCESS) n = 0;
    set_current_device(d);
    const CUresult r = device_properties(d).memory_pools_supported
                           ? driver().cuMemFreeAsync(p, stream(d))
                           : driver().cuMemFree(p);
    // Freeing during process teardown, after the driver unloaded, is not an error worth raising.
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_DEINITIALIZED) check_driver(r, "cuMemFreeAsync");
    Counters& c = counters()[static_cast<size_t>(d)];
    c.allocated.fetch_sub(static_cast<int64_t>(n));
    c.live.fetch_sub(1);
  }
};

CudaAllocator cuda_allocator;
[[maybe_unused]] const bool cuda_allocator_registered =
    (register_allocator(kCUDA, &cuda_allocator), true);

}  // namespace

MemoryStats memory_stats(int device) {
  device_properties(device);  // validates the index
  const Counters& c = counters()[static_cast<size_t>(device)];
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
  Counters& c = counters()[static_cast<size_t>(device)];
  c.peak.store(c.allocated.load());
}

void empty_cache(int device) {
  if (!device_properties(device).memory_pools_supported) return;
  synchronize(device);
  CUmemoryPool pool = nullptr;
  CUdevice handle = 0;
  INGOT_CU_CHECK(driver().cuDeviceGet(&handle, device));
  INGOT_CU_CHECK(driver().cuDeviceGetDefaultMemPool(&pool, handle));
  INGOT_CU_CHECK(driver().cuMemPoolTrimTo(pool, 0));
}

}  // namespace ingot::cuda
