#include "backend/cpu/kernel_library.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "backend/cpu/memory_policy.h"
#include "ingot/threads.h"
#include "kernels/vec_math.h"

#ifdef INGOT_HAS_OPENMP
#include <omp.h>
#endif

namespace ingot::cpu {

namespace {

// 0: OpenMP's default. Set from INGOT_NUM_THREADS at start-up, then by set_num_threads.
std::atomic<int> requested_threads{[] {
  const char* env = std::getenv("INGOT_NUM_THREADS");
  const int n = env != nullptr ? std::atoi(env) : 0;
  return n > 0 ? n : 0;
}()};

}  // namespace

int cpu_num_threads() {
#ifdef INGOT_HAS_OPENMP
  const int n = requested_threads.load(std::memory_order_relaxed);
  return n > 0 ? n : omp_get_max_threads();
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
void attach_index_kernel(int id, IndexKernelFn fn) { cpu_kernel_library().attach_index(id, fn); }
void attach_dim_kernel(int id, DimFn fn) { cpu_kernel_library().attach_dim(id, fn); }
void attach_reduce_kernel(int id, ReduceFn fn) { cpu_kernel_library().attach_reduce(id, fn); }

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
  // One grain or less runs here without asking OpenMP anything (a tiny op's whole budget).
  const int64_t chunks = numel <= kCpuGrainSize
                             ? 1
                             : std::min<int64_t>(cpu_num_threads(), (numel + kCpuGrainSize - 1) / kCpuGrainSize);
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

void CpuKernelLibrary::attach_reduce(int id, ReduceFn fn) {
  if (reduce_fns_.size() <= static_cast<size_t>(id)) reduce_fns_.resize(static_cast<size_t>(id) + 1, nullptr);
  reduce_fns_[static_cast<size_t>(id)] = fn;
}

void CpuKernelLibrary::launch_reduce(const ReduceSignature& sig, const ReduceArgs& args, Device) {
  const ReduceFn fn = static_cast<size_t>(sig.id) < reduce_fns_.size() ? reduce_fns_[static_cast<size_t>(sig.id)] : nullptr;
  INGOT_CHECK(fn != nullptr, NotImplementedError, "cpu kernel library: no reduction kernel named ", sig.name);
  fn(args);
}

}  // namespace ingot::cpu

namespace ingot {

void set_num_threads(int n) {
  INGOT_CHECK(n >= 1, ValueError, "set_num_threads: expected a positive number of threads, got ", n);
  cpu::requested_threads.store(n, std::memory_order_relaxed);
}

int get_num_threads() { return cpu::cpu_num_threads(); }

const char* cpu_vector_math() {
#if INGOT_VEC_MATH
  return vec::backend();
#else
  return "scalar (built without SLEEF)";
#endif
}

const char* cpu_memory_policy() { return cpu::memory_policy(); }

}  // namespace ingot
