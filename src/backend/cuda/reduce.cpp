// Reductions on CUDA: one NVRTC module per reduce signature holding both strategies
// (device/reduce.cuh), the launch shape, and the split buffers. Mirrors src/backend/cpu's driver.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "backend/cuda/device.h"
#include "backend/cuda/device/reduce_params.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/stream.h"
#include "backend/reduce_split.h"
#include "ingot/storage.h"

namespace ingot::cuda {


std::string CudaKernelLibrary::reduce_module_source(const ReduceSignature& sig) {
  return ingot::detail::concat("#include \"", sig.header, "\"\n#include \"backend/cuda/device/reduce.cuh\"\n",
                               "INGOT_CUDA_REDUCE_KERNELS(", sig.name, ", ::ingot::", sig.type_name, ")\n");
}

void CudaKernelLibrary::compile_reduce_module(const ReduceSignature& sig, int major, int minor) {
  compile_source(reduce_module_source(sig), sig.name + "_inner", major, minor);
}

const CudaKernelLibrary::ReduceFunctions& CudaKernelLibrary::reduce_functions(const ReduceSignature& sig, int device) {
  const uint64_t key = static_cast<uint64_t>(sig.id) << 8 | static_cast<uint64_t>(device);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = reduce_functions_.find(key);
  if (it != reduce_functions_.end()) return it->second;
  const CUmodule module = load_module(reduce_module_source(sig), sig.name + "_inner", device);
  ReduceFunctions f;
  INGOT_CU_CHECK(driver().cuModuleGetFunction(&f.inner, module, (sig.name + "_inner").c_str()));
  INGOT_CU_CHECK(driver().cuModuleGetFunction(&f.outer, module, (sig.name + "_outer").c_str()));
  INGOT_CU_CHECK(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&f.inner_blocks_per_sm, f.inner, kReduceThreads, 0));
  INGOT_CU_CHECK(driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&f.outer_blocks_per_sm, f.outer, kReduceThreads, 0));
  f.inner_blocks_per_sm = std::max(f.inner_blocks_per_sm, 1);
  f.outer_blocks_per_sm = std::max(f.outer_blocks_per_sm, 1);
  return reduce_functions_.emplace(key, f).first->second;
}

