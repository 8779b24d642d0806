// compile_shader on CUDA: NVRTC compiles the source as written (with the embedded kernel headers
// and the backend's compile cache); kernels are found through NVRTC name expressions, so plain,
// extern "C" and template kernels are all looked up by their C++ name.
#include "shader/shader_state.h"

#if INGOT_HAS_CUDA
#include <cuda.h>

#include <mutex>
#include <unordered_map>

#include "shader/cuda_shader.h"

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/stream.h"
#endif

namespace ingot::shader {

#if INGOT_HAS_CUDA
cuda::CompileRequest cuda_shader_request(const std::string& source, const ShaderOptions& options,
                                         const std::vector<std::string>& expressions, int major,
                                         int minor) {
  cuda::CompileRequest r;
  r.source = source;
  r.name = options.name;
  for (const cuda::EmbeddedSource& h : cuda::embedded_kernel_sources()) r.headers.push_back(h);
  r.headers_digest = std::string(cuda::embedded_kernel_sources_digest());
  r.options = {"-std=c++17", "-DNDEBUG"};
  r.options.insert(r.options.end(), options.compiler_options.begin(), options.compiler_options.end());
  r.arch_major = major;
  r.arch_minor = minor;
  r.name_expressions = expressions;
  return r;
}

namespace {

struct CudaModule {
  CUmodule module = nullptr;  // stays loaded for the life of the process
  std::shared_ptr<const cuda::CompiledModule> compiled;
};

std::shared_ptr<const CudaModule> build_module(const LibraryState& s,
                                               const std::vector<std::string>& expressions) {
  const cuda::DeviceProperties& props = cuda::device_properties(s.device.index);
  const cuda::CompileRequest request =
      cuda_shader_request(s.source, s.options, expressions, props.major, props.minor);
  // One loaded module per key and device: compiling a source again loads nothing new.
  const std::string key =
      cuda::cache_key(request, cuda::nvrtc_version()) + "@" + std::to_string(s.device.index);
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const CudaModule>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.find(key); it != loaded.end()) return it->second;
  auto m = std::make_shared<CudaModule>();
  m->compiled = cuda::kernel_cache().get_or_compile(request);
  cuda::set_current_device(s.device.index);
  INGOT_CU_CHECK(cuda::driver().cuModuleLoadData(&m->module, m->compiled->image.data()));
  loaded.emplace(key, m);
  return m;
}

int attribute(CUfunction fn, CUfunction_attribute a) {
  int v = 0;
  INGOT_CU_CHECK(cuda::driver().cuFuncGetAttribute(&v, a, fn));
  return v;
}

class CudaKernel final : public CompiledKernel {
 public:
  CudaKernel(std::shared_ptr<const CudaModule> module, CUfunction fn, std::string name, Device device)
      : module_(std::move(module)), fn_(fn), name_(std::move(name)), device_(device) {
    limits_.max_threads_per_group = attribute(fn, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    limits_.registers = attribute(fn, CU_FUNC_ATTRIBUTE_NUM_REGS);
    limits_.static_shared_bytes = attribute(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  }

  KernelLimits limits() const override { return limits_; }

  void check_geometry(const Geometry& g) const override {
    const cuda::DeviceProperties& p = cuda::device_properties(device_.index);
    for (int d = 0; d < 3; ++d) {
      INGOT_CHECK(g.block[d] <= static_cast<uint32_t>(p.max_block_dim[d]), ValueError, "kernel ",
                  name_, ": group_size[", d, "] = ", g.block[d], " is above the device's limit of ",
                  p.max_block_dim[d]);
      INGOT_CHECK(g.grid[d] <= static_cast<uint32_t>(p.max_grid_dim[d]), ValueError, "kernel ",
                  name_, ": ", g.grid[d], " groups along dim ", d, " are above the device's limit of ",
                  p.max_grid_dim[d]);
    }
    const int64_t room = int64_t{p.max_shared_memory_per_block_optin} - limits_.static_shared_bytes;
    INGOT_CHECK(g.shared_bytes <= room, ValueError, "kernel ", name_, ": ", g.shared_bytes,
                " bytes of dynamic shared memory per group are above the ", room,
                " the device has beside the kernel's static ", limits_.static_shared_bytes);
  }

  void launch(void* const* args, const Geometry& g) const override {
    cuda::set_current_device(device_.index);
    if (g.shared_bytes > 48 * 1024) {  // above the default, the kernel must opt in
      INGOT_CU_CHECK(cuda::driver().cuFuncSetAttribute(
          fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(g.shared_bytes)));
    }
    CUstream stream = g.stream != nullptr ? static_cast<CUstream>(g.stream) : cuda::stream(device_.index);
    INGOT_CU_CHECK(cuda::driver().cuLaunchKernel(fn_, g.grid[0], g.grid[1], g.grid[2], g.block[0],
                                                 g.block[1], g.block[2],
                                                 static_cast<unsigned>(g.shared_bytes), stream,
                                                 const_cast<void**>(args), nullptr));
  }

 private:
  std::shared_ptr<const CudaModule> module_;
  CUfunction fn_;
  std::string name_;
  Device device_;
  KernelLimits limits_;
};

}  // namespace

void compile_cuda_library(LibraryState& s) {
  std::vector<std::string> expressions;
  for (const ParsedKernel& k : s.kernels) {
    if (k.template_params.empty()) expressions.push_back(k.name);
  }
  s.module = build_module(s, expressions);
}

std::unique_ptr<CompiledKernel> cuda_kernel(LibraryState& s, const ParsedKernel& kernel,
                                            const KernelRequest& request) {
  const std::string expression = expression_of(request);
  std::shared_ptr<const CudaModule> module =
      request.template_args.empty() ? std::static_pointer_cast<const CudaModule>(s.module)
                                    : build_module(s, {expression});
  const std::string* lowered = module->compiled->lowered_name(expression);
  INGOT_CHECK(lowered != nullptr, CompileError, "compile_shader: NVRTC reported no symbol for ",
              expression, " (kernel ", kernel.name, ")");
  CUfunction fn = nullptr;
  cuda::set_current_device(s.device.index);
  INGOT_CU_CHECK(cuda::driver().cuModuleGetFunction(&fn, module->module, lowered->c_str()));
  return std::make_unique<CudaKernel>(module, fn, expression, s.device);
}

#else

void compile_cuda_library(LibraryState& s) {
  throw NotImplementedError(detail::concat("compile_shader: ", s.device,
                                           " needs a build of ingot with the CUDA backend"));
}
std::unique_ptr<CompiledKernel> cuda_kernel(LibraryState& s, const ParsedKernel&, const KernelRequest&) {
  compile_cuda_library(s);
  return nullptr;
}

#endif

}  // namespace ingot::shader
