// The elementwise kernel templates, written once for unary, binary and ternary ops and every
// backend (DESIGN.md §3). Each flavor is a body over the linear element range [begin, end); the
// CPU backend wraps it in a function, CUDA in a __global__ kernel. The functor sees only values.
#pragma once

#include "kernels/cast.h"
#include "kernels/opmath.h"

namespace ingot {

inline constexpr int kMaxOperands = 4;  // one output and up to three inputs
inline constexpr int kMaxDims = 16;

// Eight bytes holding one value of a kernel's compute type (a lifted scalar, alpha).
struct ScalarArg {
  alignas(8) unsigned char bytes[8];

  template <typename T>
  INGOT_INLINE T get() const {
    return read_bytes<T>(bytes);
  }
  template <typename T>
  INGOT_INLINE void set(T v) {
    const unsigned char* src = reinterpret_cast<const unsigned char*>(&v);
    for (unsigned i = 0; i < sizeof(T); ++i) bytes[i] = src[i];
  }
};

// Everything a kernel needs, bound by the host from one (sub-)iterator. Operand 0 is the output.
struct ElementwiseArgs {
  char* data[kMaxOperands];
  int64_t strides[kMaxOperands][kMaxDims];  // bytes per step along each dim, dim 0 fastest
  int64_t sizes[kMaxDims];
  int32_t ndim;
  int32_t scalar_input;            // scalar/broadcast flavors: input held fixed, or -1
  ScalarType dtypes[kMaxOperands];  // cast flavor: the dtype each operand is stored in
  ScalarArg scalar;                // scalar flavor: that input's value, in its compute type
  ScalarArg alpha;
};

// Input i of a kernel: stored as `Stored`, handed to the functor as `Arg` (its opmath type).
template <typename Stored, typename Arg>
struct Operand {
  using stored = Stored;
  using arg = Arg;
};

struct NoAlpha {};

template <int N, typename T, typename... Ts>
struct nth_type {
  using type = typename nth_type<N - 1, Ts...>::type;
};
template <typename T, typename... Ts>
struct nth_type<0, T, Ts...> {
  using type = T;
};

// Walks [begin, end) of an N-d iteration row by row (a row is a run along dim 0) and calls
// body(ptrs, n) with each operand's address of the row's first element.
template <int NOps, typename Body>
INGOT_INLINE void for_each_row(const ElementwiseArgs& a, int64_t begin, int64_t end, Body body) {
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
      for (int k = 0; k < NOps; ++k) {
        ptrs[k] += a.strides[k][d + 1] - a.sizes[d] * a.strides[k][d];
      }
    }
  }
}

// F applied to inputs Ins (Operand<Stored, Arg>...) giving Out; Alpha is NoAlpha or the alpha
// compute type, passed to the functor as a last argument.
template <typename F, typename Out, typename Alpha, typename... Ins>
struct ElementwiseKernel {
  static constexpr int N = sizeof...(Ins);
  using Seq = make_int_seq<N>;

  template <typename... A>
  static INGOT_INLINE Out apply(const ScalarArg& alpha, A... a) {
    if constexpr (is_same_v<Alpha, NoAlpha>) {
      return convert<Out>(F()(a...));
    } else {
      return convert<Out>(F()(a..., alpha.template get<Alpha>()));
    }
  }

  template <typename In>
  static INGOT_INLINE typename In::arg load(const char* p) {
    return convert<typename In::arg>(*reinterpret_cast<const typename In::stored*>(p));
  }

  // Input I at element i of a contiguous run, or the fixed value when I is the lifted input S.
  template <int I, int S, typename In>
  static INGOT_INLINE typename In::arg fetch(const char* p, const ScalarArg& s, int64_t i) {
    if constexpr (I == S) {
      return s.template get<typename In::arg>();
    } else {
      return load<In>(p + i * static_cast<int64_t>(sizeof(typename In::stored)));
    }
  }

