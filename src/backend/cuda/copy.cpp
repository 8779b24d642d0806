// Byte copies between host and device memory. Pageable host memory goes through two pinned
// staging buffers, so the host's memcpy of one chunk overlaps the DMA of the other.
#include <algorithm>
#include <cstring>
#include <mutex>

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/error_buffer.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/stream.h"

namespace ingot::cuda {

namespace {

constexpr size_t kStagingChunk = size_t{8} << 20;
// Below this the driver's own staging costs less than ours (one call, no events).
constexpr size_t kDirectCopyLimit = size_t{1} << 20;

class HostStaging {
 public:
  // Frees the pinned buffers at exit, unless the driver has already shut down.
  ~HostStaging() {
    const DriverApi* api = driver_or_null();
    if (api == nullptr || buffers_[0] == nullptr) return;
    for (int b = 0; b < 2; ++b) {
      api->cuEventDestroy(events_[b]);
      api->cuMemFreeHost(buffers_[b]);
    }
  }

  // Copies host -> device (to_device) or device -> host through the pinned buffers; returns when
  // the host side may be reused (uploads) or read (downloads).
  void copy(void* dst, const void* src, size_t nbytes, bool to_device, int device) {
    std::lock_guard<std::mutex> lock(mutex_);
    ensure_buffers();
    const CUstream s = stream(device);
    const DriverApi& api = driver();
    size_t done = 0;
    int k = 0;
    bool pending[2] = {false, false};
    size_t pending_offset[2] = {0, 0}, pending_bytes[2] = {0, 0};
    // Downloads finish a chunk's host memcpy after its DMA; uploads wait for a buffer's last DMA.
    const auto finish = [&](int b) {
      if (!pending[b]) return;
      INGOT_CU_CHECK(api.cuEventSynchronize(events_[b]));
      if (!to_device)
        std::memcpy(static_cast<char*>(dst) + pending_offset[b], buffers_[b], pending_bytes[b]);
      pending[b] = false;
    };
    while (done < nbytes) {
      const size_t n = std::min(kStagingChunk, nbytes - done);
      finish(k);
      if (to_device) {
        std::memcpy(buffers_[k], static_cast<const char*>(src) + done, n);
        INGOT_CU_CHECK(
            api.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst) + done, buffers_[k], n, s));
      } else {
        INGOT_CU_CHECK(
            api.cuMemcpyDtoHAsync(buffers_[k], reinterpret_cast<CUdeviceptr>(src) + done, n, s));
      }
      INGOT_CU_CHECK(api.cuEventRecord(events_[k], s));
      pending[k] = true;
      pending_offset[k] = done;
      pending_bytes[k] = n;
      done += n;
      k ^= 1;
    }
    finish(k);
    finish(k ^ 1);
  }

 private:
  void ensure_buffers() {
    if (buffers_[0] != nullptr) return;
    for (int b = 0; b < 2; ++b) {
      INGOT_CU_CHECK(
          driver().cuMemHostAlloc(&buffers_[b], kStagingChunk, CU_MEMHOSTALLOC_PORTABLE));
      INGOT_CU_CHECK(driver().cuEventCreate(&events_[b], CU_EVENT_DISABLE_TIMING));
    }
  }

  std::mutex mutex_;
  void* buffers_[2] = {nullptr, nullptr};
  CUevent events_[2] = {nullptr, nullptr};
};

HostStaging& host_staging() {
  static HostStaging staging;
  return staging;
}

}  // namespace

void CudaKernelLibrary::copy_bytes(void* dst, Device dst_device, const void* src, Device src_device,
                                   size_t nbytes) {
  if (nbytes == 0) return;
  const int device = dst_device.is_cuda() ? dst_device.index : src_device.index;
  set_current_device(device);
  const DriverApi& api = driver();
  const CUstream s = stream(device);
  if (dst_device.is_cuda() && src_device.is_cuda()) {
    INGOT_CU_CHECK(api.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                     reinterpret_cast<CUdeviceptr>(src), nbytes, s));
  } else if (nbytes <= kDirectCopyLimit) {
    if (dst_device.is_cuda()) {
      // Returns once the driver has staged the pageable source: the caller may reuse it.
      INGOT_CU_CHECK(api.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst), src, nbytes, s));
    } else {
      INGOT_CU_CHECK(api.cuMemcpyDtoHAsync(dst, reinterpret_cast<CUdeviceptr>(src), nbytes, s));
      INGOT_CU_CHECK(api.cuStreamSynchronize(s));
      check_error_buffer(device);  // the host waited anyway: kernel reports are visible now
    }
  } else {
    host_staging().copy(dst, src, nbytes, dst_device.is_cuda(), device);
    if (!dst_device.is_cuda()) check_error_buffer(device);
  }
}

}  // namespace ingot::cuda
