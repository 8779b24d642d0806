// ingot::vec (kernels/vec_math.h): whole-block transcendental math through SLEEF's 1.0-ULP
// functions (and glibc's libmvec for some float32 ones, below; a build without SLEEF uses libmvec
// alone and the C library for the rest). The build assumes baseline x86-64 only, so the block
// loops are compiled once for AVX-512F (16 floats / 8 doubles a step, vec_math_avx512.cpp) and once
// for AVX2+FMA (8 / 4, vec_math_avx2.cpp), and one set is picked here at run time from the CPU
// (__builtin_cpu_supports); a CPU with neither runs the C library per element (precise_math.h,
// the scalar functors' own math). INGOT_VEC_ISA=avx2 or =scalar in the environment forces a
// narrower choice (the tests use it to cover every path on one machine).
//
// For some float32 functions glibc's vector math library (libmvec, glibc >= 2.35) is several times
// faster than SLEEF's 1-ULP versions at an accuracy still inside the op's bound (the list below, each
// checked on every float32 input with |x| >= FLT_MIN against float64, AVX-512 and AVX2 versions:
// docs/cpu.md). Its functions are looked up at run time (dlopen/dlsym), so a system without them, or
// INGOT_VEC_MVEC=0 in the environment, keeps SLEEF; backend() then ends in "+libmvec" or not.
//
// SLEEF's own dispatching entry points (Sleef_expf8_u10, ...) choose only among the ISAs of one
// vector width, so they never pick AVX-512 over AVX2; the ISA-suffixed functions are called instead.
#include "kernels/vec_math.h"

#if INGOT_VEC_MATH

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "backend/cpu/vec_math_isa.h"
#include "kernels/precise_math.h"

