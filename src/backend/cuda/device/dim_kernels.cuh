// The CUDA loop driver for dim kernels (kernels/dim.h), compiled by NVRTC only. Strategies:
//   rows   the dim is innermost: a group of threads_per_row threads (1 to 1024; softmax groups may
//          be narrower than a warp) per row, 16-byte vector loads when the host found the rows
//          aligned, warp shuffles then shared memory across the group's warps. Softmax keeps up
//          to R vectors per thread in registers: a row that fits is read once, its max and then
//          its sum of exp(x - max) reduced over the group; a longer one merges (max, sum) online
//          and is read again for the write (the second read mostly from L2). Scans walk the row in tiles, carrying the prefix.
//   cols   the dim is an outer one: a thread per column, consecutive threads on consecutive
//          (contiguous) columns, walking down the dim.
//   cols_split   the same with too few columns to fill the GPU: a block is 32 columns by up to 32
//          threads along the dim, combined through shared memory.
//   chunk_totals / chunk_scan   long rows and few of them: each row is cut into chunks; pass one
//          writes each chunk's total, pass two scans each chunk from the combined totals before it.
// Row and tile bases are 64-bit, offsets inside a tile 32-bit; every order of combination is fixed
// by the launch shape, so results are deterministic.
#pragma once

#include "backend/cuda/device/dim_params.h"

// Softmax rows keep each exp for the write when a thread's part of the row has at most this many
// elements: one exp per element instead of two. Float32 rows (8 vectors of 4) keep theirs. 2-byte
// rows (8 vectors of 8) recompute: keeping 64 spilled at the 64 registers a 1024-thread block
// allows, and once their exps came from narrow_exp (an FMA and the SFU) recomputing ran far faster
// on the H200 (A/B of 2026-12-02: bfloat16 softmax 94.9% of copy against 59.4% keeping 64). A
// macro, for A/B tuning runs (INGOT_NVRTC_EXTRA_OPTIONS, docs/cuda.md).
#ifndef INGOT_SOFTMAX_KEEP_EXP
#define INGOT_SOFTMAX_KEEP_EXP 32
#endif
// Softmax rows with a float16/bfloat16 output take their exps from narrow_exp below (1 for tuning
// runs that compare it with precise::exp).
#ifndef INGOT_SOFTMAX_NARROW_EXP
#define INGOT_SOFTMAX_NARROW_EXP 1
#endif

namespace ingot::cuda::dim {

template <typename T, int V>
struct alignas(sizeof(T) * V) DVec {
  T v[V];
};

template <typename T>
__device__ __forceinline__ T shfl_xor(T v, int o) {
  if constexpr (is_same_v<T, float> || is_same_v<T, double>) {
    return __shfl_xor_sync(0xffffffffu, v, o);
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<T>(__shfl_xor_sync(0xffffffffu, static_cast<long long>(v), o));
  } else {
    return static_cast<T>(__shfl_xor_sync(0xffffffffu, static_cast<int>(v), o));
  }
}
template <typename T>
__device__ __forceinline__ T shfl_idx(T v, int src) {
  if constexpr (is_same_v<T, float> || is_same_v<T, double>) {
    return __shfl_sync(0xffffffffu, v, src);
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<T>(__shfl_sync(0xffffffffu, static_cast<long long>(v), src));
  } else {
    return static_cast<T>(__shfl_sync(0xffffffffu, static_cast<int>(v), src));
  }
}
template <typename T>
__device__ __forceinline__ T shfl_up(T v, int o) {
  if constexpr (is_same_v<T, float> || is_same_v<T, double>) {
    return __shfl_up_sync(0xffffffffu, v, o);
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<T>(__shfl_up_sync(0xffffffffu, static_cast<long long>(v), o));
  } else {
    return static_cast<T>(__shfl_up_sync(0xffffffffu, static_cast<int>(v), o));
  }
}
template <typename A>
__device__ __forceinline__ IndexedValue<A> shfl_xor(IndexedValue<A> v, int o) {
  return {shfl_xor(v.value, o), shfl_xor(v.index, o)};
}
template <typename A>
__device__ __forceinline__ IndexedValue<A> shfl_idx(IndexedValue<A> v, int src) {
  return {shfl_idx(v.value, src), shfl_idx(v.index, src)};
}
template <typename A>
__device__ __forceinline__ IndexedValue<A> shfl_up(IndexedValue<A> v, int o) {
  return {shfl_up(v.value, o), shfl_up(v.index, o)};
}

// Shared memory for one value per warp of a 1024-thread block, any state type up to 16 bytes.
template <typename T>
__device__ __forceinline__ T* warp_slots() {
  __shared__ alignas(16) unsigned char slots[32 * 16];
  static_assert(sizeof(T) <= 16, "dim kernels: state too large for the warp slots");
  return reinterpret_cast<T*>(slots);
}

// Combines a value per thread over a group of `tpr` consecutive threads (1 <= tpr <= 1024, a
// power of two; groups narrower than a warp never cross one); every thread of the group gets the
// result. Every thread of the block must call it. Across a group's warps, Butterfly: each run of
// nw lanes of every warp reads the group's nw per-warp values and combines them by shuffles (the
// ops are commutative, so every lane ends with the same result); else one warp value after the
// other from shared memory. On the H200 (bench/RESULTS.md, 2026-12-02) the butterfly made
// bfloat16 softmax rows 13% faster and float32 ones 5% slower, so softmax picks it by input width.
template <bool Butterfly, typename T, typename Op>
__device__ __forceinline__ T group_reduce(T v, Op op, int tpr) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    if (o < tpr) v = op(v, shfl_xor(v, o));
  }
  if (tpr <= 32) return v;
  T* slots = warp_slots<T>();
  const unsigned t = threadIdx.x, nw = static_cast<unsigned>(tpr) / 32;
  if (t % 32 == 0) slots[t / 32] = v;
  __syncthreads();
  const unsigned first = (t & ~(static_cast<unsigned>(tpr) - 1)) / 32;
  T r;
  if constexpr (Butterfly) {
    r = slots[first + (t & (nw - 1))];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      if (o < static_cast<int>(nw)) r = op(r, shfl_xor(r, o));
    }
  } else {
    r = slots[first];
    for (unsigned w = 1; w < nw; ++w) r = op(r, slots[first + w]);
  }
  __syncthreads();
  return r;
}

