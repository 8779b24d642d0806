// The body of vec_math_avx512.cpp and vec_math_avx2.cpp (see vec_math_isa.h): each defines
// INGOT_VEC_NS (the namespace), INGOT_VEC_F / INGOT_VEC_D (SLEEF's float / double vector suffix,
// e.g. f16 and d8), INGOT_VEC_ISA (SLEEF's ISA suffix), the widths INGOT_VEC_WF / INGOT_VEC_WD and
// the load/store intrinsics, then includes this. These units hold only these loops (no inline
// library code the linker could share with baseline code).
#include <immintrin.h>
#include <string.h>
#if defined(INGOT_HAS_SLEEF)
#include <sleef.h>
#endif

#include "backend/cpu/memory_policy.h"
#include "backend/cpu/vec_math_isa.h"

// The loops prefetch their inputs kVecPrefetchBytes ahead where the memory policy says so
// (memory_policy.h): the hardware's stream prefetchers stop at each 4 KiB page, and on some CPUs a
// transcendental's arithmetic leaves too few loads in flight to keep the next page coming. On the
// H200 host's Xeon (one thread, 4096x4096 float32, with the dense flavor's streaming stores, best
// of 9, .gpu harness of 2026-12-03) SLEEF's exp went from 11.4 to 7.2 ms, libmvec's tanh from 11.2
// to 7.2, atan2 from 14.4 to 11.8, log from 13.7 to 10.9 (2, 4 and 8 KiB ahead were within noise
// of each other; a copy took 6.5 ms). On a Zen 4 core the same prefetch cost 5-10%.
// A prefetch never faults; the address is formed as an integer, since it may lie past the array.
#define INGOT_VEC_PREFETCH_(p) \
  __builtin_prefetch(          \
      reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + kVecPrefetchBytes), 0, 3)
namespace {
constexpr uintptr_t kVecPrefetchBytes = 4096;
}  // namespace

// Sleef_<name><w>_<u><isa>, e.g. Sleef_expf16_u10avx512f (the extra level expands the macros).
#define INGOT_VEC_CAT_(name, w, u, isa) Sleef_##name##w##_##u##isa
#define INGOT_VEC_CATX_(name, w, u, isa) INGOT_VEC_CAT_(name, w, u, isa)
#define INGOT_VEC_SLEEF_(name, w, u) INGOT_VEC_CATX_(name, w, u, INGOT_VEC_ISA)

