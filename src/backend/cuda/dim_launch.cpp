// CudaKernelLibrary's dim kernels: picks a strategy of device/dim_kernels.cuh from the shape and
// launches it. inner == 1: `rows` (a group of threads per row), or for few long rows of a scan the
// chunked two-pass scan; inner > 1: `cols` (a thread per column, coalesced along the inner dim),
// or `cols_split` (32 columns by 8..32 threads along the dim) when columns are too few.
#include <algorithm>
#include <cstdlib>

#include "backend/cuda/device.h"
#include "backend/cuda/device/dim_params.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/stream.h"
#include "backend/dim_kernel_registry.h"
#include "ingot/storage.h"

namespace ingot::cuda {

namespace {

int pow2_at_least(int64_t v, int lo, int hi) {
  int p = lo;
  while (p < hi && p < v) p *= 2;
  return p;
}

bool aligned_to(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

// Bytes of one chunk total in the scratch buffer: a value and an int64 index at most.
constexpr size_t kStateBytes = 16;

}  // namespace

std::string CudaKernelLibrary::dim_module_source(const DimKernelSignature& sig) {
  const char* kernels =
      sig.kind == DimKind::Softmax ? "INGOT_CUDA_SOFTMAX_KERNELS" : "INGOT_CUDA_SCAN_KERNELS";
  return ingot::detail::concat("#include \"", sig.header,
                               "\"\n#include \"backend/cuda/device/dim_kernels.cuh\"\n", kernels,
                               "(", sig.name, ", ::ingot::", sig.type_name, ")\n");
}

CUfunction CudaKernelLibrary::dim_function(const DimKernelSignature& sig, DimStrategy strategy,
                                           int device) {
  // No strings on the launch path: (id, device, strategy) is the key, the name built once.
  const uint64_t module_key = static_cast<uint64_t>(sig.id) << 8 | static_cast<uint64_t>(device);
  const uint64_t key = module_key << 8 | static_cast<uint64_t>(strategy);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = dim_functions_.find(key);
  if (found != dim_functions_.end()) return found->second;
  auto it = dim_modules_.find(module_key);
  if (it == dim_modules_.end()) {
    it = dim_modules_.emplace(module_key, load_module(dim_module_source(sig), sig.name, device))
             .first;
  }
  static constexpr const char* kNames[] = {"rows", "cols", "cols_split", "chunk_totals",
                                           "chunk_scan"};
  const std::string name = ingot::detail::concat(sig.name, '_', kNames[static_cast<int>(strategy)]);
  CUfunction fn = nullptr;
  INGOT_CU_CHECK(driver().cuModuleGetFunction(&fn, it->second, name.c_str()));
  dim_functions_.emplace(key, fn);
  return fn;
}

void CudaKernelLibrary::launch_dim(const DimKernelSignature& sig, const DimArgs& a, Device device) {
  set_current_device(device.index);
  const size_t in_size = element_size(sig.in), out_size = element_size(sig.out);
  const int64_t vec = std::max<int64_t>(1, 16 / static_cast<int64_t>(in_size));
  DimParams p{};
  p.out = a.out;
  p.in = a.in;
  p.indices = a.indices;
  p.n = a.n;
  p.inner = a.inner;
  p.rows = a.outer;
  DimStrategy strategy = DimStrategy::kCols;
  int64_t grid = 0;
  unsigned block = kDimBlockThreads;
  Storage scratch;
  const int sms = std::max(1, device_properties(device.index).multiprocessor_count);
  // Threads that keep every SM busy: below this, cols work is split along the dim too.
  const int64_t enough_threads = static_cast<int64_t>(sms) * 2048;
  if (a.inner > 1 && a.outer * a.inner < enough_threads && a.n >= 64) {
    const int64_t col_blocks = (a.inner + 31) / 32;
    int64_t ydim = 8;  // at least 256 threads a block
    while (ydim < 32 && col_blocks * a.outer * 32 * ydim < enough_threads && ydim * 64 < a.n)
      ydim *= 2;
    block = static_cast<unsigned>(32 * ydim);
    grid = a.outer * col_blocks;
    strategy = DimStrategy::kColsSplit;
  } else if (a.inner > 1) {
    grid = (a.outer * a.inner + block - 1) / block;
  } else if (sig.kind == DimKind::Softmax) {
    // Up to softmax_reg_vectors() vectors per thread stay in registers between the max/sum
    // passes and the write, so rows up to 1024 times that are read once. Short rows get fewer
    // threads (down to a quarter warp with two vectors each) rather than idle lanes: 128 floats
    // are 16 threads.
    p.aligned = a.n % vec == 0 && aligned_to(a.in, 16) &&
                aligned_to(a.out, out_size * static_cast<size_t>(vec));
    const int64_t nv = p.aligned ? a.n / vec : a.n;
    // INGOT_CUDA_SOFTMAX_REGS overrides it for tuning runs, which build the kernels with the same
    // -DINGOT_SOFTMAX_REGS (docs/cuda.md); read once.
    static const int64_t regs_override = [] {
      const char* v = std::getenv("INGOT_CUDA_SOFTMAX_REGS");
      return v == nullptr ? int64_t{0} : std::clamp<int64_t>(std::strtoll(v, nullptr, 10), 0, 64);
    }();
    const int64_t regs = regs_override > 0 ? regs_override : softmax_reg_vectors(in_size);
    const int lo = pow2_at_least((nv + 1) / 2, 8, 32);
    p.threads_per_row = pow2_at_least((nv + regs - 1) / regs, lo, 1024);
    strategy = DimStrategy::kRows;
  } else {
    // Vector loads and stores: rows whole vectors, every operand aligned to one vector of it.
    p.aligned = a.n % vec == 0 && aligned_to(a.in, 16) &&
                aligned_to(a.out, out_size * static_cast<size_t>(vec)) &&
                (a.indices == nullptr || aligned_to(a.indices, 8 * static_cast<size_t>(vec)));
    const int64_t tile = 256 * vec;
    if (a.outer < 2 * sms && a.n >= 8 * tile) {
      // Few long rows: cut each into chunks (whole tiles of every scan: kScanTileVectors vectors
      // per thread), about 4 blocks of 256 threads per SM: one wave of both kernels, which take
      // up to 64 registers a thread (4 resident blocks an SM), each block with 4 vector loads a
      // thread in flight.
      const int64_t unit = static_cast<int64_t>(kDimBlockThreads) * vec * kScanTileVectors;
      const int64_t per_row =
          std::clamp<int64_t>((4 * sms + a.outer - 1) / a.outer, 2, (a.n + unit - 1) / unit);
      p.chunk = ((a.n + per_row - 1) / per_row + unit - 1) / unit * unit;
      const int64_t chunks = (a.n + p.chunk - 1) / p.chunk;
      grid = a.outer * chunks;
      block = kDimBlockThreads;
      scratch = Storage::allocate(static_cast<size_t>(a.outer * chunks) * kStateBytes, device);
      p.scratch = static_cast<char*>(scratch.data());
      void* args[] = {&p};
      INGOT_CU_CHECK(driver().cuLaunchKernel(
          dim_function(sig, DimStrategy::kChunkTotals, device.index), static_cast<unsigned>(grid),
          1, 1, block, 1, 1, 0, stream(device.index), args, nullptr));
      INGOT_CU_CHECK(driver().cuLaunchKernel(
          dim_function(sig, DimStrategy::kChunkScan, device.index), static_cast<unsigned>(grid), 1,
          1, block, 1, 1, 0, stream(device.index), args, nullptr));
      return;  // scratch is freed in stream order, after both kernels
    }
    p.threads_per_row = pow2_at_least(a.n / vec + 1, 32, 256);
    strategy = DimStrategy::kRows;
  }
  if (p.threads_per_row > 0) {
    block = static_cast<unsigned>(std::max(p.threads_per_row, kDimBlockThreads));
    const int64_t rows_per_block = block / p.threads_per_row;
    grid = (a.outer + rows_per_block - 1) / rows_per_block;
  }
  INGOT_CHECK(grid <= 0x7fffffff, ValueError, sig.op, ": too many rows for one launch (", a.outer,
              ")");
  void* args[] = {&p};
  INGOT_CU_CHECK(driver().cuLaunchKernel(dim_function(sig, strategy, device.index),
                                         static_cast<unsigned>(grid), 1, 1, block, 1, 1, 0,
                                         stream(device.index), args, nullptr));
}

}  // namespace ingot::cuda