// max(m, v) where a NaN v leaves m (the max.f32 instruction: one instruction, not a compare and
// a select). A row's max only shifts the exps, so the sign it picks between -0 and +0 is moot.
__device__ __forceinline__ float max_skip_nan(float m, float v) { return fmaxf(m, v); }
__device__ __forceinline__ double max_skip_nan(double m, double v) { return fmax(m, v); }

// 2^24 * exp(d) for d <= 0, for softmax rows whose output is float16 or bfloat16: an FMA and the
// SFU's ex2.approx, against ~10 instructions for precise::exp (2-byte rows were issue-bound: 26
// instructions an element against a budget of ~32 at copy speed). Relative error: the FMA's
// rounding of t (|t| < 2^8 where the result is not 0: at most 2^-17), log2(e)'s rounding (2^-17.8
// at |t| = 150) and ex2.approx's (2^-22), 2^-16.9 in all: 1/128 of a bfloat16 output's ulp, 1/32
// of a float16's, so the rounded output stays within its half ulp plus that. The 2^24 scale keeps
// ex2's flush to zero (results below 2^-126) under every 2-byte subnormal (2^-133 and up): softmax
// divides by a sum scaled alike, log_softmax takes the sum back down (exactly: a power of two).
// -inf gives 0 and NaN NaN, like precise::exp.
__device__ __forceinline__ float narrow_exp(float d) {
  const float t = fmaf(d, 1.44269504088896341f, 24.0f);
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(t));
  return r;
}
inline constexpr float kNarrowExpScale = 5.9604644775390625e-8f;  // 2^-24: undoes narrow_exp's 2^24

// The largest of the 2 * n 2-byte floats in `words` (NaN skipped unless all are NaN), by the
// packed max.f16x2 / max.bf16x2 (sm_80 and up): half an instruction an element. Exact in the
// input type; a row's max only shifts its exps, so the sign picked between -0 and +0 is moot.
template <typename T, int n>
__device__ __forceinline__ unsigned packed_max(unsigned m, const unsigned (&words)[n]) {
#pragma unroll
  for (int i = 0; i < n; ++i) {
    if constexpr (is_same_v<T, ::ingot::BFloat16>) {
      asm("max.bf16x2 %0, %0, %1;" : "+r"(m) : "r"(words[i]));
    } else {
      asm("max.f16x2 %0, %0, %1;" : "+r"(m) : "r"(words[i]));
    }
  }
  return m;
}

// Element e of a vector as A. bfloat16 pairs widen from their 32-bit word with one shift or mask
// each (element by element it took a byte permute and a shift for every odd one).
template <typename A, typename T, int W>
__device__ __forceinline__ A widen(const DVec<T, W>& v, int e) {
  if constexpr (is_same_v<T, ::ingot::BFloat16> && is_same_v<A, float> && W % 2 == 0) {
    const unsigned w = reinterpret_cast<const unsigned*>(v.v)[e / 2];
    return __uint_as_float(e % 2 != 0 ? w & 0xffff0000u : w << 16);
  } else {
    return convert<A>(v.v[e]);
  }
}

