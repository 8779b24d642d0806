// ingot::vec::avx2: SLEEF's AVX2 functions over blocks (vec_math_loops.h). Compiled with
// -mavx2 -mfma (cmake/IngotSleef.cmake); called only on CPUs that have both (vec_math.cpp).
#if defined(INGOT_HAS_SLEEF)
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
#include "backend/cpu/vec_math_loops.h"
#endif
