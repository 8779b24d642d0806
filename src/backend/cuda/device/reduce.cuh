// The CUDA reduction driver for ReduceKernel instantiations (compiled by NVRTC only).
//  * inner (the fastest iteration dim is reduced): a block per output (and per split of it);
//    threads stride along the row with 16-byte vector loads when the row is contiguous and
//    aligned, kReduceUnroll loads in flight and as many independent accumulators; then warp
//    shuffles, then shared memory across warps.
//  * outer (the fastest dim is an output dim): a thread per output, adjacent threads on adjacent
//    outputs (coalesced), kReduceUnroll rows in flight.
// With few outputs the reduction of each is split over gridDim.y blocks: each writes its partial
// accumulator, and the last block to finish (an atomic ticket) combines the partials in split
// order, so results are deterministic run to run.
#pragma once

#include "backend/cuda/device/reduce_params.h"

namespace ingot::cuda {

template <typename T, int V>
struct alignas(sizeof(T) * V) RVec {
  T v[V];
};

__device__ __forceinline__ int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

// Accumulators travel as 32-bit words (any trivially copyable type).
template <typename T>
struct AccWords {
  static constexpr int kWords = (static_cast<int>(sizeof(T)) + 3) / 4;
  unsigned int w[kWords];
};
template <typename T>
__device__ __forceinline__ void copy_bytes(void* dst, const void* src) {
  const unsigned char* s = static_cast<const unsigned char*>(src);
  unsigned char* d = static_cast<unsigned char*>(dst);
#pragma unroll
  for (unsigned i = 0; i < sizeof(T); ++i) d[i] = s[i];
}
template <typename T>
__device__ __forceinline__ AccWords<T> to_words(const T& v) {
  AccWords<T> a{};
  copy_bytes<T>(a.w, &v);
  return a;
}
template <typename T>
__device__ __forceinline__ T from_words(const AccWords<T>& a) {
  T r;
  copy_bytes<T>(&r, a.w);
  return r;
}
template <typename T>
__device__ __forceinline__ T shfl_down_acc(const T& v, int delta) {
  AccWords<T> a = to_words(v);
#pragma unroll
  for (int i = 0; i < AccWords<T>::kWords; ++i) a.w[i] = __shfl_down_sync(0xffffffffu, a.w[i], delta);
  return from_words<T>(a);
}
// Partials are stored as words and read back through L2 (__ldcg): another SM wrote them.
template <typename T>
__device__ __forceinline__ void store_partial(void* base, int64_t i, const T& v) {
  AccWords<T> a = to_words(v);
  unsigned int* q = reinterpret_cast<unsigned int*>(base) + i * (kMaxAccBytes / 4);
#pragma unroll
  for (int k = 0; k < AccWords<T>::kWords; ++k) q[k] = a.w[k];
}
template <typename T>
__device__ __forceinline__ T load_partial(const void* base, int64_t i) {
  AccWords<T> a;
  const unsigned int* q = reinterpret_cast<const unsigned int*>(base) + i * (kMaxAccBytes / 4);
#pragma unroll
  for (int k = 0; k < AccWords<T>::kWords; ++k) a.w[k] = __ldcg(q + k);
  return from_words<T>(a);
}

template <typename K>
struct ReduceDriver {
  using Ops = typename K::Ops;
  using In = typename K::In;
  using acc_t = typename K::acc_t;
  static constexpr int kVec = sizeof(In) >= 16 ? 1 : 16 / static_cast<int>(sizeof(In));
  static constexpr int kPartialBatch = 4;  // split partials loaded at once by a finishing thread
  static_assert(sizeof(acc_t) <= kMaxAccBytes, "a split buffer slot holds kMaxAccBytes");

  static __device__ __forceinline__ int64_t red_offset(const ReduceLaunch& p, int64_t r) {
    if (p.nred_dims == 1) return r * p.in_red_strides[0];
    int64_t off = 0;
    for (int d = 0; d < p.nred_dims; ++d) {
      const int64_t size = p.red_sizes[d];
      const int64_t q = r / size;
      off += (r - q * size) * p.in_red_strides[d];
      r = q;
    }
    return off;
  }
  // Output o's input offset; its output pointers in out0/out1.
  static __device__ __forceinline__ int64_t out_offsets(const ReduceLaunch& p, int64_t o, char** out0, char** out1) {
    int64_t in_off = 0, off0 = 0, off1 = 0;
    for (int d = 0; d < p.nout_dims; ++d) {
      const int64_t size = p.out_sizes[d];
      const int64_t q = o / size, i = o - q * size;
      in_off += i * p.in_out_strides[d];
      off0 += i * p.out_strides[0][d];
      off1 += i * p.out_strides[1][d];
      o = q;
    }
    *out0 = p.out[0] + off0;
    *out1 = p.out[1] == nullptr ? nullptr : p.out[1] + off1;
    return in_off;
  }
  // Split y of splits of [0, n): boundaries on kSplitChunk multiples (vector alignment kept).
  static __device__ __forceinline__ void split_range(int64_t n, int splits, int y, int64_t* r0, int64_t* r1) {
    const int64_t chunks = (n + kSplitChunk - 1) / kSplitChunk;
    *r0 = imin(n, chunks * y / splits * kSplitChunk);
    *r1 = imin(n, chunks * (y + 1) / splits * kSplitChunk);
  }

