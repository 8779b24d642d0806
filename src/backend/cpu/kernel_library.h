// The CPU kernel library: kernels are function pointers registered by name at static-init time
// (one generated translation unit per kernels/ops/*.h), run in parallel chunks over OpenMP.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "backend/kernel_library.h"

namespace ingot::cpu {

// Runs elements [begin, end) of a kernel's iteration.
using KernelFn = void (*)(const ElementwiseArgs& args, int64_t begin, int64_t end);

class CpuKernelLibrary final : public KernelLibrary {
 public:
  DeviceType device_type() const override { return kCPU; }
  void register_kernel(const std::string& name, KernelFn fn);
  // nullptr when no kernel has this name.
  KernelFn find_kernel(std::string_view name) const;
  size_t num_kernels() const { return kernels_.size(); }

 protected:
  void launch(const std::string& name, const ElementwiseArgs& args, int64_t numel) override;

 private:
  StringMap<KernelFn> kernels_;
};

CpuKernelLibrary& cpu_kernel_library();

}  // namespace ingot::cpu