  template <int S, int... I>
  static INGOT_INLINE void contiguous_run(char* out, char* const* in, ScalarArg s, ScalarArg alpha,
                                          int64_t n, int_seq<I...>) {
    Out* o = reinterpret_cast<Out*>(out);
    for (int64_t i = 0; i < n; ++i) o[i] = apply(alpha, fetch<I, S, Ins>(in[I], s, i)...);
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

  // dense: every operand contiguous and stored in the kernel's types.
  template <int... I>
  static INGOT_INLINE void dense_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    char* in[N > 0 ? N : 1] = {(a.data[I + 1] + begin * static_cast<int64_t>(sizeof(typename Ins::stored)))...};
    run_with_fixed(-1, a.data[0] + begin * static_cast<int64_t>(sizeof(Out)), in, a.scalar, a.alpha, end - begin);
  }
  static INGOT_HOST_DEVICE void dense(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    dense_impl(a, begin, end, Seq{});
  }

  // scalar: like dense, but input a.scalar_input is the single value a.scalar.
  template <int... I>
  static INGOT_INLINE void scalar_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    char* in[N > 0 ? N : 1] = {(a.data[I + 1] + begin * static_cast<int64_t>(sizeof(typename Ins::stored)))...};
    run_with_fixed(a.scalar_input, a.data[0] + begin * static_cast<int64_t>(sizeof(Out)), in, a.scalar,
                   a.alpha, end - begin);
  }
  static INGOT_HOST_DEVICE void scalar(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    scalar_impl(a, begin, end, Seq{});
  }

  // broadcast: 2-d; along dim 0 every operand is contiguous except input a.scalar_input, which
  // repeats one value per row (a column broadcast). Each row then runs like dense or scalar.
  template <int... I>
  static INGOT_INLINE void broadcast_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    const int fixed = a.scalar_input;
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      ScalarArg s = a.scalar;
      if (fixed >= 0) ((I == fixed ? s.set(load<Ins>(ptrs[I + 1])) : void()), ...);
      run_with_fixed(fixed, ptrs[0], ptrs + 1, s, a.alpha, n);
    });
  }
  static INGOT_HOST_DEVICE void broadcast(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    broadcast_impl(a, begin, end, Seq{});
  }

  // strided: general N-d byte strides, operands stored in the kernel's types.
  template <int... I>
  static INGOT_INLINE void strided_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    const ScalarArg alpha = a.alpha;
    int64_t st[N + 1];
    for (int k = 0; k <= N; ++k) st[k] = a.strides[k][0];
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<Out*>(ptrs[0] + i * st[0]) = apply(alpha, load<Ins>(ptrs[I + 1] + i * st[I + 1])...);
      }
    });
  }
  static INGOT_HOST_DEVICE void strided(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    strided_impl(a, begin, end, Seq{});
  }

  // cast: general N-d; each operand is read and written in its own dtype (a.dtypes), the math
  // runs in the kernel's compute types and the result is rounded to Out before the final store.
  template <int... I>
  static INGOT_INLINE void cast_impl(const ElementwiseArgs& a, int64_t begin, int64_t end, int_seq<I...>) {
    const ScalarArg alpha = a.alpha;
    int64_t st[N + 1];
    ScalarType dt[N + 1];
    for (int k = 0; k <= N; ++k) {
      st[k] = a.strides[k][0];
      dt[k] = a.dtypes[k];
    }
    for_each_row<N + 1>(a, begin, end, [&](char* const* ptrs, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const Out r = apply(alpha, load_as<typename Ins::arg>(ptrs[I + 1] + i * st[I + 1], dt[I + 1])...);
        store_as(ptrs[0] + i * st[0], dt[0], r);
      }
    });
  }
  static INGOT_HOST_DEVICE void cast(const ElementwiseArgs& a, int64_t begin, int64_t end) {
    cast_impl(a, begin, end, Seq{});
  }
};

}  // namespace ingot
