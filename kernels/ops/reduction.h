// Reductions (the functor contract: kernels/reduce.h). Sums and products of integers and bool
// accumulate in int64 and return it; float16/bfloat16 accumulate in float32; max/min/argmax
// propagate NaN (the first NaN wins for an index), ties pick the first index; var/std take float64
// moments about a shift drawn from the data, so data with a large mean loses nothing to cancellation.
#pragma once

#include "kernels/minmax_math.h"
#include "kernels/reduce_registration.h"
#include "kernels/wrapping.h"

namespace ingot {

namespace reduce_detail {
template <typename T>
using sum_out_t = conditional_t<is_integral_v<T>, int64_t, T>;

// The least and greatest value of M (infinities for floats), without <limits>.
template <typename M>
INGOT_INLINE M lowest() {
  if constexpr (is_same_v<M, bool>) {
    return false;
  } else if constexpr (is_floating_point_v<M>) {
    return -infinity<M>();
  } else if constexpr (is_signed_v<M>) {
    return static_cast<M>(static_cast<make_unsigned_t<M>>(1) << (sizeof(M) * 8 - 1));
  } else {
    return M(0);
  }
}
template <typename M>
INGOT_INLINE M highest() {
  if constexpr (is_same_v<M, bool>) {
    return true;
  } else if constexpr (is_floating_point_v<M>) {
    return infinity<M>();
  } else {
    return static_cast<M>(~lowest<M>());
  }
}

// Max (or min) with the index of the first occurrence; NaN wins, and the first NaN among NaNs.
template <bool Max, typename M>
INGOT_INLINE ValueIndex<M> pick_indexed(ValueIndex<M> a, ValueIndex<M> b) {
  const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
  if (a_nan || b_nan) {
    if (a_nan && b_nan) return a.index <= b.index ? a : b;
    return a_nan ? a : b;
  }
  if (a.value == b.value) return a.index <= b.index ? a : b;
  return (a.value > b.value) == Max ? a : b;
}

template <bool Max, typename T>
struct indexed_base : ReduceFunctorBase {
  using M = opmath_t<T>;
  using acc_t = ValueIndex<M>;
  static constexpr bool has_identity = false;
  static constexpr int64_t kNone = static_cast<int64_t>(~(static_cast<uint64_t>(1) << 63));
  INGOT_INLINE acc_t identity() const { return {Max ? lowest<M>() : highest<M>(), kNone}; }
  // idx is past every index already in a (drivers feed an accumulator in order), so x wins only
  // when strictly better, or when it is the first NaN; the identity (index kNone) loses to anything.
  INGOT_INLINE acc_t reduce(acc_t a, M x, int64_t idx) const {
    // Bitwise & and |, not && and ||: no short-circuit branches, so GPU threads stay converged and
    // the update is a few selects.
    const bool better = Max ? !(x <= a.value) : !(x >= a.value);  // also x NaN
    const bool a_number = !is_nan(a.value), a_none = a.index == kNone;
    const bool take = (better & a_number) | a_none;
    return take ? acc_t{x, idx} : a;
  }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return pick_indexed<Max>(a, b); }
  static constexpr int plain_extreme = Max ? 1 : -1;  // CPU fast path trait (reduce_simd.h)
};

// max.dim/min.dim: the value and its index; argmax/argmin: the index alone.
template <bool Max, typename T>
struct value_and_index : indexed_base<Max, T> {
  using out_t = T;
  using out2_t = int64_t;
  INGOT_INLINE out_t project(ValueIndex<opmath_t<T>> a) const { return convert<out_t>(a.value); }
  INGOT_INLINE out2_t project2(ValueIndex<opmath_t<T>> a) const { return a.index; }
};
template <bool Max, typename T>
struct index_only : indexed_base<Max, T> {
  using out_t = int64_t;
  INGOT_INLINE out_t project(ValueIndex<opmath_t<T>> a) const { return a.index; }
};

template <typename T>
struct moments_base : ReduceFunctorBase {
  using acc_t = MomentsAcc<double>;
  INGOT_INLINE acc_t identity() const { return {0.0, 0.0, 0.0, 0.0}; }
  // The first element becomes the shift; no division per element.
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> x, int64_t) const {
    const double v = static_cast<double>(x);
    if (a.n == 0.0) a.shift = v;
    const double e = v - a.shift;
    return {a.shift, a.sum + e, a.sumsq + e * e, a.n + 1.0};
  }
  // Optional block hook (the CPU cascade's leaves, a CUDA thread's registers): the block mean as
  // its shift, then the shifted sums; n is a multiple of 8. Blocks of up to 32 float32, float16 or
  // bfloat16 values (the CUDA drivers') take their sums in float32 (e = x - shift is exact for x
  // near the shift; sum(e) keeps the shift's rounding); only the block's result meets float64.
  // That keeps a float32 var at memory speed on the GPU, where converting every element to
  // float64 cost a third of the bandwidth. Infinities, NaNs and sums that overflow float32 take
  // the element rule in float64.
  template <typename E>  // T, or opmath_t<T> for rows a CPU driver widened (float16/bfloat16)
  INGOT_INLINE acc_t reduce_block(const E* q, int n) const {
    if constexpr (sizeof(opmath_t<T>) == 4 && is_floating_point_v<opmath_t<T>>) {
      if (n <= 32) {
        float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // four chains: the block's latency, not its length
        for (int i = 0; i < n; i += 4) {
          for (int k = 0; k < 4; ++k) s[k] += static_cast<float>(static_cast<opmath_t<T>>(q[i + k]));
        }
        const float total = (s[0] + s[1]) + (s[2] + s[3]);
        const float shift = total * (1.0f / static_cast<float>(n));  // exact: n is 8, 16 or 32
        float se[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int i = 0; i < n; i += 4) {
          for (int k = 0; k < 4; ++k) {
            const float e = static_cast<float>(static_cast<opmath_t<T>>(q[i + k])) - shift;
            se[k] += e;
            sq[k] += e * e;
          }
        }
        const float sum_e = (se[0] + se[1]) + (se[2] + se[3]), sum_sq = (sq[0] + sq[1]) + (sq[2] + sq[3]);
        if (is_finite(total) && is_finite(sum_sq)) {
          return {static_cast<double>(shift), static_cast<double>(sum_e), static_cast<double>(sum_sq),
                  static_cast<double>(n)};
        }
        // The element rule, one value at a time: few registers beside the block held in them.
        acc_t a = identity();
        for (int i = 0; i < n; ++i) a = reduce(a, static_cast<opmath_t<T>>(q[i]), 0);
        return a;
      }
    }
    double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; i += 8) {
      for (int k = 0; k < 8; ++k) s[k] += static_cast<double>(static_cast<opmath_t<T>>(q[i + k]));
    }
    const double shift = (((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))) / n;
    // The two sums in separate loops: GCC vectorizes a loop of one sum, and left both in one loop
    // scalar (CPU var 2.4x slower). The block is in L1 by now.
    double se[8] = {0, 0, 0, 0, 0, 0, 0, 0}, sq[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; i += 8) {
      for (int k = 0; k < 8; ++k) se[k] += static_cast<double>(static_cast<opmath_t<T>>(q[i + k])) - shift;
    }
    for (int i = 0; i < n; i += 8) {
      for (int k = 0; k < 8; ++k) {
        const double e = static_cast<double>(static_cast<opmath_t<T>>(q[i + k])) - shift;
        sq[k] += e * e;
      }
    }
    return {shift, ((se[0] + se[1]) + (se[2] + se[3])) + ((se[4] + se[5]) + (se[6] + se[7])),
            ((sq[0] + sq[1]) + (sq[2] + sq[3])) + ((sq[4] + sq[5]) + (sq[6] + sq[7])), static_cast<double>(n)};
  }
  // b moved into a's frame: sum(x - a.shift) = b.sum + b.n * d, and its square likewise, d the
  // shifts' difference. Both shifts are values of the data, so d is at most the data's range.
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0.0) return b;
    if (b.n == 0.0) return a;
    const double d = b.shift - a.shift, bd = b.n * d;
    return {a.shift, a.sum + (b.sum + bd), a.sumsq + (b.sumsq + d * (2.0 * b.sum + bd)), a.n + b.n};
  }
  // Divisor n - correction, clamped at 0: too few elements give 0/0 = NaN (or inf), no warning.
  INGOT_INLINE double variance(acc_t a) const {
    const double d = a.n - prm.p;
    return (a.n > 0.0 ? a.m2() : 0.0) / (d > 0.0 ? d : 0.0);
  }
};

