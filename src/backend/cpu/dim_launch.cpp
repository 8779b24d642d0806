// CpuKernelLibrary's dim kernels (kernels/dim.h, dim_loops.h): units of work in parallel chunks.
#include <algorithm>

#include "backend/cpu/dim_loops.h"
#include "backend/cpu/kernel_library.h"
#include "backend/dim_kernel_registry.h"

#ifdef INGOT_HAS_OPENMP
#include <omp.h>
#endif

namespace ingot::cpu {

void CpuKernelLibrary::attach_dim(int id, DimFn fn) {
  if (dim_fns_.size() <= static_cast<size_t>(id))
    dim_fns_.resize(static_cast<size_t>(id) + 1, nullptr);
  dim_fns_[static_cast<size_t>(id)] = fn;
}

void CpuKernelLibrary::launch_dim(const DimKernelSignature& sig, const DimArgs& args, Device) {
  const DimFn fn = static_cast<size_t>(sig.id) < dim_fns_.size()
                       ? dim_fns_[static_cast<size_t>(sig.id)]
                       : nullptr;
  INGOT_CHECK(fn != nullptr, NotImplementedError, "cpu kernel library: no kernel named ", sig.name);
  const int64_t units = dim_units(args);
#ifdef INGOT_HAS_OPENMP
  const int64_t per_unit = args.n * (args.inner == 1 ? 1 : std::min(args.inner, kDimColumns));
  const int64_t chunks = std::min<int64_t>(
      {static_cast<int64_t>(cpu_num_threads()), units, (units * per_unit + kCpuGrainSize - 1) / kCpuGrainSize});
  if (chunks > 1 && !omp_in_parallel()) {
#pragma omp parallel for num_threads(static_cast <int>(chunks)) schedule(static)
    for (int64_t c = 0; c < chunks; ++c) fn(args, units * c / chunks, units * (c + 1) / chunks);
    return;
  }
#endif
  fn(args, 0, units);
}

}  // namespace ingot::cpu
