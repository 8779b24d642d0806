// The CPU loop driver for ElementwiseKernel instantiations: each flavor runs the linear element
// range [begin, end) of an iteration on the calling thread (the kernel library splits ranges
// across threads). Contiguous runs are plain indexed loops the compiler vectorizes.
#pragma once

#include <algorithm>
#include <cstring>
#include <tuple>
#include <type_traits>

#include "backend/cpu/convert_block.h"
#include "backend/cpu/memory_policy.h"
#include "backend/cpu/multiarch.h"
#include "backend/cpu/tiles.h"
#include "kernels/elementwise.h"
#include "kernels/vec_math.h"

namespace ingot::cpu {

// Walks [begin, end) of an N-d iteration of NOps operands row by row (a row is a run along dim 0),
// one row per next(): each operand's address of the row's first element, and the row's length.
template <int NOps>
struct RowCursor {
  const ElementwiseArgs* a = nullptr;
  int64_t idx[kMaxDims] = {};
  char* ptrs[NOps] = {};
  int64_t i = 0, end = 0;
  // Once per range, out of line: GCC peels its loops over dims up to kMaxDims times, which at
  // each inlined call site was a few hundred instructions.
  __attribute__((noinline)) void start(const ElementwiseArgs& args, int64_t b, int64_t e) {
    a = &args;
    i = b;
    end = e;
    int64_t rest = b;
    for (int d = 0; d < a->ndim; ++d) {
      idx[d] = rest % a->sizes[d];
      rest /= a->sizes[d];
    }
    for (int k = 0; k < NOps; ++k) {
      ptrs[k] = a->data[k];
      for (int d = 0; d < a->ndim; ++d) ptrs[k] += idx[d] * a->strides[k][d];
    }
  }
  // The next row: each operand's address of its first element into row, its length into n.
  INGOT_CPU_ALWAYS_INLINE bool next(char** row, int64_t& n) {
    if (i >= end) return false;
    n = std::min(a->sizes[0] - idx[0], end - i);
    for (int k = 0; k < NOps; ++k) {
      row[k] = ptrs[k];
      ptrs[k] += n * a->strides[k][0];
    }
    i += n;
    idx[0] += n;
    if (idx[0] == a->sizes[0] && a->ndim > 1) carry(0);
    return true;
  }
  // Carries from dim d into d + 1, and on outward while a dim wraps. Dim 0 inline (once per
  // row), the rest out of line: GCC peels the loop over dims up to kMaxDims times.
  INGOT_CPU_ALWAYS_INLINE void carry(int d) {
    idx[d] = 0;
    ++idx[d + 1];
    for (int k = 0; k < NOps; ++k) ptrs[k] += a->strides[k][d + 1] - a->sizes[d] * a->strides[k][d];
    if (d + 2 < a->ndim && idx[d + 1] == a->sizes[d + 1]) carry_outer(d + 1);
  }
  __attribute__((noinline)) void carry_outer(int d) {
    for (; d + 1 < a->ndim && idx[d] == a->sizes[d]; ++d) {
      idx[d] = 0;
      ++idx[d + 1];
      for (int k = 0; k < NOps; ++k)
        ptrs[k] += a->strides[k][d + 1] - a->sizes[d] * a->strides[k][d];
    }
  }
};

// Calls body(ptrs, n) for each row of [begin, end) (RowCursor), with each operand's address of the
// row's first element.
template <int NOps, typename Body>
INGOT_CPU_ALWAYS_INLINE void for_each_row(const ElementwiseArgs& a, int64_t begin, int64_t end,
                                          Body body) {
  RowCursor<NOps> rows;
  rows.start(a, begin, end);
  char* row[NOps];
  int64_t n = 0;
  while (rows.next(row, n)) body(row, n);
}

template <typename K, typename... Ins>
struct ElementwiseLoopsImpl;

// K = ElementwiseKernel<F, Out, Alpha, Ins...>.
template <typename F, typename Out, typename Alpha, typename... Ins>
struct ElementwiseLoopsImpl<ElementwiseKernel<F, Out, Alpha, Ins...>> {
  using K = ElementwiseKernel<F, Out, Alpha, Ins...>;
  static constexpr int N = K::N;
  using Seq = typename K::Seq;

  // A T stored at p. bool is read as a byte compared with 0 (the same value: bool storage holds 0
  // or 1): GCC vectorizes a select on such a value (where), but not on a plain bool load.
  template <typename T>
  static INGOT_INLINE T read(const char* p) {
    if constexpr (is_same_v<T, bool>) {
      return *reinterpret_cast<const uint8_t*>(p) != 0;
    } else {
      return *reinterpret_cast<const T*>(p);
    }
  }
  template <typename In>
  static INGOT_INLINE typename In::arg load(const char* p) {
    return convert<typename In::arg>(read<typename In::stored>(p));
  }

  // Input I at element i of a contiguous run, or the fixed value when I is the lifted input S.
  template <int I, int S, typename In, typename Lifted>
  static INGOT_INLINE typename In::arg fetch(const char* p, const Lifted& lifted, int64_t i) {
    if constexpr (I == S) {
      return std::get<I>(lifted);
    } else {
      return load<In>(p + i * static_cast<int64_t>(sizeof(typename In::stored)));
    }
  }