namespace {

// The largest offset (in bytes) or count one launch may hold: kMaxIndex32, or less when
// INGOT_CUDA_REDUCE_INDEX_LIMIT (read once) or a test (set_reduce_index_limit) lowers it to make
// small inputs take the split path. Read on every launch, so no getenv there.
std::atomic<int64_t>& index_limit_slot() {
  static std::atomic<int64_t> limit{[] {
    if (const char* v = std::getenv("INGOT_CUDA_REDUCE_INDEX_LIMIT"); v != nullptr && *v != '\0') {
      const int64_t l = std::strtoll(v, nullptr, 10);
      if (l > 0) return std::min(l, kMaxIndex32);
    }
    return kMaxIndex32;
  }()};
  return limit;
}
int64_t index_limit() { return index_limit_slot().load(std::memory_order_relaxed); }

// Blocks per SM the split heuristics aim at when outputs are too few to fill the device: inner
// (a block per output, rows split) and outer (a thread per output, columns split). By default as
// many as the SM holds at once (the kernel's occupancy): one full wave, no tail of a second. The
// outer strategy stops at kOuterBlocksPerSm: on the H200 (bench/RESULTS.md, 2026-12-02) a
// 16384x16384 float32 sum over dim 0 ran at 92/91/84% of copy with 4/8/16 blocks per SM, var
// over dim 0 at 79/69/51%. INGOT_CUDA_REDUCE_BLOCKS_PER_SM="inner,outer" overrides them for
// tuning runs; read once. Ops with a block hook (var/std, logsumexp) take 16 rows a step
// (device/reduce.cuh) and stop at kOuterHookBlocksPerSm: float32 var over dim 0 of 16384x16384 ran
// at 91.6-93.6% of copy with 3 blocks per SM against 88.4-89.0% with 4 (three A/B runs each on the
// H200, 2026-12-03; 2 blocks: 85.8%, 5-8: 71-78%), while sum over dim 0 lost 5-7 points at 3.
// Sum over dim 0 gained 3 points at 5 blocks against 4 (97.2 against 94.0% of copy, one process
// each, the read-only loads not yet in; 6: 95.6, 8: 93.9), as a standalone kernel of its shape did
// with read-only loads (103.0 against 100.9%), so kOuterBlocksPerSm is 5 (2026-12-03 evening).
constexpr int64_t kOuterBlocksPerSm = 5;
constexpr int64_t kOuterHookBlocksPerSm = 3;
struct SplitTargets {
  int64_t inner = 0;  // 0: the kernel's occupancy
  int64_t outer = 0;
};
const SplitTargets& split_targets() {
  static const SplitTargets targets = [] {
    SplitTargets t;
    if (const char* v = std::getenv("INGOT_CUDA_REDUCE_BLOCKS_PER_SM"); v != nullptr && *v != '\0') {
      char* end = nullptr;
      const int64_t inner = std::strtoll(v, &end, 10);
      if (inner > 0) t.inner = std::min<int64_t>(inner, 64);
      if (end != nullptr && *end == ',') {
        const int64_t outer = std::strtoll(end + 1, nullptr, 10);
        if (outer > 0) t.outer = std::min<int64_t>(outer, 64);
      }
    }
    return t;
  }();
  return targets;
}

// Split launches count finished blocks in these counters (one per output or block column). Every
// launch leaves its counters at zero again (device/reduce.cuh), so one zeroed buffer per device
// serves all launches in stream order, with no memset before each: that memset was a second
// operation on the GPU before every split reduction (a few microseconds of a 130 us float16 sum).
// Splits happen only when outputs are few: at most 2 * SMs (inner) or 64 * SMs block columns
// (outer, the cap of split_targets), which bounds the buffer.
struct Counters {
  std::once_flag once;
  unsigned int* ptr = nullptr;
  int64_t size = 0;
};
unsigned int* zeroed_counters(int device, int64_t count) {
  static Counters* const all = new Counters[kMaxDevices];  // never freed: kernels hold them
  INGOT_CHECK(device >= 0 && device < kMaxDevices, IndexError, "reduce: device ", device,
              " is out of range");
  Counters& c = all[device];
  std::call_once(c.once, [&] {
    c.size = 64 * device_properties(device).multiprocessor_count + 64;
    CUdeviceptr ptr = 0;
    INGOT_CU_CHECK(driver().cuMemAlloc(&ptr, static_cast<size_t>(c.size) * sizeof(unsigned int)));
    // Ordered before every launch of this device's stream, the only one the counters serve.
    INGOT_CU_CHECK(driver().cuMemsetD8Async(
        ptr, 0, static_cast<size_t>(c.size) * sizeof(unsigned int), stream(device)));
    c.ptr = reinterpret_cast<unsigned int*>(ptr);
  });
  INGOT_CHECK(count <= c.size, Error, "reduce: ", count, " split counters exceed the ", c.size,
              " kept");
  return c.ptr;
}

}  // namespace

int64_t set_reduce_index_limit(int64_t limit) {
  return index_limit_slot().exchange(limit > 0 ? std::min(limit, kMaxIndex32) : kMaxIndex32);
}

// Kernels index with 32 bits: inputs past that run as the pieces of split_reduction, those of a
// chain through one accumulation buffer.
void CudaKernelLibrary::launch_reduce(const ReduceSignature& sig, const ReduceArgs& a, Device device) {
  set_current_device(device.index);
  const auto in_elem = static_cast<int64_t>(element_size(sig.in));
  const auto out_elem = static_cast<int64_t>(std::max(element_size(sig.out), sig.out2 ? element_size(*sig.out2) : 0));
  const int64_t limit = index_limit();
  const ReduceExtents e = reduce_extents(a, in_elem, out_elem);
  if (e.n_out == 0) return;
  if (reduce_fits(e, limit)) {  // the usual case: one launch, no plan
    launch_reduce_piece(sig, ReducePiece{a}, nullptr, device);
    return;
  }
  const std::vector<ReducePiece> pieces = split_reduction(a, in_elem, out_elem, limit);
  Storage acc;
  int acc_chain = -1;
  for (const ReducePiece& piece : pieces) {
    if (piece.acc_mode != 0 && piece.chain != acc_chain) {
      const int64_t n_out = reduce_extents(piece.args, in_elem, out_elem).n_out;
      acc = Storage::allocate(static_cast<size_t>(n_out * kMaxAccBytes), Device(kCUDA, device.index));
      acc_chain = piece.chain;
    }
    launch_reduce_piece(sig, piece, piece.acc_mode != 0 ? acc.data() : nullptr, device);
  }
}

