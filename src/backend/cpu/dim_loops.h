// The CPU loop driver for dim kernels (kernels/dim.h). The work is cut into units: a row when the
// dim is innermost (inner == 1), else a block of up to kDimColumns contiguous columns of one outer
// slab. Inside a unit every inner loop runs over contiguous columns with no dtype switch, so the
// compiler vectorizes it; a row scan is one dependent chain, as in NumPy.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "backend/cpu/convert_block.h"
#include "kernels/dim.h"
#include "kernels/vec_math.h"

namespace ingot::cpu {

inline constexpr int64_t kDimColumns = 256;

// Whether a row of In read and a row of Out written take their float16/bfloat16 values through
// float blocks (convert_block.h: F16C/AVX-512 for float16, shifts for bfloat16) instead of
// converting element by element in the loops, which cost 2-3x float32's time.
template <typename In, typename Out, typename A>
inline constexpr bool kDimWiden =
    std::is_same_v<A, float> && (std::is_same_v<In, Half> || std::is_same_v<In, BFloat16> ||
                                 std::is_same_v<Out, Half> || std::is_same_v<Out, BFloat16>);

// Columns [0, n) of one row read as A: widened into buf when W (kDimWiden), else read in place.
template <bool W, typename A, typename In>
inline auto widened(const In* x, int64_t n, A* buf) {
  if constexpr (W) {
    convert_block(buf, x, n);
    return static_cast<const A*>(buf);
  } else {
    (void)n, (void)buf;
    return x;
  }
}
// Where a row's outputs are written: buf when W (then narrowed into y by narrowed()), else y.
template <bool W, typename A, typename Out>
inline auto widened_out(Out* y, A* buf) {
  if constexpr (W) {
    return buf;
  } else {
    (void)buf;
    return y;
  }
}
template <bool W, typename A, typename Out>
inline void narrowed(Out* y, const A* buf, int64_t n) {
  if constexpr (W) convert_block(y, buf, n);
}

inline int64_t dim_units(const DimArgs& a) {
  return a.inner == 1 ? a.outer : a.outer * ((a.inner + kDimColumns - 1) / kDimColumns);
}

// Calls body(offset of the unit's first element, columns) for units [begin, end).
template <typename Body>
inline void for_each_unit(const DimArgs& a, int64_t begin, int64_t end, Body body) {
  if (a.inner == 1) {
    for (int64_t u = begin; u < end; ++u) body(u * a.n, int64_t{1});
    return;
  }
  const int64_t blocks = (a.inner + kDimColumns - 1) / kDimColumns;
  for (int64_t u = begin; u < end; ++u) {
    const int64_t o = u / blocks, c0 = (u % blocks) * kDimColumns;
    body(o * a.n * a.inner + c0, std::min(kDimColumns, a.inner - c0));
  }
}

template <typename K, DimKind = K::kind>
struct DimLoops;

template <typename K>
struct DimLoops<K, DimKind::Softmax> {
  using In = typename K::In;
  using Out = typename K::Out;
  using A = typename K::Acc;
  static constexpr int64_t kSumBlock = 64;
  static constexpr int kLanes = 16;
  static constexpr int64_t kBlock = kLanes * kSumBlock;
  static constexpr int64_t kKeptRow = 4096;  // elements: 16 KiB of float32 exps, 32 of float64
  // Contiguous float/double rows compute exp(x - m) in vector blocks (kernels/vec_math.h), for the
  // sum and, when the functor has from_exp (kernels/dim.h), for the output.
#if INGOT_VEC_MATH
  static constexpr bool kVecExp = std::is_same_v<A, float> || std::is_same_v<A, double>;
#else
  static constexpr bool kVecExp = false;
#endif