  // Operands stored as float16/bfloat16 are converted a block at a time (convert_block.h: vector
  // conversions) around a functor loop over float buffers, instead of element by element.
  static constexpr int64_t kBlock = 256;
  // Outputs at least this large (dense, scalar and tiled flavors) are written around the cache
  // (streaming stores), which also saves reading each output line before it is overwritten.
  static constexpr int64_t kStreamBytes = int64_t{8} << 20;
  static constexpr bool kBlocked =
      ((is_reduced_float_v<typename Ins::stored> || ...) || is_reduced_float_v<Out>);

  // Every operand stored as bfloat16 and computed in float: blocks widen and narrow in the paired
  // order (convert_block.h), cheaper on AVX2, which the functor between them cannot see.
  static constexpr bool kPairedBf16 =
      is_same_v<Out, BFloat16> &&
      ((is_same_v<typename Ins::stored, BFloat16> && is_same_v<typename Ins::arg, float>)&&...);
  template <typename In>
  static INGOT_INLINE void widen_block(typename In::arg* dst, const typename In::stored* src,
                                       int64_t m) {
    if constexpr (kPairedBf16) {
      widen_bf16_paired(dst, src, m);
    } else {
      convert_block(dst, src, m);
    }
  }
  template <typename R>
  static INGOT_INLINE void narrow_block(Out* dst, const R* src, int64_t m) {
    if constexpr (kPairedBf16) {
      static_assert(is_same_v<R, float>, "a paired block narrows from float");
      narrow_bf16_paired(dst, src, m);
    } else {
      convert_block(dst, src, m);
    }
  }

  template <typename T>
  static INGOT_INLINE void fill_block(char* buf, T v, int64_t n = kBlock) {
    T* b = reinterpret_cast<T*>(buf);
    for (int64_t j = 0; j < n; ++j) b[j] = v;
  }

  // A functor with a vector overload (kernels/vec_math.h: `static void vec(M* out, const M*...,
  // int64_t n)`) computes contiguous runs with it: directly on the operands when every operand is
  // stored and computed as float or double (kVecDirect), or on float blocks converted from the
  // stored inputs and back (kVecConverted: float16/bfloat16, which compute in float and round once,
  // as here, and integer inputs of float ops).
#if INGOT_VEC_MATH
  static constexpr bool kVecArity = is_same_v<Alpha, NoAlpha> && (N == 1 || N == 2);
  static constexpr bool kVecDirect =
      kVecArity && (is_same_v<Out, float> || is_same_v<Out, double>) &&
      ((is_same_v<typename Ins::stored, Out> && is_same_v<typename Ins::arg, Out>) && ...) && has_vec_v<F, Out, N>;
  static constexpr bool kVecConverted = kVecArity && !kVecDirect &&
                                        (is_reduced_float_v<Out> || is_same_v<Out, float>) &&
                                        (is_same_v<typename Ins::arg, float> && ...) && has_vec_v<F, float, N>;
#else
  static constexpr bool kVecDirect = false;
  static constexpr bool kVecConverted = false;
#endif

  // Streamed runs go in blocks that start on cache lines: the first block ends at the output's
  // first 64-byte boundary (lead elements) and is written through the cache, so that only the
  // run's first and last lines are partial (stream_block writes partial lines through the cache).
  static INGOT_INLINE int64_t lead_elements(const Out* o, int64_t n) {
    const auto mis = static_cast<int64_t>(reinterpret_cast<uintptr_t>(o) % 64);
    if (mis == 0 || mis % static_cast<int64_t>(sizeof(Out)) != 0) return 0;
    return std::min<int64_t>(n, (64 - mis) / static_cast<int64_t>(sizeof(Out)));
  }
  static INGOT_INLINE int64_t first_block(int64_t n, int64_t lead) {
    return lead > 0 ? lead : std::min(kBlock, n);
  }
  // Block [j0, j0 + m) of a streamed run, from buf.
  static INGOT_INLINE void put_block(Out* o, const Out* buf, int64_t j0, int64_t m, int64_t lead) {
    const int64_t bytes = m * static_cast<int64_t>(sizeof(Out));
    if (j0 < lead) {
      std::memcpy(o + j0, buf, static_cast<size_t>(bytes));
    } else {
      stream_block(o + j0, buf, bytes);
    }
  }

