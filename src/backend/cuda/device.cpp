#include "backend/cuda/device.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "backend/cuda/driver.h"
#include "ingot/error.h"

namespace ingot::cuda {
namespace {

// What each device needs once: its handle, properties and retained primary context.
struct DeviceSlot {
  CUdevice handle = 0;
  std::once_flag properties_once;
  DeviceProperties properties;
  std::once_flag context_once;
  std::atomic<CUcontext> context{nullptr};  // read by current_device() without the once_flag
};

struct Devices {
  int count = 0;
  std::unique_ptr<DeviceSlot[]> slots;
};

const Devices& devices() {
  // Leaked on purpose: the primary contexts are never released (releasing them at exit races with
  // the driver's own teardown), so neither is the table that holds them.
  static const Devices* const all = [] {
    auto* d = new Devices;
    const DriverApi* api = driver_or_null();
    int count = 0;
    if (api != nullptr && driver_init_result() == CUDA_SUCCESS &&
        api->cuDeviceGetCount(&count) == CUDA_SUCCESS && count > 0) {
      d->slots = std::make_unique<DeviceSlot[]>(static_cast<std::size_t>(count));
      // A device whose handle cannot be had ends the usable range.
      while (d->count < count &&
             api->cuDeviceGet(&d->slots[d->count].handle, d->count) == CUDA_SUCCESS) {
        ++d->count;
      }
    }
    return d;
  }();
  return *all;
}

DeviceSlot& slot(int index, const char* what) {
  const Devices& d = devices();
  if (d.count == 0) {
    driver();                                         // throws when the library is missing
    check_driver(driver_init_result(), "cuInit(0)");  // throws when it did not initialise
  }
  INGOT_CHECK(index >= 0 && index < d.count, IndexError, what, ": CUDA device index ", index,
              " is out of range; there ", d.count == 1 ? "is " : "are ", d.count,
              d.count == 1 ? " device" : " devices");
  return d.slots[static_cast<std::size_t>(index)];
}

int attribute(CUdevice dev, CUdevice_attribute attr) {
  int value = 0;
  INGOT_CU_CHECK(driver().cuDeviceGetAttribute(&value, attr, dev));
  return value;
}

// For attributes a newer driver may have retired: 0 instead of an error.
int optional_attribute(CUdevice dev, CUdevice_attribute attr) {
  int value = 0;
  return driver().cuDeviceGetAttribute(&value, attr, dev) == CUDA_SUCCESS ? value : 0;
}

DeviceProperties query_properties(CUdevice dev) {
  const DriverApi& api = driver();
  DeviceProperties p;
  char name[256] = {};
  INGOT_CU_CHECK(api.cuDeviceGetName(name, sizeof(name) - 1, dev));
  p.name = name;
  INGOT_CU_CHECK(api.cuDeviceTotalMem(&p.total_memory, dev));
  p.major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  p.minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p.multiprocessor_count = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  p.max_threads_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  p.max_block_dim[0] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  p.max_block_dim[1] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  p.max_block_dim[2] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  p.max_grid_dim[0] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  p.max_grid_dim[1] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  p.max_grid_dim[2] = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  p.warp_size = attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p.max_shared_memory_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  p.max_shared_memory_per_block_optin =
      attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  p.max_shared_memory_per_multiprocessor =
      attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  p.l2_cache_size = attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  p.memory_clock_rate = optional_attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  p.memory_bus_width = optional_attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  p.memory_pools_supported =
      optional_attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
  return p;
}

}  // namespace

bool is_available() { return devices().count > 0; }

int device_count() { return devices().count; }

const DeviceProperties& device_properties(int index) {
  DeviceSlot& s = slot(index, "device_properties");
  std::call_once(s.properties_once, [&] { s.properties = query_properties(s.handle); });
  return s.properties;
}

CUcontext context(int index) {
  DeviceSlot& s = slot(index, "context");
  std::call_once(s.context_once, [&] {
    CUcontext ctx = nullptr;
    INGOT_CU_CHECK(driver().cuDevicePrimaryCtxRetain(&ctx, s.handle));
    s.context.store(ctx);
  });
  return s.context.load();
}

void set_current_device(int index) {
  CUcontext wanted = context(index);
  CUcontext current = nullptr;
  INGOT_CU_CHECK(driver().cuCtxGetCurrent(&current));
  if (current != wanted) INGOT_CU_CHECK(driver().cuCtxSetCurrent(wanted));
}

int current_device() {
  const Devices& d = devices();
  if (d.count == 0) return -1;
  CUcontext current = nullptr;
  INGOT_CU_CHECK(driver().cuCtxGetCurrent(&current));
  for (int i = 0; i < d.count; ++i) {
    if (current != nullptr && d.slots[static_cast<std::size_t>(i)].context.load() == current)
      return i;
  }
  return -1;
}

}  // namespace ingot::cuda
