// Dim ops: ops that run along one dim of a tensor (softmax-likes and scans). What every backend's
// dim-loop driver shares: the arguments, the kernel types that name an instantiation and the
// combine rules. How rows are walked lives in each backend (src/backend/cpu/dim_loops.h,
// src/backend/cuda/device/dim_kernels.cuh). Portable subset (DESIGN.md §4).
#pragma once

#include "kernels/cast.h"
#include "kernels/opmath.h"
#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/wrapping.h"

namespace ingot {

// The host hands every dim kernel contiguous operands viewed as [outer, n, inner]: the op runs
// along n; `inner` is 1 when the dim is the innermost one.
struct DimArgs {
  char* out;
  const char* in;
  char* indices;  // int64, index scans only
  int64_t outer;
  int64_t n;
  int64_t inner;
};

enum class DimKind : int8_t { Softmax, Scan, IndexScan };

// out = F(x, max, sum) per element, with max the row's maximum (NaN propagates) and
// sum = sum of exp(x - max) over the row, all in Acc (float for float16/bfloat16).
template <typename F, typename Out_, typename In_>
struct SoftmaxKernel {
  static constexpr DimKind kind = DimKind::Softmax;
  using Functor = F;
  using Out = Out_;
  using In = In_;
  using Acc = opmath_t<Out>;
};

// Optional on F: from_exp(e, sum), the same output as F(x, max, sum) given e = exp(x - max), for
// drivers that kept e from summing it (one exp per element instead of two).
template <typename F, typename A, typename = void>
struct has_from_exp : false_type {};
template <typename F, typename A>
struct has_from_exp<F, A, void_t<decltype(declval<const F&>().from_exp(declval<A>(), declval<A>()))>> : true_type {};
// Optional beside it: from_exp_scaled(e, inv_sum), the output from e and 1 / sum, which the CUDA
// rows driver uses: one multiply instead of a division per element (a float32 division is ~16
// instructions there, most of softmax's budget per element). The reciprocal's extra rounding is at
// most one ulp of Acc, inside softmax's error bound and far below a float16/bfloat16 output's.
template <typename F, typename A, typename = void>
struct has_from_exp_scaled : false_type {};
template <typename F, typename A>
struct has_from_exp_scaled<F, A, void_t<decltype(declval<const F&>().from_exp_scaled(declval<A>(), declval<A>()))>>
    : true_type {};
// Optional: from_log_sum(x, max, log_sum), the same output as F(x, max, sum) given log_sum =
// precise::log(sum), for drivers that take the row's log once instead of once per element.
template <typename F, typename A, typename = void>
struct has_from_log_sum : false_type {};
template <typename F, typename A>
struct has_from_log_sum<F, A, void_t<decltype(declval<const F&>().from_log_sum(declval<A>(), declval<A>(), declval<A>()))>>
    : true_type {};

// Inclusive scan: acc_0 = x_0, acc_i = F(acc_{i-1}, x_i) in Acc (int64 for integers and bool,
// float for float16/bfloat16); F must be associative (CUDA scans in blocks).
template <typename F, typename Out_, typename In_>
struct ScanKernel {
  static constexpr DimKind kind = DimKind::Scan;
  using Functor = F;
  using Out = Out_;
  using In = In_;
  using Acc = accum_t<Out>;
  using State = Acc;
  static INGOT_INLINE State make(Acc x, int64_t) { return x; }
  static INGOT_INLINE State combine(State earlier, State later) { return F()(earlier, later); }
};

// A running best value and the index where it was seen; index < 0 is the empty state.
template <typename A>
struct IndexedValue {
  A value;
  int64_t index;
};

// Inclusive scan of (value, index): F(best, x) is true when x, seen later, replaces best.
template <typename F, typename T>
struct IndexScanKernel {
  static constexpr DimKind kind = DimKind::IndexScan;
  using Functor = F;
  using Out = T;
  using In = T;
  using Acc = opmath_t<T>;
  using State = IndexedValue<Acc>;
  static INGOT_INLINE State make(Acc x, int64_t i) { return State{x, i}; }
  static INGOT_INLINE State combine(State earlier, State later) {
    if (later.index < 0) return earlier;
    if (earlier.index < 0) return later;
    return F()(earlier.value, later.value) ? later : earlier;
  }
};

}  // namespace ingot

