// The CUDA kernel library: the same registry signatures as the CPU backend, compiled by NVRTC on
// first use into one small module per signature and flavor (DESIGN.md §3: only what runs gets
// compiled), cached in memory and on disk (compile_cache.h). Kernels run on the device's default
// stream.
#pragma once

#include <cuda.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backend/kernel_library.h"

namespace ingot::cuda {

class CudaKernelLibrary final : public KernelLibrary {
 public:
  DeviceType device_type() const override { return kCUDA; }
  void launch(const KernelSignature& sig, KernelFlavor flavor, const ElementwiseArgs& args,
              int64_t numel, Device device) override;
  void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device,
                  size_t nbytes) override;

  // The NVRTC source of one flavor of `sig`: its kernels/ header and one extern "C" kernel.
  static std::string module_source(const KernelSignature& sig, KernelFlavor flavor);
  // Compiles (or loads from the cache) that module for compute capability major.minor without
  // loading it; precompile uses this, and it needs no GPU.
  static void compile_module(const KernelSignature& sig, KernelFlavor flavor, int major, int minor);

 private:
  struct Entry {
    std::atomic<CUfunction> fns[kNumFlavors] = {};
  };
  struct PerDevice {
    std::once_flag init;
    std::unique_ptr<Entry[]> entries;  // by signature id
    size_t size = 0;
  };
  CUfunction function(const KernelSignature& sig, KernelFlavor flavor, int device);

  std::mutex mutex_;  // guards module loads
  std::unique_ptr<PerDevice[]> devices_ = std::make_unique<PerDevice[]>(128);
};

CudaKernelLibrary& cuda_kernel_library();

}  // namespace ingot::cuda
