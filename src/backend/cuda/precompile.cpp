// precompile(): every registry signature's module through NVRTC into the kernel cache. It needs no
// GPU, so CI runs it (tools/ingot-precompile) to prove that every CUDA kernel compiles.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/kernel_library.h"
#include "backend/dim_kernel_registry.h"
#include "ingot/cuda.h"

namespace ingot::cuda {

PrecompileReport precompile(int major, int minor, int jobs, const std::string& only_op) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<const KernelSignature*> todo;
  for (const KernelSignature& sig : kernel_registry().all()) {
    if (only_op.empty() || sig.op == only_op) todo.push_back(&sig);
  }
  std::vector<const DimKernelSignature*> dim_todo;  // dim kernels: one module per signature
  for (const DimKernelSignature& sig : dim_kernel_registry().all()) {
    if (only_op.empty() || sig.op == only_op) dim_todo.push_back(&sig);
  }
  INGOT_CHECK(!todo.empty() || !dim_todo.empty() || only_op.empty(), ValueError, "precompile: no kernels are registered for op '",
              only_op, "'");
  PrecompileReport report;
  report.modules = static_cast<int>(todo.size() + dim_todo.size());
  const KernelCache::Stats before = kernel_cache().stats();
  std::atomic<size_t> next{0};
  std::mutex failures_mutex;
  const auto worker = [&] {
    for (size_t i = next++; i < todo.size() + dim_todo.size(); i = next++) {
      const bool dim = i >= todo.size();
      try {
        if (dim) {
          CudaKernelLibrary::compile_dim_module(*dim_todo[i - todo.size()], major, minor);
        } else {
          for (KernelFlavor flavor : kAllFlavors)
            CudaKernelLibrary::compile_module(*todo[i], flavor, major, minor);
        }
      } catch (const std::exception& e) {
        std::string what = e.what();
        if (what.size() > 2000) what.resize(2000);
        const std::lock_guard<std::mutex> lock(failures_mutex);
        report.failures.push_back((dim ? dim_todo[i - todo.size()]->name : todo[i]->names[0]) + ": " + what);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::max(jobs, 1); ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  const KernelCache::Stats after = kernel_cache().stats();
  report.from_cache = static_cast<int>((after.memory_hits - before.memory_hits) +
                                       (after.disk_hits - before.disk_hits));
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace ingot::cuda
