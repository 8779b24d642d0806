// ingot::vec::avx2: SLEEF's AVX2 functions over blocks (vec_math_loops.h). Compiled with
// -mavx2 -mfma (cmake/IngotSleef.cmake); called only on CPUs that have both (vec_math.cpp).
#if defined(INGOT_HAS_SLEEF) || defined(INGOT_HAS_LIBMVEC)
#define INGOT_VEC_NS avx2
#define INGOT_VEC_ISA avx2
#define INGOT_VEC_F f8
#define INGOT_VEC_D d4
#define INGOT_VEC_WF 8
#define INGOT_VEC_WD 4
#define INGOT_VEC_LOADF _mm256_loadu_ps
#define INGOT_VEC_STOREF _mm256_storeu_ps
#define INGOT_VEC_LOADD _mm256_loadu_pd
#define INGOT_VEC_STORED _mm256_storeu_pd
#define INGOT_VEC_SETF _mm256_set1_ps
#define INGOT_VEC_SETD _mm256_set1_pd
#define INGOT_VEC_ABSF(x) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x)
#define INGOT_VEC_ABSD(x) _mm256_andnot_pd(_mm256_set1_pd(-0.0), x)
#define INGOT_VEC_MINF _mm256_min_ps
#define INGOT_VEC_MIND _mm256_min_pd
#define INGOT_VEC_MAXF _mm256_max_ps
#define INGOT_VEC_MAXD _mm256_max_pd
// Lanes with |x| < lo or |x| > hi (NaN: neither), as a bit mask.
#define INGOT_VEC_OUTSIDEF(x, lo, hi)                                                      \
  _mm256_movemask_ps(_mm256_or_ps(_mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), lo, _CMP_LT_OQ), \
                                  _mm256_cmp_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x), hi, _CMP_GT_OQ)))
#define INGOT_VEC_OUTSIDED(x, lo, hi)                                                      \
  _mm256_movemask_pd(_mm256_or_pd(_mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), x), lo, _CMP_LT_OQ), \
                                  _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), x), hi, _CMP_GT_OQ)))
#include "backend/cpu/vec_math_loops.h"
#endif
