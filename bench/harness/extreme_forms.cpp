// Loop forms of the one-thread cases that sit near NumPy on the H200 host's Xeon (bench/RESULTS.md,
// 2026-12-04): argmax over a 16M-element float32 row, and a float32 sum over dim 0 of 4096x4096,
// as a shared library that bench/harness/extreme_forms.py times beside NumPy in one process.
//  * argmax_cur / argmax_nopf / amax_cur: ingot's own loops (reduce_simd.h) under the assisted
//    memory policy, and without its software prefetch.
//  * argmax_u<U>[add][lanes]: 16*U elements an iteration (fewer loop instructions a byte); "add"
//    takes the NaN flag from (x0 + x1) != itself, one compare for two vectors (a +inf and a -inf in
//    one lane give a false alarm, which costs a search of the chunk, not a wrong answer); "lanes"
//    keeps the first chunk of each lane's maximum in an integer vector, so no chunk is reduced
//    across its lanes until the end.
//  * sum0_cur: ingot's outer-dim form under the assisted policy (groups of 64 rows, one row a
//    pass, each right half identity-filled and combined pairwise); sum0_nofill writes a group's
//    first row instead of filling; sum0_counter keeps the groups in a binary counter and adds the
//    carries in the pass of a group's last row (the same bits as sum0_cur when the group count is a
//    power of two); sum0_onerow is NumPy's form.
//   g++ -O3 -std=c++20 -march=x86-64-v4 -ffp-contract=off -fPIC -shared -Isrc
//       -o /tmp/forms.so bench/harness/extreme_forms.cpp
//   taskset -c 4 python3 bench/harness/extreme_forms.py /tmp/forms.so 3
#include <algorithm>
#include <cstring>

#include "backend/cpu/reduce_simd.h"

using namespace ingot::cpu::simd;
typedef float vt __attribute__((vector_size(32)));
typedef int it __attribute__((vector_size(32)));
#define AI inline __attribute__((always_inline))
static AI void ld(vt& v, const float* p) { std::memcpy(&v, p, 32); }
static AI float hmax(vt x) { return LaneExtreme<1, float>::lanes_value(x); }
extern "C" long argmax_cur(const float* q, long n) {
  float v;
  int64_t i;
  row_arg_extreme<1, true, 1>(q, n, -__builtin_inff(), v, i);
  return i;
}
extern "C" long argmax_nopf(const float* q, long n) {
  float v;
  int64_t i;
  row_arg_extreme<1, false, 1>(q, n, -__builtin_inff(), v, i);
  return i;
}
extern "C" float amax_cur(const float* q, long n) {
  float v = 0;  // row_extreme leaves it for a zero maximum (never, on the probe's data)
  row_extreme<1, true, 1>(q, n, -__builtin_inff(), v);
  return v;
}
// U: 16-element steps an iteration; NanAdd: the NaN flag from (x0 + x1) != itself; Lanes: the
// first chunk of each lane's maximum in an integer vector. n a multiple of kChunk.
template <int U, bool NanAdd, bool Lanes, bool Pf>
static AI long argmax_v(const float* q, long n) {
  const vt ninf = vt{} - __builtin_inff();
  vt best = ninf;
  it at = it{};
  float bs = -__builtin_inff();
  long ats = 0;
  bool have = false;
  for (long c = 0; c < n; c += kChunk) {
    vt m0 = ninf, m1 = ninf;
    it nan = it{};
    for (long i = c; i < c + kChunk; i += 16 * U) {
      for (int u = 0; u < U; ++u) {
        const float* p = q + i + 16 * u;
        if (Pf) __builtin_prefetch(reinterpret_cast<const char*>(p) + 4096);
        vt x0, x1;
        ld(x0, p);
        ld(x1, p + 8);
        m0 = m0 > x0 ? m0 : x0;
        m1 = m1 > x1 ? m1 : x1;
        if (NanAdd) {
          const vt s = x0 + x1;
          nan |= s != s;
        } else {
          nan |= (x0 != x0) | (x1 != x1);
        }
      }
    }
    if (any_lane(nan)) {
      long k = find16<true>(q + c, kChunk, 0.f);
      if (k < kChunk) return c + k;
    }
    m0 = m0 > m1 ? m0 : m1;
    if (Lanes) {
      const it gt = m0 > best;
      best = gt ? m0 : best;
      at = gt ? (it{} + (int)(c / kChunk)) : at;
    } else {
      const float m = hmax(m0);
      const bool better = !have || m > bs;
      bs = better ? m : bs;
      ats = better ? c : ats;
      have = true;
    }
  }
  if (Lanes) {
    bs = hmax(best);
    int ch = 0x7fffffff;
    for (int l = 0; l < 8; ++l) {
      if (best[l] == bs) ch = std::min(ch, at[l]);
    }
    ats = (long)ch * kChunk;
  }
  return ats + find16<false>(q + ats, kChunk, bs);
}
extern "C" long argmax_u1(const float* q, long n) { return argmax_v<1, false, false, true>(q, n); }
extern "C" long argmax_u2(const float* q, long n) { return argmax_v<2, false, false, true>(q, n); }
extern "C" long argmax_u2add(const float* q, long n) { return argmax_v<2, true, false, true>(q, n); }
extern "C" long argmax_u2lanes(const float* q, long n) { return argmax_v<2, false, true, true>(q, n); }
extern "C" long argmax_u2addlanes(const float* q, long n) { return argmax_v<2, true, true, true>(q, n); }
extern "C" long argmax_u2addlanes_nopf(const float* q, long n) { return argmax_v<2, true, true, false>(q, n); }
extern "C" long argmax_u1addlanes(const float* q, long n) { return argmax_v<1, true, true, true>(q, n); }

