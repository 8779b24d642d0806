// Float math on one input: integer and bool inputs compute in float32 (REGISTER_INT2FLOAT_UNARY_OP),
// float16/bfloat16 in float32 rounded once. Each functor names its math as f(x) on the compute type;
// FloatMath (kernels/float_math.h) supplies the conversions.
#pragma once

#include "kernels/float_math.h"
#include "kernels/precise_math.h"
#include "kernels/registration.h"
#include "kernels/special_math.h"
#include "kernels/vec_math.h"

namespace ingot {


struct sqrt_functor : FloatMath<sqrt_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::sqrt(x);
  }
};
REGISTER_FLOAT_UNARY_OP(sqrt);
REGISTER_INT2FLOAT_UNARY_OP(sqrt);

// 1 / sqrt(x): CUDA's rsqrtf has no host twin, and this stays within 1.5 ulp.
struct rsqrt_functor : FloatMath<rsqrt_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return M(1) / precise::sqrt(x);
  }
};
REGISTER_FLOAT_UNARY_OP(rsqrt);
REGISTER_INT2FLOAT_UNARY_OP(rsqrt);

struct cbrt_functor : FloatMath<cbrt_functor> {
  INGOT_VEC_UNARY(cbrt)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::cbrt(x);
  }
};
REGISTER_FLOAT_UNARY_OP(cbrt);
REGISTER_INT2FLOAT_UNARY_OP(cbrt);

struct exp2_functor : FloatMath<exp2_functor> {
  INGOT_VEC_UNARY(exp2)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::exp2(x);
  }
};
REGISTER_FLOAT_UNARY_OP(exp2);
REGISTER_INT2FLOAT_UNARY_OP(exp2);

struct expm1_functor : FloatMath<expm1_functor> {
  INGOT_VEC_UNARY(expm1)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::expm1(x);
  }
};
REGISTER_FLOAT_UNARY_OP(expm1);
REGISTER_INT2FLOAT_UNARY_OP(expm1);

struct log_functor : FloatMath<log_functor> {
  INGOT_VEC_UNARY(log)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::log(x);
  }
};
REGISTER_FLOAT_UNARY_OP(log);
REGISTER_INT2FLOAT_UNARY_OP(log);

struct log2_functor : FloatMath<log2_functor> {
  INGOT_VEC_UNARY(log2)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::log2(x);
  }
};
REGISTER_FLOAT_UNARY_OP(log2);
REGISTER_INT2FLOAT_UNARY_OP(log2);

struct log10_functor : FloatMath<log10_functor> {
  INGOT_VEC_UNARY(log10)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::log10(x);
  }
};
REGISTER_FLOAT_UNARY_OP(log10);
REGISTER_INT2FLOAT_UNARY_OP(log10);

struct log1p_functor : FloatMath<log1p_functor> {
  INGOT_VEC_UNARY(log1p)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::log1p(x);
  }
};
REGISTER_FLOAT_UNARY_OP(log1p);
REGISTER_INT2FLOAT_UNARY_OP(log1p);

struct sin_functor : FloatMath<sin_functor> {
  INGOT_VEC_UNARY(sin)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::sin(x);
  }
};
REGISTER_FLOAT_UNARY_OP(sin);
REGISTER_INT2FLOAT_UNARY_OP(sin);

struct cos_functor : FloatMath<cos_functor> {
  INGOT_VEC_UNARY(cos)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::cos(x);
  }
};
REGISTER_FLOAT_UNARY_OP(cos);
REGISTER_INT2FLOAT_UNARY_OP(cos);

struct tan_functor : FloatMath<tan_functor> {
  INGOT_VEC_UNARY(tan)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::tan(x);
  }
};
REGISTER_FLOAT_UNARY_OP(tan);
REGISTER_INT2FLOAT_UNARY_OP(tan);

struct asin_functor : FloatMath<asin_functor> {
  INGOT_VEC_UNARY(asin)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::asin(x);
  }
};
REGISTER_FLOAT_UNARY_OP(asin);
REGISTER_INT2FLOAT_UNARY_OP(asin);

struct acos_functor : FloatMath<acos_functor> {
  INGOT_VEC_UNARY(acos)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::acos(x);
  }
};
REGISTER_FLOAT_UNARY_OP(acos);
REGISTER_INT2FLOAT_UNARY_OP(acos);

struct atan_functor : FloatMath<atan_functor> {
  INGOT_VEC_UNARY(atan)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::atan(x);
  }
};
REGISTER_FLOAT_UNARY_OP(atan);
REGISTER_INT2FLOAT_UNARY_OP(atan);

struct sinh_functor : FloatMath<sinh_functor> {
  INGOT_VEC_UNARY(sinh)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::sinh(x);
  }
};
REGISTER_FLOAT_UNARY_OP(sinh);
REGISTER_INT2FLOAT_UNARY_OP(sinh);

struct cosh_functor : FloatMath<cosh_functor> {
  INGOT_VEC_UNARY(cosh)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::cosh(x);
  }
};
REGISTER_FLOAT_UNARY_OP(cosh);
REGISTER_INT2FLOAT_UNARY_OP(cosh);

struct tanh_functor : FloatMath<tanh_functor> {
  INGOT_VEC_UNARY(tanh)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::tanh(x);
  }
};
REGISTER_FLOAT_UNARY_OP(tanh);
REGISTER_INT2FLOAT_UNARY_OP(tanh);

