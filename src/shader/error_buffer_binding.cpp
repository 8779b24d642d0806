// The seam between compile_shader and the device error buffer (kernels/error_buffer.h, DESIGN.md
// §6): the value bound to a kernel's ingot::ErrorBuffer* parameter, and the check after a CPU
// launch. A build without the error buffer refuses such launches with NotImplementedError.
#include "shader/shader_state.h"

#if __has_include("kernels/error_buffer.h") && __has_include("backend/error_report.h")
#define INGOT_SHADER_ERROR_BUFFER 1
#include "backend/error_report.h"
#include "kernels/error_buffer.h"
#if INGOT_HAS_CUDA
#include "backend/cuda/error_buffer.h"
#endif
#endif

namespace ingot::shader {

#if INGOT_SHADER_ERROR_BUFFER

void* error_buffer_argument(Device device) {
  if (device.type == kCUDA) {
#if INGOT_HAS_CUDA
    return cuda::error_buffer(device.index);  // read at the stream's next synchronization
#endif
  }
  // CPU: one buffer per calling thread, read right after its launch returns.
  static thread_local ErrorBuffer host;
  clear_error_buffer(host);
  return &host;
}

void check_error_buffer_after_cpu_launch(void* buffer) {
  if (std::optional<std::string> m = take_error_reports(*static_cast<ErrorBuffer*>(buffer))) {
    throw AcceleratorError(*m);
  }
}

#else

void* error_buffer_argument(Device device) {
  throw NotImplementedError(detail::concat(
      "compile_shader: binding an ingot::ErrorBuffer* parameter on ", device,
      " needs the device error buffer (kernels/error_buffer.h), which this build does not have"));
}

void check_error_buffer_after_cpu_launch(void* /*buffer*/) {}

#endif

}  // namespace ingot::shader