  // Rows are read as In, or as A when widened (kDimWiden). Rows of columns widen for float16 only:
  // bfloat16's shift the compiler vectorizes in place, and the three passes through buffers cost
  // it 10-15% (log_softmax over dim 0 of 2048x2048), where float16 gains 2.5x.
  static constexpr bool kWiden = kDimWiden<In, Out, A>;
  static constexpr bool kWidenColumns = kWiden && (std::is_same_v<In, Half> || std::is_same_v<Out, Half>);
  static constexpr int64_t kWidenCols = kWidenColumns ? kDimColumns : 1;  // the column buffers' size
  using OutE = std::conditional_t<kWidenColumns, A, Out>;  // what the column loops write
  // buf[0, len) = exp(x[0, len) - m).
  template <typename E>
  static void exp_block(A* buf, const E* x, int64_t len, A m) {
#if INGOT_VEC_MATH
    if constexpr (kVecExp) {
      // The shifted values apart from buf: vec::exp in place would go through a copy (its fix-up
      // of special lanes rereads the input).
      alignas(64) A t[kBlock];
      for (int64_t i = 0; i < len; ++i) t[i] = convert<A>(x[i]) - m;
      vec::exp(buf, t, len);
      return;
    }
#endif
    for (int64_t i = 0; i < len; ++i) buf[i] = precise::exp(convert<A>(x[i]) - m);
  }
  // e[c] = exp(x[c] - m[c]) for the columns [0, cols) of one row (cols <= kDimColumns).
  template <typename E>
  static void columns_exp(A* e, const E* x, const A* m, int64_t cols) {
#if INGOT_VEC_MATH
    if constexpr (kVecExp) {
      alignas(64) A t[kDimColumns];
      for (int64_t c = 0; c < cols; ++c) t[c] = convert<A>(x[c]) - m[c];
      vec::exp(e, t, cols);
      return;
    }
#endif
    for (int64_t c = 0; c < cols; ++c) e[c] = precise::exp(convert<A>(x[c]) - m[c]);
  }
  // max of a contiguous row in kLanes independent lanes (a NaN never becomes the max).
  template <typename E>
  static A row_max(const E* x, int64_t n) {
    A lane[kLanes];
    for (int l = 0; l < kLanes; ++l) lane[l] = -infinity<A>();
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int l = 0; l < kLanes; ++l) {
        const A v = convert<A>(x[i + l]);
        lane[l] = v > lane[l] ? v : lane[l];
      }
    }
    for (; i < n; ++i) {
      const A v = convert<A>(x[i]);
      lane[0] = v > lane[0] ? v : lane[0];
    }
    A m = lane[0];
    for (int l = 1; l < kLanes; ++l) m = lane[l] > m ? lane[l] : m;
    return m;
  }
  // sum of exp(x - m) over a contiguous row: kLanes running sums per block of kBlock elements,
  // block totals added up; independent lanes also let the loop vectorize. keep: where to leave
  // the row's exps (n of them), or null.
  template <typename E>
  static A row_sum(const E* x, int64_t n, A m, A* keep = nullptr) {
    A total = A(0);
    alignas(64) A buf[kBlock];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t len = std::min(n - i0, kBlock);
      A* e = keep != nullptr ? keep + i0 : buf;
      exp_block(e, x + i0, len, m);
      A lane[kLanes] = {};
      int64_t i = 0;
      for (; i + kLanes <= len; i += kLanes) {
        for (int l = 0; l < kLanes; ++l) lane[l] += e[i + l];
      }
      for (; i < len; ++i) lane[0] += e[i];
      A block = A(0);
      for (int l = 0; l < kLanes; ++l) block += lane[l];
      total += block;
    }
    return total;
  }

  // One contiguous row x[0, n) into y[0, n) (E: In or A, O: Out or A). A NaN never becomes the
  // max (x > m is false); it reaches the sum and the whole row is NaN.
  template <typename E, typename O>
  static void row(const typename K::Functor& f, const E* x, O* y, int64_t n) {
    const A m = row_max(x, n);
    if constexpr (kVecExp && has_from_exp<typename K::Functor, A>::value) {
      // A row of at most kKeptRow: its exps kept from the sum for the output, not computed
      // again (float32 softmax of 2048x2048 over rows: 15.3-16.0 ms -> 9.7, one thread, Zen 3
      // dev box, 2026-12-04; the same bits).
      if (n <= kKeptRow) {
        alignas(64) A e[kKeptRow];
        const A s = row_sum(x, n, m, e);
        for (int64_t i = 0; i < n; ++i) y[i] = convert<O>(f.from_exp(e[i], s));
        return;
      }
      const A s = row_sum(x, n, m);
      alignas(64) A e[kBlock];
      for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
        const int64_t len = std::min(n - i0, kBlock);
        exp_block(e, x + i0, len, m);
        for (int64_t i = 0; i < len; ++i) y[i0 + i] = convert<O>(f.from_exp(e[i], s));
      }
    } else {
      A s = row_sum(x, n, m);
      // log_softmax-likes take the row's log once (from_log_sum), not once per element.
      if constexpr (has_from_log_sum<typename K::Functor, A>::value) {
        s = precise::log(s);
        for (int64_t i = 0; i < n; ++i) y[i] = convert<O>(f.from_log_sum(convert<A>(x[i]), m, s));
      } else {
        for (int64_t i = 0; i < n; ++i) y[i] = convert<O>(f(convert<A>(x[i]), m, s));
      }
    }
  }

  static void run(const DimArgs& a, int64_t begin, int64_t end) {
    const In* in = reinterpret_cast<const In*>(a.in);
    Out* out = reinterpret_cast<Out*>(a.out);
    const typename K::Functor f;
    const int64_t n = a.n, stride = a.inner;
    for_each_unit(a, begin, end, [&](int64_t at, int64_t cols) {
      const In* x = in + at;
      Out* y = out + at;
      if (cols == 1 && stride == 1) {
        if constexpr (kWiden) {
          // Widened whole, computed in A, narrowed whole: the same bits. On the stack up to
          // kKeptRow elements, beyond in one allocation a row (a float16 softmax over a
          // vocabulary of 32Ki-128Ki entries): small beside the row's work.
          alignas(64) A stack[2 * kKeptRow];
          std::unique_ptr<A[]> heap(n > kKeptRow ? new A[static_cast<size_t>(2 * n)] : nullptr);
          A* xw = n > kKeptRow ? heap.get() : stack;
          A* yw = xw + n;
          convert_block(xw, x, n);
          row(f, static_cast<const A*>(xw), yw, n);
          convert_block(y, static_cast<const A*>(yw), n);
        } else {
          row(f, x, y, n);
        }
        return;
      }
      // Columns: a NaN never becomes the max (x > m is false); it reaches the sum. Each row of
      // float16 columns is widened into wx (and its outputs narrowed from wy), as rows are.
      A m[kDimColumns], s[kDimColumns], part[kDimColumns];
      alignas(64) A wx[kWidenCols], wy[kWidenCols];
      for (int64_t c = 0; c < cols; ++c) m[c] = -infinity<A>(), s[c] = A(0);
      for (int64_t i = 0; i < n; ++i) {
        const auto* xi = widened<kWidenColumns>(x + i * stride, cols, wx);
        for (int64_t c = 0; c < cols; ++c) {
          const A v = convert<A>(xi[c]);
          m[c] = v > m[c] ? v : m[c];
        }
      }
      // Partial sums of kSumBlock rows: the error grows like kSumBlock + n / kSumBlock, not n.
      // Each row's columns are contiguous: their exps in one vector call (columns_exp).
      alignas(64) A e[kDimColumns];
      for (int64_t i0 = 0; i0 < n; i0 += kSumBlock) {
        for (int64_t c = 0; c < cols; ++c) part[c] = A(0);
        for (int64_t i = i0; i < std::min(n, i0 + kSumBlock); ++i) {
          columns_exp(e, widened<kWidenColumns>(x + i * stride, cols, wx), m, cols);
          for (int64_t c = 0; c < cols; ++c) part[c] += e[c];
        }
        for (int64_t c = 0; c < cols; ++c) s[c] += part[c];
      }
      if constexpr (kVecExp && has_from_exp<typename K::Functor, A>::value) {
        for (int64_t i = 0; i < n; ++i) {
          auto* yi = widened_out<kWidenColumns>(y + i * stride, wy);
          columns_exp(e, widened<kWidenColumns>(x + i * stride, cols, wx), m, cols);
          for (int64_t c = 0; c < cols; ++c) yi[c] = convert<OutE>(f.from_exp(e[c], s[c]));
          narrowed<kWidenColumns>(y + i * stride, wy, cols);
        }
        return;
      }
      constexpr bool kLogSum = has_from_log_sum<typename K::Functor, A>::value;
      if constexpr (kLogSum) {
        for (int64_t c = 0; c < cols; ++c) s[c] = precise::log(s[c]);
      }
      for (int64_t i = 0; i < n; ++i) {
        const auto* xi = widened<kWidenColumns>(x + i * stride, cols, wx);
        auto* yi = widened_out<kWidenColumns>(y + i * stride, wy);
        for (int64_t c = 0; c < cols; ++c) {
          const A v = convert<A>(xi[c]);
          if constexpr (kLogSum) {
            yi[c] = convert<OutE>(f.from_log_sum(v, m[c], s[c]));
          } else {
            yi[c] = convert<OutE>(f(v, m[c], s[c]));
          }
        }
        narrowed<kWidenColumns>(y + i * stride, wy, cols);
      }
    });
  }
};

