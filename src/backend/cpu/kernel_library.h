// The CPU kernel library, ingot's one CPU elementwise engine: kernels are function pointers that
// the generated registration units attach to signatures of the shared registry at static-init
// time; a launch runs them in parallel chunks over OpenMP.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "backend/cpu/kernel_fn.h"
#include "backend/kernel_library.h"

namespace ingot::cpu {

class CpuKernelLibrary final : public KernelLibrary {
 public:
  DeviceType device_type() const override { return kCPU; }
  // Attaches the flavors of registered signature `id`.
  void attach(int id, const FlavorFns& fns);
  // nullptr when no kernel has this name (tools and tests; launches never look up names).
  KernelFn find_kernel(std::string_view name) const;

  void launch(const KernelSignature& sig, KernelFlavor flavor, const ElementwiseArgs& args,
              int64_t numel, Device device) override;
  void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device,
                  size_t nbytes) override;
  // Index kernels (cpu/index_kernels.cpp): attached by id of the index kernel registry.
  void attach_index(int id, IndexKernelFn fn);
  void launch_index(const IndexKernelSignature& sig, const ElementwiseArgs& args, int64_t numel,
                    const IndexParams& params, Device device, std::string_view what) override;

  // Dim kernels (kernels/dim.h).
  void attach_dim(int id, DimFn fn);
  void launch_dim(const DimKernelSignature& sig, const DimArgs& args, Device device) override;
  // Attaches the driver of registered reduction signature `id`.
  void attach_reduce(int id, ReduceFn fn);
  void launch_reduce(const ReduceSignature& sig, const ReduceArgs& args, Device device) override;

 private:
  std::vector<FlavorFns> fns_;  // by signature id
  std::vector<DimFn> dim_fns_;  // by dim signature id
  std::vector<IndexKernelFn> index_fns_;  // by index signature id
  std::vector<ReduceFn> reduce_fns_;  // by reduction signature id
};

CpuKernelLibrary& cpu_kernel_library();

}  // namespace ingot::cpu
