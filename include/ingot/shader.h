// compile_shader: user kernels written in CUDA C++, compiled at run time. On a CUDA device NVRTC
// compiles them; on the CPU the host C++ compiler builds them into a shared object whose threads
// run as fibers (so __syncthreads() works), one block after another on each OpenMP thread.
//
//   auto lib = ingot::compile_shader(R"(
//     __global__ void scale(const float* x, float* y, float a, int n) {
//       int i = blockIdx.x * blockDim.x + threadIdx.x;
//       if (i < n) y[i] = a * x[i];
//     })");
//   lib.kernel("scale")({x, y, 2.0, n}, {.threads = {n}, .group_size = {256}});
//
// `threads` is the TOTAL number of threads per dim, not the number of groups: the grid is
// ceil(threads / group_size) groups, so a kernel must check its index against its size.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ingot/device.h"
#include "ingot/tensor.h"

namespace ingot {

struct ShaderOptions {
  std::optional<Device> device;  // nullopt: cuda:0 when CUDA is available, else the CPU
  std::vector<std::string> compiler_options;  // extra flags (-DNAME=VALUE, ...) for either compiler
  std::string name = "shader.cu";             // the file name compiler logs refer to
};

// One argument of a launch: a tensor (its data pointer, storage offset included), a list of
// tensors (a device array of their pointers), or a number converted to the declared scalar type.
class KernelArg {
 public:
  enum class Kind { Tensor, TensorList, Int, Float, Bool };
  KernelArg(const Tensor& t) : kind_(Kind::Tensor), tensors_{t} {}                   // NOLINT
  KernelArg(std::vector<Tensor> ts) : kind_(Kind::TensorList), tensors_(std::move(ts)) {}  // NOLINT
  KernelArg(bool v) : kind_(Kind::Bool), int_(v ? 1 : 0) {}                          // NOLINT
  KernelArg(int v) : kind_(Kind::Int), int_(v) {}                                    // NOLINT
  KernelArg(long v) : kind_(Kind::Int), int_(v) {}                                   // NOLINT
  KernelArg(long long v) : kind_(Kind::Int), int_(v) {}                              // NOLINT
  KernelArg(unsigned v) : kind_(Kind::Int), int_(v) {}                               // NOLINT
  KernelArg(float v) : kind_(Kind::Float), float_(v) {}                              // NOLINT
  KernelArg(double v) : kind_(Kind::Float), float_(v) {}                             // NOLINT

  Kind kind() const { return kind_; }
  const std::vector<Tensor>& tensors() const { return tensors_; }
  int64_t int_value() const { return int_; }
  double float_value() const { return float_; }

 private:
  Kind kind_;
  std::vector<Tensor> tensors_;
  int64_t int_ = 0;
  double float_ = 0;
};

struct LaunchConfig {
  std::vector<int64_t> threads{};     // total threads per dim (1 to 3 dims)
  std::vector<int64_t> group_size{};  // threads per group per dim; empty: 256 along x, 1 elsewhere
  int64_t shared_memory_bytes = 0;  // dynamic shared memory (extern __shared__) per group
  void* stream = nullptr;           // a CUstream on CUDA; nullptr: ingot's stream for the device
};

struct KernelLimits {
  int max_threads_per_group = 0;
  int registers = 0;             // per thread (0 on the CPU)
  int static_shared_bytes = 0;   // __shared__ arrays (0 on the CPU, where they are not measured)
};

struct KernelParam {
  std::string name;
  std::string type;  // as declared, template arguments substituted
};

namespace shader {
struct KernelState;
struct LibraryState;
}  // namespace shader

class ShaderKernel {
 public:
  const std::string& name() const;
  const std::vector<KernelParam>& params() const;  // the declared ones, ErrorBuffer* included
  KernelLimits limits() const;
  // Binds `args` to the declared parameters (an ingot::ErrorBuffer* parameter is bound by ingot
  // and not passed) and launches. Bad arguments or configurations throw before anything runs.
  void operator()(const std::vector<KernelArg>& args, const LaunchConfig& config) const;

 private:
  friend class ShaderLibrary;
  explicit ShaderKernel(std::shared_ptr<shader::KernelState> state) : state_(std::move(state)) {}
  std::shared_ptr<shader::KernelState> state_;
};

class ShaderLibrary {
 public:
  Device device() const;
  // The __global__ functions the source defines (templates by their bare name).
  std::vector<std::string> kernel_names() const;
  // A kernel by name; a template kernel by its instantiation ("scale<float>"), compiled on first
  // request. ValueError naming the kernels there are when the source has no such kernel.
  ShaderKernel kernel(const std::string& name) const;

 private:
  friend ShaderLibrary compile_shader(const std::string&, const ShaderOptions&);
  explicit ShaderLibrary(std::shared_ptr<shader::LibraryState> s) : state_(std::move(s)) {}
  std::shared_ptr<shader::LibraryState> state_;
};

// Compiles `source` for options.device (cached in memory and on disk, see docs/custom-kernels.md).
// CompileError carries the compiler's log, with line numbers of `source`.
ShaderLibrary compile_shader(const std::string& source, const ShaderOptions& options = {});

}  // namespace ingot