  // Combines the block's accumulators in thread order (thread t's before thread t+1's); the
  // result is valid in thread 0.
  static __device__ acc_t block_reduce(const Ops& ops, acc_t acc) {
    __shared__ alignas(16) unsigned char smem[32 * sizeof(acc_t)];
    acc_t* shared = reinterpret_cast<acc_t*>(smem);
    for (int delta = 1; delta < 32; delta *= 2) {
      const acc_t other = shfl_down_acc(acc, delta);
      if (static_cast<int>(threadIdx.x % 32) + delta < 32) acc = ops.combine(acc, other);
    }
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int nwarps = (static_cast<int>(blockDim.x) + 31) / 32;
    __syncthreads();  // smem may still be read from a previous output
    if (lane == 0) shared[warp] = acc;
    __syncthreads();
    if (warp == 0) {
      acc = lane < nwarps ? shared[lane] : ops.identity();
      for (int delta = 1; delta < 32; delta *= 2) {
        const acc_t other = shfl_down_acc(acc, delta);
        if (lane + delta < 32) acc = ops.combine(acc, other);
      }
    }
    return acc;
  }

  // The last block of a split output combines the `splits` partials at `partials`: each thread
  // an equal run of them in order, then the block in thread order, so the result is the same
  // every run. Returns the total in thread 0.
  static __device__ acc_t combine_partials(const Ops& ops, const void* partials, int64_t first, int splits) {
    const int nt = static_cast<int>(blockDim.x), per = (splits + nt - 1) / nt;
    const int s0 = static_cast<int>(threadIdx.x) * per, s1 = s0 + per < splits ? s0 + per : splits;
    acc_t total = ops.identity();
    for (int s = s0; s < s1; s += kPartialBatch) {
      acc_t part[kPartialBatch];  // loads in flight together: each one is an L2 round trip
#pragma unroll
      for (int j = 0; j < kPartialBatch; ++j) part[j] = s + j < s1 ? load_partial<acc_t>(partials, first + s + j) : ops.identity();
#pragma unroll
      for (int j = 0; j < kPartialBatch; ++j) total = ops.combine(total, part[j]);
    }
    return block_reduce(ops, total);
  }

  // Thread 0 of a block holding `acc` for output o: store it, or (split) publish the partial and,
  // in the last block, combine all of them. Returns with the block synchronized.
  static __device__ void finish(const ReduceLaunch& p, const Ops& ops, acc_t acc, int64_t o, unsigned int* counter,
                                char* out0, char* out1) {
    if (p.splits == 1) {
      if (threadIdx.x == 0) K::store(ops, out0, out1, acc);
      return;
    }
    __shared__ bool last;
    if (threadIdx.x == 0) {
      store_partial(p.partials, o * p.splits + blockIdx.y, acc);
      __threadfence();
      last = atomicAdd(counter, 1u) == static_cast<unsigned>(p.splits - 1);
    }
    __syncthreads();
    if (!last) return;  // uniform across the block
    __threadfence();
    const acc_t total = combine_partials(ops, p.partials, o * p.splits, p.splits);
    if (threadIdx.x == 0) {
      K::store(ops, out0, out1, total);
      *counter = 0;  // ready for the next launch that reuses the buffer
    }
  }

  // Adds a block of kB elements held in registers: through the functor's block hook when it has
  // one (one accumulator update per block instead of per element), else element by element into
  // acc[0..kB/kStep) round robin. idx(j) is element j's reduction index.
  template <int kB, typename Idx>
  static __device__ __forceinline__ void add_block(const Ops& ops, const In (&v)[kB], acc_t* acc, Idx idx) {
    if constexpr (has_reduce_block<Ops, In>::value && kB % 8 == 0) {
      acc[0] = ops.combine(acc[0], ops.reduce_block(v, kB));
    } else {
#pragma unroll
      for (int j = 0; j < kB; ++j) acc[j % kReduceUnroll] = ops.reduce(acc[j % kReduceUnroll], static_cast<opmath_t<In>>(v[j]), idx(j));
    }
  }