template <typename M>
struct LseAcc {
  M max;
  M sum;  // of exp(x - max)
};
}  // namespace reduce_detail

// ---- sums and products
template <typename T>
struct sum_reduction : ReduceFunctorBase {
  using acc_t = accum_t<T>;
  using out_t = reduce_detail::sum_out_t<T>;
  INGOT_INLINE acc_t identity() const { return acc_t(0); }
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> x, int64_t) const {
    return accumulate_add(a, static_cast<acc_t>(x));
  }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return accumulate_add(a, b); }
  INGOT_INLINE out_t project(acc_t a) const { return convert<out_t>(a); }
};
REGISTER_REDUCE_OP(sum);

template <typename T>
struct nansum_reduction : sum_reduction<T> {
  using acc_t = accum_t<T>;
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> x, int64_t) const {
    return is_nan(x) ? a : accumulate_add(a, static_cast<acc_t>(x));
  }
};
REGISTER_REDUCE_OP(nansum);

template <typename T>
struct prod_reduction : sum_reduction<T> {
  using acc_t = accum_t<T>;
  INGOT_INLINE acc_t identity() const { return acc_t(1); }
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> x, int64_t) const {
    return accumulate_mul(a, static_cast<acc_t>(x));
  }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return accumulate_mul(a, b); }
};
REGISTER_REDUCE_OP(prod);

