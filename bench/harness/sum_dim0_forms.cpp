// Sum over dim 0 of a 4096x4096 float32 in the loop forms of src/backend/cpu/reduce_loops.h's outer strategy,
// standalone (no ingot): one row at a time (as NumPy's add loop), 4 or 8 rows a pass, groups of 64 or
// 256 rows combined pairwise (with and without the identity fill), groups in a binary counter, and
// software prefetch (prefetcht0/t1/t2, 1 to 16 KiB ahead on each row of a pass).
//   g++ -O3 -march=x86-64-v4 -mprefer-vector-width=512 -ffp-contract=off -o /tmp/sum0 bench/harness/sum_dim0_forms.cpp
//   taskset -c 4 /tmp/sum0 15      # best and median ms of 15 passes each; results: bench/RESULTS.md
// GCC warns that the leftover-rows loop overflows for absurd row counts it cannot rule out.
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
#include <xmmintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
static const long R = 4096, C = 4096;
static const long B = 4096;  // outputs a block (16 KiB)
__attribute__((noinline)) void numpy_like(const float* a, float* out) {
  for (long j = 0; j < C; ++j) out[j] = 0;
  for (long i = 0; i < R; ++i) {
    const float* r = a + i * C;
    for (long j = 0; j < C; ++j) out[j] += r[j];
  }
}
template <int K>
static inline __attribute__((always_inline)) void rows_k(const float* a, long r0, long r1, float* acc) {
  long r = r0;
  for (; r + K <= r1; r += K) {
    const float* q = a + r * C;
    for (long j = 0; j < B; ++j) {
      float v = acc[j];
      for (int k = 0; k < K; ++k) v += q[k * C + j];
      acc[j] = v;
    }
  }
  for (; r < r1; ++r) {  // rows left over (none in the forms timed: R is a multiple of every K)
    const float* q = a + r * C;
    for (long j = 0; j < B; ++j) acc[j] += q[j];
  }
}
template <int K>
__attribute__((noinline)) void flat_k(const float* a, float* out) {
  for (long j = 0; j < C; ++j) out[j] = 0;
  rows_k<K>(a, 0, R, out);
}
// 8 rows a pass, each row prefetched D bytes ahead with hint H (one prefetch a cache line a row).
template <int K, int D, int H>
__attribute__((noinline)) void flat_pf(const float* a, float* out) {
  for (long j = 0; j < C; ++j) out[j] = 0;
  for (long r = 0; r + K <= R; r += K) {
    const float* q = a + r * C;
    for (long j0 = 0; j0 < B; j0 += 16) {
      for (int k = 0; k < K; ++k) {
        const char* p = reinterpret_cast<const char*>(q + k * C + j0) + D;
        if (H == 1) _mm_prefetch(p, _MM_HINT_T1); else if (H == 2) _mm_prefetch(p, _MM_HINT_T2); else _mm_prefetch(p, _MM_HINT_T0);
      }
      for (long j = j0; j < j0 + 16; ++j) {
        float v = out[j];
        for (int k = 0; k < K; ++k) v += q[k * C + j];
        out[j] = v;
      }
    }
  }
}
// Groups written, not accumulated: the first K rows of a group store into a fresh block (no fill).
template <int K>
static inline __attribute__((always_inline)) void rows_first(const float* a, long r0, long r1, float* acc) {
  const float* q = a + r0 * C;
  for (long j = 0; j < B; ++j) {
    float v = q[j];
    for (int k = 1; k < K; ++k) v += q[k * C + j];
    acc[j] = v;
  }
  rows_k<K>(a, r0 + K, r1, acc);
}
// Groups of G rows combined pairwise, each right half into a fresh block: identity-filled then
// accumulated (Fill, ingot's form), or written by the group's first K rows (no fill).
template <int K, int G, bool Fill>
static void cols(const float* a, long r0, long r1, float* acc) {
  if (r1 - r0 <= G) {
    if (Fill) rows_k<K>(a, r0, r1, acc); else rows_first<K>(a, r0, r1, acc);
    return;
  }
  long mid = r0 + (r1 - r0) / 2;
  cols<K, G, Fill>(a, r0, mid, acc);
  float right[B];
  if (Fill) for (long j = 0; j < B; ++j) right[j] = 0;
  cols<K, G, Fill>(a, mid, r1, right);
  for (long j = 0; j < B; ++j) acc[j] += right[j];
}
template <int K, int G>
__attribute__((noinline)) void ingot_like(const float* a, float* out) {
  for (long j = 0; j < C; ++j) out[j] = 0;
  cols<K, G, true>(a, 0, R, out);
}
template <int K, int G>
__attribute__((noinline)) void nofill(const float* a, float* out) { cols<K, G, false>(a, 0, R, out); }
// Groups in a loop with a counter stack of blocks (binary counter), no recursion.
template <int K, int G>
__attribute__((noinline)) void counter(const float* a, float* out) {
  static float stack[16][B];
  int depth = 0;
  long ngroups = R / G;
  for (long g = 0; g < ngroups; ++g) {
    rows_first<K>(a, g * G, (g + 1) * G, stack[depth]);
    ++depth;
    for (long m = g + 1; (m & 1) == 0; m >>= 1) {
      float* x = stack[depth - 2]; const float* y = stack[depth - 1];
      for (long j = 0; j < B; ++j) x[j] += y[j];
      --depth;
    }
  }
  std::memcpy(out, stack[0], B * 4);
}
__attribute__((noinline)) void copy(const float* a, float* out) { std::memcpy(out, a, R * C * 4); }
int main(int argc, char** argv) {
  long n = R * C;
  float* a = (float*)aligned_alloc(2 << 20, n * 4);
  float* cp = (float*)aligned_alloc(2 << 20, n * 4);
  for (long i = 0; i < n; ++i) a[i] = (float)((i * 2654435761u) % 1000) * 0.001f;
  std::vector<float> out(C);
  using F = void (*)(const float*, float*);
  struct V { const char* name; F f; } vs[] = {
    {"numpy-like 1 row", numpy_like}, {"flat 4 rows", flat_k<4>}, {"flat 8 rows", flat_k<8>},
    {"ingot 4x64", ingot_like<4, 64>}, {"ingot 4x256", ingot_like<4, 256>}, {"nofill 4x64", nofill<4, 64>},
    {"counter 4x64", counter<4, 64>}, {"counter 8x64", counter<8, 64>},
    {"8 rows t0 1K", flat_pf<8, 1024, 0>}, {"8 rows t0 4K", flat_pf<8, 4096, 0>},
    {"8 rows t1 4K", flat_pf<8, 4096, 1>}, {"8 rows t1 8K", flat_pf<8, 8192, 1>},
    {"8 rows t1 16K", flat_pf<8, 16384, 1>}, {"8 rows t2 8K", flat_pf<8, 8192, 2>},
    {"4 rows t1 8K", flat_pf<4, 8192, 1>}, {"16 rows t1 8K", flat_pf<16, 8192, 1>}};
  const int nv = sizeof(vs) / sizeof(vs[0]);
  int reps = argc > 1 ? atoi(argv[1]) : 21;
  std::vector<std::vector<double>> t(nv + 1);
  for (int rep = 0; rep < reps; ++rep) {
    for (int v = 0; v < nv; ++v) {
      auto t0 = std::chrono::steady_clock::now();
      vs[v].f(a, out.data());
      t[v].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    auto t0 = std::chrono::steady_clock::now();
    copy(a, cp);
    t[nv].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  for (int v = 0; v <= nv; ++v) {
    std::sort(t[v].begin(), t[v].end());
    printf("%-18s best %.3f ms  median %.3f ms  (%.1f GB/s read)\n", v < nv ? vs[v].name : "memcpy", t[v][0],
           t[v][t[v].size() / 2], n * 4 / t[v][t[v].size() / 2] / 1e6);
  }
}
