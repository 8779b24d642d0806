// The CUDA loop driver for ElementwiseKernel instantiations (compiled by NVRTC only). One thread
// handles elems_per_thread() elements; a block handles kBlockThreads times that, and only the last
// block checks bounds. Dense-like flavors use 16-byte vector accesses when the host found every
// base address aligned; strided and cast compute offsets with precomputed fast division.
#pragma once

#include "backend/cuda/device/params.h"

namespace ingot::cuda {

template <typename T, int V>
struct alignas(sizeof(T) * V) Vec {
  T v[V];
};

template <int I, typename T>
struct Leaf {
  T value;
};
template <typename Seq, typename... Ts>
struct Tuple;
template <int... I, typename... Ts>
struct Tuple<int_seq<I...>, Ts...> : Leaf<I, Ts>... {};
template <int I, typename T>
__device__ __forceinline__ T& get(Leaf<I, T>& leaf) {
  return leaf.value;
}

template <typename K>
struct Loops;

template <typename F, typename Out, typename Alpha, typename... Ins>
struct Loops<ElementwiseKernel<F, Out, Alpha, Ins...>> {
  using K = ElementwiseKernel<F, Out, Alpha, Ins...>;
  static constexpr int N = K::N;
  using Seq = typename K::Seq;
  static constexpr int kWidest = max_element_bytes<Out, typename Ins::stored...>();
  static constexpr int VEC = vector_elems(kWidest);
  static constexpr int EPT = elems_per_thread(kWidest);
  static constexpr int UNROLL = EPT / VEC;
  static constexpr int kBlockWork = kBlockThreads * EPT;

  // Input I of element `i` for the contiguous flavors: the fixed value when I == fixed.
  template <int I, typename In>
  static __device__ __forceinline__ typename In::arg element(const Params& p, int fixed, int i) {
    if (I == fixed) return p.scalar.template get<typename In::arg>();
    return K::template load<In>(p.data[I + 1] + static_cast<int64_t>(i) * sizeof(typename In::stored));
  }

  // The contiguous flavors, vectorized when p.aligned: dense, and scalar (input p.fixed_input is
  // the value p.scalar). One body for both keeps each module small (a runtime, uniform branch).
  template <int... I>
  static __device__ __forceinline__ void contiguous(const Params& p, int fixed, int_seq<I...>) {
    const int base = static_cast<int>(blockIdx.x) * kBlockWork;
    const int tid = static_cast<int>(threadIdx.x);
    if (p.aligned && base + kBlockWork <= p.numel) {
      Tuple<Seq, Vec<typename Ins::stored, VEC>[UNROLL]...> in;
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const int idx = base + (u * kBlockThreads + tid) * VEC;
        ((I == fixed ? void()
                     : void(get<I>(in)[u] = *reinterpret_cast<const Vec<typename Ins::stored, VEC>*>(
                                p.data[I + 1] + static_cast<int64_t>(idx) * sizeof(typename Ins::stored)))),
         ...);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        Vec<Out, VEC> o;
#pragma unroll
        for (int e = 0; e < VEC; ++e) {
          o.v[e] = K::apply(p.alpha, (I == fixed ? p.scalar.template get<typename Ins::arg>()
                                                 : convert<typename Ins::arg>(get<I>(in)[u].v[e]))...);
        }
        const int idx = base + (u * kBlockThreads + tid) * VEC;
        *reinterpret_cast<Vec<Out, VEC>*>(p.data[0] + static_cast<int64_t>(idx) * sizeof(Out)) = o;
      }
      return;
    }
#pragma unroll 4
    for (int j = 0; j < EPT; ++j) {
      const int i = base + j * kBlockThreads + tid;
      if (i < p.numel) reinterpret_cast<Out*>(p.data[0])[i] = K::apply(p.alpha, element<I, Ins>(p, fixed, i)...);
    }
  }

  static __device__ void dense(const Params& p) { contiguous(p, -1, Seq{}); }
  static __device__ void scalar(const Params& p) { contiguous(p, p.fixed_input, Seq{}); }

  // Byte offset of element i of operand k along an N-d iteration.
  static __device__ __forceinline__ void offsets(const Params& p, int i, int (&off)[N + 1]) {
#pragma unroll
    for (int k = 0; k <= N; ++k) off[k] = 0;
    uint32_t rest = static_cast<uint32_t>(i);
    for (int d = 0; d < p.ndim; ++d) {
      const uint32_t q = p.sizes[d].div(rest);
      const int idx = static_cast<int>(rest - q * p.sizes[d].divisor);
      rest = q;
#pragma unroll
      for (int k = 0; k <= N; ++k) off[k] += idx * p.strides[k][d];
    }
  }

  // VEC elements of input I from one row: a vector load, or one value repeated (inner stride 0).
  template <int I, typename T>
  static __device__ __forceinline__ void load_row_run(const Params& p, int row, int col, Vec<T, VEC>& v) {
    const char* at = p.data[I + 1] + row * p.strides[I + 1][1];
    if (p.strides[I + 1][0] == 0) {
      const T x = *reinterpret_cast<const T*>(at);
#pragma unroll
      for (int e = 0; e < VEC; ++e) v.v[e] = x;
    } else {
      v = *reinterpret_cast<const Vec<T, VEC>*>(at + col * static_cast<int>(sizeof(T)));
    }
  }

