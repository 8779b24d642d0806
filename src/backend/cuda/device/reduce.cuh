// The CUDA reduction driver for ReduceKernel instantiations (compiled by NVRTC only).
//  * inner (the fastest iteration dim is reduced): a block per output (and per split of it);
//    threads stride along the row with 16-byte vector loads when the row is contiguous and
//    aligned, kReduceUnroll loads in flight and as many independent accumulators; then warp
//    shuffles, then shared memory across warps.
//  * outer (the fastest dim is an output dim): a thread per output, adjacent threads on adjacent
//    outputs (coalesced), 8 rows in flight.
// With few outputs the reduction of each is split over gridDim.y blocks: each writes its partial
// accumulator, and the last block to finish (an atomic ticket) combines the partials in split
// order, so results are deterministic run to run. Offsets are 32-bit; inputs too large for that
// arrive as several launches (src/backend/cuda/reduce.cpp) chained through acc_buf.
#pragma once

#include "backend/cuda/device/reduce_params.h"

// Rows the outer strategy loads per step: for ops with a block hook (var/std), and for the others.
// Macros, for A/B tuning runs (INGOT_NVRTC_EXTRA_OPTIONS, docs/cuda.md).
#ifndef INGOT_REDUCE_OUTER_HOOK_ROWS
#define INGOT_REDUCE_OUTER_HOOK_ROWS 16
#endif
#ifndef INGOT_REDUCE_OUTER_ROWS
#define INGOT_REDUCE_OUTER_ROWS 8
#endif
// Resident blocks per SM the inner kernel is built for when it reads float16/bfloat16 into an
// accumulator of at most 4 bytes (__launch_bounds__' minimum: a cap of 40 registers). The float16
// sum took 42 registers, so five blocks an SM: 90.9% of copy against 96.6% with six in the H200 A/B
// of 2026-12-02. Other inputs keep the compiler's choice (0: no minimum): with the cap, 1-byte and
// int16 max/min and float32 nansum needed stack. vector_norm's general p takes 32 bytes of stack
// under it for 2-byte floats (its pow per element outweighs them).
#ifndef INGOT_REDUCE_INNER_MIN_BLOCKS
#define INGOT_REDUCE_INNER_MIN_BLOCKS 6
#endif