struct asinh_functor : FloatMath<asinh_functor> {
  INGOT_VEC_UNARY(asinh)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::asinh(x);
  }
};
REGISTER_FLOAT_UNARY_OP(asinh);
REGISTER_INT2FLOAT_UNARY_OP(asinh);

struct acosh_functor : FloatMath<acosh_functor> {
  INGOT_VEC_UNARY(acosh)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::acosh(x);
  }
};
REGISTER_FLOAT_UNARY_OP(acosh);
REGISTER_INT2FLOAT_UNARY_OP(acosh);

struct atanh_functor : FloatMath<atanh_functor> {
  INGOT_VEC_UNARY(atanh)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::atanh(x);
  }
};
REGISTER_FLOAT_UNARY_OP(atanh);
REGISTER_INT2FLOAT_UNARY_OP(atanh);

// 1 / (1 + exp(-x)), written as exp(x) / (1 + exp(x)) for x < 0 so tiny results keep their digits.
struct sigmoid_functor : FloatMath<sigmoid_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return x >= M(0) ? M(1) / (M(1) + precise::exp(-x)) : precise::exp(x) / (M(1) + precise::exp(x));
  }
#if INGOT_VEC_MATH
  // The same formula on blocks: t = exp(-|x|) through the vector exp, then 1 / (1 + t) or t / (1 + t).
  // x is read again after t is computed, so out may alias x.
  template <typename M>
  static void vec_impl(M* out, const M* x, int64_t n) {
    constexpr int64_t kB = 256;
    M u[kB], t[kB];  // apart: vec::exp in place would go through a buffer of its own
    for (int64_t j0 = 0; j0 < n; j0 += kB) {
      const int64_t m = n - j0 < kB ? n - j0 : kB;
      for (int64_t j = 0; j < m; ++j) u[j] = -precise::fabs(x[j0 + j]);
      vec::exp(t, u, m);
      for (int64_t j = 0; j < m; ++j) {  // one division and a select, so the loop vectorizes
        const M num = x[j0 + j] >= M(0) ? M(1) : t[j];
        out[j0 + j] = num / (M(1) + t[j]);
      }
    }
  }
  static void vec(float* out, const float* x, int64_t n) { vec_impl(out, x, n); }
  static void vec(double* out, const double* x, int64_t n) { vec_impl(out, x, n); }
#endif
};
REGISTER_FLOAT_UNARY_OP(sigmoid);
REGISTER_INT2FLOAT_UNARY_OP(sigmoid);

struct erf_functor : FloatMath<erf_functor> {
  INGOT_VEC_UNARY(erf)
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::erf(x);
  }
};
REGISTER_FLOAT_UNARY_OP(erf);
REGISTER_INT2FLOAT_UNARY_OP(erf);

struct erfc_functor : FloatMath<erfc_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::erfc(x);
  }
};
REGISTER_FLOAT_UNARY_OP(erfc);
REGISTER_INT2FLOAT_UNARY_OP(erfc);

struct erfinv_functor : FloatMath<erfinv_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return special::erfinv(x);
  }
};
REGISTER_FLOAT_UNARY_OP(erfinv);
REGISTER_INT2FLOAT_UNARY_OP(erfinv);

// log|gamma(x)|; +inf at the poles (0 and the negative integers).
struct lgamma_functor : FloatMath<lgamma_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return precise::lgamma(x);
  }
};
REGISTER_FLOAT_UNARY_OP(lgamma);
REGISTER_INT2FLOAT_UNARY_OP(lgamma);

struct digamma_functor : FloatMath<digamma_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return special::digamma(x);
  }
};
REGISTER_FLOAT_UNARY_OP(digamma);
REGISTER_INT2FLOAT_UNARY_OP(digamma);

struct reciprocal_functor : FloatMath<reciprocal_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return M(1) / x;
  }
};
REGISTER_FLOAT_UNARY_OP(reciprocal);
REGISTER_INT2FLOAT_UNARY_OP(reciprocal);

struct deg2rad_functor : FloatMath<deg2rad_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return x * M(special::kPi / 180);
  }
};
REGISTER_FLOAT_UNARY_OP(deg2rad);
REGISTER_INT2FLOAT_UNARY_OP(deg2rad);

struct rad2deg_functor : FloatMath<rad2deg_functor> {
  template <typename M>
  INGOT_INLINE static M f(M x) {
    return x * M(180 / special::kPi);
  }
};
REGISTER_FLOAT_UNARY_OP(rad2deg);
REGISTER_INT2FLOAT_UNARY_OP(rad2deg);

// log(x / (1 - x)), with x first clamped to [eps, 1 - eps] when eps >= 0 (the stub passes -1 for
// no eps). Below 0.25 the quotient is far from 1, so its log is accurate; above, 2 atanh(2x - 1)
// has an exact argument (2x - 1 by Sterbenz) and keeps the digits near x = 0.5.
struct logit_functor {
  template <typename T, enable_if_t<is_floating_point_v<T>, bool> = true>
  INGOT_INLINE T operator()(T a, T eps) const {
    using M = opmath_t<T>;
    M x = static_cast<M>(a);
    const M e = static_cast<M>(eps);
    if (e >= M(0)) x = x < e ? e : x > M(1) - e ? M(1) - e : x;
    return static_cast<T>(x < M(0.25) ? precise::log(x / (M(1) - x)) : M(2) * precise::atanh(M(2) * x - M(1)));
  }
};
REGISTER_FLOAT_UNARY_PARAM_OP(logit);
REGISTER_INT2FLOAT_UNARY_PARAM_OP(logit);

}  // namespace ingot
