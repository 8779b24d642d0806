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
#include <unordered_map>
#include <vector>

#include "backend/kernel_library.h"
#include "backend/reduce_split.h"

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
  // The specialized contiguous cast kernel of `sig` for operands stored as dtypes[0..ninputs]:
  // <op>_cast_<suffix>__<out dtype>_<input dtypes...>, and its NVRTC source.
  static std::string cast_kernel_name(const KernelSignature& sig, const ScalarType* dtypes);
  static std::string cast_module_source(const KernelSignature& sig, const ScalarType* dtypes);
  // Compiles (or loads from the cache) that module for compute capability major.minor without
  // loading it; precompile uses this, and it needs no GPU.
  static void compile_module(const KernelSignature& sig, KernelFlavor flavor, int major, int minor);

  // Dim kernels (kernels/dim.h, device/dim_kernels.cuh; dim_launch.cpp): one module per signature
  // holding every strategy's kernel, compiled on first use.
  void launch_dim(const DimKernelSignature& sig, const DimArgs& args, Device device) override;
  static std::string dim_module_source(const DimKernelSignature& sig);
  static void compile_dim_module(const DimKernelSignature& sig, int major, int minor);
  // Index kernels (cuda/index_kernels.cpp): the NVRTC source of one, its compile for precompile,
  // and its launch with the device's error buffer.
  static std::string index_module_source(const IndexKernelSignature& sig);
  static void compile_index_module(const IndexKernelSignature& sig, int major, int minor);
  void launch_index(const IndexKernelSignature& sig, const ElementwiseArgs& args, int64_t numel,
                    const IndexParams& params, Device device, std::string_view what) override;

  // Reductions (reduce.cpp): one module per reduce signature with its `_inner` and `_outer`
  // kernels (device/reduce.cuh).
  // Inputs past 32-bit offsets run as several launches (pieces) chained through an accumulation
  // buffer.
  void launch_reduce(const ReduceSignature& sig, const ReduceArgs& args, Device device) override;
  static std::string reduce_module_source(const ReduceSignature& sig);
  static void compile_reduce_module(const ReduceSignature& sig, int major, int minor);

 private:
  void launch_reduce_piece(const ReduceSignature& sig, const ReducePiece& piece, void* acc_buf, Device device);
  struct Entry {
    std::atomic<CUfunction> fns[kNumFlavors] = {};
  };
  struct PerDevice {
    std::once_flag init;
    std::unique_ptr<Entry[]> entries;  // by signature id
    size_t size = 0;
  };
  CUfunction function(const KernelSignature& sig, KernelFlavor flavor, int device);
  CUfunction cast_function(const KernelSignature& sig, const ScalarType* dtypes, int device);
  static CUfunction load_function(std::string source, const std::string& name, int device);
  // Compiles (or finds in the cache) and loads a module named `name`.
  static CUmodule load_module(std::string source, const std::string& name, int device);
  // The kernels of a dim module (device/dim_kernels.cuh), named <signature>_<strategy>.
  enum class DimStrategy { kRows, kCols, kColsSplit, kChunkTotals, kChunkScan };
  CUfunction dim_function(const DimKernelSignature& sig, DimStrategy strategy, int device);
  // Compiles `source` (through the kernel cache) with the options every module uses.
  static void compile_source(std::string source, const std::string& name, int major, int minor);
  CUfunction index_function(const IndexKernelSignature& sig, int device);

  std::mutex mutex_;  // guards module loads and cast_functions_
  std::unordered_map<uint64_t, CUfunction> cast_functions_;  // (id, device, dtypes) -> kernel
  // (dim id, device, strategy) -> kernel, filled from one module per (dim id, device)
  std::unordered_map<uint64_t, CUmodule> dim_modules_;
  std::unordered_map<uint64_t, CUfunction> dim_functions_;
  std::unordered_map<uint64_t, CUfunction> index_functions_;  // (index id, device) -> kernel
  // A reduce module's two strategies, and how many of each kernel's kReduceThreads-thread blocks
  // one SM holds at once (its registers and shared memory decide): the split heuristics fill
  // exactly that many.
  struct ReduceFunctions {
    CUfunction inner = nullptr, outer = nullptr;
    int inner_blocks_per_sm = 1, outer_blocks_per_sm = 1;
  };
  const ReduceFunctions& reduce_functions(const ReduceSignature& sig, int device);
  std::unordered_map<uint64_t, ReduceFunctions> reduce_functions_;  // (id, device)
  std::unique_ptr<PerDevice[]> devices_ = std::make_unique<PerDevice[]>(128);
};

CudaKernelLibrary& cuda_kernel_library();

// For tests: lowers the offsets and counts one reduction launch may hold (bytes; 0 or less
// restores the 32-bit limit) so that small inputs take the split paths. Returns the previous
// limit. INGOT_CUDA_REDUCE_INDEX_LIMIT sets it at start-up.
int64_t set_reduce_index_limit(int64_t limit);

}  // namespace ingot::cuda