template <typename T>
struct mean_reduction : sum_reduction<T> {
  using acc_t = accum_t<T>;
  using out_t = T;
  INGOT_INLINE out_t project(acc_t a) const { return convert<out_t>(a / static_cast<acc_t>(this->prm.n)); }
};
REGISTER_FLOAT_REDUCE_OP(mean);

template <typename T>
struct nanmean_reduction : ReduceFunctorBase {
  using M = opmath_t<T>;
  struct acc_t {
    M sum;
    M count;
  };
  using out_t = T;
  INGOT_INLINE acc_t identity() const { return {M(0), M(0)}; }
  INGOT_INLINE acc_t reduce(acc_t a, M x, int64_t) const {
    return is_nan(x) ? a : acc_t{a.sum + x, a.count + M(1)};
  }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return {a.sum + b.sum, a.count + b.count}; }
  INGOT_INLINE out_t project(acc_t a) const { return convert<out_t>(a.sum / a.count); }
};
REGISTER_FLOAT_REDUCE_OP(nanmean);

// ---- extremes (max(self) and min(self) use amax/amin; max.dim and min.dim the _index kernels)
template <bool Max, typename T>
struct extreme_reduction : ReduceFunctorBase {
  using acc_t = opmath_t<T>;
  using out_t = T;
  static constexpr bool has_identity = false;
  INGOT_INLINE acc_t identity() const {
    return Max ? reduce_detail::lowest<acc_t>() : reduce_detail::highest<acc_t>();
  }
  // NaN-propagating select, branch-free so loops vectorize (a NaN fails both comparisons).
  INGOT_INLINE acc_t reduce(acc_t a, acc_t x, int64_t) const {
    if constexpr (is_same_v<acc_t, bool>) {
      return Max ? (a || x) : (a && x);
    } else if constexpr (is_floating_point_v<acc_t>) {
      const acc_t better = (Max ? a > x : a < x) ? a : x;  // x when x is NaN
      return a != a ? a : better;                           // a NaN stays

    } else {
      return (Max ? a > x : a < x) ? a : x;
    }
  }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return reduce(a, b, 0); }
  INGOT_INLINE out_t project(acc_t a) const { return convert<out_t>(a); }
};
// plain_extreme: the CPU fast-path trait (src/backend/cpu/reduce_simd.h); not on
// extreme_reduction itself, which the abs norms derive from.
template <typename T>
struct amax_reduction : extreme_reduction<true, T> {
  static constexpr int plain_extreme = 1;
};
template <typename T>
struct amin_reduction : extreme_reduction<false, T> {
  static constexpr int plain_extreme = -1;
};
REGISTER_REDUCE_OP(amax);
REGISTER_REDUCE_OP(amin);

template <typename T>
struct max_index_reduction : reduce_detail::value_and_index<true, T> {};
template <typename T>
struct min_index_reduction : reduce_detail::value_and_index<false, T> {};
REGISTER_REDUCE_OP(max_index);
REGISTER_REDUCE_OP(min_index);

template <typename T>
struct argmax_reduction : reduce_detail::index_only<true, T> {};
template <typename T>
struct argmin_reduction : reduce_detail::index_only<false, T> {};
REGISTER_REDUCE_OP(argmax);
REGISTER_REDUCE_OP(argmin);

