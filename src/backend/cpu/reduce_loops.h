// The CPU reduction driver: walks ReduceArgs (kernels/reduce.h) for one ReduceKernel.
//  * inner: the fastest iteration dim is reduced. Each output reduces its rows with a cascade:
//    leaves of kLeaf elements into kAccs independent accumulators, leaves and rows combined
//    pairwise, so float error grows with log(n), not n (10^8 float32 ones sum to exactly 10^8).
//    A row's leaves go left to right in a loop, merged as a binary counter: a recursive halving
//    measured 2-5x slower on rows of 512 to 64Ki elements (the next leaf's loads stop overlapping
//    the current one's work).
//  * outer: the fastest dim is an output dim. A block of adjacent outputs is accumulated row by row
//    (the inner loop runs along contiguous memory), rows combined pairwise in groups.
// Threads share outputs when there are enough of them, otherwise the reduction itself, with the
// partials combined in index order (deterministic for a given thread count).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>

#include "backend/cpu/convert_block.h"
#include "backend/cpu/kernel_fn.h"
#include "backend/cpu/memory_policy.h"
#include "backend/cpu/multiarch.h"
#include "backend/cpu/reduce_simd.h"
#include "kernels/reduce.h"

#ifdef INGOT_HAS_OPENMP
#include <omp.h>
#endif

// Before a loop whose iterations do not depend on each other through memory (the compilers cannot
// always prove it): vectorize it without the runtime overlap checks.
#if defined(__clang__)
#define INGOT_CPU_NO_LOOP_DEPENDENCE _Pragma("clang loop vectorize(assume_safety)")
#else
#define INGOT_CPU_NO_LOOP_DEPENDENCE _Pragma("GCC ivdep")
#endif

namespace ingot::cpu {

template <typename K>
struct ReduceLoops {
  using Ops = typename K::Ops;
  using In = typename K::In;
  using acc_t = typename K::acc_t;
  static constexpr int64_t kLeaf = 256;      // elements per cascade leaf (a multiple of kAccs)
  static constexpr int kAccs = 16;           // independent accumulators in a leaf (4 SSE chains of float)
  // Outputs per block in the outer strategy: 16 KiB of accumulators (4096 floats), so a block
  // reads long runs of each row (shorter runs measured up to 3x slower).
  static constexpr int64_t kBlock = 16384 / static_cast<int64_t>(sizeof(acc_t)) < 64 ? 64 : 16384 / static_cast<int64_t>(sizeof(acc_t));
  // Rows summed in sequence before pairwise combining: each combining level costs a pass over the
  // block's accumulators. 64 rather than 16: float32 var over dim 0 of a 4096x4096 input went from
  // 21.4 to 18.5 ms on one thread (dev box, 2026-12-03), and the error bound stays (64 +
  // log2(n/64)) roundings, far from a plain loop's n. Not 256: a harness of this loop on the H200
  // host ran a 4096x4096 float32 sum over dim 0 only 1-3% faster with it, and float32 sums over dim
  // 0 of 1000 random rows left tests/python's bound (2 eps sum|x|).
  static constexpr int64_t kRowGroup = 64;
  // The fewest rows a thread takes when threads split the rows.
  static constexpr int64_t kSplitRows = 16;
  // float16/bfloat16 data is widened to float a block at a time (convert_block.h: F16C or AVX-512
  // for float16, shifts for bfloat16) wherever the loops read contiguous elements, and the float
  // loops read the block: the same values in the same order, so the same bits as converting each
  // element, which cost 8-40x float32's time (a float16 sum of 2048x2048: 3.3 ms against 0.40).
  static constexpr bool kWiden = std::is_same_v<In, Half> || std::is_same_v<In, BFloat16>;
  using Elem = std::conditional_t<kWiden, float, In>;  // what the contiguous loops read
  static constexpr int64_t kWidenBlock = 2048;          // elements widened at a time for max/argmax rows
  static constexpr int64_t kWidenCols = 512;            // columns widened at a time in the outer strategy
  // max/min (acc_t is the element type) and argmax/argmin (acc_t is ValueIndex) on plain
  // arithmetic elements (or widened ones) take the vector paths of reduce_simd.h on contiguous data.
  static constexpr int kExtreme = [] {
    if constexpr (requires { Ops::plain_extreme; }) {
      return simd::vectorizable<Elem> && std::is_same_v<opmath_t<In>, Elem> ? Ops::plain_extreme : 0;
    } else {
      return 0;
    }
  }();
  static constexpr bool kSimdMax = kExtreme != 0 && std::is_same_v<acc_t, Elem>;
  static constexpr bool kSimdArg = kExtreme != 0 && std::is_same_v<acc_t, ValueIndex<Elem>>;
  // argmax/argmin (kSimdArg) over an outer dim: rows a group takes (arg_group), as many as its row
  // numbers, integers as wide as the elements, can count. The result does not depend on the
  // grouping, and each group ends in a scalar combine a column (a pick of value-index pairs): with
  // groups of kRowGroup those combines took about half of a float32 argmax over dim 0.
  static constexpr int64_t kArgGroup =
      sizeof(Elem) == 1 ? 127 : sizeof(Elem) == 2 ? 32767 : int64_t{1} << 30;
  // any (+1), all (-1) and count_nonzero (kCount) on contiguous data test the elements' bits
  // (reduce_simd.h's BitsRow), for every element type: Bits of In's size, the sign bit of a
  // floating type masked off.
  static constexpr int kLogical = [] {
    if constexpr (requires { Ops::plain_logical; }) {
      return Ops::plain_logical;
    } else {
      return 0;
    }
  }();
  static constexpr bool kCount = [] {
    if constexpr (requires { Ops::plain_count; }) {
      return Ops::plain_count;
    } else {
      return false;
    }
  }();
  using Bits = uint_of_size_t<sizeof(In)>;
  // vector_norm's inf (+1) and -inf (-1) orders over contiguous float rows: an integer extreme of
  // the magnitudes' bits (reduce_simd.h's row_abs_extreme).
  static constexpr int kAbsExtreme = [] {
    if constexpr (requires { Ops::plain_abs_extreme; }) {
      return ::ingot::is_floating_point_v<In> ? Ops::plain_abs_extreme : 0;
    } else {
      return 0;
    }
  }();
  static constexpr Bits kAllBits = static_cast<Bits>(~Bits(0));  // cast back: ~ promotes 16-bit to int
  static constexpr Bits kMagnitude = ::ingot::is_floating_point_v<In> ? static_cast<Bits>(kAllBits >> 1) : kAllBits;
  // Per-ISA clones (multiarch.h) only for float, double and widened inputs: they are where wider vectors
  // pay, and GCC 12.2 miscompiles the int8/int16 -> int64 leaf sums for AVX2/AVX-512 (the loop
  // vectorizer reads 1/4 resp. 1/2 of the elements; the baseline build is right).
  static constexpr bool kMultiarch = std::is_same_v<In, float> || std::is_same_v<In, double> || kWiden;
  // The max/min/argmax vector paths (reduce_simd.h) are cloned for every element type: they
  // accumulate nothing wider than the element.
  // Ops whose contiguous rows take a bit-level path of reduce_simd.h (BitsRow, row_abs_extreme),
  // one row at a time.
  static constexpr bool kBitsPath = kLogical != 0 || kCount || kAbsExtreme != 0;
  static constexpr bool kClones = kMultiarch || kSimdMax || kSimdArg || kBitsPath;