// ---- Registration: one line per op and family (kernels/ops/softmax.h, kernels/ops/scan.h).
// Backends define INGOT_DIM_KERNEL(op, out_tok, in_tok, KernelType) before including an ops
// header; the kernel names are <op>_dim_<out>_<in> (CUDA appends the strategy, dim_kernels.cuh).
#ifndef INGOT_DIM_KERNEL
#define INGOT_DIM_KERNEL(op, out_tok, in_tok, Kernel)
#endif

#define INGOT_DEFINE_DIM_KERNEL_(op, otok, itok, ...)    \
  using op##_##otok##_##itok##_dim_kernel = __VA_ARGS__; \
  INGOT_DIM_KERNEL(op, otok, itok, op##_##otok##_##itok##_dim_kernel);

// softmax-like: float dtypes to themselves, and float16/bfloat16 to float32 (softmax's dtype=).
#define INGOT_SOFTMAX_(op, T, tok, optok)                                                    \
  static_assert(                                                                             \
      ::ingot::is_same_v<decltype(op##_functor()(::ingot::declval<::ingot::opmath_t<T>>(),   \
                                                 ::ingot::declval<::ingot::opmath_t<T>>(),   \
                                                 ::ingot::declval<::ingot::opmath_t<T>>())), \
                         ::ingot::opmath_t<T>>,                                              \
      #op ": F(x, max, sum) must return the accumulation type");                             \
  INGOT_DEFINE_DIM_KERNEL_(op, tok, tok, ::ingot::SoftmaxKernel<op##_functor, T, T>)
#define REGISTER_SOFTMAX_OP(op)                                                        \
  INGOT_FLOAT_DTYPES(INGOT_SOFTMAX_, op)                                               \
  INGOT_DEFINE_DIM_KERNEL_(op, float32, float16,                                       \
                           ::ingot::SoftmaxKernel<op##_functor, float, ::ingot::Half>) \
  INGOT_DEFINE_DIM_KERNEL_(op, float32, bfloat16,                                      \
                           ::ingot::SoftmaxKernel<op##_functor, float, ::ingot::BFloat16>)

// scan: every dtype to itself, and bool and the narrower integers to int64 (PyTorch's default).
#define INGOT_SCAN_(op, T, tok, optok)                                                      \
  static_assert(                                                                            \
      ::ingot::is_same_v<decltype(op##_functor()(::ingot::declval<::ingot::accum_t<T>>(),   \
                                                 ::ingot::declval<::ingot::accum_t<T>>())), \
                         ::ingot::accum_t<T>>,                                              \
      #op ": F(acc, x) must return the accumulation type");                                 \
  INGOT_DEFINE_DIM_KERNEL_(op, tok, tok, ::ingot::ScanKernel<op##_functor, T, T>)
#define INGOT_SCAN_TO_INT64_(op, T, tok, optok) \
  INGOT_DEFINE_DIM_KERNEL_(op, int64, tok, ::ingot::ScanKernel<op##_functor, int64_t, T>)
#define REGISTER_SCAN_OP(op)                      \
  INGOT_ALL_DTYPES(INGOT_SCAN_, op)               \
  INGOT_SCAN_TO_INT64_(op, bool, bool, bool)      \
  INGOT_SCAN_TO_INT64_(op, uint8_t, uint8, uint8) \
  INGOT_SCAN_TO_INT64_(op, int8_t, int8, int8)    \
  INGOT_SCAN_TO_INT64_(op, int16_t, int16, int16) \
  INGOT_SCAN_TO_INT64_(op, int32_t, int32, int32)

// index scan (cummax-like): every dtype; values keep the dtype, indices are int64.
#define INGOT_INDEX_SCAN_(op, T, tok, optok)                                                 \
  static_assert(                                                                             \
      ::ingot::is_same_v<decltype(op##_functor()(::ingot::declval<::ingot::opmath_t<T>>(),   \
                                                 ::ingot::declval<::ingot::opmath_t<T>>())), \
                         bool>,                                                              \
      #op ": F(best, x) must return bool");                                                  \
  INGOT_DEFINE_DIM_KERNEL_(op, tok, tok, ::ingot::IndexScanKernel<op##_functor, T>)
#define REGISTER_INDEX_SCAN_OP(op) INGOT_ALL_DTYPES(INGOT_INDEX_SCAN_, op)