  // With `stream`, results go through a block buffer and on around the cache (stream_block).
  template <int S, int... I>
  static INGOT_INLINE void vec_run(Out* o, char* const* in, ScalarArg s, int64_t n, bool stream,
                                   int_seq<I...>) {
#if INGOT_VEC_MATH
    if constexpr (kVecDirect) {
      if (S < 0 && !stream) {
        F::vec(o, reinterpret_cast<const Out*>(in[I])..., n);
        return;
      }
      alignas(64) Out fixed[S < 0 ? 1 : kBlock];
      alignas(64) Out res[kBlock];
      if constexpr (S >= 0) fill_block(reinterpret_cast<char*>(fixed), s.template get<Out>());
      const int64_t lead = stream ? lead_elements(o, n) : 0;
      for (int64_t j0 = 0, m = first_block(n, lead); j0 < n;
           j0 += m, m = std::min(kBlock, n - j0)) {
        Out* dst = stream ? res : o + j0;
        F::vec(dst, (I == S ? fixed : reinterpret_cast<const Out*>(in[I]) + j0)..., m);
        if (stream) put_block(o, res, j0, m, lead);
      }
    } else {
      alignas(64) float buf[N][kBlock];
      alignas(64) float res[kBlock];
      alignas(64) Out stored[kBlock];
      ((I == S ? fill_block(reinterpret_cast<char*>(buf[I]), convert<float>(s.template get<typename Ins::arg>()))
               : void()),
       ...);
      const int64_t lead = stream ? lead_elements(o, n) : 0;
      for (int64_t j0 = 0, m = first_block(n, lead); j0 < n;
           j0 += m, m = std::min(kBlock, n - j0)) {
        ((I == S ? void()
                 : widen_block<Ins>(buf[I],
                                    reinterpret_cast<const typename Ins::stored*>(in[I]) + j0, m)),
         ...);
        F::vec(res, static_cast<const float*>(buf[I])..., m);
        narrow_block(stream ? stored : o + j0, res, m);
        if (stream) put_block(o, stored, j0, m, lead);
      }
    }
#else
    (void)o, (void)in, (void)s, (void)n, (void)stream;
#endif
  }

  // Every operand bfloat16, computed in float (kPairedBf16): 16 elements at a time widen, compute
  // and narrow without leaving registers (convert_block.h's 16-element paired forms). Blocks of
  // kBlock through memory store each element 8 times on the way (two widened inputs, the result,
  // the narrowed result, the stream copy), which kept bfloat16 add at 65-77% of float32 add's
  // bytes per second on one thread, against the 80% of issue #11. Streamed runs go a whole output
  // line (32 elements) at a time; the partial lines at either end through the cache.
  template <int S, int... I>
  static INGOT_INLINE void bf16_run(Out* o, char* const* in, ScalarArg s, ScalarArg alpha,
                                    int64_t n, bool stream, int_seq<I...>) {
    const auto av = K::alpha_value(alpha);
    const std::tuple<typename Ins::arg...> lifted{
        (I == S ? s.template get<typename Ins::arg>() : typename Ins::arg())...};
    alignas(32) float fixed[16];
    if constexpr (S >= 0) fill_block(reinterpret_cast<char*>(fixed), s.template get<float>(), 16);
    auto group = [&](Out* dst, int64_t j) INGOT_CPU_INLINE_LAMBDA {
      alignas(32) float x[N][16];
      alignas(32) float r[16];
      ((I == S ? void() : widen16_bf16_paired(x[I], reinterpret_cast<const BFloat16*>(in[I]) + j)),
       ...);
      for (int k = 0; k < 16; ++k) r[k] = K::compute(av, (I == S ? fixed[k] : x[I][k])...);
      narrow16_bf16_paired(dst, r);
    };
    auto one = [&](int64_t j) INGOT_CPU_INLINE_LAMBDA {
      o[j] = convert<Out>(K::compute(av, fetch<I, S, Ins>(in[I], lifted, j)...));
    };
    int64_t j = 0;
    const int64_t lead = stream ? lead_elements(o, n) : 0;
    if (stream && reinterpret_cast<uintptr_t>(o + lead) % 64 == 0) {
      for (; j < lead; ++j) one(j);
      for (; j + 32 <= n; j += 32) {
        alignas(64) Out line[32];
        group(line, j);
        group(line + 16, j + 16);
        stream_line(o + j, line);
      }
    } else {
      for (; j + 16 <= n; j += 16) group(o + j, j);
    }
    for (; j < n; ++j) one(j);
  }