namespace ingot::cuda {

template <typename K>
inline constexpr bool kReadsReducedFloat = is_reduced_float_v<typename K::In> &&
                                           sizeof(typename K::acc_t) <= 4;
template <typename K>
inline constexpr int kReduceInnerMinBlocks =
    kReadsReducedFloat<K> ? INGOT_REDUCE_INNER_MIN_BLOCKS : 0;

template <typename T, int V>
struct alignas(sizeof(T) * V) RVec {
  T v[V];
};

__device__ __forceinline__ int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

// Input loads take the read-only data path (ld.global.nc, LDG.E.CONSTANT in SASS): a reduction
// never writes its input (iterator_reduce.cpp rejects an out= sharing the input's memory). On the
// H200 the float32 16384x16384 sum over dim 0, kernel timed alone, ran at 99.7% of copy with plain
// loads at 4 blocks per SM, 101.7% with these at 5, and 103.8% with the planar partials below
// (bench/RESULTS.md, 2026-12-03 evening). Types whose alignment is below their size (a complex of
// two floats) load plainly.
template <int N>
struct RoWord;
template <>
struct RoWord<1> {
  using type = unsigned char;
};
template <>
struct RoWord<2> {
  using type = unsigned short;
};
template <>
struct RoWord<4> {
  using type = unsigned int;
};
template <>
struct RoWord<8> {
  using type = unsigned long long;
};
template <>
struct RoWord<16> {
  using type = uint4;
};
template <typename T>
__device__ __forceinline__ T load_ro(const T* p) {
  constexpr int n = static_cast<int>(sizeof(T));
  if constexpr (alignof(T) == sizeof(T) && (n == 1 || n == 2 || n == 4 || n == 8 || n == 16)) {
    using W = typename RoWord<n>::type;
    const W w = __ldg(reinterpret_cast<const W*>(p));
    T v;
    memcpy(&v, &w, sizeof(T));
    return v;
  } else {
    return *p;
  }
}

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
// Whole words move as words: a byte loop over a 32-byte accumulator compiled to ~80 byte
// extracts and inserts per shuffle level (var's block tail was most of its instructions).
template <typename T>
__device__ __forceinline__ AccWords<T> to_words(const T& v) {
  AccWords<T> a{};
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) % 4 == 0) {
    const unsigned int* words = reinterpret_cast<const unsigned int*>(&v);
#pragma unroll
    for (int i = 0; i < AccWords<T>::kWords; ++i) a.w[i] = words[i];
  } else {
    copy_bytes<T>(a.w, &v);
  }
  return a;
}
template <typename T>
__device__ __forceinline__ T from_words(const AccWords<T>& a) {
  T r;
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) % 4 == 0) {
    unsigned int* words = reinterpret_cast<unsigned int*>(&r);
#pragma unroll
    for (int i = 0; i < AccWords<T>::kWords; ++i) words[i] = a.w[i];
  } else {
    copy_bytes<T>(&r, a.w);
  }
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
// Planar partials: word k of partial i at word k * plane + i, so adjacent threads (adjacent i)
// store and load adjacent words (the outer strategy; plane is the number of partials).
template <typename T>
__device__ __forceinline__ void store_partial_planar(void* base, int64_t i, int64_t plane,
                                                     const T& v) {
  AccWords<T> a = to_words(v);
  unsigned int* q = reinterpret_cast<unsigned int*>(base) + i;
#pragma unroll
  for (int k = 0; k < AccWords<T>::kWords; ++k) q[k * plane] = a.w[k];
}
template <typename T>
__device__ __forceinline__ T load_partial_planar(const void* base, int64_t i, int64_t plane) {
  AccWords<T> a;
  const unsigned int* q = reinterpret_cast<const unsigned int*>(base) + i;
#pragma unroll
  for (int k = 0; k < AccWords<T>::kWords; ++k) a.w[k] = __ldcg(q + k * plane);
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

  // Element p of the input, converted to the compute type (kernels/reduce.h's K::load, read-only).
  static __device__ __forceinline__ opmath_t<In> load_in(const char* p) {
    return static_cast<opmath_t<In>>(load_ro(reinterpret_cast<const In*>(p)));
  }
  // Offsets and counts inside one launch are 32-bit (the host split the input to make them fit);
  // reduction indices handed to the functor are 64-bit: idx_base + the launch's own index.
  static __device__ __forceinline__ int32_t red_offset(const ReduceLaunch& p, int32_t r) {
    if (p.nred_dims == 1) return r * static_cast<int32_t>(p.in_red_strides[0]);
    int32_t off = 0;
    for (int d = 0; d < p.nred_dims; ++d) {
      const auto size = static_cast<int32_t>(p.red_sizes[d]);
      const int32_t q = r / size;
      off += (r - q * size) * static_cast<int32_t>(p.in_red_strides[d]);
      r = q;
    }
    return off;
  }
  // Output o's input offset; its output pointers in out0/out1.
  static __device__ __forceinline__ int32_t out_offsets(const ReduceLaunch& p, int32_t o, char** out0, char** out1) {
    int32_t in_off = 0, off0 = 0, off1 = 0;
    for (int d = 0; d < p.nout_dims; ++d) {
      const auto size = static_cast<int32_t>(p.out_sizes[d]);
      const int32_t q = o / size, i = o - q * size;
      in_off += i * static_cast<int32_t>(p.in_out_strides[d]);
      off0 += i * static_cast<int32_t>(p.out_strides[0][d]);
      off1 += i * static_cast<int32_t>(p.out_strides[1][d]);
      o = q;
    }
    *out0 = p.out[0] + off0;
    *out1 = p.out[1] == nullptr ? nullptr : p.out[1] + off1;
    return in_off;
  }
  // Split y of splits of [0, n): boundaries on kSplitChunk multiples (vector alignment kept).
  static __device__ __forceinline__ void split_range(int32_t n, int splits, int y, int32_t* r0, int32_t* r1) {
    const int64_t chunks = (n + kSplitChunk - 1) / kSplitChunk;
    *r0 = static_cast<int32_t>(imin(n, chunks * y / splits * kSplitChunk));
    *r1 = static_cast<int32_t>(imin(n, chunks * (y + 1) / splits * kSplitChunk));
  }
  // Output o's final accumulator: into the outputs, or (a piece of a longer reduction) merged with
  // the earlier pieces' accumulator and carried on in acc_buf.
  static __device__ __forceinline__ void emit(const ReduceLaunch& p, const Ops& ops, int32_t o, char* out0, char* out1,
                                              acc_t acc) {
    if (p.acc_mode & kAccIn) acc = ops.combine(load_partial<acc_t>(p.acc_buf, o), acc);
    if (p.acc_mode & kAccOut) {
      store_partial(p.acc_buf, o, acc);
    } else {
      K::store(ops, out0, out1, acc);
    }
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

  // Thread 0 of a block holding `acc` for output o: emit it, or (split) publish the partial and,
  // in the last block, combine all of them. Returns with the block synchronized.
  static __device__ void finish(const ReduceLaunch& p, const Ops& ops, acc_t acc, int32_t o, char* out0, char* out1) {
    if (p.splits == 1) {
      if (threadIdx.x == 0) emit(p, ops, o, out0, out1, acc);
      return;
    }
    __shared__ bool last;
    const int64_t first = static_cast<int64_t>(o) * p.splits;
    if (threadIdx.x == 0) {
      store_partial(p.partials, first + blockIdx.y, acc);
      __threadfence();
      last = atomicAdd(p.counters + o, 1u) == static_cast<unsigned>(p.splits - 1);
    }
    __syncthreads();
    if (!last) return;  // uniform across the block
    __threadfence();
    const acc_t total = combine_partials(ops, p.partials, first, p.splits);
    if (threadIdx.x == 0) {
      emit(p, ops, o, out0, out1, total);
      p.counters[o] = 0;  // ready for the next launch that reuses the buffer
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

  // Elements [r0, r1) of a contiguous row at `row`, into acc[] (this thread's share); ib is the
  // reduction index of row[0].
  static __device__ __forceinline__ void contiguous_row(const Ops& ops, const In* row, int32_t r0, int32_t r1,
                                                        int64_t ib, acc_t* acc) {
    const int32_t tid = static_cast<int32_t>(threadIdx.x), nt = static_cast<int32_t>(blockDim.x);
    // Head: elements before the first 16-byte boundary; tail: after the last whole vector.
    const auto mis = static_cast<int32_t>((reinterpret_cast<unsigned long long>(row + r0) % 16) / sizeof(In));
    const int32_t head = r1 - r0 < (mis == 0 ? 0 : kVec - mis) ? r1 - r0 : (mis == 0 ? 0 : kVec - mis);
    const int32_t v0 = r0 + head, nvec = (r1 - v0) / kVec, v1 = v0 + nvec * kVec;
    if (tid < head)
      acc[0] =
          ops.reduce(acc[0], static_cast<opmath_t<In>>(load_ro(row + r0 + tid)), ib + r0 + tid);
    const RVec<In, kVec>* vrow = reinterpret_cast<const RVec<In, kVec>*>(row + v0);
    int32_t i = tid;
    for (; i < nvec - (kReduceUnroll - 1) * nt; i += kReduceUnroll * nt) {
      RVec<In, kVec> x[kReduceUnroll];
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) x[u] = load_ro(vrow + i + u * nt);
      // Accumulator u takes vector u's elements: each accumulator sees increasing indices.
      In v[kReduceUnroll * kVec];
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) {
#pragma unroll
        for (int k = 0; k < kVec; ++k) v[k * kReduceUnroll + u] = x[u].v[k];
      }
      const int64_t base = ib + v0 + static_cast<int64_t>(i) * kVec;
      const int32_t step = nt * kVec;
      add_block<kReduceUnroll * kVec>(ops, v, acc, [&](int j) { return base + (j % kReduceUnroll) * step + j / kReduceUnroll; });
    }
    for (; i < nvec; i += nt) {
      const RVec<In, kVec> x = load_ro(vrow + i);
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        acc[0] = ops.reduce(acc[0], static_cast<opmath_t<In>>(x.v[k]), ib + v0 + static_cast<int64_t>(i) * kVec + k);
      }
    }
    for (int32_t r = v1 + tid; r < r1; r += nt)
      acc[1] = ops.reduce(acc[1], static_cast<opmath_t<In>>(load_ro(row + r)), ib + r);
  }

  static __device__ void inner(const ReduceLaunch& p) {
    Ops ops;
    ops.prm = p.params;
    const int32_t tid = static_cast<int32_t>(threadIdx.x), nt = static_cast<int32_t>(blockDim.x);
    const auto n_red = static_cast<int32_t>(p.n_red);
    const int64_t ib = p.idx_base;
    for (int64_t oo = blockIdx.x; oo < p.n_out; oo += gridDim.x) {  // 64-bit: oo + gridDim.x may pass 2^31
      const auto o = static_cast<int32_t>(oo);
      char *out0, *out1;
      const char* base = p.in + out_offsets(p, o, &out0, &out1);
      int32_t r0 = 0, r1 = n_red;
      if (p.splits > 1) split_range(n_red, p.splits, static_cast<int>(blockIdx.y), &r0, &r1);
      acc_t acc[kReduceUnroll];
#pragma unroll
      for (int u = 0; u < kReduceUnroll; ++u) acc[u] = ops.identity();
      if (p.nred_dims == 1 && p.in_red_strides[0] == static_cast<int64_t>(sizeof(In)) &&
          reinterpret_cast<unsigned long long>(base) % sizeof(In) == 0) {
        contiguous_row(ops, reinterpret_cast<const In*>(base), r0, r1, ib, acc);
      } else {
        int32_t r = r0 + tid;
        for (; r < r1 - (kReduceUnroll - 1) * nt; r += kReduceUnroll * nt) {
          In x[kReduceUnroll];
#pragma unroll
          for (int u = 0; u < kReduceUnroll; ++u)
            x[u] = load_ro(reinterpret_cast<const In*>(base + red_offset(p, r + u * nt)));
#pragma unroll
          for (int u = 0; u < kReduceUnroll; ++u) acc[u] = ops.reduce(acc[u], static_cast<opmath_t<In>>(x[u]), ib + r + u * nt);
        }
        for (; r < r1; r += nt)
          acc[0] = ops.reduce(acc[0], load_in(base + red_offset(p, r)), ib + r);
      }
#pragma unroll
      for (int u = 1; u < kReduceUnroll; ++u) acc[0] = ops.combine(acc[0], acc[u]);
      acc[0] = block_reduce(ops, acc[0]);
      finish(p, ops, acc[0], o, out0, out1);
    }
  }

  // A thread per output, adjacent threads on adjacent outputs, walking the rows kRows at a time.
  // (4 outputs a thread with 16-byte loads measured slower on the H200: a float32 16384x16384 sum
  // over dim 0 at 72-79% of copy, against 87% this way.)
  static __device__ void outer(const ReduceLaunch& p) {
    Ops ops;
    ops.prm = p.params;
    // Rows loaded per step (a block for the block hook; the macros above).
    constexpr int kRows =
        has_reduce_block<Ops, In>::value ? INGOT_REDUCE_OUTER_HOOK_ROWS : INGOT_REDUCE_OUTER_ROWS;
    const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool active = gid < p.n_out;
    const auto o = static_cast<int32_t>(active ? gid : 0);
    const int64_t ib = p.idx_base;
    char *out0 = nullptr, *out1 = nullptr;
    acc_t acc[kReduceUnroll];
#pragma unroll
    for (int u = 0; u < kReduceUnroll; ++u) acc[u] = ops.identity();
    int32_t r0 = 0, r1 = static_cast<int32_t>(p.n_red);
    if (p.splits > 1) {
      r0 = static_cast<int32_t>(p.n_red * blockIdx.y / p.splits);
      r1 = static_cast<int32_t>(p.n_red * (blockIdx.y + 1) / p.splits);
    }
    if (active) {
      const char* base = p.in + out_offsets(p, o, &out0, &out1);
      if (p.nred_dims == 1) {
        const auto s = static_cast<int32_t>(p.in_red_strides[0]);
        int32_t r = r0;
        for (; r <= r1 - kRows; r += kRows) {
          In v[kRows];
#pragma unroll
          for (int j = 0; j < kRows; ++j)
            v[j] = load_ro(reinterpret_cast<const In*>(base + (r + j) * s));
          add_block<kRows>(ops, v, acc, [&](int j) { return ib + r + j; });
        }
        for (; r < r1; ++r) acc[0] = ops.reduce(acc[0], load_in(base + r * s), ib + r);
      } else {
        // Rows round robin over the accumulators, unrolled: an array indexed at run time would
        // live in local memory (stack), for the whole kernel.
        int32_t r = r0;
        for (; r <= r1 - kReduceUnroll; r += kReduceUnroll) {
#pragma unroll
          for (int u = 0; u < kReduceUnroll; ++u)
            acc[u] = ops.reduce(acc[u], load_in(base + red_offset(p, r + u)), ib + r + u);
        }
        for (; r < r1; ++r) acc[0] = ops.reduce(acc[0], load_in(base + red_offset(p, r)), ib + r);
      }
      // acc[u] took rows u, u + kReduceUnroll, ...: combine is order-agnostic (kernels/reduce.h).
#pragma unroll
      for (int u = 1; u < kReduceUnroll; ++u) acc[0] = ops.combine(acc[0], acc[u]);
    }
    if (p.splits == 1) {
      if (active) emit(p, ops, o, out0, out1, acc[0]);
      return;
    }
    // Split: every thread publishes its partial (split y's of output o at y * n_out + o: a warp's
    // stores are adjacent words); the last block of this column combines them.
    const int64_t plane = p.n_out * p.splits;
    if (active) store_partial_planar(p.partials, blockIdx.y * p.n_out + o, plane, acc[0]);
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) last = atomicAdd(p.counters + blockIdx.x, 1u) == static_cast<unsigned>(p.splits - 1);
    __syncthreads();
    if (!last) return;
    __threadfence();
    if (active) {
      acc_t total = ops.identity();
      for (int s = 0; s < p.splits; s += kPartialBatch) {
        acc_t part[kPartialBatch];  // L2 loads in flight together
#pragma unroll
        for (int j = 0; j < kPartialBatch; ++j) {
          part[j] = s + j < p.splits
                        ? load_partial_planar<acc_t>(p.partials, (s + j) * p.n_out + o, plane)
                        : ops.identity();
        }
#pragma unroll
        for (int j = 0; j < kPartialBatch; ++j) total = ops.combine(total, part[j]);
      }
      emit(p, ops, o, out0, out1, total);
    }
    if (threadIdx.x == 0) p.counters[blockIdx.x] = 0;
  }
};

}  // namespace ingot::cuda

#define INGOT_CUDA_REDUCE_KERNELS(name, K)                                              \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kReduceThreads,           \
                                               ::ingot::cuda::kReduceInnerMinBlocks<K>) \
      name##_inner(const __grid_constant__ ::ingot::cuda::ReduceLaunch p) {             \
    ::ingot::cuda::ReduceDriver<K>::inner(p);                                           \
  }                                                                                     \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kReduceThreads)           \
      name##_outer(const __grid_constant__ ::ingot::cuda::ReduceLaunch p) {             \
    ::ingot::cuda::ReduceDriver<K>::outer(p);                                           \
  }