  // broadcast: 2-d, rows of sizes[0] elements; each operand steps strides[k][0] bytes within a row
  // (its itemsize, or 0 for the input that repeats one value per row) and strides[k][1] per row.
  template <int... I>
  static __device__ __forceinline__ void broadcast_impl(const Params& p, int_seq<I...>) {
    const int base = static_cast<int>(blockIdx.x) * kBlockWork;
    const int tid = static_cast<int>(threadIdx.x);
    const IntDivider& row_len = p.sizes[0];
    if (p.aligned && base + kBlockWork <= p.numel) {
      // Each VEC-run lies in one row: the host checked that the row length divides by VEC. All
      // loads are issued before any math or store.
      int rows[UNROLL], cols[UNROLL];
      Tuple<Seq, Vec<typename Ins::stored, VEC>[UNROLL]...> in;
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        const int idx = base + (u * kBlockThreads + tid) * VEC;
        rows[u] = static_cast<int>(row_len.div(static_cast<uint32_t>(idx)));
        cols[u] = idx - rows[u] * static_cast<int>(row_len.divisor);
        (load_row_run<I, typename Ins::stored>(p, rows[u], cols[u], get<I>(in)[u]), ...);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        Vec<Out, VEC> o;
#pragma unroll
        for (int e = 0; e < VEC; ++e) o.v[e] = K::apply(p.alpha, convert<typename Ins::arg>(get<I>(in)[u].v[e])...);
        *reinterpret_cast<Vec<Out, VEC>*>(p.data[0] + rows[u] * p.strides[0][1] +
                                          cols[u] * static_cast<int>(sizeof(Out))) = o;
      }
      return;
    }
#pragma unroll 4
    for (int j = 0; j < EPT; ++j) {
      const int i = base + j * kBlockThreads + tid;
      if (i < p.numel) {
        const int row = static_cast<int>(row_len.div(static_cast<uint32_t>(i)));
        const int col = i - row * static_cast<int>(row_len.divisor);
        *reinterpret_cast<Out*>(p.data[0] + row * p.strides[0][1] + col * p.strides[0][0]) = K::apply(
            p.alpha, K::template load<Ins>(p.data[I + 1] + row * p.strides[I + 1][1] + col * p.strides[I + 1][0])...);
      }
    }
  }
  static __device__ void broadcast(const Params& p) { broadcast_impl(p, Seq{}); }

  // Input I at byte offset `off`, or the fixed value of a host 0-d operand.
  template <int I, typename In, bool Cast>
  static __device__ __forceinline__ typename In::arg general_load(const Params& p, int off) {
    if (p.fixed_input == I) return p.scalar.template get<typename In::arg>();
    if constexpr (Cast) {
      return load_as<typename In::arg>(p.data[I + 1] + off, p.dtypes[I + 1]);
    } else {
      return K::template load<In>(p.data[I + 1] + off);
    }
  }

  // strided (Cast = false) and cast (Cast = true): N-d byte strides; the cast flavor reads and
  // writes each operand in its own dtype. Offsets for all elements first, then loads, then math.
  template <bool Cast, int... I>
  static __device__ __forceinline__ void general(const Params& p, int_seq<I...>) {
    const int base = static_cast<int>(blockIdx.x) * kBlockWork;
    const int tid = static_cast<int>(threadIdx.x);
    // Partly unrolled: enough loads in flight, without multiplying the dtype switches of the
    // cast flavor (and NVRTC's time) by the elements per thread.
#pragma unroll 2
    for (int j = 0; j < EPT; ++j) {
      const int i = base + j * kBlockThreads + tid;
      if (i < p.numel) {
        int off[N + 1];
        offsets(p, i, off);
        const Out r = K::apply(p.alpha, general_load<I, Ins, Cast>(p, off[I + 1])...);
        if constexpr (Cast) {
          store_as(p.data[0] + off[0], p.dtypes[0], r);
        } else {
          *reinterpret_cast<Out*>(p.data[0] + off[0]) = r;
        }
      }
    }
  }
  static __device__ void strided(const Params& p) { general<false>(p, Seq{}); }

  // tiled: 2-d; an operand whose dim-1 stride is its itemsize ("across") is read, or written, a
  // kTile x kTile tile at a time through shared memory, so that every global access of the block
  // is coalesced whichever dim an operand is contiguous in. Other operands are accessed directly.
  static constexpr int kTile = kTileSide;
  static constexpr int kPitch = kTile + 1;  // one pad element: no bank conflicts on the transpose
  static constexpr int kRowsPerPass = kBlockThreads / kTile;

  template <typename T>
  static __device__ __forceinline__ bool across(const Params& p, int k) {
    return p.strides[k][0] != static_cast<int>(sizeof(T)) && p.strides[k][1] == static_cast<int>(sizeof(T));
  }

  template <int... I>
  static __device__ __forceinline__ void tiled_impl(const Params& p, int_seq<I...>) {
    // Raw bytes: the element types may have constructors, which __shared__ variables cannot run.
    constexpr int kTileElems = kTile * kPitch;
    constexpr int kBytes = kTileElems * (static_cast<int>(sizeof(Out)) + (0 + ... + static_cast<int>(sizeof(typename Ins::stored))));
    __shared__ alignas(16) unsigned char smem[kBytes];
    int offset = kTileElems * static_cast<int>(sizeof(Out));  // a multiple of 8: aligned for all
    Tuple<Seq, typename Ins::stored*...> in_tiles;
    ((get<I>(in_tiles) = reinterpret_cast<typename Ins::stored*>(smem + offset),
      offset += kTileElems * static_cast<int>(sizeof(typename Ins::stored))),
     ...);
    Out* out_tile = reinterpret_cast<Out*>(smem);
    const int n0 = static_cast<int>(p.sizes[0].divisor), n1 = static_cast<int>(p.sizes[1].divisor);
    const int tiles0 = (n0 + kTile - 1) / kTile;
    const int b0 = (static_cast<int>(blockIdx.x) % tiles0) * kTile;
    const int b1 = (static_cast<int>(blockIdx.x) / tiles0) * kTile;
    const int lane = static_cast<int>(threadIdx.x) % kTile, row = static_cast<int>(threadIdx.x) / kTile;
    // Stage the "across" inputs: consecutive lanes walk dim 1, their contiguous dim.
    (
        [&] {
          if (!across<typename Ins::stored>(p, I + 1)) return;
          for (int r = row; r < kTile; r += kRowsPerPass) {
            const int i0 = b0 + r, i1 = b1 + lane;
            if (i0 < n0 && i1 < n1) {
              get<I>(in_tiles)[r * kPitch + lane] = *reinterpret_cast<const typename Ins::stored*>(
                  p.data[I + 1] + i0 * p.strides[I + 1][0] + i1 * p.strides[I + 1][1]);
            }
          }
        }(),
        ...);
    __syncthreads();
    // Compute: consecutive lanes walk dim 0.
    const bool out_across = across<Out>(p, 0);
    for (int r = row; r < kTile; r += kRowsPerPass) {
      const int i0 = b0 + lane, i1 = b1 + r;
      if (i0 >= n0 || i1 >= n1) continue;
      const Out v = K::apply(
          p.alpha, convert<typename Ins::arg>(
                       across<typename Ins::stored>(p, I + 1)
                           ? get<I>(in_tiles)[lane * kPitch + r]
                           : *reinterpret_cast<const typename Ins::stored*>(
                                 p.data[I + 1] + i0 * p.strides[I + 1][0] + i1 * p.strides[I + 1][1]))...);
      if (out_across) {
        out_tile[lane * kPitch + r] = v;
      } else {
        *reinterpret_cast<Out*>(p.data[0] + i0 * p.strides[0][0] + i1 * p.strides[0][1]) = v;
      }
    }
    if (!out_across) return;
    __syncthreads();
    for (int r = row; r < kTile; r += kRowsPerPass) {
      const int i0 = b0 + r, i1 = b1 + lane;
      if (i0 < n0 && i1 < n1) {
        *reinterpret_cast<Out*>(p.data[0] + i0 * p.strides[0][0] + i1 * p.strides[0][1]) = out_tile[r * kPitch + lane];
      }
    }
  }
  static __device__ void tiled(const Params& p) { tiled_impl(p, Seq{}); }
  static __device__ void cast(const Params& p) { general<true>(p, Seq{}); }
};

