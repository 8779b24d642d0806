// ingot::vec::avx512: SLEEF's AVX-512F functions over blocks (vec_math_loops.h). Compiled with
// -mavx512f (cmake/IngotSleef.cmake); called only on CPUs that have it (vec_math.cpp).
#if defined(INGOT_HAS_SLEEF) || defined(INGOT_HAS_LIBMVEC)
#define INGOT_VEC_NS avx512
#define INGOT_VEC_ISA avx512f
#define INGOT_VEC_F f16
#define INGOT_VEC_D d8
#define INGOT_VEC_WF 16
#define INGOT_VEC_WD 8
#define INGOT_VEC_LOADF _mm512_loadu_ps
#define INGOT_VEC_STOREF _mm512_storeu_ps
#define INGOT_VEC_LOADD _mm512_loadu_pd
#define INGOT_VEC_STORED _mm512_storeu_pd
#define INGOT_VEC_SETF _mm512_set1_ps
#define INGOT_VEC_SETD _mm512_set1_pd
#define INGOT_VEC_ABSF _mm512_abs_ps
#define INGOT_VEC_ABSD _mm512_abs_pd
// min/max through the zero-masked forms with every lane set (the same vminps/vmaxps): GCC 12's
// _mm512_min_ps/_mm512_max_ps take an _mm512_undefined_ps() that -Werror=uninitialized rejects.
#define INGOT_VEC_MINF(a, b) _mm512_maskz_min_ps(0xFFFF, a, b)
#define INGOT_VEC_MIND(a, b) _mm512_maskz_min_pd(0xFF, a, b)
#define INGOT_VEC_MAXF(a, b) _mm512_maskz_max_ps(0xFFFF, a, b)
#define INGOT_VEC_MAXD(a, b) _mm512_maskz_max_pd(0xFF, a, b)
// Lanes with |x| < lo or |x| > hi (NaN: neither), as a bit mask.
#define INGOT_VEC_OUTSIDEF(x, lo, hi) \
  (_mm512_cmp_ps_mask(_mm512_abs_ps(x), lo, _CMP_LT_OQ) | _mm512_cmp_ps_mask(_mm512_abs_ps(x), hi, _CMP_GT_OQ))
#define INGOT_VEC_OUTSIDED(x, lo, hi) \
  (_mm512_cmp_pd_mask(_mm512_abs_pd(x), lo, _CMP_LT_OQ) | _mm512_cmp_pd_mask(_mm512_abs_pd(x), hi, _CMP_GT_OQ))
#include "backend/cpu/vec_math_loops.h"
#endif
