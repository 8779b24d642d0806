// What every backend's elementwise loop driver shares (DESIGN.md §3): the arguments the host binds
// from a (sub-)iterator, and ElementwiseKernel, which knows an instantiation's types and how to
// apply its functor to one element. How elements are walked (CPU row loops, CUDA threads) lives in
// each backend: src/backend/cpu/elementwise_loops.h, src/backend/cuda/device/elementwise.cuh.
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
  int32_t scalar_input;             // scalar/broadcast flavors: input held fixed, or -1
  ScalarType dtypes[kMaxOperands];  // cast flavor: the dtype each operand is stored in
  ScalarArg scalar;                 // scalar flavor: that input's value, in its compute type
  ScalarArg alpha;
};

// Input i of a kernel: stored as `Stored`, handed to the functor as `Arg` (its opmath type).
template <typename Stored, typename Arg>
struct Operand {
  using stored = Stored;
  using arg = Arg;
};

struct NoAlpha {};

// F applied to inputs Ins (Operand<Stored, Arg>...) giving Out; Alpha is NoAlpha or the alpha
// compute type, passed to the functor as a last argument. The registration macros name one
// instantiation per (op, dtypes); backends walk elements and call load/apply/store.
template <typename F, typename Out_, typename Alpha_, typename... Ins>
struct ElementwiseKernel {
  using Functor = F;
  using Out = Out_;
  using Alpha = Alpha_;
  static constexpr int N = sizeof...(Ins);
  using Seq = make_int_seq<N>;

  // alpha read once in its compute type (NoAlpha for kernels without one), for compute().
  static INGOT_INLINE Alpha alpha_value(const ScalarArg& alpha) {
    if constexpr (is_same_v<Alpha, NoAlpha>) {
      return NoAlpha{};
    } else {
      return alpha.template get<Alpha>();
    }
  }
  // The functor's result before rounding to Out (backends that convert whole blocks use it).
  template <typename... A>
  static INGOT_INLINE auto compute(Alpha alpha, A... a) {
    if constexpr (is_same_v<Alpha, NoAlpha>) {
      return F()(a...);
    } else {
      return F()(a..., alpha);
    }
  }
  template <typename... A>
  static INGOT_INLINE Out apply(const ScalarArg& alpha, A... a) {
    return convert<Out>(compute(alpha_value(alpha), a...));
  }

  // Reads input In stored at p (aligned for its type) as its compute type.
  template <typename In>
  static INGOT_INLINE typename In::arg load(const char* p) {
    return convert<typename In::arg>(*reinterpret_cast<const typename In::stored*>(p));
  }
};

}  // namespace ingot