// ---- variance and standard deviation (prm.p is the correction)
template <typename T>
struct var_reduction : reduce_detail::moments_base<T> {
  using out_t = T;
  INGOT_INLINE out_t project(MomentsAcc<double> a) const { return convert<out_t>(this->variance(a)); }
};
template <typename T>
struct std_reduction : reduce_detail::moments_base<T> {
  using out_t = T;
  INGOT_INLINE out_t project(MomentsAcc<double> a) const { return convert<out_t>(precise::sqrt(this->variance(a))); }
};
template <typename T>
struct var_mean_reduction : var_reduction<T> {
  using out2_t = T;
  INGOT_INLINE out2_t project2(MomentsAcc<double> a) const {
    return convert<out2_t>(a.n > 0.0 ? a.mean() : quiet_nan<double>());
  }
};
template <typename T>
struct std_mean_reduction : std_reduction<T> {
  using out2_t = T;
  INGOT_INLINE out2_t project2(MomentsAcc<double> a) const {
    return convert<out2_t>(a.n > 0.0 ? a.mean() : quiet_nan<double>());
  }
};
REGISTER_FLOAT_REDUCE_OP(var);
REGISTER_FLOAT_REDUCE_OP(std);
REGISTER_FLOAT_REDUCE_OP(var_mean);
REGISTER_FLOAT_REDUCE_OP(std_mean);

// ---- logical. Bitwise, not short-circuit, operators: a branch per element on the data was
// mispredicted on random input and kept the loops from vectorizing. plain_logical: the CPU
// fast-path trait (src/backend/cpu/reduce_simd.h's BitsRow::has, which stops early): +1 looks for
// a nonzero element, -1 for a zero one.
template <typename T>
struct any_reduction : ReduceFunctorBase {
  using acc_t = bool;
  using out_t = bool;
  static constexpr int plain_logical = 1;
  INGOT_INLINE acc_t identity() const { return false; }
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> x, int64_t) const { return a | (x != opmath_t<T>(0)); }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return a | b; }
  INGOT_INLINE out_t project(acc_t a) const { return a; }
};
template <typename T>
struct all_reduction : any_reduction<T> {
  static constexpr int plain_logical = -1;
  INGOT_INLINE bool identity() const { return true; }
  INGOT_INLINE bool reduce(bool a, opmath_t<T> x, int64_t) const { return a & (x != opmath_t<T>(0)); }
  INGOT_INLINE bool combine(bool a, bool b) const { return a & b; }
};
template <typename T>
struct count_nonzero_reduction : ReduceFunctorBase {
  using acc_t = int64_t;
  using out_t = int64_t;
  static constexpr bool plain_count = true;  // CPU fast-path trait (reduce_simd.h's BitsRow::count)
  INGOT_INLINE acc_t identity() const { return 0; }
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> x, int64_t) const { return a + (x != opmath_t<T>(0) ? 1 : 0); }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return a + b; }
  INGOT_INLINE out_t project(acc_t a) const { return a; }
};
REGISTER_REDUCE_OP(any);
REGISTER_REDUCE_OP(all);
REGISTER_REDUCE_OP(count_nonzero);

