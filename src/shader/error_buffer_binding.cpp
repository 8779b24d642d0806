// The seam between compile_shader and the device error buffer (kernels/error_buffer.h, DESIGN.md
// §6). Until that header lands, a kernel that declares an ingot::ErrorBuffer* parameter compiles
// but cannot be launched; these two functions are the only place to switch over.
#include "shader/shader_state.h"

namespace ingot::shader {

void* error_buffer_argument(Device device) {
  throw NotImplementedError(detail::concat(
      "compile_shader: binding an ingot::ErrorBuffer* parameter on ", device,
      " needs the device error buffer (kernels/error_buffer.h), which this build does not have yet"));
}

void check_error_buffer_after_cpu_launch(void* /*buffer*/) {}

}  // namespace ingot::shader
