#include "backend/cpu/kernel_library.h"

#include <algorithm>

#ifdef INGOT_HAS_OPENMP
#include <omp.h>
#endif

namespace ingot::cpu {

CpuKernelLibrary& cpu_kernel_library() {
  static CpuKernelLibrary* library = [] {
    auto* lib = new CpuKernelLibrary();  // never destroyed: kernels may run during static teardown
    register_kernel_library(kCPU, lib);
    return lib;
  }();
  return *library;
}

// Makes the library reachable through kernel_library(kCPU) even before any kernel registers.
[[maybe_unused]] static CpuKernelLibrary& cpu_library_registered = cpu_kernel_library();

void CpuKernelLibrary::register_kernel(const std::string& name, KernelFn fn) {
  // Two instantiations with one name would silently shadow each other: a macro misuse.
  INGOT_CHECK(kernels_.emplace(name, fn).second, ValueError, "register_kernel: cpu kernel ", name,
              " is registered twice");
}

KernelFn CpuKernelLibrary::find_kernel(std::string_view name) const {
  const auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : it->second;
}

void CpuKernelLibrary::launch(const std::string& name, const ElementwiseArgs& args, int64_t numel) {
  const KernelFn fn = find_kernel(name);
  INGOT_CHECK(fn != nullptr, NotImplementedError, "cpu kernel library: no kernel named ", name);
#ifdef INGOT_HAS_OPENMP
  const int64_t chunks = std::min<int64_t>(omp_get_max_threads(), (numel + kCpuGrainSize - 1) / kCpuGrainSize);
  if (chunks > 1 && !omp_in_parallel()) {
#pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
      fn(args, numel * c / chunks, numel * (c + 1) / chunks);
    }
    return;
  }
#endif
  fn(args, 0, numel);
}

}  // namespace ingot::cpu