  template <int S, int... I>
  static INGOT_INLINE void contiguous_run(char* out, char* const* in, ScalarArg s, ScalarArg alpha,
                                          int64_t n, bool stream, int_seq<I...>) {
    Out* o = reinterpret_cast<Out*>(out);
    if constexpr (kVecDirect || kVecConverted) {
      vec_run<S>(o, in, s, n, stream, int_seq<I...>{});
    } else if constexpr (kPairedBf16 && N > 0) {
      bf16_run<S>(o, in, s, alpha, n, stream, int_seq<I...>{});
    } else if constexpr (!kBlocked) {
      // alpha and the lifted value read once, before the loop: read in it (bytes through
      // ScalarArg), they keep the compiler from vectorizing.
      const auto av = K::alpha_value(alpha);
      const std::tuple<typename Ins::arg...> lifted{
          (I == S ? s.template get<typename Ins::arg>() : typename Ins::arg())...};
      if (!stream) {
        for (int64_t i = 0; i < n; ++i) o[i] = convert<Out>(K::compute(av, fetch<I, S, Ins>(in[I], lifted, i)...));
        return;
      }
      // A large output goes around the cache a block at a time (stream_block), which also saves
      // reading each output line before it is overwritten.
      alignas(64) Out res[kBlock];
      const int64_t lead = stream ? lead_elements(o, n) : 0;
      for (int64_t j0 = 0, m = first_block(n, lead); j0 < n;
           j0 += m, m = std::min(kBlock, n - j0)) {
        for (int64_t j = 0; j < m; ++j) {
          res[j] = convert<Out>(K::compute(av, fetch<I, S, Ins>(in[I], lifted, j0 + j)...));
        }
        put_block(o, res, j0, m, lead);
      }
    } else {
      const auto av = K::alpha_value(alpha);
      using Res = decltype(K::compute(av, declval<typename Ins::arg>()...));
      static_assert(((sizeof(typename Ins::arg) <= 8) && ...), "compute types are at most 8 bytes");
      alignas(64) char raw[N > 0 ? N : 1][kBlock * 8];
      alignas(64) Res res[kBlock];
      ((I == S ? fill_block(raw[I], s.template get<typename Ins::arg>()) : void()), ...);
      const int64_t lead = stream ? lead_elements(o, n) : 0;
      for (int64_t j0 = 0, m = first_block(n, lead); j0 < n;
           j0 += m, m = std::min(kBlock, n - j0)) {
        ((I == S ? void()
                 : widen_block<Ins>(reinterpret_cast<typename Ins::arg*>(raw[I]),
                                    reinterpret_cast<const typename Ins::stored*>(in[I]) + j0, m)),
         ...);
        for (int64_t j = 0; j < m; ++j) {
          res[j] = K::compute(av, read<typename Ins::arg>(raw[I] + j * static_cast<int64_t>(sizeof(typename Ins::arg)))...);
        }
        if (stream) {
          alignas(64) Out stored[kBlock];
          narrow_block(stored, res, m);
          put_block(o, stored, j0, m, lead);
        } else {
          narrow_block(o + j0, res, m);
        }
      }
    }
  }

  // Runs a contiguous run with input `s_index` fixed to `s` (-1: none).
  static INGOT_INLINE void run_with_fixed(int s_index, char* out, char* const* in, ScalarArg s,
                                          ScalarArg alpha, int64_t n, bool stream = false) {
    switch (s_index) {
      case 0:
        return contiguous_run<0>(out, in, s, alpha, n, stream, Seq{});
      case 1:
        return contiguous_run<(N > 1 ? 1 : -1)>(out, in, s, alpha, n, stream, Seq{});
      case 2:
        return contiguous_run<(N > 2 ? 2 : -1)>(out, in, s, alpha, n, stream, Seq{});
      default:
        return contiguous_run<-1>(out, in, s, alpha, n, stream, Seq{});
    }
  }

  // Whether the whole output (every chunk of this launch) is at least kStreamBytes; for a
  // vector-math functor, also only under the assisted memory policy (memory_policy.h): where the
  // hardware keeps up, such loops are bound by their arithmetic, and the block buffer and the
  // streaming stores cost time.
  static bool streams(const ElementwiseArgs& a) {
    int64_t numel = 1;
    for (int d = 0; d < a.ndim; ++d) numel *= a.sizes[d];
    if (numel * static_cast<int64_t>(sizeof(Out)) < kStreamBytes) return false;
    return !(kVecDirect || kVecConverted) || assisted_memory();
  }
  // The same for a loop that writes row by row, when its rows (runs along dim 0) are long: a
  // streaming store that leaves part of a cache line unwritten goes to memory as a partial-line
  // write, and short rows would be mostly such lines (tanh of a (1M, 11) float32 slice ran 5x
  // slower streamed than through the cache).
  static constexpr int64_t kStreamRowBytes = 4096;
  static bool streams_rows(const ElementwiseArgs& a) {
    return a.sizes[0] * static_cast<int64_t>(sizeof(Out)) >= kStreamRowBytes && streams(a);
  }
  // Shorter rows of contiguous operands run element by element (strided_run), or for a functor
  // with a vector overload, gathered into blocks (gathered_impl): a vector-math call costs tens of
  // nanoseconds, more than a few elements.
  static constexpr int64_t kMinContiguousRow = 32;

  // The walks that feed the contiguous loop (run_with_fixed) its runs.
  enum class Walk : int8_t {
    // dense and scalar: [begin, end) is one run; every operand contiguous and stored in the
    // kernel's types (for scalar, input `fixed` is the single value a.scalar).
    Contiguous,
    // broadcast: 2-d rows, each contiguous but for input `fixed`, which repeats one value per row.
    Rows,
    // strided, rows whose inputs are contiguous or repeat one value along dim 0 (st[k] == 0).
    Repeated,
  };