template <typename A>
struct MaxSum {
  A max;
  A sum;
};
template <typename A>
__device__ __forceinline__ MaxSum<A> shfl_xor(MaxSum<A> v, int o) {
  return {shfl_xor(v.max, o), shfl_xor(v.sum, o)};
}
// (max, sum of exp(x - max)) of two parts. NaN never becomes the max; it reaches the sum instead.
template <typename A>
__device__ __forceinline__ MaxSum<A> merge(MaxSum<A> a, MaxSum<A> b) {
  const A m = b.max > a.max ? b.max : a.max;
  if (m == -infinity<A>()) return {m, a.sum + b.sum};
  return {m, a.sum * precise::exp(a.max - m) + b.sum * precise::exp(b.max - m)};
}

// Adds one element: one exp per element. A -inf adds nothing (a part of a row holding only -inf
// stays {-inf, 0}, which merges as empty); a NaN or a +inf makes the sum NaN (as PyTorch).
template <typename A>
__device__ __forceinline__ void push(MaxSum<A>& ms, A x) {
  if (x > ms.max) {
    ms.sum = ms.sum * precise::exp(ms.max - x) + ((x - x) + A(1));  // +inf: NaN, as exp(inf - inf)
    ms.max = x;
  } else if (x != -infinity<A>()) {
    ms.sum += precise::exp(x - ms.max);
  }
}

template <typename K>
struct SoftmaxLoops {
  using In = typename K::In;
  using Out = typename K::Out;
  using A = typename K::Acc;
  static constexpr int V = 16 / sizeof(In) > 0 ? 16 / static_cast<int>(sizeof(In)) : 1;
  // Vectors per thread kept in registers between the max/sum passes and the write; the host sizes
  // threads_per_row so that a row up to R * 1024 vectors is read from memory once.
#ifdef INGOT_SOFTMAX_REGS  // tuning runs, with the host's INGOT_CUDA_SOFTMAX_REGS alike
  static constexpr int R = INGOT_SOFTMAX_REGS;
#else
  static constexpr int R = softmax_reg_vectors(sizeof(In));
#endif
  // group_reduce's cross-warp combine: the butterfly for 2-byte inputs, the chain otherwise (see
  // group_reduce; float32 rows ran 87% of copy with the chain against 78% with the butterfly in
  // the A/B of 2026-12-02). -DINGOT_SOFTMAX_CHAIN=0/1 forces one for tuning runs.
#ifdef INGOT_SOFTMAX_CHAIN
  static constexpr bool kButterfly = !INGOT_SOFTMAX_CHAIN;
#else
  static constexpr bool kButterfly = sizeof(In) < 4;
#endif