// ---- log(sum(exp(x))), in one pass: a running max and the sum of exp(x - max); integers give float32
template <typename T>
struct logsumexp_reduction : ReduceFunctorBase {
  using M = conditional_t<is_floating_point_v<T>, opmath_t<T>, float>;
  using acc_t = reduce_detail::LseAcc<M>;
  using out_t = conditional_t<is_floating_point_v<T>, T, float>;
  INGOT_INLINE acc_t identity() const { return {-infinity<M>(), M(0)}; }
  INGOT_INLINE acc_t reduce(acc_t a, opmath_t<T> v, int64_t) const { return combine(a, acc_t{static_cast<M>(v), M(1)}); }
  // Block hook (the CPU cascade's leaves, a CUDA thread's registers): the block's max, then one
  // exp per element against it, instead of a combine (a compare, and an exp whenever the max moves)
  // per element. n is a multiple of 8.
  template <typename E>  // T, or opmath_t<T> for rows a CPU driver widened (float16/bfloat16)
  INGOT_INLINE acc_t reduce_block(const E* q, int n) const {
    const M m = block_max(q, n);
    if (!is_finite(m)) {  // all -inf (or NaN), or a +inf: the element rule
      acc_t a = identity();
      for (int i = 0; i < n; ++i) a = reduce(a, static_cast<opmath_t<T>>(q[i]), 0);
      return a;
    }
    M s[4] = {M(0), M(0), M(0), M(0)};
#if INGOT_VEC_MATH
    // The CPU cascade's leaves: the exps in one vector call (kernels/vec_math.h), as the dense
    // loops take them.
    if constexpr (is_same_v<E, M> && (is_same_v<M, float> || is_same_v<M, double>)) {
      if (n <= 256) {
        M t[256], e[256];  // t written whole: GCC warns of a partly written input to vec::exp
        for (int i = 0; i < 256; ++i) t[i] = i < n ? q[i] - m : M(0);
        ::ingot::vec::exp(e, t, n);  // out apart from the input: no copy through a buffer
        for (int i = 0; i < n; i += 4) {
          for (int k = 0; k < 4; ++k) s[k] += e[i + k];
        }
        const M sum = (s[0] + s[1]) + (s[2] + s[3]);
        if (is_nan(sum)) return {quiet_nan<M>(), quiet_nan<M>()};
        return {m, sum};
      }
    }
#endif
    for (int i = 0; i < n; i += 4) {
      for (int k = 0; k < 4; ++k) s[k] += precise::exp(static_cast<M>(static_cast<opmath_t<T>>(q[i + k])) - m);
    }
    const M sum = (s[0] + s[1]) + (s[2] + s[3]);
    if (is_nan(sum)) return {quiet_nan<M>(), quiet_nan<M>()};
    return {m, sum};
  }
#if INGOT_VEC_MATH
  // The outer-dim hook (kernels/reduce.h): rows[0, nrows) of nj contiguous elements into
  // acc[0, nj), as the block hook does it: each column's max over the rows, then the rows' exps
  // against it in vector calls, one combine a column. The element rule took a scalar exp per
  // element: logsumexp over dim 0 at 0.91x NumPy's composite (Zen 3 dev box, 2026-12-04).
  template <typename E>  // T, or opmath_t<T> for rows the driver widened (float16/bfloat16)
  INGOT_INLINE void reduce_rows(acc_t* acc, const E* const* rows, int nrows, int64_t nj) const {
    if constexpr (is_same_v<E, M> && (is_same_v<M, float> || is_same_v<M, double>)) {
      constexpr int64_t kCols = 512;
      alignas(64) M m[kCols], s[kCols], t[kCols], e[kCols];
      for (int64_t j0 = 0; j0 < nj; j0 += kCols) {
        const int64_t w = nj - j0 < kCols ? nj - j0 : kCols;
        for (int64_t j = 0; j < w; ++j) {
          m[j] = -infinity<M>();
          s[j] = M(0);
        }
        for (int r = 0; r < nrows; ++r) {
          for (int64_t j = 0; j < w; ++j) m[j] = rows[r][j0 + j] > m[j] ? rows[r][j0 + j] : m[j];
        }
        bool finite = true;
        for (int64_t j = 0; j < w; ++j) finite &= is_finite(m[j]);
        if (!finite) {  // a column of only -inf (or NaN), or with a +inf: the element rule
          for (int r = 0; r < nrows; ++r) {
            for (int64_t j = 0; j < w; ++j) acc[j0 + j] = reduce(acc[j0 + j], rows[r][j0 + j], 0);
          }
          continue;
        }
        for (int r = 0; r < nrows; ++r) {
          for (int64_t j = 0; j < w; ++j) t[j] = rows[r][j0 + j] - m[j];
          ::ingot::vec::exp(e, t, w);
          for (int64_t j = 0; j < w; ++j) s[j] += e[j];
        }
        for (int64_t j = 0; j < w; ++j) {
          const acc_t part = is_nan(s[j]) ? acc_t{quiet_nan<M>(), quiet_nan<M>()} : acc_t{m[j], s[j]};
          acc[j0 + j] = combine(acc[j0 + j], part);
        }
      }
    } else {
      for (int r = 0; r < nrows; ++r) {
        for (int64_t j = 0; j < nj; ++j) acc[j] = reduce(acc[j], static_cast<opmath_t<T>>(rows[r][j]), 0);
      }
    }
  }
#endif
  // The block's max; a NaN never becomes it (it reaches the sum). On the CPU in 8 independent lanes,
  // which vectorize: one chain of compares ran logsumexp over float32 rows at 0.8x NumPy's
  // composite (Zen 3 dev box, 2026-12-04). A CUDA thread's block is 8-32 values, one chain. The
  // lanes can only change which zero is the max (-0.0 or +0.0), which no result shows: x - m and
  // m + log(sum) come out the same.
  template <typename E>
  static INGOT_INLINE M block_max(const E* q, int n) {
    M m = -infinity<M>();
#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
    M lane[8];
    for (int k = 0; k < 8; ++k) lane[k] = -infinity<M>();
    for (int i = 0; i < n; i += 8) {
      for (int k = 0; k < 8; ++k) {
        const M v = static_cast<M>(static_cast<opmath_t<T>>(q[i + k]));
        lane[k] = v > lane[k] ? v : lane[k];
      }
    }
    for (int k = 0; k < 8; ++k) m = lane[k] > m ? lane[k] : m;
#else
    for (int i = 0; i < n; ++i) {
      const M v = static_cast<M>(static_cast<opmath_t<T>>(q[i]));
      m = v > m ? v : m;
    }
#endif
    return m;
  }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const {
    if (is_nan(a.max) || is_nan(b.max)) return {quiet_nan<M>(), quiet_nan<M>()};
    if (a.max == -infinity<M>()) return b;
    if (b.max == -infinity<M>()) return a;
    if (a.max == b.max) return {a.max, a.sum + b.sum};  // also +inf with +inf
    return a.max > b.max ? acc_t{a.max, a.sum + b.sum * precise::exp(b.max - a.max)}
                         : acc_t{b.max, b.sum + a.sum * precise::exp(a.max - b.max)};
  }
  INGOT_INLINE out_t project(acc_t a) const {
    if (a.max == -infinity<M>() || !is_finite(a.max)) return convert<out_t>(a.max);
    return convert<out_t>(a.max + precise::log(a.sum));
  }
};
REGISTER_REDUCE_OP(logsumexp);

