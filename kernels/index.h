// Index kernels (DESIGN.md §3, §6): one element of an op that reads or writes through an index
// tensor (gather, index_select, take, scatter, scatter_add, advanced indexing). The host builds an
// iterator over (out, in, index) in which the operand addressed through the index has stride 0
// along the indexed dimension; the kernel reads the index, wraps a negative one, checks it against
// that dimension's size and hands the functor the byte offset index * stride. A bad index is
// reported through the ErrorBuffer and its element skipped. Portable subset (g++ and NVRTC).
//
// A functor (kernels/ops/index.h) says which side the offset applies to:
//   struct gather_functor {
//     static constexpr bool kWritesThroughIndex = false;
//     template <typename T> INGOT_INLINE void apply(char* out, const char* in, int64_t offset)
//     const {
//       *reinterpret_cast<T*>(out) = *reinterpret_cast<const T*>(in + offset);
//     }
//   };
//   REGISTER_INDEX_MOVE_OP(gather);         // (kernels/index_registration.h)         // T by
//   element size; int32 and int64 indices REGISTER_INDEX_ACCUMULATE_OP(scatter_add);  // T every
//   dtype (the functor does arithmetic)
// Kernel names: <op>_index_<data>_<index dtype>, data = b1 b2 b4 b8 (moves) or a dtype name.
#pragma once

#include "kernels/cast.h"
#include "kernels/error_buffer.h"
#include "kernels/opmath.h"
#include "kernels/wrapping.h"

namespace ingot {

// The indexed dimension of the operand the functor addresses through the index.
struct IndexParams {
  int64_t size;    // valid indices are [-size, size)
  int64_t stride;  // bytes per index step
  int64_t dim;     // for messages
};

// Typed: T is the dtype the functor computes in; otherwise only T's size matters.
// Sixteen bytes moved as one (a vector load and store where the address allows it): index kernels
// that only move elements run rows of smaller ones as these (src/backend/kernel_library.cpp).
struct alignas(16) Bytes16 {
  uint64_t lo;
  uint64_t hi;
};

template <typename F, typename T, typename I, bool Typed>
struct IndexKernel {
  using data_t = T;
  using index_t = I;
  static constexpr bool kTyped = Typed;
  // Kernels that write through the index run serially on the CPU (deterministic duplicates).
  static constexpr bool kWritesThroughIndex = F::kWritesThroughIndex;

  INGOT_INLINE static void apply(char* out, const char* in, const char* index, const IndexParams& p,
                                 ErrorBuffer* errors) {
    const int64_t raw =
        static_cast<int64_t>(*reinterpret_cast<const I*>(index));  // aligned: checked by the host
    const int64_t i = raw < 0 ? raw + p.size : raw;
    if (i < 0 || i >= p.size) {
      INGOT_REPORT_ERROR(errors, "index %lld is out of bounds for dimension %lld with size %lld",
                         raw, p.dim, p.size);
      return;
    }
    F{}.template apply<T>(out, in, i * p.stride);
  }
};

// *p += v for an accumulating functor: atomic on a GPU (the order of duplicate indices may vary
// for floating types; integer sums are exact whatever the order), plain on the CPU, which runs
// such kernels serially. Integers wrap; bool is logical or; float16/bfloat16 add in float.
template <typename T>
INGOT_INLINE T accumulate_value(T a, T b) {
  if constexpr (is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (is_integral_v<T>) {
    return wrapping_add(a, b);
  } else {
    return static_cast<T>(static_cast<opmath_t<T>>(a) + static_cast<opmath_t<T>>(b));
  }
}

template <typename T>
INGOT_INLINE void accumulate(T* p, T v) {
#if defined(__CUDA_ARCH__)
  if constexpr (is_same_v<T, float> || is_same_v<T, double> || is_same_v<T, int32_t>) {
    atomicAdd(p, v);
  } else if constexpr (sizeof(T) == 8) {  // int64: two's-complement addition wraps the same way
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else {  // 1- and 2-byte types: compare-and-swap on the aligned 32-bit word holding *p
    using Bits = uint_of_size_t<sizeof(T)>;
    const unsigned long long addr = reinterpret_cast<unsigned long long>(p);
    unsigned int* word = reinterpret_cast<unsigned int*>(addr & ~3ull);
    const unsigned int shift = static_cast<unsigned int>(addr & 3ull) * 8u;
    const unsigned int mask = ((1u << (8 * sizeof(T))) - 1u) << shift;
    unsigned int old = *word;
    unsigned int assumed = 0;
    do {
      assumed = old;
      const T current = bit_cast<T>(static_cast<Bits>((assumed & mask) >> shift));
      const unsigned int sum =
          static_cast<unsigned int>(bit_cast<Bits>(accumulate_value(current, v)));
      old = atomicCAS(word, assumed, (assumed & ~mask) | (sum << shift));
    } while (assumed != old);
  }
#else
  *p = accumulate_value(*p, v);
#endif
}

}  // namespace ingot