// Whether a lane of the full vectors of p[0, n) has a magnitude outside [lo, hi] (NaN: never; the
// min and max keep their accumulator when a lane is NaN), in a pass of its own before or after the
// vector function's loop, with its minimum and maximum in registers. The function is a call that
// clobbers every vector register, so checked inside that loop each vector cost reloads of the
// bounds and the mask moves: 13-20% over a bare loop of libmvec's tanh or sin on a Zen 4 core, in
// cache, against 5-10% with this pass (bench/RESULTS.md, 2026-12-04 morning).
namespace ingot::vec::INGOT_VEC_NS {
namespace {
#define INGOT_VEC_SCAN_FN_(T, W, S)                                                            \
  inline unsigned outside_scan(const T* p, int64_t n, T lo, T hi) {                            \
    auto mn0 = INGOT_VEC_SET##S(T(1)), mx0 = mn0, mn1 = mn0, mx1 = mn0;                        \
    int64_t k = 0;                                                                             \
    for (; k + 2 * W <= n; k += 2 * W) {                                                       \
      const auto x0 = INGOT_VEC_ABS##S(INGOT_VEC_LOAD##S(p + k));                              \
      const auto x1 = INGOT_VEC_ABS##S(INGOT_VEC_LOAD##S(p + k + W));                          \
      mn0 = INGOT_VEC_MIN##S(x0, mn0);                                                         \
      mx0 = INGOT_VEC_MAX##S(x0, mx0);                                                         \
      mn1 = INGOT_VEC_MIN##S(x1, mn1);                                                         \
      mx1 = INGOT_VEC_MAX##S(x1, mx1);                                                         \
    }                                                                                          \
    if (k + W <= n) {                                                                          \
      const auto x0 = INGOT_VEC_ABS##S(INGOT_VEC_LOAD##S(p + k));                              \
      mn0 = INGOT_VEC_MIN##S(x0, mn0);                                                         \
      mx0 = INGOT_VEC_MAX##S(x0, mx0);                                                         \
    }                                                                                          \
    const auto vlo = INGOT_VEC_SET##S(lo), vhi = INGOT_VEC_SET##S(hi);                         \
    return static_cast<unsigned>(INGOT_VEC_OUTSIDE##S(INGOT_VEC_MIN##S(mn1, mn0), vlo, vhi)) | \
           static_cast<unsigned>(INGOT_VEC_OUTSIDE##S(INGOT_VEC_MAX##S(mx1, mx0), vlo, vhi));  \
  }
INGOT_VEC_SCAN_FN_(float, INGOT_VEC_WF, F)
INGOT_VEC_SCAN_FN_(double, INGOT_VEC_WD, D)
#undef INGOT_VEC_SCAN_FN_
}  // namespace
}  // namespace ingot::vec::INGOT_VEC_NS

// The body of a unary loop over the vector function f, for a function with parameters (out, a, n,
// lo, hi): full vectors straight from and to memory, the last partial vector through a buffer padded
// with 1 (inside every function's range); returns whether any lane was outside [lo, hi].
#define INGOT_VEC_UNARY_BODY_(T, W, f, load, store, set1, outside) \
  const auto vlo = set1(lo), vhi = set1(hi);                       \
  const bool pf = ::ingot::cpu::assisted_memory();                 \
  unsigned any = outside_scan(a, n - n % W, lo, hi);               \
  int64_t i = 0;                                                   \
  for (; i + W <= n; i += W) {                                     \
    if (pf) INGOT_VEC_PREFETCH_(a + i);                            \
    store(out + i, f(load(a + i)));                                \
  }                                                                \
  if (i < n) {                                                     \
    alignas(64) T ta[W];                                           \
    alignas(64) T to[W];                                           \
    for (int k = 0; k < W; ++k) ta[k] = T(1);                      \
    memcpy(ta, a + i, (n - i) * sizeof(T));                        \
    const auto x = load(ta);                                       \
    any |= static_cast<unsigned>(outside(x, vlo, vhi));            \
    store(to, f(x));                                               \
    memcpy(out + i, to, (n - i) * sizeof(T));                      \
  }                                                                \
  return any != 0;
#define INGOT_VEC_UNARY_LOOP_(name, T, W, w, u, load, store, set1, outside) \
  bool name(T* out, const T* a, int64_t n, T lo, T hi) {                    \
    INGOT_VEC_UNARY_BODY_(T, W, INGOT_VEC_SLEEF_(name, w, u), load, store, set1, outside) \
  }
// The binary loop checks its results rather than its inputs, the partial vector padded the same way.
#define INGOT_VEC_BINARY_LOOP_(name, T, W, w, u, load, store, set1, outside)            \
  bool name(T* out, const T* a, const T* b, int64_t n, T lo, T hi) {                    \
    const auto vlo = set1(lo), vhi = set1(hi);                                          \
    const bool pf = ::ingot::cpu::assisted_memory();                                    \
    unsigned any = 0;                                                                   \
    int64_t i = 0;                                                                      \
    for (; i + W <= n; i += W) {                                                        \
      if (pf) {                                                                         \
        INGOT_VEC_PREFETCH_(a + i);                                                     \
        INGOT_VEC_PREFETCH_(b + i);                                                     \
      }                                                                                 \
      store(out + i, INGOT_VEC_SLEEF_(name, w, u)(load(a + i), load(b + i)));           \
    }                                                                                   \
    any |= outside_scan(out, i, lo, hi);                                                \
    if (i < n) {                                                                        \
      alignas(64) T ta[W];                                                              \
      alignas(64) T tb[W];                                                              \
      alignas(64) T to[W];                                                              \
      for (int k = 0; k < W; ++k) ta[k] = tb[k] = T(1); /* a result inside the range */ \
      memcpy(ta, a + i, (n - i) * sizeof(T));                                           \
      memcpy(tb, b + i, (n - i) * sizeof(T));                                           \
      const auto r = INGOT_VEC_SLEEF_(name, w, u)(load(ta), load(tb));                  \
      any |= static_cast<unsigned>(outside(r, vlo, vhi));                               \
      store(to, r);                                                                     \
      memcpy(out + i, to, (n - i) * sizeof(T));                                         \
    }                                                                                   \
    return any != 0;                                                                    \
  }

// SLEEF's accuracy suffix: the 1.0-ULP (u10) versions, except hypot (only a 0.5-ULP u05) and
// float32 atan2 and log (u35, below).
#if defined(INGOT_HAS_SLEEF)
namespace ingot::vec::INGOT_VEC_NS {
// A function's suffix from a table of exceptions: INGOT_VEC_SUFFIX_(INGOT_VEC_UF_, log) is
// INGOT_VEC_UF_log's suffix when that is defined (as "~, u35"), else u10. The probe: a defined
// entry expands to two arguments and shifts u10 out of second place. Tables: UF_ unary float32
// (unary float64 is always u10), BF_ / BD_ binary float32 / float64.
#define INGOT_VEC_SECOND_(a, b, ...) b
#define INGOT_VEC_PICK_(...) INGOT_VEC_SECOND_(__VA_ARGS__, u10, )
#define INGOT_VEC_SUFFIX_(table, name) INGOT_VEC_PICK_(table##name)
// float32 log takes SLEEF's 3.5-ULP version: on AVX-512 (Zen 4 dev box, Xeon GPU host) 2.2-2.6x
// faster in cache than the 1-ULP one (0.29 against 0.62 ns an element; 0.21 against 0.55), which
// was 1.7x slower than NumPy's log one thread against one. Its largest error over every positive
// float32 is 2.85 ULP against float64 (AVX-512 and AVX2); NumPy's own float32 log errs up to 3.83
// ULP on the same machine. The float32 OpInfo bound of log is 3 (bench/RESULTS.md, 2026-12-03).
#define INGOT_VEC_UF_log ~, u35
// float32 atan2 takes SLEEF's 3.5-ULP version: 3x faster than the 1-ULP one, and its largest error
// measured was 2.64 ULP over every float y >= FLT_MIN with x = 1, -1 and 3, and 2.69 ULP over 2e8
// random pairs (AVX-512; AVX2: 2.64, and 2.65 over 1e8), against float64 atan2; the float32 OpInfo
// bound of atan2 is 3.
#define INGOT_VEC_BF_atan2 ~, u35
#define INGOT_VEC_BF_hypot ~, u05
#define INGOT_VEC_BD_hypot ~, u05
#define INGOT_VEC_DECLARE_UNARY_(name)                                                             \
  INGOT_VEC_UNARY_LOOP_(name, float, INGOT_VEC_WF, INGOT_VEC_F,                                    \
                        INGOT_VEC_SUFFIX_(INGOT_VEC_UF_, name), INGOT_VEC_LOADF, INGOT_VEC_STOREF, \
                        INGOT_VEC_SETF, INGOT_VEC_OUTSIDEF)                                        \
  INGOT_VEC_UNARY_LOOP_(name, double, INGOT_VEC_WD, INGOT_VEC_D, u10, INGOT_VEC_LOADD,             \
                        INGOT_VEC_STORED, INGOT_VEC_SETD, INGOT_VEC_OUTSIDED)
#define INGOT_VEC_DECLARE_BINARY_(name)                                           \
  INGOT_VEC_BINARY_LOOP_(name, float, INGOT_VEC_WF, INGOT_VEC_F,                  \
                         INGOT_VEC_SUFFIX_(INGOT_VEC_BF_, name), INGOT_VEC_LOADF, \
                         INGOT_VEC_STOREF, INGOT_VEC_SETF, INGOT_VEC_OUTSIDEF)    \
  INGOT_VEC_BINARY_LOOP_(name, double, INGOT_VEC_WD, INGOT_VEC_D,                 \
                         INGOT_VEC_SUFFIX_(INGOT_VEC_BD_, name), INGOT_VEC_LOADD, \
                         INGOT_VEC_STORED, INGOT_VEC_SETD, INGOT_VEC_OUTSIDED)
#include "kernels/vec_math_list.h"
}  // namespace ingot::vec::INGOT_VEC_NS
#endif  // INGOT_HAS_SLEEF

namespace ingot::vec::INGOT_VEC_NS {
// The unary float loop over a vector function found at run time (glibc's libmvec: vec_math.cpp
// looks it up and passes it as fn).
bool unary_via(const void* fn, float* out, const float* a, int64_t n, float lo, float hi) {
  using V = decltype(INGOT_VEC_LOADF(a));
  const auto f = reinterpret_cast<V (*)(V)>(const_cast<void*>(fn));
  INGOT_VEC_UNARY_BODY_(float, INGOT_VEC_WF, f, INGOT_VEC_LOADF, INGOT_VEC_STOREF, INGOT_VEC_SETF, INGOT_VEC_OUTSIDEF)
}
}  // namespace ingot::vec::INGOT_VEC_NS