  template <int W>
  static __device__ __forceinline__ void row(const DimParams& p, const In* x, Out* y, int64_t nv,
                                             bool in_registers, int lane, int tpr) {
    using VIn = DVec<In, W>;
    using VOut = DVec<Out, W>;
    const VIn* xv = reinterpret_cast<const VIn*>(x);
    VOut* yv = reinterpret_cast<VOut*>(y);
    const typename K::Functor f;
    if (in_registers) {  // the same for every group of the block: barriers line up
      VIn cache[R];
#pragma unroll
      for (int k = 0; k < R; ++k) {
        if (lane + k * tpr < nv) cache[k] = xv[lane + k * tpr];
      }
      // Softmax-likes with from_exp keep each exp for the write (INGOT_SOFTMAX_KEEP_EXP above): one
      // exp per element instead of two.
      constexpr bool kKeep =
          has_from_exp<typename K::Functor, A>::value && R * W <= INGOT_SOFTMAX_KEEP_EXP;
      // 2-byte outputs: exps from narrow_exp (scaled by 2^24; the sum with them).
      constexpr bool kNarrow = INGOT_SOFTMAX_NARROW_EXP && sizeof(Out) == 2 && is_same_v<A, float>;
      const auto exp_of = [](A d) {
        if constexpr (kNarrow) {
          return narrow_exp(d);
        } else {
          return precise::exp(d);
        }
      };
      // The row's max (a NaN never becomes the max), then its sum of exp(x - max), each
      // combined over the group; the exps are independent of each other. 2-byte inputs take the
      // packed max (sm_80 and up); others max.f32 (max_skip_nan), which on the H200
      // (bench/RESULTS.md, 2026-12-02) took float32 softmax rows from 85-87% of copy to 99%
      // against a compare and select.
      const auto row_max = [](A a, A b) { return max_skip_nan(a, b); };
      A max = -infinity<A>();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      constexpr bool kPacked = sizeof(In) == 2 && W % 2 == 0;
#else
      constexpr bool kPacked = false;
#endif
      if constexpr (kPacked) {
        const unsigned short neg_inf = is_same_v<In, ::ingot::BFloat16> ? 0xff80u : 0xfc00u;
        unsigned m2 = neg_inf | static_cast<unsigned>(neg_inf) << 16;
#pragma unroll
        for (int k = 0; k < R; ++k) {
          if (lane + k * tpr < nv)
            m2 = packed_max<In>(m2, reinterpret_cast<const unsigned(&)[W / 2]>(cache[k]));
        }
        In lo, hi;
        lo.x = static_cast<unsigned short>(m2 & 0xffffu);
        hi.x = static_cast<unsigned short>(m2 >> 16);
        max = row_max(row_max(max, convert<A>(lo)), convert<A>(hi));
      } else {
#pragma unroll
        for (int k = 0; k < R; ++k) {
          if (lane + k * tpr < nv) {
#pragma unroll
            for (int e = 0; e < W; ++e) max = row_max(max, widen<A>(cache[k], e));
          }
        }
      }
      max = group_reduce<kButterfly>(max, row_max, tpr);
      // A row of -inf: exp(-inf - -inf) is NaN, so is every output (as PyTorch); -inf elements
      // of other rows add exp(-inf) = 0; a NaN or a +inf makes the sum NaN.
      A sum = A(0);
      A ex[kKeep ? R : 1][kKeep ? W : 1];
#pragma unroll
      for (int k = 0; k < R; ++k) {
        if (lane + k * tpr < nv) {
#pragma unroll
          for (int e = 0; e < W; ++e) {
            const A t = exp_of(widen<A>(cache[k], e) - max);
            if constexpr (kKeep) ex[k][e] = t;
            sum += t;
          }
        }
      }
      sum = group_reduce<kButterfly>(
          sum, [](A a, A b) { return a + b; }, tpr);
      // A multiply by 1 / sum instead of a division per element (kernels/dim.h, from_exp_scaled);
      // exps and sum scaled alike (kNarrow) give the same quotient. Without kept exps the write
      // takes the exp again (exp_of) rather than the functor's exp and division.
      constexpr bool kScaled = has_from_exp_scaled<typename K::Functor, A>::value;
      const A inv_sum = kScaled ? A(1) / sum : A(0);
      const A true_sum = kNarrow ? sum * A(kNarrowExpScale) : sum;
      // log_softmax-likes take the row's log once here: the compiler did not hoist it out of the
      // predicated writes below (~85 instructions a vector, 40% of bfloat16 log_softmax's).
      constexpr bool kLogSum =
          !kScaled && !kKeep && has_from_log_sum<typename K::Functor, A>::value;
      const A log_sum = kLogSum ? precise::log(true_sum) : A(0);
#pragma unroll
      for (int k = 0; k < R; ++k) {
        if (lane + k * tpr < nv) {
          VOut o;
#pragma unroll
          for (int e = 0; e < W; ++e) {
            if constexpr (kScaled && kKeep) {
              o.v[e] = convert<Out>(f.from_exp_scaled(ex[k][e], inv_sum));
            } else if constexpr (kScaled) {
              o.v[e] =
                  convert<Out>(f.from_exp_scaled(exp_of(widen<A>(cache[k], e) - max), inv_sum));
            } else if constexpr (kKeep) {
              o.v[e] = convert<Out>(f.from_exp(ex[k][e], sum));
            } else if constexpr (kLogSum) {
              o.v[e] = convert<Out>(f.from_log_sum(widen<A>(cache[k], e), max, log_sum));
            } else {
              o.v[e] = convert<Out>(f(widen<A>(cache[k], e), max, true_sum));
            }
          }
          yv[lane + k * tpr] = o;
        }
      }
      return;
    }
    // Rows longer than the registers hold: (max, sum) merged online, then the row read again
    // for the write.
    MaxSum<A> ms{-infinity<A>(), A(0)};
    for (int64_t j = lane; j < nv; j += tpr) {
      const VIn v = xv[j];
#pragma unroll
      for (int e = 0; e < W; ++e) push(ms, convert<A>(v.v[e]));
    }
    ms = group_reduce<kButterfly>(
        ms, [](MaxSum<A> a, MaxSum<A> b) { return merge(a, b); }, tpr);
    for (int64_t j = lane; j < nv; j += tpr) {
      const VIn v = xv[j];
      VOut o;
#pragma unroll
      for (int e = 0; e < W; ++e) o.v[e] = convert<Out>(f(convert<A>(v.v[e]), ms.max, ms.sum));
      yv[j] = o;
    }
  }