// ---- sum over dim 0 (R rows of C, C == B), one row a pass
static const long B = 4096;
static AI void rows1(const float* a, long C, long r0, long r1, float* acc) {
  for (long r = r0; r < r1; ++r) {
    const float* q = a + r * C;
#pragma GCC ivdep
    for (long j = 0; j < B; ++j) acc[j] += q[j];
  }
}
static AI void rows1_first(const float* a, long C, long r0, long r1, float* acc) {
  const float* q = a + r0 * C;
  for (long j = 0; j < B; ++j) acc[j] = q[j];
  rows1(a, C, r0 + 1, r1, acc);
}
template <bool Fill>
static void cols(const float* a, long C, long r0, long r1, float* acc) {
  if (r1 - r0 <= 64) { if (Fill) rows1(a, C, r0, r1, acc); else rows1_first(a, C, r0, r1, acc); return; }
  long mid = r0 + (r1 - r0) / 2;
  cols<Fill>(a, C, r0, mid, acc);
  float right[B];
  if (Fill) for (long j = 0; j < B; ++j) right[j] = 0;
  cols<Fill>(a, C, mid, r1, right);
  for (long j = 0; j < B; ++j) acc[j] += right[j];
}
extern "C" void sum0_onerow(const float* a, float* out, long R, long C) { rows1_first(a, C, 0, R, out); }
extern "C" void sum0_cur(const float* a, float* out, long R, long C) { for (long j = 0; j < B; ++j) out[j] = 0; cols<true>(a, C, 0, R, out); }
extern "C" void sum0_nofill(const float* a, float* out, long R, long C) { cols<false>(a, C, 0, R, out); }
// Binary counter of groups; the group's last row fused with the carries.
extern "C" void sum0_counter(const float* a, float* out, long R, long C) {
  static float stack[40][B];
  int depth = 0;
  const long G = 64, ng = R / G;
  for (long g = 0; g < ng; ++g) {
    float* s = stack[depth];
    rows1_first(a, C, g * G, (g + 1) * G - 1, s);
    const float* last = a + ((g + 1) * G - 1) * C;
    int carries = 0;
    for (long m = g + 1; (m & 1) == 0; m >>= 1) ++carries;
    if (carries == 0) {
      for (long j = 0; j < B; ++j) s[j] += last[j];
      ++depth;
    } else {
      for (long j = 0; j < B; ++j) {
        float v = s[j] + last[j];
        for (int k = 1; k <= carries; ++k) v = stack[depth - k][j] + v;
        stack[depth - carries][j] = v;
      }
      depth -= carries - 1;
    }
  }
  std::memcpy(out, stack[0], B * 4);
}