void CudaKernelLibrary::launch_reduce_piece(const ReduceSignature& sig, const ReducePiece& piece, void* acc_buf,
                                            Device device) {
  static_assert(kAccIn == kReduceAccIn && kAccOut == kReduceAccOut, "one set of chain flags");
  const ReduceArgs& a = piece.args;
  const ReduceFunctions& fns = reduce_functions(sig, device.index);
  ReduceLaunch p{};
  p.idx_base = piece.idx_base;
  p.acc_mode = piece.acc_mode;
  p.acc_buf = acc_buf;
  p.out[0] = a.out[0];
  p.out[1] = a.out[1];
  p.in = a.in;
  p.nout_dims = a.nout_dims;
  p.nred_dims = a.nred_dims;
  p.n_out = 1;
  p.n_red = 1;
  for (int d = 0; d < a.nout_dims; ++d) {
    p.out_sizes[d] = a.out_sizes[d];
    p.out_strides[0][d] = a.out_strides[0][d];
    p.out_strides[1][d] = a.out_strides[1][d];
    p.in_out_strides[d] = a.in_out_strides[d];
    p.n_out *= a.out_sizes[d];
  }
  for (int d = 0; d < a.nred_dims; ++d) {
    p.red_sizes[d] = a.red_sizes[d];
    p.in_red_strides[d] = a.in_red_strides[d];
    p.n_red *= a.red_sizes[d];
  }
  p.params = a.params;
  if (p.n_out == 0) return;
  const int64_t sms = device_properties(device.index).multiprocessor_count;
  const bool inner = a.nout_dims == 0 || a.red_inner;
  unsigned threads = kReduceThreads, grid_x = 0;
  int64_t splits = 1, counters = 0;
  if (inner) {
    // A block per output; narrower blocks for short rows; split rows when outputs are few.
    threads = 32;
    while (threads < static_cast<unsigned>(kReduceThreads) && static_cast<int64_t>(threads) * 8 < p.n_red) threads *= 2;
    grid_x = static_cast<unsigned>(std::min<int64_t>(p.n_out, int64_t{1} << 30));
    if (p.n_out < 2 * sms) {  // fill the SMs with blocks, each with a chunk of the row
      const int64_t per_sm = split_targets().inner > 0 ? split_targets().inner : fns.inner_blocks_per_sm;
      const int64_t chunks = (p.n_red + kSplitChunk - 1) / kSplitChunk;
      const int64_t most = std::max<int64_t>(1, std::min<int64_t>(chunks, 65535));
      splits = std::clamp<int64_t>(per_sm * sms / p.n_out, 1, most);
    }
    counters = p.n_out;
  } else {
    // A thread per output; split the rows when there are too few threads to fill the device.
    const int64_t blocks = (p.n_out + kReduceThreads - 1) / kReduceThreads;
    INGOT_CHECK(blocks < (int64_t{1} << 31), ValueError, sig.op, ": too many outputs for one launch (", p.n_out, ")");
    grid_x = static_cast<unsigned>(blocks);
    const int64_t per_sm =
        split_targets().outer > 0
            ? split_targets().outer
            : std::min<int64_t>(fns.outer_blocks_per_sm,
                                sig.block_hook ? kOuterHookBlocksPerSm : kOuterBlocksPerSm);
    const int64_t target = per_sm * sms;
    if (blocks < target) {  // fill the SMs with block columns, each summing at least 32 rows
      const int64_t most = std::max<int64_t>(1, std::min<int64_t>(p.n_red / 32, 65535));
      splits = std::clamp<int64_t>(target / blocks, 1, most);
    }
    counters = blocks;
  }
  p.splits = static_cast<int32_t>(splits);
  Storage scratch;
  if (splits > 1) {
    scratch = Storage::allocate(static_cast<size_t>(p.n_out * splits * kMaxAccBytes), device);
    p.partials = scratch.data();
    p.counters = zeroed_counters(device.index, counters);
  }
  void* kernel_args[] = {&p};
  INGOT_CU_CHECK(driver().cuLaunchKernel(inner ? fns.inner : fns.outer, grid_x, static_cast<unsigned>(splits), 1,
                                         threads, 1, 1, 0, stream(device.index), kernel_args, nullptr));
}

}  // namespace ingot::cuda