  static __device__ void rows(const DimParams& p) {
    const int tpr = p.threads_per_row;
    const int lane = static_cast<int>(threadIdx.x) % tpr;
    const int64_t r = static_cast<int64_t>(blockIdx.x) * (blockDim.x / tpr) + threadIdx.x / tpr;
    const bool valid = r < p.rows;  // invalid groups still take part in the block's barriers
    const In* x = reinterpret_cast<const In*>(p.in) + (valid ? r : 0) * p.n;
    Out* y = reinterpret_cast<Out*>(p.out) + (valid ? r : 0) * p.n;
    if (p.aligned) {
      row<V>(p, x, y, valid ? p.n / V : 0, p.n / V <= static_cast<int64_t>(R) * tpr, lane, tpr);
    } else {
      row<1>(p, x, y, valid ? p.n : 0, p.n <= static_cast<int64_t>(R) * tpr, lane, tpr);
    }
  }

  static __device__ void cols(const DimParams& p) {
    const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (gid >= p.rows * p.inner) return;
    const int64_t o = gid / p.inner, c = gid % p.inner;
    const In* x = reinterpret_cast<const In*>(p.in) + o * p.n * p.inner + c;
    Out* y = reinterpret_cast<Out*>(p.out) + o * p.n * p.inner + c;
    // Blocks of 64 elements merged into the total: the sum's error grows like 64 + n / 64, not n.
    MaxSum<A> ms{-infinity<A>(), A(0)};
    for (int64_t i0 = 0; i0 < p.n; i0 += 64) {
      MaxSum<A> part{-infinity<A>(), A(0)};
      const int64_t i1 = i0 + 64 < p.n ? i0 + 64 : p.n;
      for (int64_t i = i0; i < i1; ++i) push(part, convert<A>(x[i * p.inner]));
      ms = merge(ms, part);
    }
    const typename K::Functor f;
    for (int64_t i = 0; i < p.n; ++i)
      y[i * p.inner] = convert<Out>(f(convert<A>(x[i * p.inner]), ms.max, ms.sum));
  }

  // Few columns: a block is 32 columns (a warp reads 32 consecutive ones) by blockDim.x / 32
  // threads along the dim; their (max, sum) merge in order through shared memory.
  static __device__ void cols_split(const DimParams& p) {
    const int lane = static_cast<int>(threadIdx.x) % 32, yi = static_cast<int>(threadIdx.x) / 32;
    const int ydim = static_cast<int>(blockDim.x) / 32;
    const int64_t col_blocks = (p.inner + 31) / 32;
    const int64_t o = blockIdx.x / col_blocks, c = blockIdx.x % col_blocks * 32 + lane;
    const bool valid = c < p.inner;
    const int64_t at = o * p.n * p.inner + (valid ? c : 0);
    const In* x = reinterpret_cast<const In*>(p.in) + at;
    Out* y = reinterpret_cast<Out*>(p.out) + at;
    MaxSum<A> ms{-infinity<A>(), A(0)};
    if (valid) {
      for (int64_t i0 = yi; i0 < p.n; i0 += 64 * static_cast<int64_t>(ydim)) {
        MaxSum<A> part{-infinity<A>(), A(0)};
        for (int64_t i = i0, k = 0; i < p.n && k < 64; i += ydim, ++k)
          push(part, convert<A>(x[i * p.inner]));
        ms = merge(ms, part);
      }
    }
    __shared__ MaxSum<A> parts[32][32];
    parts[yi][lane] = ms;
    __syncthreads();
    ms = parts[0][lane];
    for (int k = 1; k < ydim; ++k) ms = merge(ms, parts[k][lane]);
    if (!valid) return;
    const typename K::Functor f;
    for (int64_t i = yi; i < p.n; i += ydim)
      y[i * p.inner] = convert<Out>(f(convert<A>(x[i * p.inner]), ms.max, ms.sum));
  }
};

// A state that may be absent (no prefix before the first element of a row).
template <typename S>
struct Prefix {
  S state;
  bool present;
};

template <typename K>
struct ScanLoops {
  using In = typename K::In;
  using Out = typename K::Out;
  using A = typename K::Acc;
  using S = typename K::State;
  static constexpr int V = 16 / sizeof(In) > 0 ? 16 / static_cast<int>(sizeof(In)) : 1;

