#include "backend/cuda/stream.h"

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/error_buffer.h"

namespace ingot::cuda {

void synchronize(int device) {
  set_current_device(device);
  INGOT_CU_CHECK(driver().cuStreamSynchronize(stream(device)));
  check_error_buffer(device);
}

void make_stream_wait(int device, std::uintptr_t consumer_stream) {
  const CUstream consumer = reinterpret_cast<CUstream>(consumer_stream);
  if (consumer == stream(device) || consumer == CU_STREAM_LEGACY) return;  // same stream: ordered
  set_current_device(device);
  CUevent event = nullptr;
  INGOT_CU_CHECK(driver().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  INGOT_CU_CHECK(driver().cuEventRecord(event, stream(device)));
  INGOT_CU_CHECK(driver().cuStreamWaitEvent(consumer, event, 0));
  INGOT_CU_CHECK(driver().cuEventDestroy(event));  // released once the wait completes
}

}  // namespace ingot::cuda
