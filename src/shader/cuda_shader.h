// The NVRTC request compile_shader makes for a source (CUDA builds only): the source as written,
// the embedded kernel headers, and one name expression per kernel wanted. Compiling it needs
// NVRTC alone, so tests check shaders under NVRTC without a GPU.
#pragma once

#include <string>
#include <vector>

#include "backend/cuda/nvrtc.h"
#include "ingot/shader.h"

namespace ingot::shader {

cuda::CompileRequest cuda_shader_request(const std::string& source, const ShaderOptions& options,
                                         const std::vector<std::string>& expressions, int major,
                                         int minor);

}  // namespace ingot::shader