template <typename K>
struct DimLoops<K, DimKind::Scan> {
  using In = typename K::In;
  using Out = typename K::Out;
  using A = typename K::Acc;

  static constexpr int64_t kScanBlock = 1024;
  static constexpr bool kWiden = kDimWiden<In, Out, A>;
  static constexpr int64_t kWidenCols = kWiden ? kDimColumns : 1;
  using OutE = std::conditional_t<kWiden, A, Out>;

  // x[0, n) into y[0, n) continuing acc (first: acc is x[0], the row's first element).
  template <typename E, typename O>
  static void scan_row(const typename K::Functor& f, const E* x, O* y, int64_t n, A& acc, bool first) {
    int64_t i = 0;
    if (first) y[i++] = convert<O>(acc);
    for (; i < n; ++i) {
      acc = f(acc, convert<A>(x[i]));
      y[i] = convert<O>(acc);
    }
  }

  static void run(const DimArgs& a, int64_t begin, int64_t end) {
    const In* in = reinterpret_cast<const In*>(a.in);
    Out* out = reinterpret_cast<Out*>(a.out);
    const typename K::Functor f;
    const int64_t n = a.n, stride = a.inner;
    for_each_unit(a, begin, end, [&](int64_t at, int64_t cols) {
      const In* x = in + at;
      Out* y = out + at;
      if (cols == 1 && stride == 1) {
        A acc = convert<A>(x[0]);
        if constexpr (kWiden) {  // through float blocks: the same bits
          alignas(64) A xw[kScanBlock], yw[kScanBlock];
          for (int64_t i0 = 0; i0 < n; i0 += kScanBlock) {
            const int64_t len = std::min(n - i0, kScanBlock);
            convert_block(xw, x + i0, len);
            scan_row(f, static_cast<const A*>(xw), static_cast<A*>(yw), len, acc, i0 == 0);
            convert_block(y + i0, static_cast<const A*>(yw), len);
          }
        } else {
          scan_row(f, x, y, n, acc, true);
        }
        return;
      }
      // Columns; float16/bfloat16 rows of them widened and narrowed through wx and wy.
      A acc[kDimColumns];
      alignas(64) A wx[kWidenCols], wy[kWidenCols];
      {
        const auto* x0 = widened<kWiden>(x, cols, wx);
        auto* y0 = widened_out<kWiden>(y, wy);
        for (int64_t c = 0; c < cols; ++c) y0[c] = convert<OutE>(acc[c] = convert<A>(x0[c]));
        narrowed<kWiden>(y, wy, cols);
      }
      for (int64_t i = 1; i < n; ++i) {
        const auto* xi = widened<kWiden>(x + i * stride, cols, wx);
        auto* yi = widened_out<kWiden>(y + i * stride, wy);
        for (int64_t c = 0; c < cols; ++c)
          yi[c] = convert<OutE>(acc[c] = f(acc[c], convert<A>(xi[c])));
        narrowed<kWiden>(y + i * stride, wy, cols);
      }
    });
  }
};