  // Elements [r0, r1) of a contiguous row at `row`, into acc[] (this thread's share).
  static __device__ __forceinline__ void contiguous_row(const Ops& ops, const In* row, int64_t r0, int64_t r1,
                                                        acc_t* acc) {
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    // Head: elements before the first 16-byte boundary; tail: after the last whole vector.
    const int64_t mis = static_cast<int64_t>((reinterpret_cast<unsigned long long>(row + r0) % 16) / sizeof(In));
    const int64_t head = imin(r1 - r0, mis == 0 ? int64_t{0} : kVec - mis);
    const int64_t v0 = r0 + head, nvec = (r1 - v0) / kVec, v1 = v0 + nvec * kVec;
    if (tid < head) acc[0] = ops.reduce(acc[0], static_cast<opmath_t<In>>(row[r0 + tid]), r0 + tid);
    const RVec<In, kVec>* vrow = reinterpret_cast<const RVec<In, kVec>*>(row + v0);
    int64_t i = tid;
    for (; i + (kReduceUnroll - 1) * nt < nvec; i += kReduceUnroll * nt) {
      RVec<In, kVec> x[kReduceUnroll];
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) x[u] = vrow[i + u * nt];
      // Accumulator u takes vector u's elements: each accumulator sees increasing indices.
      In v[kReduceUnroll * kVec];
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) {
#pragma unroll
        for (int k = 0; k < kVec; ++k) v[k * kReduceUnroll + u] = x[u].v[k];
      }
      const int64_t base = v0 + i * kVec;
      const int64_t step = static_cast<int64_t>(nt) * kVec;
      add_block<kReduceUnroll * kVec>(ops, v, acc, [&](int j) { return base + (j % kReduceUnroll) * step + j / kReduceUnroll; });
    }
    for (; i < nvec; i += nt) {
      const RVec<In, kVec> x = vrow[i];
#pragma unroll
      for (int k = 0; k < kVec; ++k) acc[0] = ops.reduce(acc[0], static_cast<opmath_t<In>>(x.v[k]), v0 + i * kVec + k);
    }
    for (int64_t r = v1 + tid; r < r1; r += nt) acc[1] = ops.reduce(acc[1], static_cast<opmath_t<In>>(row[r]), r);
  }

  static __device__ void inner(const ReduceLaunch& p) {
    Ops ops;
    ops.prm = p.params;
    const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);
    for (int64_t o = blockIdx.x; o < p.n_out; o += gridDim.x) {
      char *out0, *out1;
      const char* base = p.in + out_offsets(p, o, &out0, &out1);
      int64_t r0 = 0, r1 = p.n_red;
      if (p.splits > 1) split_range(p.n_red, p.splits, static_cast<int>(blockIdx.y), &r0, &r1);
      acc_t acc[kReduceUnroll];
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) acc[u] = ops.identity();
      if (p.nred_dims == 1 && p.in_red_strides[0] == static_cast<int64_t>(sizeof(In)) &&
          reinterpret_cast<unsigned long long>(base) % sizeof(In) == 0) {
        contiguous_row(ops, reinterpret_cast<const In*>(base), r0, r1, acc);
      } else {
        int64_t r = r0 + tid;
        for (; r + (kReduceUnroll - 1) * nt < r1; r += kReduceUnroll * nt) {
          In x[kReduceUnroll];
#pragma unroll
          for (int u = 0; u < kReduceUnroll; ++u) x[u] = *reinterpret_cast<const In*>(base + red_offset(p, r + u * nt));
#pragma unroll
          for (int u = 0; u < kReduceUnroll; ++u) acc[u] = ops.reduce(acc[u], static_cast<opmath_t<In>>(x[u]), r + u * nt);
        }
        for (; r < r1; r += nt) {
          acc[0] = ops.reduce(acc[0], K::load(base + red_offset(p, r)), r);
        }
      }
#pragma unroll
      for (int u = 1; u < kReduceUnroll; ++u) acc[0] = ops.combine(acc[0], acc[u]);
      acc[0] = block_reduce(ops, acc[0]);
      finish(p, ops, acc[0], o, p.counters == nullptr ? nullptr : p.counters + o, out0, out1);
      (void)tid;
    }
  }

  // A thread per V adjacent outputs (one vector load covers them), walking the rows. The launch
  // uses V = 1: 4 outputs a thread with 16-byte loads measured slower on the H200 (a float32
  // 16384x16384 sum over dim 0 at 72-79% of copy, against 87% with V = 1).
  template <int V>
  static __device__ void outer(const ReduceLaunch& p) {
    Ops ops;
    ops.prm = p.params;
    constexpr int kRows = 8;  // rows loaded per step (a block for the block hook)
    const int64_t o = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) * V;
    const bool active = o < p.n_out;
    char *out0 = nullptr, *out1 = nullptr;
    acc_t acc[V][kReduceUnroll];