  // Every walk in one function with one call of run_with_fixed: each call site is a copy of every
  // contiguous loop (one per fixed input, streamed or not, in each clone). With one function per
  // walk, and a call per kind of run within them, such copies were most of the kernels' code and
  // of the library's build time.
  template <int... I>
  INGOT_CPU_MULTIARCH_AVX2 static void walk_impl(const ElementwiseArgs& a, int64_t begin,
                                                 int64_t end, Walk walk, int fixed,
                                                 const int64_t* st, int_seq<I...>) {
    static_assert(((sizeof(typename Ins::stored) <= 8) && ...), "stored types are at most 8 bytes");
    constexpr int kIns = N > 0 ? N : 1;
    const bool stream = walk == Walk::Contiguous ? streams(a) : streams_rows(a);
    // The run handed to the contiguous loop.
    char* out = nullptr;
    char* in[kIns] = {};
    ScalarArg s = a.scalar;
    int run_fixed = fixed;
    int64_t n = 0;
    bool run_stream = stream;

    RowCursor<N + 1> rows;
    char* row[N + 1] = {};
    // Rows: the whole rows [r, r1) of [begin, end) when they are short (rows_continue) go a block
    // of rows at a time, the repeated input expanded into rep: row by row, the per-row cost made
    // x + column of a (4M, 3) float32 1.4-1.6x NumPy's time on one thread. The partial rows before
    // them go first, those after them last (tail).
    const int64_t n0 = a.sizes[0];
    int64_t r = 0, r1 = 0, per_block = 1, tail = end;
    alignas(64) char rep[(kBlock + kExpandSlack) * 8];
    // Repeated: each repeated value fills a block buffer (refilled only when the row's value
    // moves), so such rows vectorize like dense ones; element by element (strided_run) they were
    // scalar (clamp with number bounds: a ninth of NumPy's clip; x + row: 0.7x NumPy's add).
    alignas(64) char fixed_buf[kIns][kBlock * 8];
    const char* filled[kIns] = {};
    bool repeats = false;
    int64_t fill_n = 0, row_n = 0, j0 = 0, m = 0;

    if (walk == Walk::Rows) {
      if (n0 > 0 && n0 < kMinContiguousRow && fixed >= 0 && rows_continue(a, fixed)) {
        r = (begin + n0 - 1) / n0;
        r1 = end / n0;
        per_block = std::max<int64_t>(1, kBlock / n0);
      }
      if (r < r1) tail = r1 * n0;
      rows.start(a, begin, r < r1 ? r * n0 : end);
    } else if (walk == Walk::Repeated) {
      if constexpr (N > 0) repeats = ((st[I + 1] == 0) || ...);
      fill_n = std::min(kBlock, n0);  // every row is a.sizes[0] long
      rows.start(a, begin, end);
    }
    for (bool first = true;; first = false) {
      if (walk == Walk::Contiguous) {
        if (!first) break;
        out = a.data[0] + begin * static_cast<int64_t>(sizeof(Out));
        // The fixed input does not advance (and a caller may leave its pointer null).
        ((in[I] = I == fixed
                      ? a.data[I + 1]
                      : a.data[I + 1] + begin * static_cast<int64_t>(sizeof(typename Ins::stored))),
         ...);
        n = end - begin;
      } else if (walk == Walk::Rows) {
        if (rows.next(row, n)) {
          out = row[0];
          ((in[I] = row[I + 1]), ...);
          if (fixed >= 0) ((I == fixed ? s.set(load<Ins>(row[I + 1])) : void()), ...);
          run_fixed = fixed;
          run_stream = stream;
        } else if (r < r1) {
          const int64_t count = std::min(per_block, r1 - r);
          ((I == fixed
                ? expand_rows<typename Ins::stored>(rep, a.data[I + 1] + r * a.strides[I + 1][1],
                                                    a.strides[I + 1][1], n0, count)
                : void()),
           ...);
          out = a.data[0] + r * a.strides[0][1];
          ((in[I] = I == fixed ? rep : a.data[I + 1] + r * a.strides[I + 1][1]), ...);
          n = count * n0;
          run_fixed = -1;
          run_stream = false;
          r += count;
          if (r == r1) rows.start(a, tail, end);
        } else {
          break;
        }
      } else {
        if (j0 >= row_n) {  // the next row
          if (!rows.next(row, row_n)) break;
          j0 = 0;
          if (row_n < kMinContiguousRow) {  // short rows element by element
            strided_run(row, st, a.alpha, row_n, Seq{});
            j0 = row_n;
            continue;
          }
          ((st[I + 1] == 0 && filled[I] != row[I + 1]
                ? (fill_block(fixed_buf[I], read<typename Ins::stored>(row[I + 1]), fill_n),
                   filled[I] = row[I + 1], void())
                : void()),
           ...);
          // Without a repeated input the row is one run. With one, it goes a block at a time;
          // streamed, the blocks after the first start on the output's cache lines (as in
          // vec_run), so that no block has partial lines of its own to write through the cache.
          const int64_t lead =
              stream && repeats ? lead_elements(reinterpret_cast<Out*>(row[0]), row_n) : 0;
          m = repeats ? first_block(row_n, lead) : row_n;
        }
        out = row[0] + j0 * st[0];
        ((in[I] = st[I + 1] == 0 ? fixed_buf[I] : row[I + 1] + j0 * st[I + 1]), ...);
        n = m;
        run_fixed = -1;
        j0 += m;
        m = std::min(repeats ? kBlock : row_n, row_n - j0);
      }
      run_with_fixed(run_fixed, out, in, s, a.alpha, n, run_stream);
    }
    if (stream) fence_streaming_stores();
  }
  static void dense(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    walk_impl(a, begin, end, Walk::Contiguous, -1, nullptr, Seq{});
  }
  static void scalar(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    walk_impl(a, begin, end, Walk::Contiguous, a.scalar_input, nullptr, Seq{});
  }

