#include "backend/cuda/error_buffer.h"

#include <atomic>
#include <cstring>
#include <mutex>

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/error_report.h"
#include "ingot/error.h"

namespace ingot::cuda {

namespace {

struct MappedBuffer {
  std::once_flag once;
  std::atomic<ErrorBuffer*> host{nullptr};  // set once the buffer is ready
  ErrorBuffer* device = nullptr;            // the same memory, as the device addresses it
};

MappedBuffer& mapped_buffer(int device) {
  // Never freed: kernels may hold the address until the process ends.
  static MappedBuffer* const buffers = new MappedBuffer[kMaxDevices];
  INGOT_CHECK(device >= 0 && device < kMaxDevices, IndexError, "error_buffer: device ", device,
              " is out of range");
  return buffers[device];
}

}  // namespace

ErrorBuffer* error_buffer(int device) {
  MappedBuffer& b = mapped_buffer(device);
  std::call_once(b.once, [&] {
    set_current_device(device);
    void* host = nullptr;
    INGOT_CU_CHECK(driver().cuMemHostAlloc(&host, sizeof(ErrorBuffer),
                                           CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    std::memset(host, 0, sizeof(ErrorBuffer));
    CUdeviceptr dev = 0;
    INGOT_CU_CHECK(driver().cuMemHostGetDevicePointer(&dev, host, 0));
    b.device = reinterpret_cast<ErrorBuffer*>(dev);
    b.host.store(static_cast<ErrorBuffer*>(host), std::memory_order_release);
  });
  return b.device;
}

void check_error_buffer(int device) {
  ErrorBuffer* host = mapped_buffer(device).host.load(std::memory_order_acquire);
  if (host == nullptr) return;
  if (auto reports = take_error_reports(*host)) {
    throw AcceleratorError(
        detail::concat("cuda:", device, ": a kernel reported an error: ", *reports));
  }
}

}  // namespace ingot::cuda