  static void run(const ReduceArgs& a) {
    Ops ops;
    ops.prm = a.params;
    const int64_t n_out = product(a.out_sizes, a.nout_dims);
    const int64_t n_red = product(a.red_sizes, a.nred_dims);
    if (n_out == 0) return;
    if (n_red == 0) {
      for (int64_t o = 0; o < n_out; ++o) {
        char* outs[2];
        out_pointers(a, o, outs);
        K::store(ops, outs[0], outs[1], ops.identity());
      }
      return;
    }
    if (a.nout_dims == 0 || a.red_inner) {
      run_inner(ops, a, n_out, n_red);
    } else {
      run_outer(ops, a, n_out, n_red);
    }
  }

 private:
  static int64_t product(const int64_t* sizes, int n) {
    int64_t p = 1;
    for (int i = 0; i < n; ++i) p *= sizes[i];
    return p;
  }
  static int threads_for(int64_t work) {
#ifdef INGOT_HAS_OPENMP
    if (omp_in_parallel()) return 1;
    return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(cpu_num_threads(), work / kCpuGrainSize)));
#else
    (void)work;
    return 1;
#endif
  }
  // f(i) for i in [0, n): on nthreads OpenMP threads (a static schedule), or in this thread.
  template <typename F>
  static void parallel_for(int nthreads, int64_t n, const F& f) {
#ifdef INGOT_HAS_OPENMP
    if (nthreads > 1) {
#pragma omp parallel for num_threads(nthreads) schedule(static)
      for (int64_t i = 0; i < n; ++i) f(i);
      return;
    }
#endif
    for (int64_t i = 0; i < n; ++i) f(i);
  }
  // Output o (linear over the output dims, dim 0 fastest): its output pointers; returns the input offset.
  static int64_t out_pointers(const ReduceArgs& a, int64_t o, char** outs) {
    int64_t in_off = 0, off0 = 0, off1 = 0;
    for (int d = 0; d < a.nout_dims; ++d) {
      const int64_t i = o % a.out_sizes[d];
      o /= a.out_sizes[d];
      in_off += i * a.in_out_strides[d];
      off0 += i * a.out_strides[0][d];
      off1 += i * a.out_strides[1][d];
    }
    outs[0] = a.out[0] + off0;
    outs[1] = a.out[1] == nullptr ? nullptr : a.out[1] + off1;
    return in_off;
  }
  // Byte offset of reduction index r over the reduced dims [first, nred_dims).
  static int64_t red_offset(const ReduceArgs& a, int64_t r, int first) {
    int64_t off = 0;
    for (int d = first; d < a.nred_dims; ++d) {
      off += (r % a.red_sizes[d]) * a.in_red_strides[d];
      r /= a.red_sizes[d];
    }
    return off;
  }

  // The bits of +inf of a floating In, as kAbsExtreme's keys.
  static std::make_signed_t<Bits> inf_key() {
    const In inf = static_cast<In>(::ingot::infinity<opmath_t<In>>());
    std::make_signed_t<Bits> k;
    std::memcpy(&k, &inf, sizeof(k));
    return k;
  }

  // ---- inner strategy
  // Elements [c0, c1) of a row at p (stride s bytes), at most kLeaf; idx0 is the row's first
  // reduction index.
  template <bool Contiguous>
  static INGOT_CPU_ALWAYS_INLINE acc_t leaf(const Ops& ops, const char* p, int64_t s, int64_t c0, int64_t c1, int64_t idx0) {
    if constexpr (Contiguous) {
      const In* q = reinterpret_cast<const In*>(p) + c0;
      if constexpr (kWiden) {
        float w[kLeaf];
        convert_block(w, q, c1 - c0);
        return contiguous_leaf(ops, static_cast<const float*>(w), c1 - c0, idx0 + c0);
      } else {
        return contiguous_leaf(ops, q, c1 - c0, idx0 + c0);
      }
    } else {
      acc_t acc[kAccs];
      for (int k = 0; k < kAccs; ++k) acc[k] = ops.identity();
      int64_t c = c0;
      for (; c + kAccs <= c1; c += kAccs) {
        for (int k = 0; k < kAccs; ++k) acc[k] = ops.reduce(acc[k], K::load(p + (c + k) * s), idx0 + c + k);
      }
      // The tail goes to one accumulator: a dynamic index would keep acc[] in memory.
      for (const char* q = p + c * s; c < c1; ++c, q += s) acc[0] = ops.reduce(acc[0], K::load(q), idx0 + c);
      return fold_accs(ops, acc);
    }
  }
  // The contiguous form over q[0, n) (E is In, or float for values widened here), the same order.
  template <typename E>
  static INGOT_CPU_ALWAYS_INLINE acc_t contiguous_leaf(const Ops& ops, const E* q, int64_t n, int64_t idx0) {
    acc_t acc[kAccs];
    for (int k = 0; k < kAccs; ++k) acc[k] = ops.identity();
    int64_t c = 0;
    for (; c + kAccs <= n; c += kAccs) {
      for (int k = 0; k < kAccs; ++k) acc[k] = ops.reduce(acc[k], static_cast<opmath_t<In>>(q[c + k]), idx0 + c + k);
    }
    for (; c < n; ++c) acc[0] = ops.reduce(acc[0], static_cast<opmath_t<In>>(q[c]), idx0 + c);
    return fold_accs(ops, acc);
  }
  static INGOT_CPU_ALWAYS_INLINE acc_t fold_accs(const Ops& ops, acc_t* acc) {
    for (int w = kAccs / 2; w > 0; w /= 2) {
      for (int k = 0; k < w; ++k) acc[k] = ops.combine(acc[k], acc[k + w]);
    }
    return acc[0];
  }
  // A whole contiguous leaf: constant trip counts, so the accumulators stay in (vector) registers.
  // E is In, or float for a leaf widened here.
  template <typename E>
  static INGOT_CPU_ALWAYS_INLINE acc_t full_leaf(const Ops& ops, const E* q, int64_t idx0) {
    if constexpr (kWiden && std::is_same_v<E, In>) {
      float w[kLeaf];
      convert_block(w, q, kLeaf);
      return full_leaf(ops, static_cast<const float*>(w), idx0);
    }
    if constexpr (requires { ops.reduce_block(q, static_cast<int>(kLeaf)); }) {
      return ops.reduce_block(q, static_cast<int>(kLeaf));  // the functor's own block algorithm (var)
    }
    acc_t acc[kAccs];
#pragma GCC unroll 16
    for (int k = 0; k < kAccs; ++k) acc[k] = ops.identity();
    for (int c = 0; c < kLeaf; c += kAccs) {
#pragma GCC unroll 16
      for (int k = 0; k < kAccs; ++k) acc[k] = ops.reduce(acc[k], static_cast<opmath_t<In>>(q[c + k]), idx0 + c + k);
    }
#pragma GCC unroll 16
    for (int k = 0; k < kAccs / 2; ++k) acc[k] = ops.combine(acc[k], acc[k + kAccs / 2]);
#pragma GCC unroll 8
    for (int k = 0; k < kAccs / 4; ++k) acc[k] = ops.combine(acc[k], acc[k + kAccs / 4]);
    acc[0] = ops.combine(ops.combine(acc[0], acc[2]), ops.combine(acc[1], acc[3]));
    return acc[0];
  }
  // The binary counter of a row's leaves: partial[k] holds the combined leaves of the pending
  // power-of-two run k (the largest first); result() combines the runs, the last one first.
  struct LeafCounter {
    acc_t partial[64];
    int depth = 0;
    int64_t done = 0;
    INGOT_CPU_ALWAYS_INLINE void push(const Ops& ops, const acc_t& leaf) {
      partial[depth++] = leaf;
      for (int64_t k = ++done; (k & 1) == 0; k >>= 1, --depth) {
        partial[depth - 2] = ops.combine(partial[depth - 2], partial[depth - 1]);
      }
    }
    INGOT_CPU_ALWAYS_INLINE acc_t result(const Ops& ops) const {
      acc_t r = partial[depth - 1];
      for (int d = depth - 2; d >= 0; --d) r = ops.combine(partial[d], r);
      return r;
    }
  };
  // Elements [c0, c1) of the row at p (stride s bytes); idx0 is the row's first reduction index.
  // Leaves start at c0 (callers split rows at multiples of kLeaf, so partial counts stay round and
  // sums of ones exact).
  template <bool Contiguous>
  static INGOT_CPU_ALWAYS_INLINE acc_t cascade(const Ops& ops, const char* p, int64_t s, int64_t c0, int64_t c1,
                                               int64_t idx0) {
    LeafCounter cnt;
    int64_t c = c0;
    if constexpr (Contiguous) {
      if (c1 - c0 >= simd::kStreamMin && !assisted_memory()) c = parts_head(ops, p, c0, c1, idx0, cnt);
    }
    for (; c < c1; c += kLeaf) {
      if constexpr (Contiguous) {
        cnt.push(ops, c1 - c >= kLeaf ? full_leaf(ops, reinterpret_cast<const In*>(p) + c, idx0 + c)
                                      : leaf<true>(ops, p, s, c, c1, idx0));
      } else {
        cnt.push(ops, leaf<false>(ops, p, s, c, std::min(c1, c + kLeaf), idx0));
      }
    }
    return cnt.result(ops);
  }
  // Under the plain memory policy, the counter's first run of a long contiguous row (its largest
  // power of two of whole leaves) is read as kPlainParts runs at once, four streams for the
  // hardware prefetchers as for max (reduce_simd.h). The first run is a balanced tree of leaves,
  // so the four runs' counters combined pairwise give the bits one counter gives. Leaves cnt
  // holding the first run; returns the first element after it.
  static INGOT_CPU_ALWAYS_INLINE int64_t parts_head(const Ops& ops, const char* p, int64_t c0, int64_t c1,
                                                    int64_t idx0, LeafCounter& cnt) {
    constexpr int S = simd::kPlainParts;
    static_assert(S == 4, "the runs are combined as ((0, 1), (2, 3))");
    int64_t run = S;  // leaves
    while (run * 2 * kLeaf <= c1 - c0) run *= 2;
    const int64_t part = run / S * kLeaf;  // elements
    const In* q = reinterpret_cast<const In*>(p) + c0;
    LeafCounter parts[S];
    for (int64_t c = 0; c < part; c += kLeaf) {
      for (int k = 0; k < S; ++k) parts[k].push(ops, full_leaf(ops, q + k * part + c, idx0 + c0 + k * part + c));
    }
    cnt.partial[0] = ops.combine(ops.combine(parts[0].result(ops), parts[1].result(ops)),
                                 ops.combine(parts[2].result(ops), parts[3].result(ops)));
    cnt.depth = 1;
    cnt.done = run;
    return c0 + S * part;
  }
  // kRowsTogether contiguous rows of n elements at p[k] (n >= kLeaf), leaf by leaf in turn: one
  // stream each, the bits of each row's own cascade.
  static INGOT_CPU_ALWAYS_INLINE void cascade_rows(const Ops& ops, const char* const* p, int64_t n, acc_t* r) {
    constexpr int S = simd::kRowsTogether;
    LeafCounter cnt[S];
    int64_t c = 0;
    for (; c + kLeaf <= n; c += kLeaf) {
      for (int k = 0; k < S; ++k) cnt[k].push(ops, full_leaf(ops, reinterpret_cast<const In*>(p[k]) + c, c));
    }
    for (int k = 0; k < S; ++k) {
      if (c < n) cnt[k].push(ops, leaf<true>(ops, p[k], static_cast<int64_t>(sizeof(In)), c, n, 0));
      r[k] = cnt[k].result(ops);
    }
  }
  // A contiguous row. Generic: skip the whole-range fast paths (the fallback of a zero maximum).
  template <bool Generic = false>
  static INGOT_CPU_ALWAYS_INLINE acc_t contiguous_row(const Ops& ops, const char* p, int64_t c0, int64_t c1,
                                                      int64_t idx0) {
    if constexpr (kWiden && (kSimdMax || kSimdArg) && !Generic) {
      acc_t r;
      if (widened_extreme(ops, reinterpret_cast<const In*>(p) + c0, c1 - c0, r)) {
        if constexpr (kSimdArg) r.index += idx0 + c0;
        return r;
      }
      return contiguous_row_any_isa<true>(ops, p, c0, c1, idx0);
    } else if constexpr (kSimdMax && !Generic) {
      acc_t r;
      if (simd::row_extreme<kExtreme>(reinterpret_cast<const In*>(p) + c0, c1 - c0, ops.identity(),
                                      r, assisted_memory())) {
        return r;
      }
      return contiguous_row_any_isa<true>(ops, p, c0, c1, idx0);
    } else if constexpr (kLogical != 0) {
      static_assert(sizeof(Bits) == sizeof(In));
      const bool found = simd::BitsRow<Bits>::template has<(kLogical > 0)>(reinterpret_cast<const Bits*>(p) + c0,
                                                                            c1 - c0, kMagnitude);
      return kLogical > 0 ? found : !found;
    } else if constexpr (kCount) {
      return simd::BitsRow<Bits>::count(reinterpret_cast<const Bits*>(p) + c0, c1 - c0, kMagnitude);
    } else if constexpr (kAbsExtreme != 0 && !Generic) {
      using S = std::make_signed_t<Bits>;
      S key;
      if (simd::row_abs_extreme<kAbsExtreme>(reinterpret_cast<const S*>(p) + c0, c1 - c0, static_cast<S>(kMagnitude),
                                             inf_key(), key)) {
        In v;
        std::memcpy(&v, &key, sizeof(v));
        return static_cast<acc_t>(static_cast<opmath_t<In>>(v));
      }
      return contiguous_row_any_isa<true>(ops, p, c0, c1, idx0);  // a NaN: the generic path's
    } else if constexpr (kSimdArg && !kWiden) {
      // The whole range at once: the first index does not depend on the split.
      acc_t r;
      simd::row_arg_extreme<kExtreme>(reinterpret_cast<const In*>(p) + c0, c1 - c0,
                                      ops.identity().value, r.value, r.index, assisted_memory());
      r.index += idx0 + c0;
      return r;
    } else {
      return cascade<true>(ops, p, static_cast<int64_t>(sizeof(In)), c0, c1, idx0);
    }
  }
  // max/min (kSimdMax) or argmax/argmin (kSimdArg) of the contiguous float16/bfloat16 row q[0, n),
  // n >= 1, widened kWidenBlock elements at a time, the blocks' results combined in order (the
  // first NaN, the first index of the extreme; index relative to q). False when the row needs the
  // generic path: a block of max/min had a zero extreme (reduce_simd.h's row_extreme).
  static INGOT_CPU_ALWAYS_INLINE bool widened_extreme(const Ops& ops, const In* q, int64_t n, acc_t& r) {
    float w[kWidenBlock];
    r = ops.identity();  // loses to any block's result (a value at -inf: the identity's index is last)
    for (int64_t c = 0; c < n; c += kWidenBlock) {
      const int64_t len = std::min(kWidenBlock, n - c);
      convert_block(w, q + c, len);
      acc_t b;
      if constexpr (kSimdMax) {
        if (!simd::row_extreme<kExtreme>(static_cast<const float*>(w), len, ops.identity(), b, false)) return false;
      } else {
        simd::row_arg_extreme<kExtreme>(static_cast<const float*>(w), len, ops.identity().value, b.value,
                                        b.index, false);
        b.index += c;
      }
      r = ops.combine(r, b);
    }
    return true;
  }
  template <bool Generic>
  INGOT_CPU_MULTIARCH static acc_t contiguous_row_clones(const Ops& ops, const char* p, int64_t c0, int64_t c1,
                                                         int64_t idx0) {
    return contiguous_row<Generic>(ops, p, c0, c1, idx0);
  }
  template <bool Generic>
  static acc_t contiguous_row_any_isa(const Ops& ops, const char* p, int64_t c0, int64_t c1, int64_t idx0) {
    if constexpr (kClones) {
      return contiguous_row_clones<Generic>(ops, p, c0, c1, idx0);
    } else {
      return contiguous_row<Generic>(ops, p, c0, c1, idx0);
    }
  }
  static acc_t row(const Ops& ops, const char* p, int64_t s, int64_t c0, int64_t c1, int64_t idx0) {
    if (c1 <= c0) return ops.identity();
    return s == static_cast<int64_t>(sizeof(In)) ? contiguous_row_any_isa<false>(ops, p, c0, c1, idx0)
                                                 : cascade<false>(ops, p, s, c0, c1, idx0);
  }
  // Rows [r0, r1) (linear over the reduced dims after the first), columns [c0, c1) of each, of the
  // m (at most kRowsTogether) outputs at base[k], into r[k]: each output's own pairwise tree, row r
  // of every output read before row r + 1 of any. When the outputs' rows lie side by side (a sum
  // over dims (0, 2) of a 3-d tensor), that reads one run of memory in place of m runs far apart.
  static void rows_of(const Ops& ops, const ReduceArgs& a, const char* const* base, int m, int64_t r0,
                      int64_t r1, int64_t c0, int64_t c1, acc_t* r) {
    if (r1 - r0 == 1) {
      const int64_t off = red_offset(a, r0, 1);
      for (int k = 0; k < m; ++k) r[k] = row(ops, base[k] + off, a.in_red_strides[0], c0, c1, r0 * a.red_sizes[0]);
      return;
    }
    const int64_t mid = r0 + (r1 - r0) / 2;
    acc_t right[simd::kRowsTogether];
    rows_of(ops, a, base, m, r0, mid, c0, c1, r);
    rows_of(ops, a, base, m, mid, r1, c0, c1, right);
    for (int k = 0; k < m; ++k) r[k] = ops.combine(r[k], right[k]);
  }
  // The same for one output.
  static acc_t rows(const Ops& ops, const ReduceArgs& a, const char* base, int64_t r0, int64_t r1, int64_t c0,
                    int64_t c1) {
    acc_t r;
    rows_of(ops, a, &base, 1, r0, r1, c0, c1, &r);
    return r;
  }

  // kRowsTogether contiguous rows of n elements at p[k], read together (reduce_simd.h).
  static INGOT_CPU_ALWAYS_INLINE void contiguous_rows(const Ops& ops, const char* const* p, int64_t n, acc_t* r) {
    constexpr int S = simd::kRowsTogether;
    [[maybe_unused]] const In* q[S];
    for (int k = 0; k < S; ++k) q[k] = reinterpret_cast<const In*>(p[k]);
    [[maybe_unused]] In value[S];
    if constexpr (kSimdMax && !kWiden) {  // widened rows do not come here (rows_together)
      bool ok[S];
      simd::rows_extreme<kExtreme, S>(q, n, ops.identity(), value, ok);
      for (int k = 0; k < S; ++k) r[k] = ok[k] ? value[k] : contiguous_row_any_isa<true>(ops, p[k], 0, n, 0);
    } else if constexpr (kSimdArg && !kWiden) {
      int64_t index[S];
      simd::rows_arg_extreme<kExtreme, S>(q, n, ops.identity().value, value, index);
      for (int k = 0; k < S; ++k) r[k] = acc_t{value[k], index[k]};
    } else {
      cascade_rows(ops, p, n, r);
    }
  }
  INGOT_CPU_MULTIARCH static void contiguous_rows_clones(const Ops& ops, const char* const* p, int64_t n, acc_t* r) {
    contiguous_rows(ops, p, n, r);
  }
  static void contiguous_rows_any_isa(const Ops& ops, const char* const* p, int64_t n, acc_t* r) {
    if constexpr (kClones) {
      contiguous_rows_clones(ops, p, n, r);
    } else {
      contiguous_rows(ops, p, n, r);
    }
  }
  // Whether the outputs' rows are read kRowsTogether at a time: a reduction over one contiguous
  // dim of kRowsMin to kStreamMin elements, under the plain memory policy (on the Zen 3 dev box,
  // max over 4096 rows of 4096 float32 in a harness: 3.7-4.4 ms four rows at a time against
  // 5.2-6.4 one at a time; on the H200 host's Xeon 2.8-2.9 ms either way; 2026-12-04). Each row
  // keeps its own order, so the bits do not depend on it.
  static bool rows_together(const ReduceArgs& a, int64_t n_out, int64_t n_red) {
    return !kBitsPath && !(kWiden && (kSimdMax || kSimdArg)) && n_out >= simd::kRowsTogether && a.nred_dims == 1 &&
           a.in_red_strides[0] == static_cast<int64_t>(sizeof(In)) && n_red >= simd::kRowsMin && n_red < simd::kStreamMin && !assisted_memory();
  }

  static void run_inner(const Ops& ops, const ReduceArgs& a, int64_t n_out, int64_t n_red) {
    const int64_t n0 = a.red_sizes[0], n_rows = n_red / n0;
    const int nthreads = threads_for(n_out * n_red);
    if (rows_together(a, n_out, n_red) && (nthreads <= 1 || n_out >= nthreads * simd::kRowsTogether)) {
      constexpr int S = simd::kRowsTogether;
      auto group = [&](int64_t g) {
        const char* p[S];
        char* outs[S][2];
        acc_t r[S];
        for (int k = 0; k < S; ++k) p[k] = a.in + out_pointers(a, g * S + k, outs[k]);
        contiguous_rows_any_isa(ops, p, n_red, r);
        for (int k = 0; k < S; ++k) K::store(ops, outs[k][0], outs[k][1], r[k]);
      };
      const int64_t ngroups = n_out / S;
      parallel_for(nthreads, ngroups, group);
      for (int64_t o = ngroups * S; o < n_out; ++o) {
        char* outs[2];
        const char* base = a.in + out_pointers(a, o, outs);
        K::store(ops, outs[0], outs[1], row(ops, base, static_cast<int64_t>(sizeof(In)), 0, n_red, 0));
      }
      return;
    }
    if (n_rows > 1 && n_out >= nthreads * simd::kRowsTogether) {  // rows_of, kRowsTogether outputs at a time
      constexpr int S = simd::kRowsTogether;
      auto group = [&](int64_t g) {
        const int m = static_cast<int>(std::min<int64_t>(S, n_out - g * S));
        char* outs[S][2];
        const char* base[S] = {};
        acc_t r[S];
        for (int k = 0; k < m; ++k) base[k] = a.in + out_pointers(a, g * S + k, outs[k]);
        rows_of(ops, a, base, m, 0, n_rows, 0, n0, r);
        for (int k = 0; k < m; ++k) K::store(ops, outs[k][0], outs[k][1], r[k]);
      };
      parallel_for(nthreads, (n_out + S - 1) / S, group);
      return;
    }
    if (nthreads <= 1 || n_out >= nthreads) {
      auto one = [&](int64_t o) {
        char* outs[2];
        const char* base = a.in + out_pointers(a, o, outs);
        K::store(ops, outs[0], outs[1], rows(ops, a, base, 0, n_rows, 0, n0));
      };
      parallel_for(nthreads, n_out, one);
      return;
    }
    // Few outputs: split each one's reduction into pieces (row ranges, or column ranges of one row).
    const int64_t pieces_per_row = n_rows >= nthreads ? 1 : (nthreads + n_rows - 1) / n_rows;
    const int64_t npieces = n_rows >= nthreads ? nthreads : n_rows * pieces_per_row;
    std::unique_ptr<acc_t[]> partial(new acc_t[static_cast<size_t>(npieces)]);
    for (int64_t o = 0; o < n_out; ++o) {
      char* outs[2];
      const char* base = a.in + out_pointers(a, o, outs);
#ifdef INGOT_HAS_OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
      for (int64_t t = 0; t < npieces; ++t) {
        if (pieces_per_row == 1) {
          partial[t] = rows(ops, a, base, n_rows * t / npieces, n_rows * (t + 1) / npieces, 0, n0);
        } else {
          const int64_t r = t / pieces_per_row, k = t % pieces_per_row;
          const int64_t c0 = n0 * k / pieces_per_row / kLeaf * kLeaf;
          const int64_t c1 = k + 1 == pieces_per_row ? n0 : n0 * (k + 1) / pieces_per_row / kLeaf * kLeaf;
          partial[t] = rows(ops, a, base, r, r + 1, c0, c1);
        }
      }
      K::store(ops, outs[0], outs[1], combine_all(ops, partial.get(), 0, npieces));
    }
  }
  static acc_t combine_all(const Ops& ops, const acc_t* p, int64_t i0, int64_t i1) {
    if (i1 - i0 == 1) return p[i0];
    const int64_t mid = i0 + (i1 - i0) / 2;
    return ops.combine(combine_all(ops, p, i0, mid), combine_all(ops, p, mid, i1));
  }

  // ---- outer strategy: outputs [j0, j0 + nj) along output dim 0 accumulate together
  // Contiguous rows r, r + 1, ... into acc, R a pass (in order within each element, so the result
  // does not depend on R), while R rows remain before r1; returns the first row left. A sum over dim
  // 0 of a 4096x4096 float32 in a C++ harness of this loop: 2.59-2.65 ms a pass of 8 rows against
  // 2.70-2.78 for 4 (one row: 2.66) on the H200 host's Xeon, 2.46-2.54 against 2.64-2.67 on the Zen 4
  // dev box (bench/harness/sum_dim0_forms.cpp, 2026-12-04).
  template <int R>
  static INGOT_CPU_ALWAYS_INLINE int64_t rows_pass(const Ops& ops, const ReduceArgs& a, const char* base, int64_t r,
                                                   int64_t r1, int64_t nj, acc_t* acc) {
    for (; r + R <= r1; r += R) {
      const In* q[R];
      for (int k = 0; k < R; ++k) q[k] = reinterpret_cast<const In*>(base + red_offset(a, r + k, 0));
      by_columns<R>(q, R, nj, [&](const auto* const* rows, int64_t j0, int64_t m) INGOT_CPU_INLINE_LAMBDA {
        acc_t* ac = acc + j0;  // a block of its own (never one of the rows): no dependence between the j's
        INGOT_CPU_NO_LOOP_DEPENDENCE
        for (int64_t j = 0; j < m; ++j) {
          acc_t v = ac[j];
#pragma GCC unroll 8
          for (int k = 0; k < R; ++k) v = ops.reduce(v, static_cast<opmath_t<In>>(rows[k][j]), r + k);
          ac[j] = v;
        }
      });
    }
    return r;
  }
  // f(rows, j0, m) over the nrows (at most Cap) rows q[k][0, nj), rows[k] holding columns
  // [j0, j0 + m): at once (j0 = 0, m = nj), or for float16/bfloat16 rows widened kWidenCols columns
  // at a time (fewer for many rows: the buffer stays within 32 KiB).
  template <int Cap, typename F>
  static INGOT_CPU_ALWAYS_INLINE void by_columns(const In* const* q, int nrows, int64_t nj, F&& f) {
    if constexpr (kWiden) {
      constexpr int64_t W = Cap <= 16 ? kWidenCols : 8192 / Cap;
      float w[Cap][W];
      const float* rows[Cap];
      for (int64_t j0 = 0; j0 < nj; j0 += W) {
        const int64_t m = std::min(W, nj - j0);
        for (int k = 0; k < nrows; ++k) {
          convert_block(w[k], q[k] + j0, m);
          rows[k] = w[k];
        }
        f(static_cast<const float* const*>(rows), j0, m);
      }
    } else {
      f(q, int64_t{0}, nj);
    }
  }
  // The same for plain max/min through explicit vectors (reduce_simd.h).
  template <int R>
  static INGOT_CPU_ALWAYS_INLINE int64_t extreme_pass(const ReduceArgs& a, const char* base, int64_t r, int64_t r1,
                                                      int64_t nj, acc_t* acc) {
    for (; r + R <= r1; r += R) {
      const In* q[R];
      for (int k = 0; k < R; ++k) q[k] = reinterpret_cast<const In*>(base + red_offset(a, r + k, 0));
      by_columns<R>(q, R, nj, [&](const Elem* const* rows, int64_t j0, int64_t m) INGOT_CPU_INLINE_LAMBDA {
        simd::accumulate_extreme_rows<kExtreme, R>(acc + j0, rows, m);
      });
    }
    return r;
  }
  // Rows [r0, r1) (at most kRowGroup; kArgGroup for argmax) into acc, in order. Contiguous rows go
  // 8, then 4 a pass (each accumulator loaded and stored once a pass); under the assisted memory policy, other than
  // for plain max/min, one a pass: one sequential stream. Each element takes its rows in order either
  // way, so the bits are the same. A float32 sum over dim 0 of a 4096x4096 NumPy array, bare C++
  // loops on the H200 host's Xeon in one process: 2.32-2.37 ms one row a pass, 2.54-2.56 eight
  // (NumPy 2.47-2.50) when the host was quiet; on the Zen 4 dev box one row took 3.9-4.4 ms, eight
  // 2.5-3.0. max over dim 0 one row a pass ran at 0.78-0.81x NumPy on the Xeon under load, against
  // 1.11 eight a pass, so it keeps eight (2026-12-04).
  static INGOT_CPU_ALWAYS_INLINE void row_group(const Ops& ops, const ReduceArgs& a, const char* base, int64_t r0,
                                                int64_t r1, int64_t nj, acc_t* acc) {
    const int64_t cs = a.in_out_strides[0];
    int64_t r = r0;
    if constexpr (requires { ops.reduce_rows(acc, static_cast<const In* const*>(nullptr), 1, nj); }) {
      if (cs == static_cast<int64_t>(sizeof(In))) {  // the functor's own group algorithm (logsumexp)
        const In* q[kRowGroup];
        for (; r < r1; ++r) q[r - r0] = reinterpret_cast<const In*>(base + red_offset(a, r, 0));
        const int nrows = static_cast<int>(r1 - r0);
        by_columns<kRowGroup>(q, nrows, nj, [&](const auto* const* rows, int64_t j0, int64_t m) INGOT_CPU_INLINE_LAMBDA {
          ops.reduce_rows(acc + j0, rows, nrows, m);
        });
        return;
      }
    }
    if constexpr (kLogical != 0) {
      // any/all: the accumulators as bytes (a bool array kept GCC from vectorizing: any of float32
      // over dim 0 of 2048x2048 took 2.4 ms, NumPy 0.8), the elements' bits as BitsRow tests them.
      if (cs == static_cast<int64_t>(sizeof(In))) {
        static_assert(sizeof(acc_t) == 1);
        uint8_t* bytes = reinterpret_cast<uint8_t*>(acc);
        for (; r < r1; ++r) {
          const char* q = base + red_offset(a, r, 0);
          INGOT_CPU_NO_LOOP_DEPENDENCE
          for (int64_t j = 0; j < nj; ++j) {
            Bits x;
            std::memcpy(&x, q + j * static_cast<int64_t>(sizeof(In)), sizeof(x));
            const auto nonzero = static_cast<uint8_t>((x & kMagnitude) != 0);
            bytes[j] = kLogical > 0 ? static_cast<uint8_t>(bytes[j] | nonzero) : static_cast<uint8_t>(bytes[j] & nonzero);
          }
        }
        return;
      }
    }
    if constexpr (kSimdArg) {
      if (cs == static_cast<int64_t>(sizeof(In))) {
        arg_group(ops, a, base, r0, r1, nj, acc);
        return;
      }
    }
    if constexpr (kSimdMax) {  // plain max/min: explicit vectors (reduce_simd.h)
      if (cs == static_cast<int64_t>(sizeof(In))) {
        r = extreme_pass<8>(a, base, r, r1, nj, acc);
        r = extreme_pass<4>(a, base, r, r1, nj, acc);
        extreme_pass<1>(a, base, r, r1, nj, acc);
        return;
      }
    }
    if (cs == static_cast<int64_t>(sizeof(In))) {
      if (!assisted_memory()) {
        r = rows_pass<8>(ops, a, base, r, r1, nj, acc);
        r = rows_pass<4>(ops, a, base, r, r1, nj, acc);
      }
      rows_pass<1>(ops, a, base, r, r1, nj, acc);
      return;
    }
    for (; r < r1; ++r) {
      const char* p = base + red_offset(a, r, 0);
      for (int64_t j = 0; j < nj; ++j) acc[j] = ops.reduce(acc[j], K::load(p + j * cs), r);
    }
  }
  // argmax/argmin over the contiguous rows [r0, r1) (at most kArgGroup) into acc[0, nj): each
  // column's first extreme (or first NaN) among the group's rows, kept as values and row numbers
  // in separate arrays of the element's width, so the loop over a row vectorizes (the functor's
  // rule on acc_t's value-index pairs did not: float32 argmax over dim 0 of 2048x2048 took 5.5
  // ms, 14x the sum over dim 0), then combined into acc, whose rows all come before.
  static INGOT_CPU_ALWAYS_INLINE void arg_group(const Ops& ops, const ReduceArgs& a, const char* base, int64_t r0,
                                                int64_t r1, int64_t nj, acc_t* acc) {
    using Row = std::make_signed_t<Bits>;  // a row number in the group (< kArgGroup)
    static_assert(sizeof(Elem) == sizeof(Row) || kWiden);
    using RowW = std::conditional_t<kWiden, int32_t, Row>;  // as wide as the values read
    constexpr int R = 4;  // rows a pass: best and at loaded and stored once per R rows
    alignas(64) Elem best[kBlock];
    alignas(64) RowW at[kBlock];
    auto row = [&](int64_t r) INGOT_CPU_INLINE_LAMBDA { return reinterpret_cast<const In*>(base + red_offset(a, r, 0)); };
    const In* first = row(r0);
    by_columns<1>(&first, 1, nj, [&](const Elem* const* x, int64_t j0, int64_t m) INGOT_CPU_INLINE_LAMBDA {
      for (int64_t j = 0; j < m; ++j) {
        best[j0 + j] = x[0][j];
        at[j0 + j] = 0;
      }
    });
    // Rows [r, r + P) into best/at, in order (reduce_simd.h).
    auto pass = [&]<int P>(int64_t r) INGOT_CPU_INLINE_LAMBDA {
      const In* q[P];
      for (int k = 0; k < P; ++k) q[k] = row(r + k);
      by_columns<P>(q, P, nj, [&](const Elem* const* x, int64_t j0, int64_t m) INGOT_CPU_INLINE_LAMBDA {
        simd::accumulate_arg_rows<kExtreme, P>(best + j0, at + j0, x, static_cast<RowW>(r - r0), m);
      });
    };
    int64_t r = r0 + 1;
    for (; r + R <= r1; r += R) pass.template operator()<R>(r);
    for (; r < r1; ++r) pass.template operator()<1>(r);
    for (int64_t j = 0; j < nj; ++j) acc[j] = ops.combine(acc[j], acc_t{best[j], r0 + at[j]});
  }
  INGOT_CPU_MULTIARCH static void row_group_clones(const Ops& ops, const ReduceArgs& a, const char* base, int64_t r0,
                                                   int64_t r1, int64_t nj, acc_t* acc) {
    row_group(ops, a, base, r0, r1, nj, acc);
  }
  static void columns(const Ops& ops, const ReduceArgs& a, const char* base, int64_t r0, int64_t r1, int64_t nj,
                      acc_t* acc) {
    const bool arg_rows = kSimdArg && a.in_out_strides[0] == static_cast<int64_t>(sizeof(In));
    if (r1 - r0 <= (arg_rows ? kArgGroup : kRowGroup)) {
      if constexpr (kClones) {
        row_group_clones(ops, a, base, r0, r1, nj, acc);
      } else {
        row_group(ops, a, base, r0, r1, nj, acc);
      }
      return;
    }
    const int64_t mid = r0 + (r1 - r0) / 2;
    columns(ops, a, base, r0, mid, nj, acc);
    acc_t right[kBlock];
    for (int64_t j = 0; j < nj; ++j) right[j] = ops.identity();
    columns(ops, a, base, mid, r1, nj, right);
    for (int64_t j = 0; j < nj; ++j) acc[j] = ops.combine(acc[j], right[j]);
  }

  static void run_outer(const Ops& ops, const ReduceArgs& a, int64_t n_out, int64_t n_red) {
    const int64_t n_cols = a.out_sizes[0], blocks_per_line = (n_cols + kBlock - 1) / kBlock;
    const int64_t nblocks = n_out / n_cols * blocks_per_line;
    const int nthreads = threads_for(n_out * n_red);
    const int64_t splits = nblocks >= nthreads
                               ? 1
                               : std::min<int64_t>(nthreads, (n_red + kSplitRows - 1) / kSplitRows);
    auto block = [&](int64_t b, int64_t r0, int64_t r1, acc_t* acc, char** outs) {
      const int64_t line = b / blocks_per_line, j0 = (b % blocks_per_line) * kBlock;
      const int64_t nj = std::min(kBlock, n_cols - j0);
      const char* base = a.in + out_pointers(a, line * n_cols + j0, outs);
      for (int64_t j = 0; j < nj; ++j) acc[j] = ops.identity();
      columns(ops, a, base, r0, r1, nj, acc);
      return nj;
    };
    auto store = [&](const acc_t* acc, int64_t nj, char** outs) {
      for (int64_t j = 0; j < nj; ++j) {
        K::store(ops, outs[0] + j * a.out_strides[0][0],
                 outs[1] == nullptr ? nullptr : outs[1] + j * a.out_strides[1][0], acc[j]);
      }
    };
    if (splits == 1) {
      auto one = [&](int64_t b) {
        acc_t acc[kBlock];
        char* outs[2];
        const int64_t nj = block(b, 0, n_red, acc, outs);
        store(acc, nj, outs);
      };
      parallel_for(nthreads, nblocks, one);
      return;
    }
    std::unique_ptr<acc_t[]> partial(new acc_t[static_cast<size_t>(splits * kBlock)]);
    for (int64_t b = 0; b < nblocks; ++b) {
      char* outs[2];
      int64_t nj = 0;
#ifdef INGOT_HAS_OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
      for (int64_t t = 0; t < splits; ++t) {
        char* o[2];
        const int64_t n = block(b, n_red * t / splits, n_red * (t + 1) / splits, partial.get() + t * kBlock, o);
        if (t == 0) {
          outs[0] = o[0];
          outs[1] = o[1];
          nj = n;
        }
      }
      for (int64_t t = 1; t < splits; ++t) {
        for (int64_t j = 0; j < nj; ++j) partial[j] = ops.combine(partial[j], partial[t * kBlock + j]);
      }
      store(partial.get(), nj, outs);
    }
  }
};

}  // namespace ingot::cpu