  static __device__ __forceinline__ S combine(S a, S b) { return K::combine(a, b); }
  static __device__ __forceinline__ Prefix<S> then(Prefix<S> a, Prefix<S> b) {
    if (!a.present) return b;
    if (!b.present) return a;
    return {combine(a.state, b.state), true};
  }

  static __device__ __forceinline__ void store(const DimParams& p, int64_t at, S s) {
    if constexpr (K::kind == DimKind::IndexScan) {
      reinterpret_cast<Out*>(p.out)[at] = convert<Out>(s.value);
      reinterpret_cast<int64_t*>(p.indices)[at] = s.index;
    } else {
      reinterpret_cast<Out*>(p.out)[at] = convert<Out>(s);
    }
  }

  // V consecutive results from `at` (a multiple of V), every operand aligned to a vector of it.
  static __device__ __forceinline__ void store_vec(const DimParams& p, int64_t at, Prefix<S> prefix,
                                                   const S (&r)[V]) {
    DVec<Out, V> o;
    if constexpr (K::kind == DimKind::IndexScan) {
      DVec<int64_t, V> ix;
#pragma unroll
      for (int e = 0; e < V; ++e) {
        const S v = prefix.present ? combine(prefix.state, r[e]) : r[e];
        o.v[e] = convert<Out>(v.value);
        ix.v[e] = v.index;
      }
      *reinterpret_cast<DVec<int64_t, V>*>(reinterpret_cast<int64_t*>(p.indices) + at) = ix;
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e)
        o.v[e] = convert<Out>(prefix.present ? combine(prefix.state, r[e]) : r[e]);
    }
    *reinterpret_cast<DVec<Out, V>*>(reinterpret_cast<Out*>(p.out) + at) = o;
  }

  // Vectors per thread in one tile: loaded together (U loads in flight per thread) and scanned
  // across the group with one pair of barriers; fewer when the states are wide (registers).
  static constexpr int U = V * sizeof(S) <= 16 ? 4 : V * sizeof(S) <= 32 ? 2 : 1;
  static_assert(kScanTileVectors % U == 0, "dim kernels: chunks must be whole tiles");

  // One state per (vector, warp) of a tile, any state type up to 16 bytes.
  static __device__ __forceinline__ S* tile_slots() {
    __shared__ alignas(16) unsigned char slots[U * 32 * 16];
    static_assert(sizeof(S) <= 16, "dim kernels: state too large for the tile slots");
    return reinterpret_cast<S*>(slots);
  }

  // One tile of `tpr * V * U` elements of the row starting at element `row` (global offset) from
  // position `base` (< end): vector k of thread `lane` holds positions
  // base + (k * tpr + lane) * V + [0, V), so each of the U loads is coalesced. Scans the tile after
  // `carry` and, if `write`, stores it. Returns the new carry. Every thread of the block must
  // call it the same number of times.
  static __device__ __forceinline__ Prefix<S> tile(const DimParams& p, int64_t row, int64_t base,
                                                   int64_t end, Prefix<S> carry, bool write,
                                                   bool aligned, int lane, int tpr) {
    const In* x = reinterpret_cast<const In*>(p.in) + row;
    // All loads first, then the arithmetic: U independent loads per thread in flight.
    DVec<In, V> raw[U];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const int64_t first = base + (static_cast<int64_t>(k) * tpr + lane) * V;
      if (aligned && first + V <= end) {
        raw[k] = *reinterpret_cast<const DVec<In, V>*>(x + first);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) raw[k].v[e] = first + e < end ? x[first + e] : In{};
      }
    }
    S r[U][V];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      const int64_t first = base + (static_cast<int64_t>(k) * tpr + lane) * V;
#pragma unroll
      for (int e = 0; e < V; ++e) {
        // Past the end: a placeholder that only later (unwritten) positions see.
        r[k][e] = first + e < end ? K::make(convert<A>(raw[k].v[e]), first + e) : K::make(A(0), -1);
      }
#pragma unroll
      for (int e = 1; e < V; ++e) r[k][e] = combine(r[k][e - 1], r[k][e]);
    }
    // Inclusive scan of the thread totals across the warp (the U scans interleave), then across
    // the group's warps.
    const int lane32 = static_cast<int>(threadIdx.x) % 32;
    S incl[U];
