// Host stubs for the float math ops of one input (functors: kernels/ops/unary_math.h).
#include "dispatch_stubs.h"
#include "native/kernel_library.h"

namespace ingot::native {

static void sqrt_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "sqrt"); }
REGISTER_DISPATCH(sqrt_stub, &sqrt_kernel);

static void rsqrt_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "rsqrt"); }
REGISTER_DISPATCH(rsqrt_stub, &rsqrt_kernel);

static void cbrt_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "cbrt"); }
REGISTER_DISPATCH(cbrt_stub, &cbrt_kernel);

static void exp2_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "exp2"); }
REGISTER_DISPATCH(exp2_stub, &exp2_kernel);

static void expm1_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "expm1"); }
REGISTER_DISPATCH(expm1_stub, &expm1_kernel);

static void log_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "log"); }
REGISTER_DISPATCH(log_stub, &log_kernel);

static void log2_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "log2"); }
REGISTER_DISPATCH(log2_stub, &log2_kernel);

static void log10_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "log10"); }
REGISTER_DISPATCH(log10_stub, &log10_kernel);

static void log1p_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "log1p"); }
REGISTER_DISPATCH(log1p_stub, &log1p_kernel);

static void sin_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "sin"); }
REGISTER_DISPATCH(sin_stub, &sin_kernel);

static void cos_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "cos"); }
REGISTER_DISPATCH(cos_stub, &cos_kernel);

static void tan_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "tan"); }
REGISTER_DISPATCH(tan_stub, &tan_kernel);

static void asin_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "asin"); }
REGISTER_DISPATCH(asin_stub, &asin_kernel);

static void acos_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "acos"); }
REGISTER_DISPATCH(acos_stub, &acos_kernel);

static void atan_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "atan"); }
REGISTER_DISPATCH(atan_stub, &atan_kernel);

static void sinh_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "sinh"); }
REGISTER_DISPATCH(sinh_stub, &sinh_kernel);

static void cosh_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "cosh"); }
REGISTER_DISPATCH(cosh_stub, &cosh_kernel);

static void tanh_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "tanh"); }
REGISTER_DISPATCH(tanh_stub, &tanh_kernel);

static void asinh_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "asinh"); }
REGISTER_DISPATCH(asinh_stub, &asinh_kernel);

static void acosh_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "acosh"); }
REGISTER_DISPATCH(acosh_stub, &acosh_kernel);

static void atanh_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "atanh"); }
REGISTER_DISPATCH(atanh_stub, &atanh_kernel);

static void sigmoid_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "sigmoid"); }
REGISTER_DISPATCH(sigmoid_stub, &sigmoid_kernel);

static void erf_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "erf"); }
REGISTER_DISPATCH(erf_stub, &erf_kernel);

static void erfc_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "erfc"); }
REGISTER_DISPATCH(erfc_stub, &erfc_kernel);

static void erfinv_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "erfinv"); }
REGISTER_DISPATCH(erfinv_stub, &erfinv_kernel);

static void lgamma_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "lgamma"); }
REGISTER_DISPATCH(lgamma_stub, &lgamma_kernel);

static void digamma_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "digamma"); }
REGISTER_DISPATCH(digamma_stub, &digamma_kernel);

static void reciprocal_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "reciprocal"); }
REGISTER_DISPATCH(reciprocal_stub, &reciprocal_kernel);

static void deg2rad_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "deg2rad"); }
REGISTER_DISPATCH(deg2rad_stub, &deg2rad_kernel);

static void rad2deg_kernel(TensorIteratorBase& iter) { lib.exec_unary_kernel(iter, "rad2deg"); }
REGISTER_DISPATCH(rad2deg_stub, &rad2deg_kernel);

// eps < 0 tells the functor not to clamp.
static void logit_kernel(TensorIteratorBase& iter, std::optional<double> eps) {
  lib.exec_unary_kernel(iter, "logit", Scalar(eps.value_or(-1.0)));
}
REGISTER_DISPATCH(logit_stub, &logit_kernel);

}  // namespace ingot::native
