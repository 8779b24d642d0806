// precompile(): every registry signature's module through NVRTC into the kernel cache. It needs no
// GPU, so CI runs it (tools/ingot-precompile) to prove that every CUDA kernel compiles.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "backend/cuda/compile_cache.h"
#include "backend/cuda/kernel_library.h"
#include "backend/dim_kernel_registry.h"
#include "backend/index_kernel_registry.h"
#include "ingot/cuda.h"

namespace ingot::cuda {

namespace {

// One module to compile: its name (for failures) and how.
struct Task {
  std::string name;
  std::function<void()> compile;
};

// Every module of every kernel kind (elementwise, dim, index, reduce) of `only_op` (all when empty).
std::vector<Task> tasks(int major, int minor, const std::string& only_op) {
  std::vector<Task> out;
  const auto wanted = [&](const std::string& op) { return only_op.empty() || op == only_op; };
  for (const KernelSignature& sig : kernel_registry().all()) {
    if (!wanted(sig.op)) continue;
    out.push_back({sig.names[0], [&sig, major, minor] {
                     for (KernelFlavor flavor : kAllFlavors)
                       CudaKernelLibrary::compile_module(sig, flavor, major, minor);
                   }});
  }
  for (const DimKernelSignature& sig : dim_kernel_registry().all()) {  // one module per signature
    if (wanted(sig.op))
      out.push_back({sig.name, [&sig, major, minor] {
                       CudaKernelLibrary::compile_dim_module(sig, major, minor);
                     }});
  }
  for (const IndexKernelSignature& sig : index_kernel_registry().all()) {
    if (wanted(sig.op)) {
      out.push_back({sig.name, [&sig, major, minor] {
                       CudaKernelLibrary::compile_index_module(sig, major, minor);
                     }});
    }
  }
  // Reductions: `op`'s kernels and its variants' (max -> max_index, vector_norm -> vector_norm_l2).
  for (const ReduceSignature& sig : reduce_registry().all()) {
    if (wanted(sig.op) || (!only_op.empty() && sig.op.rfind(only_op + "_", 0) == 0)) {
      out.push_back({sig.name, [&sig, major, minor] { CudaKernelLibrary::compile_reduce_module(sig, major, minor); }});
    }
  }
  return out;
}

}  // namespace

PrecompileReport precompile(int major, int minor, int jobs, const std::string& only_op) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Task> todo = tasks(major, minor, only_op);
  INGOT_CHECK(!todo.empty() || only_op.empty(), ValueError,
              "precompile: no kernels are registered for op '", only_op, "'");
  PrecompileReport report;
  report.modules = static_cast<int>(todo.size());
  const KernelCache::Stats before = kernel_cache().stats();
  std::atomic<size_t> next{0};
  std::mutex failures_mutex;
  const auto worker = [&] {
    for (size_t i = next++; i < todo.size(); i = next++) {
      try {
        todo[i].compile();
      } catch (const std::exception& e) {
        std::string what = e.what();
        if (what.size() > 2000) what.resize(2000);
        const std::lock_guard<std::mutex> lock(failures_mutex);
        report.failures.push_back(todo[i].name + ": " + what);
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
