// The CPU vector math (kernels/vec_math.h, SLEEF): the dense flavor of every op with a vector
// overload against the strided flavor, which always runs the scalar functor, on special values
// (NaN, ±inf, ±0, subnormals, overflow and underflow thresholds) and on values spread over the
// whole exponent range. Special results must be identical; finite ones within 2 ULP of each other
// (each is within 1 ULP of the exact result, possibly on opposite sides). Also checks which path the build and CPU use.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu/kernel_library.h"
#include "kernels/ops/unary.h"
#include "kernels/vec_math.h"

namespace ingot {
namespace {

#if INGOT_VEC_MATH
TEST(VecMath, BackendMatchesCpuAndEnvironment) {
  const char* want = std::getenv("INGOT_VEC_ISA");
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  std::string isa = avx512 ? "avx512f" : avx2 ? "avx2" : "";
  if (want != nullptr && std::string(want) == "avx2") isa = avx2 ? "avx2" : "";
  if (want != nullptr && std::string(want) == "scalar") isa = "";
  // glibc's libmvec (2.35 and later has tanhf) joins unless INGOT_VEC_MVEC=0: beside SLEEF, or alone
  // in a build without it.
  bool has_mvec = false;
#if defined(INGOT_HAS_LIBMVEC)
  const char* mvec_env = std::getenv("INGOT_VEC_MVEC");
  void* mvec = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  has_mvec = mvec != nullptr && dlsym(mvec, "_ZGVdN8v_tanhf") != nullptr &&
             !(mvec_env != nullptr && std::string(mvec_env) == "0");
#endif
#if defined(INGOT_HAS_SLEEF)
  const std::string expect = isa.empty() ? "scalar" : "sleef-" + isa + (has_mvec ? "+libmvec" : "");
#else
  const std::string expect = isa.empty() || !has_mvec ? "scalar" : "libmvec-" + isa;
#endif
  EXPECT_EQ(std::string(vec::backend()), expect);
  EXPECT_TRUE((has_vec_v<exp_functor, float, 1>));
  EXPECT_TRUE((has_vec_v<exp_functor, double, 1>));
  EXPECT_FALSE((has_vec_v<exp_functor, float, 2>));
  EXPECT_FALSE((has_vec_v<abs_functor, float, 1>));
}
#else
TEST(VecMath, BuiltWithoutSleefDeclaresNoVectorOverloads) {
  // INGOT_USE_SLEEF=OFF or no libsleef: functors have only their scalar operator().
  EXPECT_EQ(INGOT_VEC_MATH, 0);
}
#endif

template <typename T>
struct Bits;
template <>
struct Bits<float> {
  using U = uint32_t;
  static constexpr const char* name = "float32";
};
template <>
struct Bits<double> {
  using U = uint64_t;
  static constexpr const char* name = "float64";
};

// Distance in representable values (0 for equal, ±0 equal; huge for different signs).
template <typename T>
uint64_t ulp_distance(T a, T b) {
  using U = typename Bits<T>::U;
  if (a == b) return 0;
  U ua, ub;
  std::memcpy(&ua, &a, sizeof(T));
  std::memcpy(&ub, &b, sizeof(T));
  constexpr U sign = U(1) << (8 * sizeof(T) - 1);
  if ((ua & sign) != (ub & sign)) return std::numeric_limits<uint64_t>::max();
  return ua > ub ? ua - ub : ub - ua;
}

template <typename T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {L::quiet_NaN(), -L::quiet_NaN(), L::infinity(), -L::infinity(), T(0), -T(0),
                      L::denorm_min(), -L::denorm_min(), L::min() - L::denorm_min(), L::min(), -L::min(),
                      L::max(), -L::max(), L::epsilon(), T(1), T(-1), T(0.5), T(-0.5), T(2), T(-2),
                      T(3.14159265358979323846), T(-3.14159265358979323846), T(1.5707963267948966),
                      T(10), T(-10), T(100), T(-100), T(1e10), T(-1e10), T(1e-10)};
  // Around the float and double overflow and underflow thresholds of exp, exp2, expm1, sinh, cosh.
  for (double t : {88.72283935546875, 88.7228393554687, 89.41598629223294, -87.33654475, -103.972077083991796,
                   -104.0, -149.0, -150.0, 127.99999, 128.0, -126.0, -149.5, 709.782712893384, 709.79, 710.475860073944,
                   -708.39641853226408, -745.13321910194111, -746.0, 1023.9999, 1024.0, -1074.0, -1075.0}) {
    const T x = static_cast<T>(t);
    v.push_back(x);
    v.push_back(std::nextafter(x, L::infinity()));
    v.push_back(std::nextafter(x, -L::infinity()));
  }
  return v;
}

// Specials, then magnitudes spread over every exponent, then the range [-4, 4] densely.
template <typename T>
std::vector<T> inputs(std::mt19937_64& rng) {
  std::vector<T> v = special_values<T>();
  using U = typename Bits<T>::U;
  std::uniform_int_distribution<U> any;
  for (int i = 0; i < 40000; ++i) {
    U u = any(rng);
    T x;
    std::memcpy(&x, &u, sizeof(T));
    v.push_back(x);
  }
  std::uniform_real_distribution<T> small(T(-4), T(4));
  for (int i = 0; i < 20000; ++i) v.push_back(small(rng));
  return v;
}

template <typename T>
bool special(T x) {
  return !std::isfinite(x) || x == T(0) || std::fpclassify(x) == FP_SUBNORMAL;
}

bool vec_from_libmvec(const std::string& op) {
#if INGOT_VEC_MATH
  return vec::float_from_libmvec(op.c_str());
#else
  return false;
#endif
}

template <typename T>
void compare(const std::string& op, const std::vector<T>& got, const std::vector<T>& want,
             const std::vector<T>& a, const std::vector<T>* b, uint64_t* worst) {
  for (size_t i = 0; i < got.size(); ++i) {
    const std::string where = op + " " + Bits<T>::name + " x=" + std::to_string(a[i]) +
                              (b ? " y=" + std::to_string((*b)[i]) : "");
    if (std::isnan(want[i]) || std::isnan(got[i])) {
      ASSERT_TRUE(std::isnan(want[i]) && std::isnan(got[i])) << where << " vec " << got[i] << " scalar " << want[i];
      continue;
    }
    if (special(want[i]) || special(got[i]) || special(a[i]) || (b && special((*b)[i]))) {
      // Infinities, zeros (with their sign) and subnormal results exactly as the scalar path.
      if (!std::isfinite(want[i]) || want[i] == T(0) || !std::isfinite(got[i]) || got[i] == T(0)) {
        ASSERT_EQ(ulp_distance(got[i], want[i]), 0u) << where << " vec " << got[i] << " scalar " << want[i];
        ASSERT_EQ(std::signbit(got[i]), std::signbit(want[i])) << where;
        continue;
      }
    }
    const uint64_t d = ulp_distance(got[i], want[i]);
    *worst = d > *worst ? d : *worst;
    // glibc's float64 cbrt is up to 3 ULP off (SLEEF's is within 1: checked with mpmath). A float32
    // function from libmvec may be up to 2 ULP from the exact result (its OpInfo bound; measured on
    // every input, docs/cpu.md), so 3 from glibc's scalar result.
    // float32 atan2 and log are SLEEF's 3.5-ULP versions (measured within 2.7 and 2.85 ULP; bound
    // 3): 4 from glibc's.
    const bool mvec = sizeof(T) == 4 && vec_from_libmvec(op);
    const bool u35 = sizeof(T) == 4 && (op == "atan2" || op == "log");
    const uint64_t tol = (op == "cbrt" && sizeof(T) == 8) || u35 ? 4 : mvec ? 3 : 2;
    ASSERT_LE(d, tol) << where << " vec " << got[i] << " scalar " << want[i];
  }
}

ElementwiseArgs args_1d(int64_t n, void* out, const void* a, const void* b, int64_t size) {
  ElementwiseArgs args{};
  args.ndim = 1;
  args.scalar_input = -1;
  args.sizes[0] = n;
  args.data[0] = static_cast<char*>(out);
  args.data[1] = static_cast<char*>(const_cast<void*>(a));
  args.data[2] = static_cast<char*>(const_cast<void*>(b));
  for (int k = 0; k < 3; ++k) args.strides[k][0] = size;
  return args;
}

template <typename T>
void check_unary(const char* op) {
  std::mt19937_64 rng(1234);
  const std::vector<T> a = inputs<T>(rng);
  const int64_t n = static_cast<int64_t>(a.size());
  std::vector<T> got(a.size()), want(a.size());
  const std::string suffix = std::string("_") + Bits<T>::name + "_" + Bits<T>::name;
  const cpu::KernelFn dense = cpu::cpu_kernel_library().find_kernel(std::string(op) + "_dense" + suffix);
  const cpu::KernelFn strided = cpu::cpu_kernel_library().find_kernel(std::string(op) + "_strided" + suffix);
  ASSERT_NE(dense, nullptr) << op;
  ASSERT_NE(strided, nullptr) << op;
  dense(args_1d(n, got.data(), a.data(), nullptr, sizeof(T)), 0, n);
  strided(args_1d(n, want.data(), a.data(), nullptr, sizeof(T)), 0, n);
  uint64_t worst = 0;
  compare<T>(op, got, want, a, nullptr, &worst);
  // In place (out aliasing the input) gives the same.
  std::vector<T> inplace = a;
  dense(args_1d(n, inplace.data(), inplace.data(), nullptr, sizeof(T)), 0, n);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(ulp_distance(inplace[i], got[i]) == 0 || (std::isnan(got[i]) && std::isnan(inplace[i])), true) << op << " in place";
}

template <typename T>
void check_binary(const char* op) {
  std::mt19937_64 rng(99);
  const std::vector<T> s = special_values<T>();
  std::vector<T> a, b;
  for (T x : s) {
    for (T y : s) {
      a.push_back(x);
      b.push_back(y);
    }
  }
  const std::vector<T> ra = inputs<T>(rng), rb = inputs<T>(rng);
  for (size_t i = 0; i < ra.size(); ++i) {
    a.push_back(ra[i]);
    b.push_back(rb[(i * 7919) % rb.size()]);
  }
  const int64_t n = static_cast<int64_t>(a.size());
  std::vector<T> got(a.size()), want(a.size());
  const std::string suffix = std::string("_") + Bits<T>::name + "_" + Bits<T>::name;
  const cpu::KernelFn dense = cpu::cpu_kernel_library().find_kernel(std::string(op) + "_dense" + suffix);
  const cpu::KernelFn strided = cpu::cpu_kernel_library().find_kernel(std::string(op) + "_strided" + suffix);
  ASSERT_NE(dense, nullptr) << op;
  ASSERT_NE(strided, nullptr) << op;
  dense(args_1d(n, got.data(), a.data(), b.data(), sizeof(T)), 0, n);
  strided(args_1d(n, want.data(), a.data(), b.data(), sizeof(T)), 0, n);
  uint64_t worst = 0;
  compare<T>(op, got, want, a, &b, &worst);
  // In place over either input (the inf/0/subnormal results are redone from the inputs) gives the same.
  std::vector<T> over_a = a, over_b = b;
  dense(args_1d(n, over_a.data(), over_a.data(), b.data(), sizeof(T)), 0, n);
  dense(args_1d(n, over_b.data(), a.data(), over_b.data(), sizeof(T)), 0, n);
  for (int64_t i = 0; i < n; ++i) {
    const bool nan = std::isnan(got[i]);
    ASSERT_TRUE(nan ? std::isnan(over_a[i]) : ulp_distance(over_a[i], got[i]) == 0) << op << " in place over a, i=" << i;
    ASSERT_TRUE(nan ? std::isnan(over_b[i]) : ulp_distance(over_b[i], got[i]) == 0) << op << " in place over b, i=" << i;
  }
}

class VecMathUnary : public ::testing::TestWithParam<const char*> {};
TEST_P(VecMathUnary, DenseMatchesScalarFunctorFloat32) { check_unary<float>(GetParam()); }
TEST_P(VecMathUnary, DenseMatchesScalarFunctorFloat64) { check_unary<double>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Ops, VecMathUnary,
                         ::testing::Values("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
                                           "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
                                           "atanh", "cbrt", "erf", "sigmoid"));

class VecMathBinary : public ::testing::TestWithParam<const char*> {};
TEST_P(VecMathBinary, DenseMatchesScalarFunctorFloat32) { check_binary<float>(GetParam()); }
TEST_P(VecMathBinary, DenseMatchesScalarFunctorFloat64) { check_binary<double>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Ops, VecMathBinary, ::testing::Values("atan2", "pow", "hypot"));

}  // namespace
}  // namespace ingot