// A contiguous cast specialized to the operands' own dtypes: K's functor and compute types, with
// operands stored as SOut and SIns. The result is rounded to K's output type first, then to
// SOut, as the generic cast flavor does.
template <typename F, typename Out>
struct RoundThrough {
  template <typename... A>
  INGOT_INLINE Out operator()(A... a) const {
    return convert<Out>(F()(a...));
  }
};
template <typename K, typename SOut, typename... SIns>
struct Recast;
template <typename F, typename Out, typename Alpha, typename... Ins, typename SOut, typename... SIns>
struct Recast<ElementwiseKernel<F, Out, Alpha, Ins...>, SOut, SIns...> {
  using type = ElementwiseKernel<RoundThrough<F, Out>, SOut, Alpha, Operand<SIns, typename Ins::arg>...>;
};

}  // namespace ingot::cuda

#define INGOT_CUDA_CAST_KERNEL(name, K, ...)                                                  \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kBlockThreads)                 \
      name(const __grid_constant__ ::ingot::cuda::Params p) {                                \
    ::ingot::cuda::Loops<typename ::ingot::cuda::Recast<K, __VA_ARGS__>::type>::dense(p);    \
  }

// The extern "C" kernel of one flavor of instantiation K (the registration macros' alias), named
// as the kernel registry names it: <op>_<flavor>_<suffix>.
#define INGOT_CUDA_KERNEL(op, flavor, suffix, K)                                              \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kBlockThreads)                 \
      op##_##flavor##_##suffix(const __grid_constant__ ::ingot::cuda::Params p) {            \
    ::ingot::cuda::Loops<K>::flavor(p);                                                      \
  }