template <typename K>
struct DimLoops<K, DimKind::IndexScan> {
  using T = typename K::In;
  using A = typename K::Acc;
  // float16/bfloat16 compare widened values (blocks of a row, rows of columns). The values written
  // are the input's own elements, kept as their bits (a select of the Half class compiled to
  // branches and took twice the time; reading x again at the running index was slower for
  // columns), so no rounding is involved. Where A is T the running best is that element.
  static constexpr bool kWiden = kDimWiden<T, T, A>;
  static constexpr bool kKeep = !std::is_same_v<A, T>;
  using Bits = uint_of_size_t<sizeof(T)>;
  static Bits bits(T v) { return std::bit_cast<Bits>(v); }
  static constexpr int64_t kRowBlock = 1024;
  static constexpr int64_t kWidenLen = kWiden ? kRowBlock : 1;

  static void run(const DimArgs& a, int64_t begin, int64_t end) {
    const T* in = reinterpret_cast<const T*>(a.in);
    T* out = reinterpret_cast<T*>(a.out);
    int64_t* indices = reinterpret_cast<int64_t*>(a.indices);
    const typename K::Functor f;
    const int64_t n = a.n, stride = a.inner;
    for_each_unit(a, begin, end, [&](int64_t at, int64_t cols) {
      const T* x = in + at;
      T* y = out + at;
      int64_t* ix = indices + at;
      alignas(64) A wx[kWidenLen];
      if (cols == 1 && stride == 1) {  // a contiguous row: one running (value, index)
        A best = convert<A>(x[0]);
        int64_t where = 0;
        [[maybe_unused]] Bits kept = bits(x[0]);
        y[0] = x[0];
        ix[0] = 0;
        for (int64_t i0 = 1; i0 < n; i0 += kRowBlock) {
          const int64_t len = std::min(n - i0, kRowBlock);
          const auto* xb = widened<kWiden>(x + i0, len, wx);
          for (int64_t i = 0; i < len; ++i) {
            const A v = convert<A>(xb[i]);
            const bool take = f(best, v);
            best = take ? v : best;
            where = take ? i0 + i : where;
            if constexpr (kKeep) {
              kept = take ? bits(x[i0 + i]) : kept;
              y[i0 + i] = std::bit_cast<T>(kept);
            } else {
              y[i0 + i] = best;
            }
            ix[i0 + i] = where;
          }
        }
        return;
      }
      A best[kDimColumns];
      int64_t where[kDimColumns];
      [[maybe_unused]] Bits kept[kDimColumns];
      const auto* x0 = widened<kWiden>(x, cols, wx);
      for (int64_t c = 0; c < cols; ++c) {
        best[c] = convert<A>(x0[c]);
        if constexpr (kKeep) kept[c] = bits(x[c]);
        where[c] = 0;
        y[c] = x[c];
        ix[c] = 0;
      }
      for (int64_t i = 1; i < n; ++i) {
        const int64_t off = i * stride;
        const auto* xi = widened<kWiden>(x + off, cols, wx);
        for (int64_t c = 0; c < cols; ++c) {
          const A v = convert<A>(xi[c]);
          const bool take = f(best[c], v);
          best[c] = take ? v : best[c];
          where[c] = take ? i : where[c];
          if constexpr (kKeep) {
            kept[c] = take ? bits(x[off + c]) : kept[c];
            y[off + c] = std::bit_cast<T>(kept[c]);
          } else {
            y[off + c] = best[c];
          }
          ix[off + c] = where[c];
        }
      }
    });
  }
};

}  // namespace ingot::cpu
