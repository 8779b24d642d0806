// Index kernels on CUDA: one NVRTC module per index kernel (compiled on first use, cached like the
// elementwise ones), launched with the device's error buffer, so a bad index is raised as
// AcceleratorError at the next synchronization instead of faulting (DESIGN.md §6).
#include <mutex>

#include "backend/cuda/device.h"
#include "backend/cuda/device/index.cuh"
#include "backend/cuda/driver.h"
#include "backend/cuda/error_buffer.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/stream.h"

namespace ingot::cuda {

std::string CudaKernelLibrary::index_module_source(const IndexKernelSignature& sig) {
  return ingot::detail::concat(
      "#include \"", sig.header, "\"\n#include \"backend/cuda/device/index.cuh\"\n",
      "INGOT_CUDA_INDEX_KERNEL(", sig.name, ", ::ingot::", sig.type_name, ")\n");
}

void CudaKernelLibrary::compile_index_module(const IndexKernelSignature& sig, int major,
                                             int minor) {
  compile_source(index_module_source(sig), sig.name, major, minor);
}

CUfunction CudaKernelLibrary::index_function(const IndexKernelSignature& sig, int device) {
  const uint64_t key = static_cast<uint64_t>(sig.id) << 20 | static_cast<uint64_t>(device);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = index_functions_.find(key);
  if (it != index_functions_.end()) return it->second;
  const CUfunction fn = load_function(index_module_source(sig), sig.name, device);
  index_functions_.emplace(key, fn);
  return fn;
}

void CudaKernelLibrary::launch_index(const IndexKernelSignature& sig, const ElementwiseArgs& args,
                                     int64_t numel, const IndexParams& params, Device device,
                                     std::string_view) {
  set_current_device(device.index);
  const CUfunction fn = index_function(sig, device.index);
  IndexLaunch p{};
  p.ndim = args.ndim;
  p.numel = checked_int32(numel, "index kernel numel");
  p.index = params;
  p.errors = error_buffer(device.index);
  for (int d = 0; d < args.ndim; ++d)
    p.sizes[d] = IntDivider::make(static_cast<uint32_t>(args.sizes[d]));
  for (int k = 0; k < 3; ++k) {
    p.data[k] = args.data[k];
    for (int d = 0; d < args.ndim; ++d) p.strides[k][d] = static_cast<int32_t>(args.strides[k][d]);
  }
  const int64_t per_block = static_cast<int64_t>(kIndexBlockThreads) * kIndexElemsPerThread;
  const auto blocks = static_cast<unsigned>((numel + per_block - 1) / per_block);
  void* kernel_args[] = {&p};
  INGOT_CU_CHECK(driver().cuLaunchKernel(fn, blocks, 1, 1, kIndexBlockThreads, 1, 1, 0,
                                         stream(device.index), kernel_args, nullptr));
}

}  // namespace ingot::cuda
