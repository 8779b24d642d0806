// Index kernels on the CPU: a bad index is collected in a per-launch ErrorBuffer and raised as
// IndexError once the loop is done (the other elements are written, as on a GPU).
#include <algorithm>
#include <memory>

#include "backend/cpu/kernel_library.h"
#include "backend/error_report.h"

#ifdef INGOT_HAS_OPENMP
#include <omp.h>
#endif

namespace ingot::cpu {

void CpuKernelLibrary::attach_index(int id, IndexKernelFn fn) {
  if (index_fns_.size() <= static_cast<size_t>(id))
    index_fns_.resize(static_cast<size_t>(id) + 1, nullptr);
  index_fns_[static_cast<size_t>(id)] = fn;
}

void CpuKernelLibrary::launch_index(const IndexKernelSignature& sig, const ElementwiseArgs& args,
                                    int64_t numel, const IndexParams& params, Device,
                                    std::string_view what) {
  const IndexKernelFn fn = static_cast<size_t>(sig.id) < index_fns_.size()
                               ? index_fns_[static_cast<size_t>(sig.id)]
                               : nullptr;
  INGOT_CHECK(fn != nullptr, NotImplementedError, "cpu kernel library: no index kernel named ",
              sig.name);
  auto errors = std::make_unique<ErrorBuffer>();
  clear_error_buffer(*errors);
  // Kernels writing through the index run on one thread: duplicate indices resolve in order.
  bool parallel = false;
#ifdef INGOT_HAS_OPENMP
  const int64_t chunks =
      std::min<int64_t>(cpu_num_threads(), (numel + kCpuGrainSize - 1) / kCpuGrainSize);
  parallel = chunks > 1 && !sig.writes_through_index && !omp_in_parallel();
  if (parallel) {
#pragma omp parallel for num_threads(static_cast <int>(chunks)) schedule(static)
    for (int64_t c = 0; c < chunks; ++c)
      fn(args, numel * c / chunks, numel * (c + 1) / chunks, params, errors.get());
  }
#endif
  if (!parallel) fn(args, 0, numel, params, errors.get());
  if (auto report = take_error_reports(*errors, /*with_location=*/false)) {
    throw IndexError(detail::concat(what, ": ", *report));
  }
}

}  // namespace ingot::cpu
