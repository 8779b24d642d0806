#include "backend/cpu/kernel_library.h"

#include <algorithm>
#include <cstring>

#ifdef INGOT_HAS_OPENMP
#include <omp.h>
#endif

namespace ingot::cpu {

int cpu_num_threads() {
#ifdef INGOT_HAS_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

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

void attach_kernels(int id, const FlavorFns& fns) { cpu_kernel_library().attach(id, fns); }

void CpuKernelLibrary::attach(int id, const FlavorFns& fns) {
  if (fns_.size() <= static_cast<size_t>(id)) fns_.resize(static_cast<size_t>(id) + 1, FlavorFns{});
  fns_[static_cast<size_t>(id)] = fns;
}

KernelFn CpuKernelLibrary::find_kernel(std::string_view name) const {
  KernelFlavor flavor{};
  const KernelSignature* sig = kernel_registry().find(name, &flavor);
  if (sig == nullptr || static_cast<size_t>(sig->id) >= fns_.size()) return nullptr;
  return fns_[static_cast<size_t>(sig->id)][static_cast<size_t>(flavor)];
}

void CpuKernelLibrary::copy_bytes(void* dst, Device, const void* src, Device, size_t nbytes) {
  if (nbytes > 0) std::memcpy(dst, src, nbytes);
}

void CpuKernelLibrary::launch(const KernelSignature& sig, KernelFlavor flavor,
                              const ElementwiseArgs& args, int64_t numel, Device) {
  const KernelFn fn = static_cast<size_t>(sig.id) < fns_.size()
                          ? fns_[static_cast<size_t>(sig.id)][static_cast<size_t>(flavor)]
                          : nullptr;
  INGOT_CHECK(fn != nullptr, NotImplementedError, "cpu kernel library: no kernel named ",
              sig.names[static_cast<size_t>(flavor)]);
#ifdef INGOT_HAS_OPENMP
  const int64_t chunks =
      std::min<int64_t>(omp_get_max_threads(), (numel + kCpuGrainSize - 1) / kCpuGrainSize);
  if (chunks > 1 && !omp_in_parallel()) {
#pragma omp parallel for num_threads(static_cast <int>(chunks)) schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
      fn(args, numel * c / chunks, numel * (c + 1) / chunks);
    }
    return;
  }
#endif
  fn(args, 0, numel);
}

}  // namespace ingot::cpu