#pragma unroll
    for (int k = 0; k < V; ++k) {
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) acc[k][u] = ops.identity();
    }
    int64_t r0 = 0, r1 = p.n_red;
    if (p.splits > 1) {
      r0 = p.n_red * blockIdx.y / p.splits;
      r1 = p.n_red * (blockIdx.y + 1) / p.splits;
    }
    if (active) {
      const char* base = p.in + out_offsets(p, o, &out0, &out1);
      if (p.nred_dims == 1) {
        const int64_t s = p.in_red_strides[0];
        int64_t r = r0;
        for (; r + kRows <= r1; r += kRows) {
          RVec<In, V> x[kRows];
#pragma unroll
          for (int j = 0; j < kRows; ++j) x[j] = *reinterpret_cast<const RVec<In, V>*>(base + (r + j) * s);
#pragma unroll
          for (int k = 0; k < V; ++k) {
            In v[kRows];
#pragma unroll
            for (int j = 0; j < kRows; ++j) v[j] = x[j].v[k];
            add_block<kRows>(ops, v, acc[k], [&](int j) { return r + j; });
          }
        }
        for (; r < r1; ++r) {
          const RVec<In, V> x = *reinterpret_cast<const RVec<In, V>*>(base + r * s);
#pragma unroll
          for (int k = 0; k < V; ++k) acc[k][0] = ops.reduce(acc[k][0], static_cast<opmath_t<In>>(x.v[k]), r);
        }
      } else {
        for (int64_t r = r0; r < r1; ++r) {
          const RVec<In, V> x = *reinterpret_cast<const RVec<In, V>*>(base + red_offset(p, r));
#pragma unroll
          for (int k = 0; k < V; ++k) {
            acc[k][r % kReduceUnroll] = ops.reduce(acc[k][r % kReduceUnroll], static_cast<opmath_t<In>>(x.v[k]), r);
          }
        }
      }
#pragma unroll
      for (int k = 0; k < V; ++k) {
        // acc[k][u] took rows u, u + kReduceUnroll, ...: combine them in that interleaved order's
        // index-agnostic way (every combine compares indices itself where they matter).
#pragma unroll
        for (int u = 1; u < kReduceUnroll; ++u) acc[k][0] = ops.combine(acc[k][0], acc[k][u]);
      }
    }
    const int64_t step0 = p.nout_dims > 0 ? p.out_strides[0][0] : 0, step1 = p.nout_dims > 0 ? p.out_strides[1][0] : 0;
    if (p.splits == 1) {
      if (active) {
#pragma unroll
        for (int k = 0; k < V; ++k) K::store(ops, out0 + k * step0, out1 == nullptr ? nullptr : out1 + k * step1, acc[k][0]);
      }
      return;
    }
    // Split: every thread publishes its partials; the last block of this column combines them.
    if (active) {
#pragma unroll
      for (int k = 0; k < V; ++k) store_partial(p.partials, (o + k) * p.splits + blockIdx.y, acc[k][0]);
    }
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) last = atomicAdd(p.counters + blockIdx.x, 1u) == static_cast<unsigned>(p.splits - 1);
    __syncthreads();
    if (!last) return;
    __threadfence();
    if (active) {
      acc_t total[V];
#pragma unroll
      for (int k = 0; k < V; ++k) total[k] = ops.identity();
      for (int s = 0; s < p.splits; s += kPartialBatch) {
        acc_t part[V][kPartialBatch];  // V * kPartialBatch L2 loads in flight
#pragma unroll
        for (int k = 0; k < V; ++k) {
#pragma unroll
          for (int j = 0; j < kPartialBatch; ++j) {
            part[k][j] = s + j < p.splits ? load_partial<acc_t>(p.partials, (o + k) * p.splits + s + j) : ops.identity();
          }
        }
#pragma unroll
        for (int k = 0; k < V; ++k) {
#pragma unroll
          for (int j = 0; j < kPartialBatch; ++j) total[k] = ops.combine(total[k], part[k][j]);
        }
      }
#pragma unroll
      for (int k = 0; k < V; ++k) K::store(ops, out0 + k * step0, out1 == nullptr ? nullptr : out1 + k * step1, total[k]);
    }
    if (threadIdx.x == 0) p.counters[blockIdx.x] = 0;
  }
};

}  // namespace ingot::cuda

#define INGOT_CUDA_REDUCE_KERNELS(name, K)                                                       \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kReduceThreads)                    \
      name##_inner(const __grid_constant__ ::ingot::cuda::ReduceLaunch p) {                      \
    ::ingot::cuda::ReduceDriver<K>::inner(p);                                                    \
  }                                                                                              \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kReduceThreads)                    \
      name##_outer(const __grid_constant__ ::ingot::cuda::ReduceLaunch p) {                      \
    ::ingot::cuda::ReduceDriver<K>::template outer<1>(p);                                        \
  }
