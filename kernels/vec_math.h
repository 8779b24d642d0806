// Vector math for the CPU dense loops (docs/cpu.md "Vector math"). A functor may declare, beside its
// scalar operator(), a static `vec` member that computes a whole contiguous block:
//
//   static void vec(float* out, const float* a, int64_t n);                 // unary
//   static void vec(float* out, const float* a, const float* b, int64_t n); // binary
//
// (and the same for double). INGOT_VEC_UNARY(name) / INGOT_VEC_BINARY(name) declare the ones that
// call ingot::vec::name, a SLEEF 1.0-ULP function picked at run time for AVX-512 or AVX2
// (src/backend/cpu/vec_math.cpp). The CPU loops use `vec` when present (has_vec_v) and otherwise the
// scalar operator(); CUDA never sees it: under NVRTC/nvcc, and in host builds without SLEEF, the
// macros expand to nothing and this header declares nothing else.
#pragma once

#include "kernels/opmath.h"

#if (defined(INGOT_HAS_SLEEF) || defined(INGOT_HAS_LIBMVEC)) && !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#define INGOT_VEC_MATH 1

namespace ingot {
namespace vec {

// "sleef-avx512f", "sleef-avx2" or "scalar" (a CPU with neither: the C library per element), with
// "+libmvec" when glibc's vector library serves some float32 functions (vec_math.cpp); in a build
// without SLEEF, "libmvec-avx512f" or "libmvec-avx2" when it does, else "scalar".
const char* backend();
// Whether the float32 version of function `name` comes from libmvec on this machine.
bool float_from_libmvec(const char* name);

#define INGOT_VEC_DECLARE_UNARY_(name)                   \
  void name(float* out, const float* a, int64_t n);      \
  void name(double* out, const double* a, int64_t n);
#define INGOT_VEC_DECLARE_BINARY_(name)                                  \
  void name(float* out, const float* a, const float* b, int64_t n);      \
  void name(double* out, const double* a, const double* b, int64_t n);
#include "kernels/vec_math_list.h"
#undef INGOT_VEC_DECLARE_UNARY_
#undef INGOT_VEC_DECLARE_BINARY_

}  // namespace vec
}  // namespace ingot

#define INGOT_VEC_UNARY(name)                                                                      \
  static void vec(float* out, const float* a, int64_t n) { ::ingot::vec::name(out, a, n); }        \
  static void vec(double* out, const double* a, int64_t n) { ::ingot::vec::name(out, a, n); }
#define INGOT_VEC_BINARY(name)                                                                     \
  static void vec(float* out, const float* a, const float* b, int64_t n) {                         \
    ::ingot::vec::name(out, a, b, n);                                                              \
  }                                                                                                \
  static void vec(double* out, const double* a, const double* b, int64_t n) {                      \
    ::ingot::vec::name(out, a, b, n);                                                              \
  }

namespace ingot {
// Whether functor F has a vector overload for compute type M and N inputs.
template <typename F, typename M, int N, typename = void>
struct has_vec : false_type {};
template <typename F, typename M>
struct has_vec<F, M, 1, decltype(F::vec(static_cast<M*>(nullptr), static_cast<const M*>(nullptr), int64_t{}))>
    : true_type {};
template <typename F, typename M>
struct has_vec<F, M, 2,
               decltype(F::vec(static_cast<M*>(nullptr), static_cast<const M*>(nullptr),
                               static_cast<const M*>(nullptr), int64_t{}))> : true_type {};
template <typename F, typename M, int N>
inline constexpr bool has_vec_v = has_vec<F, M, N>::value;
}  // namespace ingot

#else
#define INGOT_VEC_MATH 0
#define INGOT_VEC_UNARY(name)
#define INGOT_VEC_BINARY(name)
#endif