// ---- vector norms; the stub picks the kernel by ord (prm.p is ord for the general one)
template <typename T>
struct norm_base : ReduceFunctorBase {
  using acc_t = opmath_t<T>;
  using out_t = T;
  INGOT_INLINE acc_t identity() const { return acc_t(0); }
  INGOT_INLINE acc_t combine(acc_t a, acc_t b) const { return a + b; }
  INGOT_INLINE out_t project(acc_t a) const { return convert<out_t>(a); }
};
template <typename T>
struct vector_norm_l2_reduction : norm_base<T> {
  INGOT_INLINE opmath_t<T> reduce(opmath_t<T> a, opmath_t<T> x, int64_t) const { return a + x * x; }
  INGOT_INLINE T project(opmath_t<T> a) const { return convert<T>(precise::sqrt(a)); }
};
template <typename T>
struct vector_norm_l1_reduction : norm_base<T> {
  INGOT_INLINE opmath_t<T> reduce(opmath_t<T> a, opmath_t<T> x, int64_t) const { return a + precise::fabs(x); }
};
template <typename T>
struct vector_norm_l0_reduction : norm_base<T> {
  INGOT_INLINE opmath_t<T> reduce(opmath_t<T> a, opmath_t<T> x, int64_t) const {
    return a + (x != opmath_t<T>(0) ? opmath_t<T>(1) : opmath_t<T>(0));
  }
};
template <typename T>
struct vector_norm_lp_reduction : norm_base<T> {
  using M = opmath_t<T>;
  INGOT_INLINE M reduce(M a, M x, int64_t) const {
    return a + precise::pow(precise::fabs(x), static_cast<M>(this->prm.p));
  }
  INGOT_INLINE T project(M a) const { return convert<T>(precise::pow(a, M(1) / static_cast<M>(this->prm.p))); }
};
template <bool Max, typename T>
struct abs_extreme_reduction : extreme_reduction<Max, T> {
  using M = opmath_t<T>;
  INGOT_INLINE M reduce(M a, M x, int64_t) const { return extreme_reduction<Max, T>::reduce(a, precise::fabs(x), 0); }
};
// plain_abs_extreme: the CPU fast-path trait (src/backend/cpu/reduce_simd.h's row_abs_extreme).
template <typename T>
struct vector_norm_linf_reduction : abs_extreme_reduction<true, T> {
  static constexpr int plain_abs_extreme = 1;
};
template <typename T>
struct vector_norm_lneginf_reduction : abs_extreme_reduction<false, T> {
  static constexpr int plain_abs_extreme = -1;
};
REGISTER_FLOAT_REDUCE_OP(vector_norm_l2);
REGISTER_FLOAT_REDUCE_OP(vector_norm_l1);
REGISTER_FLOAT_REDUCE_OP(vector_norm_l0);
REGISTER_FLOAT_REDUCE_OP(vector_norm_lp);
REGISTER_FLOAT_REDUCE_OP(vector_norm_linf);
REGISTER_FLOAT_REDUCE_OP(vector_norm_lneginf);

}  // namespace ingot