  // Short broadcast rows continue into each other when the output and every input but the repeated
  // one are contiguous across rows.
  static bool rows_continue(const ElementwiseArgs& a, int fixed) {
    if (a.ndim != 2) return false;
    for (int k = 0; k <= N; ++k) {
      if (k == fixed + 1) continue;
      const int64_t size = k == 0 ? static_cast<int64_t>(sizeof(Out)) : kStoredSize[k - 1];
      if (a.strides[k][0] != size || a.strides[k][1] != a.sizes[0] * size) return false;
    }
    return true;
  }
  // Rows of up to 16 elements are written 8 or 16 at a time (one or two vector stores), each row
  // overwriting the previous one's excess: element by element, these stores were the block's
  // largest cost at rows of 3. dst has room for kExpandSlack elements past the rows.
  static constexpr int64_t kExpandSlack = 16;
  template <typename T>
  static INGOT_INLINE void expand_rows(char* dst, const char* src, int64_t row_stride, int64_t n0,
                                       int64_t rows) {
    const auto each_row = [&](auto width) INGOT_CPU_INLINE_LAMBDA {
      for (int64_t q = 0; q < rows; ++q) {
        fill_block(dst + q * n0 * static_cast<int64_t>(sizeof(T)), read<T>(src + q * row_stride),
                   width == 0 ? n0 : int64_t{decltype(width)::value});
      }
    };
    if (n0 <= 8) {
      each_row(std::integral_constant<int64_t, 8>{});
    } else if (n0 <= kExpandSlack) {
      each_row(std::integral_constant<int64_t, kExpandSlack>{});
    } else {
      each_row(std::integral_constant<int64_t, 0>{});
    }
  }

  // broadcast: 2-d; along dim 0 every operand is contiguous except input a.scalar_input, which
  // repeats one value per row (a column broadcast). Each row then runs like dense or scalar, short
  // rows a block of rows at a time (Walk::Rows).
  static void broadcast(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    if constexpr (kGathers) {  // short rows: a vector-math call per row would cost more than the
                               // row
      if (a.sizes[0] < kMinContiguousRow) {
        int64_t st[N + 1];
        for (int k = 0; k <= N; ++k) st[k] = a.strides[k][0];
        return gathered_impl(a, begin, end, st, Seq{});
      }
    }
    walk_impl(a, begin, end, Walk::Rows, a.scalar_input, nullptr, Seq{});
  }

  // One run of n elements along dim 0, every operand at its own byte stride st[k].
  template <int... I>
  static INGOT_INLINE void strided_run(char* const* ptrs, const int64_t* st, ScalarArg alpha,
                                       int64_t n, int_seq<I...>) {
    const auto av = K::alpha_value(alpha);
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<Out*>(ptrs[0] + i * st[0]) =
          convert<Out>(K::compute(av, load<Ins>(ptrs[I + 1] + i * st[I + 1])...));
    }
  }

  // Along dim 0 the output is contiguous and every input contiguous or one repeated value (stride
  // 0): clamp(x, lo, hi) with number bounds, where(c, 1.0, 0.0), an input broadcast along dim 0
  // beside a lifted scalar, and rows that are contiguous throughout but not one run (an input
  // broadcast along dim 1: x + row, x[:, :-1] + y). Such rows take Walk::Repeated.
  static bool contiguous_or_repeated(const int64_t* st) {
    if (st[0] != static_cast<int64_t>(sizeof(Out))) return false;
    for (int k = 0; k < N; ++k) {
      if (st[k + 1] != 0 && st[k + 1] != kStoredSize[k]) return false;
    }
    return true;
  }
  static constexpr int64_t kStoredSize[N > 0 ? N : 1] = {
      static_cast<int64_t>(sizeof(typename Ins::stored))...};