#pragma unroll
    for (int k = 0; k < U; ++k) incl[k] = r[k][V - 1];
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
#pragma unroll
      for (int k = 0; k < U; ++k) {
        const S t = shfl_up(incl[k], o);
        if (lane32 >= o) incl[k] = combine(t, incl[k]);
      }
    }
    Prefix<S> before[U], total[U];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      before[k] = {shfl_up(incl[k], 1), lane32 > 0};
      total[k] = {shfl_idx(incl[k], 31), true};
    }
    if (tpr > 32) {
      S* slots = tile_slots();
      const int warp = static_cast<int>(threadIdx.x) / 32;
      const int group_first = static_cast<int>(threadIdx.x) / tpr * (tpr / 32);
      if (lane32 == 31) {
#pragma unroll
        for (int k = 0; k < U; ++k) slots[k * 32 + warp] = incl[k];
      }
      __syncthreads();
#pragma unroll
      for (int k = 0; k < U; ++k) {
        const S* ks = slots + k * 32;
        Prefix<S> warps{ks[group_first], warp > group_first};
        for (int w = group_first + 1; w < warp; ++w) warps.state = combine(warps.state, ks[w]);
        S all = ks[group_first];
        for (int w = group_first + 1; w < group_first + tpr / 32; ++w) all = combine(all, ks[w]);
        before[k] = then(warps, before[k]);
        total[k] = {all, true};
      }
      __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < U; ++k) {
      if (write) {
        const int64_t first = base + (static_cast<int64_t>(k) * tpr + lane) * V;
        const Prefix<S> prefix = then(carry, before[k]);
        if (aligned && first + V <= end) {
          // Whole vector, operands aligned (the host checked out and indices too): vector stores.
          store_vec(p, row + first, prefix, r[k]);
        } else {
#pragma unroll
          for (int e = 0; e < V; ++e) {
            if (first + e < end)
              store(p, row + first + e, prefix.present ? combine(prefix.state, r[k][e]) : r[k][e]);
          }
        }
      }
      carry = then(carry, total[k]);
    }
    return carry;
  }

  static __device__ __forceinline__ int64_t tile_size(int tpr) {
    return static_cast<int64_t>(tpr) * V * U;
  }

  static __device__ void rows(const DimParams& p) {
    const int tpr = p.threads_per_row;
    const int lane = static_cast<int>(threadIdx.x) % tpr;
    const int64_t r = static_cast<int64_t>(blockIdx.x) * (blockDim.x / tpr) + threadIdx.x / tpr;
    const bool valid = r < p.rows;
    // Tiles per row are the same for every group of the block, so barriers line up.
    Prefix<S> carry{S{}, false};
    for (int64_t base = 0; base < p.n; base += tile_size(tpr)) {
      carry = tile(p, (valid ? r : 0) * p.n, base, valid ? p.n : 0, carry, valid, p.aligned != 0,
                   lane, tpr);
    }
  }

  // Chunked: blockIdx.x = row * chunks + chunk, one group of blockDim.x threads per block.
  static __device__ void chunk_totals(const DimParams& p) {
    const int tpr = static_cast<int>(blockDim.x);
    const int64_t chunks = (p.n + p.chunk - 1) / p.chunk;
    const int64_t row = blockIdx.x / chunks, c = blockIdx.x % chunks;
    const int64_t end = c * p.chunk + p.chunk < p.n ? c * p.chunk + p.chunk : p.n;
    Prefix<S> carry{S{}, false};
    for (int64_t base = c * p.chunk; base < end; base += tile_size(tpr)) {
      carry = tile(p, row * p.n, base, end, carry, false, p.aligned != 0,
                   static_cast<int>(threadIdx.x), tpr);
    }
    if (threadIdx.x == 0) reinterpret_cast<S*>(p.scratch)[blockIdx.x] = carry.state;
  }

  static __device__ void chunk_scan(const DimParams& p) {
    const int tpr = static_cast<int>(blockDim.x);
    const int64_t chunks = (p.n + p.chunk - 1) / p.chunk;
    const int64_t row = blockIdx.x / chunks, c = blockIdx.x % chunks;
    const int64_t end = c * p.chunk + p.chunk < p.n ? c * p.chunk + p.chunk : p.n;
    const S* totals = reinterpret_cast<const S*>(p.scratch) + row * chunks;
    // The totals of chunks 0..c-1 combined in order: lane i of every warp combines a contiguous
    // run of them, then an inclusive scan across the warp (no barrier, no serial chain of c loads).
    const int lane32 = static_cast<int>(threadIdx.x) % 32;
    const int64_t per_lane = (c + 31) / 32;
    const int64_t k0 = lane32 * per_lane, k1 = k0 + per_lane < c ? k0 + per_lane : c;
    Prefix<S> mine{S{}, k0 < k1};
    if (k0 < k1) {
      mine.state = totals[k0];
      for (int64_t k = k0 + 1; k < k1; ++k) mine.state = combine(mine.state, totals[k]);
    }
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const Prefix<S> t{shfl_up(mine.state, o), shfl_up(static_cast<int>(mine.present), o) != 0};
      if (lane32 >= o) mine = then(t, mine);
    }
    Prefix<S> carry{shfl_idx(mine.state, 31), c > 0};
    for (int64_t base = c * p.chunk; base < end; base += tile_size(tpr)) {
      carry = tile(p, row * p.n, base, end, carry, true, p.aligned != 0,
                   static_cast<int>(threadIdx.x), tpr);
    }
  }

  static __device__ void cols(const DimParams& p) {
    const int64_t gid = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (gid >= p.rows * p.inner) return;
    const int64_t o = gid / p.inner, c = gid % p.inner;
    const int64_t at = o * p.n * p.inner + c;
    const In* x = reinterpret_cast<const In*>(p.in) + at;
    S s = K::make(convert<A>(x[0]), 0);
    store(p, at, s);
    for (int64_t i = 1; i < p.n; ++i) {
      s = combine(s, K::make(convert<A>(x[i * p.inner]), i));
      store(p, at + i * p.inner, s);
    }
  }

  // Few columns: a block is 32 columns (a warp reads 32 consecutive ones) by blockDim.x / 32
  // segments of the dim. Pass one: each segment's total; the totals before a segment, combined in
  // order through shared memory, are its carry; pass two rescans the segment from it.
  static __device__ void cols_split(const DimParams& p) {
    const int lane = static_cast<int>(threadIdx.x) % 32, y = static_cast<int>(threadIdx.x) / 32;
    const int ydim = static_cast<int>(blockDim.x) / 32;
    const int64_t col_blocks = (p.inner + 31) / 32;
    const int64_t o = blockIdx.x / col_blocks, c = blockIdx.x % col_blocks * 32 + lane;
    const bool valid = c < p.inner;
    const int64_t seg = (p.n + ydim - 1) / ydim;
    const int64_t i0 = y * seg, i1 = i0 + seg < p.n ? i0 + seg : p.n;
    const int64_t at = o * p.n * p.inner + (valid ? c : 0);
    const In* x = reinterpret_cast<const In*>(p.in) + at;
    Prefix<S> total{S{}, false};
    if (valid) {
      for (int64_t i = i0; i < i1; ++i)
        total = then(total, Prefix<S>{K::make(convert<A>(x[i * p.inner]), i), true});
    }
    __shared__ Prefix<S> totals[32][32];
    totals[y][lane] = total;
    __syncthreads();
    Prefix<S> carry{S{}, false};
    for (int k = 0; k < y; ++k) carry = then(carry, totals[k][lane]);
    if (!valid) return;
    for (int64_t i = i0; i < i1; ++i) {
      carry = then(carry, Prefix<S>{K::make(convert<A>(x[i * p.inner]), i), true});
      store(p, at + i * p.inner, carry.state);
    }
  }
};

}  // namespace ingot::cuda::dim

