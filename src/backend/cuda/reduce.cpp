// Reductions on CUDA: one NVRTC module per reduce signature holding both strategies
// (device/reduce.cuh), the launch shape, and the split buffers. Mirrors src/backend/cpu's driver.
#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

#include "backend/cuda/device.h"
#include "backend/cuda/device/reduce_params.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/stream.h"
#include "ingot/storage.h"

namespace ingot::cuda {


std::string CudaKernelLibrary::reduce_module_source(const ReduceSignature& sig) {
  return ingot::detail::concat("#include \"", sig.header, "\"\n#include \"backend/cuda/device/reduce.cuh\"\n",
                               "INGOT_CUDA_REDUCE_KERNELS(", sig.name, ", ::ingot::", sig.type_name, ")\n");
}

void CudaKernelLibrary::compile_reduce_module(const ReduceSignature& sig, int major, int minor) {
  compile_source(reduce_module_source(sig), sig.name + "_inner", major, minor);
}

std::pair<CUfunction, CUfunction> CudaKernelLibrary::reduce_functions(const ReduceSignature& sig, int device) {
  const uint64_t key = static_cast<uint64_t>(sig.id) << 8 | static_cast<uint64_t>(device);
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = reduce_functions_.find(key);
  if (it != reduce_functions_.end()) return it->second;
  const CUmodule module = load_module(reduce_module_source(sig), sig.name + "_inner", device);
  CUfunction inner = nullptr, outer = nullptr;
  INGOT_CU_CHECK(driver().cuModuleGetFunction(&inner, module, (sig.name + "_inner").c_str()));
  INGOT_CU_CHECK(driver().cuModuleGetFunction(&outer, module, (sig.name + "_outer").c_str()));
  return reduce_functions_.emplace(key, std::make_pair(inner, outer)).first->second;
}

namespace {

int64_t span(int64_t size, int64_t stride) { return size <= 1 ? 0 : (size - 1) * (stride < 0 ? -stride : stride); }

// The largest offset (in bytes) or count one launch may hold: kMaxIndex32, or less when a test
// sets INGOT_CUDA_REDUCE_INDEX_LIMIT to make small inputs take the split path.
int64_t index_limit() {
  if (const char* v = std::getenv("INGOT_CUDA_REDUCE_INDEX_LIMIT"); v != nullptr && *v != '\0') {
    const int64_t limit = std::strtoll(v, nullptr, 10);
    if (limit > 0) return std::clamp<int64_t>(limit, 64, kMaxIndex32);  // 64: room for any element
  }
  return kMaxIndex32;
}

struct Extents {
  int64_t in_out = 0, in_red = 0, out = 0, n_out = 1, n_red = 1;  // spans in bytes, counts
};
Extents extents(const ReduceArgs& a, int64_t in_elem, int64_t out_elem) {
  Extents e;
  int64_t out_span[2] = {out_elem, out_elem};
  e.in_out = in_elem;
  for (int d = 0; d < a.nout_dims; ++d) {
    e.in_out += span(a.out_sizes[d], a.in_out_strides[d]);
    for (int k = 0; k < 2; ++k) out_span[k] += span(a.out_sizes[d], a.out_strides[k][d]);
    e.n_out *= a.out_sizes[d];
  }
  e.out = std::max(out_span[0], out_span[1]);
  for (int d = 0; d < a.nred_dims; ++d) {
    e.in_red += span(a.red_sizes[d], a.in_red_strides[d]);
    e.n_red *= a.red_sizes[d];
  }
  return e;
}

bool fits(const Extents& e, int64_t limit) {
  return e.in_out + e.in_red <= limit && e.out <= limit && e.n_out <= limit && e.n_red <= limit;
}

// Drops reduced dim d (size 1 now) from the list; an empty list keeps one dim of size 1.
void drop_reduced_dim(ReduceArgs& a, int d) {
  for (int k = d; k + 1 < a.nred_dims; ++k) {
    a.red_sizes[k] = a.red_sizes[k + 1];
    a.in_red_strides[k] = a.in_red_strides[k + 1];
  }
  if (--a.nred_dims == 0) {
    a.red_sizes[0] = 1;
    a.in_red_strides[0] = 0;
    a.nred_dims = 1;
  }
}
void drop_output_dim(ReduceArgs& a, int d) {
  for (int k = d; k + 1 < a.nout_dims; ++k) {
    a.out_sizes[k] = a.out_sizes[k + 1];
    a.out_strides[0][k] = a.out_strides[0][k + 1];
    a.out_strides[1][k] = a.out_strides[1][k + 1];
    a.in_out_strides[k] = a.in_out_strides[k + 1];
  }
  --a.nout_dims;
}

}  // namespace

// Inputs whose offsets or counts do not fit 32 bits are split, like TensorIterator's
// with_32bit_indexing: output dims first (independent launches), while the output side alone
// is over half the limit; then the slowest reduced dim, halved until each piece fits. Pieces
// along reduced dims run in index order and chain through an accumulation buffer, so every
// output is combined exactly as one launch would (argmax's indices: idx_base).
void CudaKernelLibrary::launch_reduce(const ReduceSignature& sig, const ReduceArgs& a, Device device) {
  set_current_device(device.index);
  const int64_t limit = index_limit();
  const auto in_elem = static_cast<int64_t>(element_size(sig.in));
  const auto out_elem = static_cast<int64_t>(std::max(element_size(sig.out), sig.out2 ? element_size(*sig.out2) : 0));
  const Extents e = extents(a, in_elem, out_elem);
  if (e.n_out == 0) return;
  if (fits(e, limit)) {
    launch_reduce_piece(sig, a, ReducePiece{}, device);
    return;
  }
  if (a.nout_dims > 0 && (e.in_out > limit / 2 || e.out > limit / 2 || e.n_out > limit / 2)) {
    int best = 0;  // the output dim that spans the most
    int64_t most = -1;
    for (int d = 0; d < a.nout_dims; ++d) {
      const int64_t m = std::max({span(a.out_sizes[d], a.in_out_strides[d]), span(a.out_sizes[d], a.out_strides[0][d]),
                                  span(a.out_sizes[d], a.out_strides[1][d]), a.out_sizes[d]});
      if (m > most) most = m, best = d;
    }
    const int64_t size = a.out_sizes[best], half = size / 2;
    for (const auto& [start, n] : {std::pair<int64_t, int64_t>{0, half}, {half, size - half}}) {
      ReduceArgs sub = a;
      sub.in += start * a.in_out_strides[best];
      sub.out[0] += start * a.out_strides[0][best];
      if (sub.out[1] != nullptr) sub.out[1] += start * a.out_strides[1][best];
      sub.out_sizes[best] = n;
      if (n == 1) drop_output_dim(sub, best);
      launch_reduce(sig, sub, device);
    }
    return;
  }
  // The outputs fit: cut the reduction into pieces along its slowest dims, in index order.
  std::vector<std::pair<ReduceArgs, int64_t>> pieces;  // (piece, reduction index of its first element)
  const auto cut = [&](auto&& self, const ReduceArgs& r, int64_t idx_base) -> void {
    if (fits(extents(r, in_elem, out_elem), limit)) {
      pieces.emplace_back(r, idx_base);
      return;
    }
    const int d = r.nred_dims - 1;
    int64_t below = 1;  // reduction indices per step of dim d
    for (int k = 0; k < d; ++k) below *= r.red_sizes[k];
    const int64_t size = r.red_sizes[d], half = size / 2;
    for (const auto& [start, n] : {std::pair<int64_t, int64_t>{0, half}, {half, size - half}}) {
      ReduceArgs sub = r;
      sub.in += start * r.in_red_strides[d];
      sub.red_sizes[d] = n;
      if (n == 1) drop_reduced_dim(sub, d);
      self(self, sub, idx_base + start * below);
    }
  };
  cut(cut, a, 0);
  Storage acc = Storage::allocate(static_cast<size_t>(e.n_out * kMaxAccBytes), Device(kCUDA, device.index));
  for (size_t k = 0; k < pieces.size(); ++k) {
    ReducePiece piece;
    piece.idx_base = pieces[k].second;
    piece.acc_buf = acc.data();
    piece.acc_mode = (k > 0 ? kAccIn : 0) | (k + 1 < pieces.size() ? kAccOut : 0);
    launch_reduce_piece(sig, pieces[k].first, piece, device);
  }
}

void CudaKernelLibrary::launch_reduce_piece(const ReduceSignature& sig, const ReduceArgs& a, const ReducePiece& piece,
                                            Device device) {
  const auto [inner_fn, outer_fn] = reduce_functions(sig, device.index);
  ReduceLaunch p{};
  p.idx_base = piece.idx_base;
  p.acc_mode = piece.acc_mode;
  p.acc_buf = piece.acc_buf;
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
    if (p.n_out < 2 * sms) {  // aim at 8 blocks per SM, each with at least one chunk of the row
      const int64_t chunks = (p.n_red + kSplitChunk - 1) / kSplitChunk;
      const int64_t most = std::max<int64_t>(1, std::min<int64_t>(chunks, 65535));
      splits = std::clamp<int64_t>((8 * sms + p.n_out - 1) / p.n_out, 1, most);
    }
    counters = p.n_out;
  } else {
    // A thread per output; split the rows when there are too few threads to fill the device.
    const int64_t blocks = (p.n_out + kReduceThreads - 1) / kReduceThreads;
    INGOT_CHECK(blocks < (int64_t{1} << 31), ValueError, sig.op, ": too many outputs for one launch (", p.n_out, ")");
    grid_x = static_cast<unsigned>(blocks);
    if (blocks < 4 * sms) {  // aim at 4 blocks per SM, each summing at least 32 rows
      const int64_t most = std::max<int64_t>(1, std::min<int64_t>(p.n_red / 32, 65535));
      splits = std::clamp<int64_t>((4 * sms + blocks - 1) / blocks, 1, most);
    }
    counters = blocks;
  }
  p.splits = static_cast<int32_t>(splits);
  Storage scratch;
  if (splits > 1) {
    const size_t partial_bytes = static_cast<size_t>(p.n_out * splits * kMaxAccBytes);
    const size_t counter_bytes = static_cast<size_t>(counters) * sizeof(unsigned int);
    scratch = Storage::allocate(partial_bytes + counter_bytes + 16, device);
    char* base = static_cast<char*>(scratch.data());
    p.partials = base;
    p.counters = reinterpret_cast<unsigned int*>(base + (partial_bytes + 15) / 16 * 16);
    INGOT_CU_CHECK(driver().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(p.counters), 0, counter_bytes,
                                            stream(device.index)));
  }
  void* kernel_args[] = {&p};
  INGOT_CU_CHECK(driver().cuLaunchKernel(inner ? inner_fn : outer_fn, grid_x, static_cast<unsigned>(splits), 1,
                                         threads, 1, 1, 0, stream(device.index), kernel_args, nullptr));
}

}  // namespace ingot::cuda
