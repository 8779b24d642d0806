// compile_shader's private state, shared by the front end (shader.cpp) and the backends
// (cpu_shader.cpp, cuda_shader.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ingot/shader.h"
#include "shader/signature.h"

namespace ingot::shader {

struct Geometry {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  int64_t shared_bytes = 0;
  void* stream = nullptr;
};

// One kernel (instantiation) compiled for one device.
class CompiledKernel {
 public:
  virtual ~CompiledKernel() = default;
  virtual KernelLimits limits() const = 0;
  // The largest dims of a group and of a grid, and dynamic shared memory per group.
  virtual void check_geometry(const Geometry& g) const = 0;
  // args[i] points to the value of declared parameter i.
  virtual void launch(void* const* args, const Geometry& g) const = 0;
};

struct KernelState {
  std::string name;  // as requested: "scale<float>"
  Device device;
  std::vector<KernelParam> params;
  std::vector<ParamType> types;
  std::unique_ptr<CompiledKernel> compiled;
};

struct LibraryState {
  std::string source;
  ShaderOptions options;
  Device device;
  std::vector<ParsedKernel> kernels;
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<KernelState>> instances;  // by requested name
  // Backend data: the module holding every plain kernel, compiled by compile_shader.
  std::shared_ptr<const void> module;
};

// The kernel's C++ name expression: "scale<float>" for a template, the name otherwise.
std::string expression_of(const KernelRequest& r);

// CPU backend: compiles the plain kernels into state.module; instantiates on request.
void compile_cpu_library(LibraryState& state);
std::unique_ptr<CompiledKernel> cpu_kernel(LibraryState& state, const ParsedKernel& kernel,
                                           const KernelRequest& request);

// CUDA backend (NotImplementedError in a build without CUDA).
void compile_cuda_library(LibraryState& state);
std::unique_ptr<CompiledKernel> cuda_kernel(LibraryState& state, const ParsedKernel& kernel,
                                            const KernelRequest& request);

// The error buffer seam: the value bound to an ingot::ErrorBuffer* parameter on `device`, and the
// check after a CPU launch. Both wait for kernels/error_buffer.h.
void* error_buffer_argument(Device device);
void check_error_buffer_after_cpu_launch(void* buffer);

}  // namespace ingot::shader