// The kernels of one dim-kernel instantiation K, named <name>_<strategy>.
#define INGOT_CUDA_DIM_KERNEL_(name, strategy, Loops)                         \
  extern "C" __global__ void __launch_bounds__(1024)                          \
      name##_##strategy(const __grid_constant__ ::ingot::cuda::DimParams p) { \
    Loops::strategy(p);                                                       \
  }
#define INGOT_CUDA_SOFTMAX_KERNELS(name, K)                               \
  INGOT_CUDA_DIM_KERNEL_(name, rows, ::ingot::cuda::dim::SoftmaxLoops<K>) \
  INGOT_CUDA_DIM_KERNEL_(name, cols, ::ingot::cuda::dim::SoftmaxLoops<K>) \
  INGOT_CUDA_DIM_KERNEL_(name, cols_split, ::ingot::cuda::dim::SoftmaxLoops<K>)
#define INGOT_CUDA_SCAN_KERNELS(name, K)                                       \
  INGOT_CUDA_DIM_KERNEL_(name, rows, ::ingot::cuda::dim::ScanLoops<K>)         \
  INGOT_CUDA_DIM_KERNEL_(name, cols, ::ingot::cuda::dim::ScanLoops<K>)         \
  INGOT_CUDA_DIM_KERNEL_(name, cols_split, ::ingot::cuda::dim::ScanLoops<K>)   \
  INGOT_CUDA_DIM_KERNEL_(name, chunk_totals, ::ingot::cuda::dim::ScanLoops<K>) \
  INGOT_CUDA_DIM_KERNEL_(name, chunk_scan, ::ingot::cuda::dim::ScanLoops<K>)