  // A functor with a vector overload (vector math) over rows that are short or strided: the
  // elements of a block of kBlock are gathered from as many rows as it takes into contiguous
  // buffers, the block runs through the contiguous loop into a result buffer, and the results are
  // scattered back to the rows. A scalar tanh per element cost ~20x the vector one on the dev box
  // (tanh of x[:, :-1] with rows of 2 or 10, of x[::2]).
  static constexpr bool kGathers = kVecDirect || kVecConverted;
  template <int... I>
  INGOT_CPU_MULTIARCH_AVX2 static void gathered_impl(const ElementwiseArgs& a, int64_t begin,
                                                     int64_t end, const int64_t* st,
                                                     int_seq<I...>) {
    static_assert(((sizeof(typename Ins::stored) <= 8) && ...), "stored types are at most 8 bytes");
    alignas(64) char buf[N > 0 ? N : 1][kBlock * 8];
    alignas(64) Out res[kBlock];
    struct Segment {
      char* out;
      int64_t n;
    };
    Segment segs[kBlock];
    int64_t fill = 0, nsegs = 0;
    char* bufs[N > 0 ? N : 1] = {buf[I]...};
    auto flush = [&] {
      contiguous_run<-1>(reinterpret_cast<char*>(res), bufs, a.scalar, a.alpha, fill, false, Seq{});
      const Out* r = res;
      for (int64_t k = 0; k < nsegs; ++k) {
        if (st[0] == static_cast<int64_t>(sizeof(Out))) {
          std::memcpy(segs[k].out, r, static_cast<size_t>(segs[k].n) * sizeof(Out));
        } else {
          for (int64_t j = 0; j < segs[k].n; ++j)
            *reinterpret_cast<Out*>(segs[k].out + j * st[0]) = r[j];
        }
        r += segs[k].n;
      }
      fill = nsegs = 0;
    };
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) INGOT_CPU_INLINE_LAMBDA {
      for (int64_t done = 0; done < n;) {
        const int64_t m = std::min(n - done, kBlock - fill);
        ((gather<typename Ins::stored>(
             buf[I] + fill * static_cast<int64_t>(sizeof(typename Ins::stored)),
             ptrs[I + 1] + done * st[I + 1], st[I + 1], m)),
         ...);
        segs[nsegs++] = {ptrs[0] + done * st[0], m};
        fill += m;
        done += m;
        if (fill == kBlock) flush();
      }
    });
    if (fill > 0) flush();
  }
  // m elements of type T, `stride` bytes apart (0: one repeated), into dst.
  template <typename T>
  static INGOT_INLINE void gather(char* dst, const char* src, int64_t stride, int64_t m) {
    T* d = reinterpret_cast<T*>(dst);
    if (stride == static_cast<int64_t>(sizeof(T))) {
      std::memcpy(d, src, static_cast<size_t>(m) * sizeof(T));
    } else {
      for (int64_t j = 0; j < m; ++j) d[j] = *reinterpret_cast<const T*>(src + j * stride);
    }
  }

  // strided: general N-d byte strides, operands stored in the kernel's types.
  static void strided(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    int64_t st[N + 1];
    for (int k = 0; k <= N; ++k) st[k] = a.strides[k][0];
    if constexpr (N > 0) {
      const bool contiguous = contiguous_or_repeated(st);
      if constexpr (kGathers) {
        if (!contiguous || a.sizes[0] < kMinContiguousRow)
          return gathered_impl(a, begin, end, st, Seq{});
      }
      if (contiguous) return walk_impl(a, begin, end, Walk::Repeated, -1, st, Seq{});
    }
    for_each_row<N + 1>(a, begin, end,
                        [&](char* const* ptrs, int64_t n) { strided_run(ptrs, st, a.alpha, n, Seq{}); });
  }

  // tiled: 2-d, some operand contiguous along dim 1 (a transposed input or output). The whole
  // rows of [begin, end) are walked in tiles of kTileRows x kTile. An operand contiguous along
  // dim 0 is read (or written) in place; any other is gathered into a buffer reading along its
  // own fastest dim (the output: computed into the buffer, then scattered the same way; tiles.h).
  // Every cache line is used whole while it is loaded, and the functor runs over unit strides.
  // Tiles are L2-sized: runs of 512 bytes along both dims of a transposed float32 copy (128 x 128
  // measured ~1.4x the 64 x 32 tiles before, with tiles.h's 8x8 transposes); 64 rows when an
  // operand is 8 bytes wide, so a buffer stays at 64 KiB on the stack.
  static constexpr int64_t kMaxBytes = std::max(
      {static_cast<int64_t>(sizeof(Out)), static_cast<int64_t>(sizeof(typename Ins::stored))...});
  static constexpr int64_t kTile = 128;  // along dim 0: one buffer row
  static constexpr int64_t kTileRows = kMaxBytes > 4 ? 64 : 128;

  template <int... I>
  static void tile_impl(const ElementwiseArgs& a, int64_t r0, int64_t rows, int64_t c0, int64_t cols,
                        bool stream, int_seq<I...>) {
    static_assert(kMaxBytes <= 8, "stored types are at most 8 bytes");
    alignas(64) char raw[N > 0 ? N : 1][kTileRows * kTile * kMaxBytes];
    const char* base[N > 0 ? N : 1];
    int64_t row_step[N > 0 ? N : 1];  // bytes from one tile row to the next, in memory or buffer
    const auto place = [&](int k, int64_t size) {
      const char* p = a.data[k + 1] + r0 * a.strides[k + 1][1] + c0 * a.strides[k + 1][0];
      if (a.strides[k + 1][0] == size) {
        base[k] = p;
        row_step[k] = a.strides[k + 1][1];
        return;
      }
      gather(size, raw[k], p, a.strides[k + 1][0], a.strides[k + 1][1], rows, cols);
      base[k] = raw[k];
      row_step[k] = kTile * size;
    };
    (place(I, static_cast<int64_t>(sizeof(typename Ins::stored))), ...);
    char* out = a.data[0] + r0 * a.strides[0][1] + c0 * a.strides[0][0];
    const auto av = K::alpha_value(a.alpha);
    const auto compute_row = [&](Out* dst, int64_t r) {
      const char* src[N > 0 ? N : 1] = {(base[I] + r * row_step[I])...};
      for (int64_t c = 0; c < cols; ++c) {
        dst[c] = convert<Out>(
            K::compute(av, load<Ins>(src[I] + c * static_cast<int64_t>(sizeof(typename Ins::stored)))...));
      }
    };
    if (a.strides[0][0] == static_cast<int64_t>(sizeof(Out))) {  // output rows contiguous
      alignas(64) Out row_buf[kTile];
      // Streamed only when every row of the tile is whole cache lines (see streams_rows).
      const int64_t row_bytes = cols * static_cast<int64_t>(sizeof(Out));
      stream = stream && row_bytes % 64 == 0 && a.strides[0][1] % 64 == 0 &&
               reinterpret_cast<uintptr_t>(out) % 64 == 0;
      for (int64_t r = 0; r < rows; ++r) {
        Out* dst = reinterpret_cast<Out*>(out + r * a.strides[0][1]);
        if (!stream) {
          compute_row(dst, r);
          continue;
        }
        compute_row(row_buf, r);
        stream_block(dst, row_buf, row_bytes);
      }
      return;
    }
    alignas(64) Out out_buf[kTileRows * kTile];
    for (int64_t r = 0; r < rows; ++r) compute_row(out_buf + r * kTile, r);
    scatter_tile<static_cast<int>(sizeof(Out))>(out, a.strides[0][0], a.strides[0][1], out_buf,
                                                kTile, rows, cols, stream);
  }
  static void gather(int64_t size, void* buf, const char* p, int64_t s0, int64_t s1, int64_t rows, int64_t cols) {
    switch (size) {
      case 1:
        return gather_tile<1>(buf, kTile, p, s0, s1, rows, cols);
      case 2:
        return gather_tile<2>(buf, kTile, p, s0, s1, rows, cols);
      case 4:
        return gather_tile<4>(buf, kTile, p, s0, s1, rows, cols);
      default:
        return gather_tile<8>(buf, kTile, p, s0, s1, rows, cols);
    }
  }

  static void tiled(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    const int64_t cols = a.sizes[0];
    const int64_t row_lo = (begin + cols - 1) / cols;
    const int64_t row_hi = end / cols;
    if (a.ndim != 2 || row_lo >= row_hi) return strided(a, begin, end);
    if (begin < row_lo * cols) strided(a, begin, row_lo * cols);
    const bool stream = a.sizes[0] * a.sizes[1] * static_cast<int64_t>(sizeof(Out)) >= kStreamBytes;
    for (int64_t r0 = row_lo; r0 < row_hi; r0 += kTileRows) {
      const int64_t rows = r0 + kTileRows < row_hi ? kTileRows : row_hi - r0;
      for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
        tile_impl(a, r0, rows, c0, c0 + kTile < cols ? kTile : cols - c0, stream, Seq{});
      }
    }
    if (stream) fence_streaming_stores();
    if (row_hi * cols < end) strided(a, row_hi * cols, end);
  }

  // cast: general N-d; each operand is read and written in its own dtype (a.dtypes), the math
  // runs in the kernel's compute types and the result is rounded to Out before the final store.
  // Rows go a block at a time: each input is converted into a buffer of its compute type (one
  // dtype switch per block: convert_block.h), the functor runs over the buffers, and the results
  // are converted into the output's dtype.
  template <int... I>
  static void cast_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    static_assert(((sizeof(typename Ins::arg) <= 8) && ...), "compute types are at most 8 bytes");
    const auto av = K::alpha_value(a.alpha);
    int64_t st[N + 1];
    for (int k = 0; k <= N; ++k) st[k] = a.strides[k][0];
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      alignas(64) char raw[N > 0 ? N : 1][kBlock * 8];
      alignas(64) Out out[kBlock];
      for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
        const int64_t m = n - j0 < kBlock ? n - j0 : kBlock;
        (load_converted(reinterpret_cast<typename Ins::arg*>(raw[I]), ptrs[I + 1] + j0 * st[I + 1], st[I + 1],
                        a.dtypes[I + 1], m),
         ...);
        for (int64_t j = 0; j < m; ++j) {
          out[j] = convert<Out>(
              K::compute(av, read<typename Ins::arg>(raw[I] + j * static_cast<int64_t>(sizeof(typename Ins::arg)))...));
        }
        store_converted(ptrs[0] + j0 * st[0], st[0], a.dtypes[0], out, m);
      }
    });
  }
  static void cast(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    cast_impl(a, begin, end, Seq{});
  }
};

template <typename K>
using ElementwiseLoops = ElementwiseLoopsImpl<K>;

}  // namespace ingot::cpu
