// The per-ISA block loops behind ingot::vec (vec_math.cpp picks one set at run time):
// ingot::vec::avx512 (vec_math_avx512.cpp, compiled with -mavx512f) and ingot::vec::avx2
// (vec_math_avx2.cpp, -mavx2 -mfma). Call them only on a CPU that has the ISA.
#pragma once

#include <stdint.h>

// Unary: out[i] = f(a[i]) for every i, and whether any |a[i]| is below lo or above hi (NaN is
// neither): the lanes the caller must redo with the scalar function (vec_math.cpp). The check runs
// on the vectors already loaded, so it costs no pass of its own.
#define INGOT_VEC_DECLARE_UNARY_(name)                                        \
  bool name(float* out, const float* a, int64_t n, float lo, float hi);    \
  bool name(double* out, const double* a, int64_t n, double lo, double hi);
// Binary: out[i] = f(a[i], b[i]), and whether any |out[i]| is below lo or above hi (NaN is neither):
// results the caller must compute again with the scalar function.
#define INGOT_VEC_DECLARE_BINARY_(name)                                                 \
  bool name(float* out, const float* a, const float* b, int64_t n, float lo, float hi); \
  bool name(double* out, const double* a, const double* b, int64_t n, double lo, double hi);
#if defined(INGOT_HAS_SLEEF)
namespace ingot::vec::avx512 {
#include "kernels/vec_math_list.h"
}  // namespace ingot::vec::avx512
namespace ingot::vec::avx2 {
#include "kernels/vec_math_list.h"
}  // namespace ingot::vec::avx2
#endif
#undef INGOT_VEC_DECLARE_UNARY_
#undef INGOT_VEC_DECLARE_BINARY_

// unary_via: the unary float loop over fn, a vector function of the unit's width found at run time
// (__m512 (*)(__m512) for avx512, __m256 (*)(__m256) for avx2; vec_math.cpp's libmvec lookup).
namespace ingot::vec::avx512 {
bool unary_via(const void* fn, float* out, const float* a, int64_t n, float lo, float hi);
}  // namespace ingot::vec::avx512
namespace ingot::vec::avx2 {
bool unary_via(const void* fn, float* out, const float* a, int64_t n, float lo, float hi);
}  // namespace ingot::vec::avx2
