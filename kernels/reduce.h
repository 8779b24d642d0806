// What every backend's reduction driver shares (DESIGN.md §5, reduction mode): the arguments the
// host binds from a reduction iterator, the functor contract, and the registration macros.
//
// A reduction functor is a template over the stored input dtype T with
//   acc_t                     the accumulator (accum_t<T> for sums: int64 for integers, float for
//                             float16/bfloat16)
//   out_t, out2_t             the output dtype(s); out2_t is void for one output
//   has_identity              false when an empty reduction is an error (max of nothing)
//   identity()                the accumulator of zero elements
//   reduce(acc, x, idx)       adds element x (opmath_t<T>) at linear reduction index idx; drivers
//                             feed each accumulator its elements in increasing idx order
//   combine(a, b)             merges two partial accumulators, which drivers may build from
//                             interleaved index sets (ops that care compare indices themselves)
//   project(acc), project2(acc)  the output value(s)
//   reduce_block(q, n)        optional, for ops blind to idx: the accumulator of the n elements
//                             q[0..n) (n a multiple of 8), for drivers holding a block of values
//                             (the CPU cascade's leaves, a CUDA thread's registers)
//   reduce_rows(acc, rows, nrows, nj)  optional, CPU, for ops blind to idx: rows[0..nrows) (in
//                             order, nj contiguous elements each) into acc[0..nj), element j of
//                             each row into acc[j] (the outer strategy's groups of rows)
//                             Both hooks are templates over the element type E they read: T, or
//                             opmath_t<T> (float) when the CPU driver has widened float16/bfloat16
//                             values a block at a time; they read values as opmath_t<T>(q[i]).
// Drivers may split the reduction anywhere and combine partials in any fixed order, so combine must
// be associative and commutative up to rounding. `prm` holds the op's parameters (correction, p) and the number
// of reduced elements.
// The registration macros are in kernels/reduce_registration.h.
#pragma once

#include "kernels/cast.h"
#include "kernels/opmath.h"
#include "kernels/precise_math.h"

namespace ingot {

inline constexpr int kMaxReduceDims = 16;

struct ReduceParams {
  double p;          // norm order, var/std correction
  int64_t n;         // elements reduced into each output (mean's divisor)
};

// Bound by the host from one reduction iterator. Output dims are the iteration dims the outputs
// step along; reduced dims are those every output holds still (stride 0). Both lists keep the
// iterator's order (fastest first); dims of size 1 are dropped. Strides are in bytes.
struct ReduceArgs {
  char* out[2];
  const char* in;
  int32_t nout_dims;
  int32_t nred_dims;
  int32_t red_inner;  // the fastest iteration dim is reduced (else it is output dim 0)
  int64_t out_sizes[kMaxReduceDims];
  int64_t out_strides[2][kMaxReduceDims];
  int64_t in_out_strides[kMaxReduceDims];  // the input's strides along the output dims
  int64_t red_sizes[kMaxReduceDims];
  int64_t in_red_strides[kMaxReduceDims];
  ReduceParams params;
};

// Defaults a functor inherits: one output, an identity, and its parameters.
struct ReduceFunctorBase {
  using out2_t = void;
  static constexpr bool has_identity = true;
  ReduceParams prm;
};

// The value and index a max/min-with-index reduction carries.
template <typename V>
struct ValueIndex {
  V value;
  int64_t index;
};

// Moments about a shift (the "shifted data" method): n, and the sums of x - shift and of
// (x - shift)^2. The shift is a value (or a block mean) of the data itself, so the correction
// sum^2 / n stays small against sumsq; merging two is a change of frame with no division.
template <typename A>
struct MomentsAcc {
  A shift;
  A sum;    // of x - shift
  A sumsq;  // of (x - shift)^2
  A n;
  INGOT_INLINE A mean() const { return shift + sum / n; }
  // Sum of squared deviations from the mean; NaN and inf (from inf or NaN data) pass through.
  INGOT_INLINE A m2() const {
    const A m = sumsq - sum * (sum / n);
    return m < A(0) ? A(0) : m;
  }
};

// Whether Ops has the reduce_block hook (for In elements).
template <typename Ops, typename In, typename = void>
struct has_reduce_block : false_type {};
template <typename Ops, typename In>
struct has_reduce_block<Ops, In, void_t<decltype(declval<const Ops&>().reduce_block(static_cast<const In*>(nullptr), 8))>>
    : true_type {};

// One instantiation: reduction functor R over stored input type In.
template <template <typename> class R, typename In_>
struct ReduceKernel {
  using In = In_;
  using Ops = R<In>;
  using acc_t = typename Ops::acc_t;
  using out_t = typename Ops::out_t;
  using out2_t = typename Ops::out2_t;
  static constexpr int noutputs = is_same_v<out2_t, void> ? 1 : 2;

  static INGOT_INLINE opmath_t<In> load(const char* p) {
    return static_cast<opmath_t<In>>(*reinterpret_cast<const In*>(p));
  }
  static INGOT_INLINE void store(const Ops& ops, char* out0, char* out1, acc_t acc) {
    *reinterpret_cast<out_t*>(out0) = ops.project(acc);
    if constexpr (noutputs == 2) *reinterpret_cast<out2_t*>(out1) = ops.project2(acc);
  }
};

}  // namespace ingot