namespace ingot::vec {
namespace {

enum class Isa { kScalar, kAvx2, kAvx512 };

Isa pick_isa() {
  const char* want = std::getenv("INGOT_VEC_ISA");
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (want != nullptr && std::strcmp(want, "scalar") == 0) return Isa::kScalar;
  if (want != nullptr && std::strcmp(want, "avx2") == 0) return avx2 ? Isa::kAvx2 : Isa::kScalar;
  return avx512 ? Isa::kAvx512 : avx2 ? Isa::kAvx2 : Isa::kScalar;
}

Isa isa() {
  static const Isa chosen = pick_isa();
  return chosen;
}

// The float32 functions taken from libmvec (glibc 2.36, x86-64). Largest error over every float32
// input with |x| >= FLT_MIN (smaller ones go to the scalar function anyway), against the float64
// C library, AVX-512 / AVX2 versions, then the OpInfo bound (tests/python/opinfo.py) and ns per
// element in cache, SLEEF u10 -> libmvec, on a Zen 4 core:
//   tanh  1.37 / 1.03 ULP, bound 2; 1.09 -> 0.28 ns     sinh  1.89 / 1.89, bound 3; 0.97 -> 0.30
//   asinh 1.01 / 2.09, bound 3;     1.69 -> 0.44        atanh 1.91 / 2.04, bound 3; 0.88 -> 0.32
//   acosh 1.16 / 2.81, bound 4;     1.48 -> 0.75        log1p 1.96 / 1.96, bound 2; 0.53 -> 0.28
//   sin   1.86 / 1.86, bound 2;     0.35 -> 0.22        cos   1.94 / 1.94, bound 2; 0.42 -> 0.22
// Not taken (a sample of inputs already passes the bound): exp 2.55, expm1 2.32, log 3.87,
// log2 2.04, log10 3.02, tan 3.76 (bound 4: too close on a sample), asin 3.04,
// atan 2.19, cosh 2.39, erf 4.0, atan2 3.44 (bound 3). tests/cpp/test_vec_math.cpp checks the
// special values of the ones taken and allows them 3 ULP from glibc's scalar result.
constexpr std::string_view kMvecFloat[] = {"tanh", "sinh", "asinh", "atanh", "acosh", "log1p", "sin", "cos"};

void* libmvec() {
#if defined(INGOT_HAS_LIBMVEC)
  static void* const lib = [] {
    const char* want = std::getenv("INGOT_VEC_MVEC");
    if (want != nullptr && std::strcmp(want, "0") == 0) return static_cast<void*>(nullptr);
    return dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  }();
  return lib;
#else
  return nullptr;  // INGOT_USE_LIBMVEC=OFF, or not x86-64 Linux
#endif
}

// libmvec's float function `name` for the chosen ISA (its vector-ABI symbol, e.g. _ZGVeN16v_tanhf),
// or null: not on the list, no libmvec, a glibc without it, or a CPU without AVX2.
const void* mvec_float(std::string_view name) {
  bool listed = false;
  for (std::string_view m : kMvecFloat) listed |= m == name;
  if (!listed || isa() == Isa::kScalar || libmvec() == nullptr) return nullptr;
  const std::string symbol = std::string(isa() == Isa::kAvx512 ? "_ZGVeN16v_" : "_ZGVdN8v_") + std::string(name) + "f";
  return dlsym(libmvec(), symbol.c_str());
}

}  // namespace

bool float_from_libmvec(const char* name) { return mvec_float(name) != nullptr; }

const char* backend() {
  const bool mvec = mvec_float(kMvecFloat[0]) != nullptr;
#if defined(INGOT_HAS_SLEEF)
  switch (isa()) {
    case Isa::kAvx512:
      return mvec ? "sleef-avx512f+libmvec" : "sleef-avx512f";
    case Isa::kAvx2:
      return mvec ? "sleef-avx2+libmvec" : "sleef-avx2";
    default:
      return "scalar";
  }
#else
  if (!mvec) return "scalar";
  return isa() == Isa::kAvx512 ? "libmvec-avx512f" : "libmvec-avx2";
#endif
}

// Where SLEEF's results differ from the C library's beyond rounding, the lanes go to the scalar
// function instead, so special values stay identical to the scalar path (tests/cpp/test_vec_math.cpp):
// zero and subnormal inputs (log1p, asinh, tan, ... of a subnormal x return 0, not x), and
// magnitudes above big(): SLEEF's exp(double), sinh and cosh overflow to inf slightly early, and its
// acosh and asinh return inf above about 1.8e19 (float) / 1.3e154 (double), log1p above 1e38 / 1e307.
// Binary functions go the other way: a result that is inf, 0 or subnormal is computed again by the
// scalar function (SLEEF's pow(DBL_MAX, 1) is inf).
template <typename T>
constexpr T big(std::string_view name) {
  constexpr bool d = sizeof(T) == 8;
  if (name == "exp") return d ? T(700) : T(87);
  if (name == "sinh" || name == "cosh") return d ? T(709) : T(88);
  if (name == "acosh" || name == "asinh") return d ? T(1e150) : T(1e18);
  if (name == "log1p") return d ? T(1e307) : T(1e38);
  return std::numeric_limits<T>::infinity();
}

// vec_fn computes a block and says whether it met a lane to redo; those lanes are then found in the
// input, which must still be there: when out overlaps a, blocks go through a buffer first.
template <typename T, typename VecFn, typename ScalarFn>
void unary_blocks(T* out, const T* a, int64_t n, T big, VecFn vec_fn, ScalarFn scalar_fn) {
  constexpr int64_t kB = 1024;
  const T tiny = std::numeric_limits<T>::min();
  const bool overlap = out < a + n && a < out + n;
  alignas(64) T buf[kB];
  for (int64_t j0 = 0; j0 < n; j0 += kB) {
    const int64_t m = n - j0 < kB ? n - j0 : kB;
    const T* x = a + j0;
    T* dst = overlap ? buf : out + j0;
    if (vec_fn(dst, x, m, tiny, big)) {
      for (int64_t j = 0; j < m; ++j) {
        const T ax = x[j] < T(0) ? -x[j] : x[j];
        if (ax < tiny || ax > big) dst[j] = scalar_fn(x[j]);
      }
    }
    if (overlap) std::memcpy(out + j0, buf, static_cast<size_t>(m) * sizeof(T));
  }
}

// vec_fn computes a block and says whether a result is inf, 0 or subnormal: those are computed again
// by the scalar function from the inputs, which must still be there, so when out overlaps a or b the
// blocks go through a buffer first.
template <typename T, typename VecFn, typename ScalarFn>
void binary_blocks(T* out, const T* a, const T* b, int64_t n, VecFn vec_fn, ScalarFn scalar_fn) {
  constexpr int64_t kB = 1024;
  const T tiny = std::numeric_limits<T>::min(), huge = std::numeric_limits<T>::max();
  const bool overlap = (out < a + n && a < out + n) || (out < b + n && b < out + n);
  alignas(64) T buf[kB];
  for (int64_t j0 = 0; j0 < n; j0 += kB) {
    const int64_t m = n - j0 < kB ? n - j0 : kB;
    T* dst = overlap ? buf : out + j0;
    if (vec_fn(dst, a + j0, b + j0, m, tiny, huge)) {  // NaN results are neither: SLEEF and the C library agree on those
      for (int64_t j = 0; j < m; ++j) {
        const T ar = dst[j] < T(0) ? -dst[j] : dst[j];
        if (ar < tiny || ar > huge) dst[j] = scalar_fn(a[j0 + j], b[j0 + j]);
      }
    }
    if (overlap) std::memcpy(out + j0, buf, static_cast<size_t>(m) * sizeof(T));
  }
}

// libmvec's float function fn (mvec_float) over the blocks; false, doing nothing, without one.
template <typename ScalarFn>
bool unary_mvec(float* out, const float* a, int64_t n, const void* fn, float big, ScalarFn scalar) {
  if (fn == nullptr) return false;
  if (isa() == Isa::kAvx512) {
    unary_blocks(
        out, a, n, big, [fn](float* o, const float* x, int64_t m, float lo, float hi) { return avx512::unary_via(fn, o, x, m, lo, hi); },
        scalar);
  } else {
    unary_blocks(
        out, a, n, big, [fn](float* o, const float* x, int64_t m, float lo, float hi) { return avx2::unary_via(fn, o, x, m, lo, hi); },
        scalar);
  }
  return true;
}
template <typename ScalarFn>
bool unary_mvec(double*, const double*, int64_t, const void*, double, ScalarFn) {
  return false;
}

// The SLEEF block loops of the chosen ISA, as cases of the switch below; none in a build without
// SLEEF (libmvec alone: its float32 functions where it has them, the C library for the rest).
#if defined(INGOT_HAS_SLEEF)
#define INGOT_VEC_SLEEF_UNARY_CASES_(T, name)                                                     \
  case Isa::kAvx512:                                                                              \
    return unary_blocks(                                                                          \
        out, a, n, big<T>(#name),                                                                 \
        [](T* o, const T* x, int64_t m, T lo, T hi) { return avx512::name(o, x, m, lo, hi); }, scalar); \
  case Isa::kAvx2:                                                                                \
    return unary_blocks(                                                                          \
        out, a, n, big<T>(#name),                                                                 \
        [](T* o, const T* x, int64_t m, T lo, T hi) { return avx2::name(o, x, m, lo, hi); }, scalar);
#define INGOT_VEC_SLEEF_BINARY_CASES_(T, name)                                                    \
  case Isa::kAvx512:                                                                              \
    return binary_blocks(                                                                         \
        out, a, b, n,                                                                             \
        [](T* o, const T* x, const T* y, int64_t m, T lo, T hi) { return avx512::name(o, x, y, m, lo, hi); }, scalar); \
  case Isa::kAvx2:                                                                                \
    return binary_blocks(                                                                         \
        out, a, b, n,                                                                             \
        [](T* o, const T* x, const T* y, int64_t m, T lo, T hi) { return avx2::name(o, x, y, m, lo, hi); }, scalar);
#else
#define INGOT_VEC_SLEEF_UNARY_CASES_(T, name)
#define INGOT_VEC_SLEEF_BINARY_CASES_(T, name)
#endif
#define INGOT_VEC_DEFINE_UNARY_(T, name)                                                          \
  void name(T* out, const T* a, int64_t n) {                                                      \
    const auto scalar = [](T x) { return precise::name(x); };                                     \
    static const void* const mvec = sizeof(T) == 4 ? mvec_float(#name) : nullptr;                \
    if (unary_mvec(out, a, n, mvec, big<T>(#name), scalar)) return;                               \
    switch (isa()) {                                                                              \
      INGOT_VEC_SLEEF_UNARY_CASES_(T, name)                                                       \
      default:                                                                                    \
        for (int64_t i = 0; i < n; ++i) out[i] = scalar(a[i]);                                    \
    }                                                                                             \
  }
#define INGOT_VEC_DEFINE_BINARY_(T, name)                                                         \
  void name(T* out, const T* a, const T* b, int64_t n) {                                          \
    const auto scalar = [](T x, T y) { return precise::name(x, y); };                             \
    switch (isa()) {                                                                              \
      INGOT_VEC_SLEEF_BINARY_CASES_(T, name)                                                      \
      default:                                                                                    \
        for (int64_t i = 0; i < n; ++i) out[i] = scalar(a[i], b[i]);                             \
    }                                                                                             \
  }
#define INGOT_VEC_DECLARE_UNARY_(name) INGOT_VEC_DEFINE_UNARY_(float, name) INGOT_VEC_DEFINE_UNARY_(double, name)
#define INGOT_VEC_DECLARE_BINARY_(name) INGOT_VEC_DEFINE_BINARY_(float, name) INGOT_VEC_DEFINE_BINARY_(double, name)
#include "kernels/vec_math_list.h"

}  // namespace ingot::vec

#endif  // INGOT_VEC_MATH
