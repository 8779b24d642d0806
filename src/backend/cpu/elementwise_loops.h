// The CPU loop driver for ElementwiseKernel instantiations: each flavor runs the linear element
// range [begin, end) of an iteration on the calling thread (the kernel library splits ranges
// across threads). Contiguous runs are plain indexed loops the compiler vectorizes.
#pragma once

#include "kernels/elementwise.h"

namespace ingot::cpu {

// Walks [begin, end) of an N-d iteration row by row (a row is a run along dim 0) and calls
// body(ptrs, n) with each operand's address of the row's first element.
template <int NOps, typename Body>
inline void for_each_row(const ElementwiseArgs& a, int64_t begin, int64_t end, Body body) {
  int64_t idx[kMaxDims];
  char* ptrs[NOps];
  int64_t rest = begin;
  for (int d = 0; d < a.ndim; ++d) {
    idx[d] = rest % a.sizes[d];
    rest /= a.sizes[d];
  }
  for (int k = 0; k < NOps; ++k) {
    ptrs[k] = a.data[k];
    for (int d = 0; d < a.ndim; ++d) ptrs[k] += idx[d] * a.strides[k][d];
  }
  int64_t i = begin;
  while (i < end) {
    const int64_t n = (a.sizes[0] - idx[0] < end - i) ? a.sizes[0] - idx[0] : end - i;
    body(ptrs, n);
    i += n;
    for (int k = 0; k < NOps; ++k) ptrs[k] += n * a.strides[k][0];
    idx[0] += n;
    for (int d = 0; d + 1 < a.ndim && idx[d] == a.sizes[d]; ++d) {  // carry into outer dims
      idx[d] = 0;
      ++idx[d + 1];
      for (int k = 0; k < NOps; ++k) ptrs[k] += a.strides[k][d + 1] - a.sizes[d] * a.strides[k][d];
    }
  }
}

template <typename K, typename... Ins>
struct ElementwiseLoopsImpl;

// K = ElementwiseKernel<F, Out, Alpha, Ins...>.
template <typename F, typename Out, typename Alpha, typename... Ins>
struct ElementwiseLoopsImpl<ElementwiseKernel<F, Out, Alpha, Ins...>> {
  using K = ElementwiseKernel<F, Out, Alpha, Ins...>;
  static constexpr int N = K::N;
  using Seq = typename K::Seq;

  // Input I at element i of a contiguous run, or the fixed value when I is the lifted input S.
  template <int I, int S, typename In>
  static INGOT_INLINE typename In::arg fetch(const char* p, const ScalarArg& s, int64_t i) {
    if constexpr (I == S) {
      return s.template get<typename In::arg>();
    } else {
      return K::template load<In>(p + i * static_cast<int64_t>(sizeof(typename In::stored)));
    }
  }

  template <int S, int... I>
  static INGOT_INLINE void contiguous_run(char* out, char* const* in, ScalarArg s, ScalarArg alpha,
                                          int64_t n, int_seq<I...>) {
    Out* o = reinterpret_cast<Out*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = K::apply(alpha, fetch<I, S, Ins>(in[I], s, i)...);
  }

  // Runs a contiguous run with input `s_index` fixed to `s` (-1: none).
  static INGOT_INLINE void run_with_fixed(int s_index, char* out, char* const* in, ScalarArg s,
                                          ScalarArg alpha, int64_t n) {
    switch (s_index) {
      case 0:
        return contiguous_run<0>(out, in, s, alpha, n, Seq{});
      case 1:
        return contiguous_run<(N > 1 ? 1 : -1)>(out, in, s, alpha, n, Seq{});
      case 2:
        return contiguous_run<(N > 2 ? 2 : -1)>(out, in, s, alpha, n, Seq{});
      default:
        return contiguous_run<-1>(out, in, s, alpha, n, Seq{});
    }
  }

  // dense and scalar: every operand contiguous and stored in the kernel's types; for scalar,
  // input a.scalar_input is the single value a.scalar.
  template <int... I>
  static void contiguous_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int fixed,
                              int_seq<I...>) {
    char* in[N > 0 ? N : 1] = {
        (a.data[I + 1] + begin * static_cast<int64_t>(sizeof(typename Ins::stored)))...};
    run_with_fixed(fixed, a.data[0] + begin * static_cast<int64_t>(sizeof(Out)), in, a.scalar,
                   a.alpha, end - begin);
  }
  static void dense(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    contiguous_impl(a, begin, end, -1, Seq{});
  }
  static void scalar(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    contiguous_impl(a, begin, end, a.scalar_input, Seq{});
  }

  // broadcast: 2-d; along dim 0 every operand is contiguous except input a.scalar_input, which
  // repeats one value per row (a column broadcast). Each row then runs like dense or scalar.
  template <int... I>
  static void broadcast_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    const int fixed = a.scalar_input;
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      ScalarArg s = a.scalar;
      if (fixed >= 0) ((I == fixed ? s.set(K::template load<Ins>(ptrs[I + 1])) : void()), ...);
      run_with_fixed(fixed, ptrs[0], ptrs + 1, s, a.alpha, n);
    });
  }
  static void broadcast(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    broadcast_impl(a, begin, end, Seq{});
  }

  // strided: general N-d byte strides, operands stored in the kernel's types.
  template <int... I>
  static void strided_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    const ScalarArg alpha = a.alpha;
    int64_t st[N + 1];
    for (int k = 0; k <= N; ++k) st[k] = a.strides[k][0];
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<Out*>(ptrs[0] + i * st[0]) =
            K::apply(alpha, K::template load<Ins>(ptrs[I + 1] + i * st[I + 1])...);
      }
    });
  }
  static void strided(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    strided_impl(a, begin, end, Seq{});
  }

  // cast: general N-d; each operand is read and written in its own dtype (a.dtypes), the math
  // runs in the kernel's compute types and the result is rounded to Out before the final store.
  template <int... I>
  static void cast_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    const ScalarArg alpha = a.alpha;
    int64_t st[N + 1];
    ScalarType dt[N + 1];
    for (int k = 0; k <= N; ++k) {
      st[k] = a.strides[k][0];
      dt[k] = a.dtypes[k];
    }
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const Out r =
            K::apply(alpha, load_as<typename Ins::arg>(ptrs[I + 1] + i * st[I + 1], dt[I + 1])...);
        store_as(ptrs[0] + i * st[0], dt[0], r);
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
