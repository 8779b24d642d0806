// CPU-only fast paths for max/min and argmax/argmin over contiguous data, chosen by reduce_loops.h
// when the functor declares `static constexpr int plain_extreme = +1` (max) or `-1` (min) and the
// element type is a plain arithmetic type (not bool, not float16/bfloat16: those take the generic
// cascade). GCC vector extensions, 16 elements a step in vectors of at most 32 bytes (SSE2 runs
// one as two, the AVX2/AVX-512 clones of reduce_loops.h's callers as one), rather than relying on
// the auto-vectorizer, which does not vectorize the NaN-propagating select of the functors. The
// functions are always inlined, so each ISA clone of the caller gets its own copy.
//  * max over a row: 16 lanes of plain compare-select (vector max) plus a NaN flag (x != x) per
//    lane; a row with a NaN gives its first NaN. A maximum is unique as a value except for a zero
//    (-0.0 == +0.0), and for that case the caller takes the generic cascade, so results stay
//    bit-identical to it.
//  * argmax over a row: chunks of kChunk elements; the vector max of each chunk, the first chunk
//    holding the row's maximum remembered, and one vector search in it at the end for the first
//    occurrence (or, at once, in a chunk holding a NaN). Searching each chunk that beat the best
//    so far read ~2.7 of 8 chunks again on random 4096-element rows. The result (first index of
//    the maximum, first NaN wins) does not depend on the chunking.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ingot::cpu::simd {

template <typename M>
constexpr bool vectorizable = std::is_arithmetic_v<M> && !std::is_same_v<M, bool>;

#define INGOT_SIMD_INLINE inline __attribute__((always_inline))

// Vectors of Bytes bytes; 16 elements by default. find16 keeps 16-byte ones: it tests "any lane
// set" per step, one lane at a time, and 16 lanes a step measured 2x slower on argmax rows.
template <typename M, int Bytes = 16 * static_cast<int>(sizeof(M))>
struct Vec {
  typedef M type __attribute__((vector_size(Bytes)));
  static constexpr int kLanes = Bytes / static_cast<int>(sizeof(M));
  static constexpr int kVecs = 16 / kLanes;  // vectors per 16 elements
  // Through a reference: a function returning a vector wider than the baseline's registers would
  // change the ABI (-Wpsabi).
  static INGOT_SIMD_INLINE void load(type& v, const M* p) { std::memcpy(&v, p, sizeof(v)); }
};

template <int Dir, typename M>
INGOT_SIMD_INLINE M pick(M a, M b) {  // the functors' select when neither is NaN: a on ties
  return (Dir > 0 ? a > b : a < b) ? a : b;
}

// At most 32 bytes a vector: wider GCC vectors of compare-selects (64 bytes for float, 128 for
// double) compiled to lane-by-lane code with GCC 12 and 13 (float64 max over rows at 0.2x NumPy).
template <typename M>
using Vec32 = Vec<M, (16 * sizeof(M) < 32 ? 16 * static_cast<int>(sizeof(M)) : 32)>;

// Max (Dir > 0) or min of q[0, n), n a multiple of 16, lanes combined as reduce_loops' full_leaf;
// sets has_nan when any element is NaN (the value is then meaningless).
template <int Dir, typename M>
INGOT_SIMD_INLINE M extreme16(const M* q, int64_t n, M init, bool& has_nan) {
  using V = Vec32<M>;
  using vt = typename V::type;
  using mt = decltype(vt{} != vt{});
  vt m[V::kVecs];
  mt f[V::kVecs];
  for (int v = 0; v < V::kVecs; ++v) {
    m[v] = vt{} + init;
    f[v] = mt{};
  }
  for (int64_t i = 0; i < n; i += 16) {
    // 4 KiB ahead: without it one long row read ~25% below NumPy's speed (hardware prefetch alone)
    __builtin_prefetch(reinterpret_cast<const char*>(q + i) + 4096);
    for (int v = 0; v < V::kVecs; ++v) {
      vt x;
      V::load(x, q + i + v * V::kLanes);
      m[v] = (Dir > 0 ? m[v] > x : m[v] < x) ? m[v] : x;
      if constexpr (std::is_floating_point_v<M>) f[v] |= (x != x);
    }
  }
  M acc[16];
  std::memcpy(acc, m, sizeof(acc));
  if constexpr (std::is_floating_point_v<M>) {
    mt any = f[0];
    for (int v = 1; v < V::kVecs; ++v) any |= f[v];
    bool hit = false;
    for (int l = 0; l < V::kLanes; ++l) hit = hit || any[l] != 0;
    has_nan = hit;
  } else {
    has_nan = false;
  }
  for (int k = 0; k < 8; ++k) acc[k] = pick<Dir>(acc[k], acc[k + 8]);
  for (int k = 0; k < 4; ++k) acc[k] = pick<Dir>(acc[k], acc[k + 4]);
  return pick<Dir>(pick<Dir>(acc[0], acc[2]), pick<Dir>(acc[1], acc[3]));
}

// The first i in [0, n) (n a multiple of 16) with q[i] == v, or with q[i] NaN when Nan; n if none.
template <bool Nan, typename M>
INGOT_SIMD_INLINE int64_t find16(const M* q, int64_t n, M val) {
  using V = Vec<M, 16>;
  using vt = typename V::type;
  using mt = decltype(vt{} != vt{});
  for (int64_t i = 0; i < n; i += 16) {
    mt hit = mt{};
    for (int v = 0; v < V::kVecs; ++v) {
      vt x;
      V::load(x, q + i + v * V::kLanes);
      hit |= Nan ? (x != x) : (x == val);
    }
    bool any = false;
    for (int l = 0; l < V::kLanes; ++l) any = any || hit[l] != 0;
    if (any) {
      for (int64_t k = i;; ++k) {
        if (Nan ? q[k] != q[k] : q[k] == val) return k;
      }
    }
  }
  return n;
}

// Max (Dir > 0) or min of the row q[0, n), n >= 1: the first NaN if there is one. Returns false,
// leaving value unset, when the extreme is a zero of a floating type: which of -0.0 and +0.0 the
// generic cascade returns depends on its grouping, so the caller takes the generic path then.
template <int Dir, typename M>
INGOT_SIMD_INLINE bool row_extreme(const M* q, int64_t n, M init, M& value) {
  const int64_t n16 = n / 16 * 16;
  M m = init;
  // In chunks, as row_arg_extreme: one pass over a 16M-element row measured ~25% slower.
  constexpr int64_t kChunk = 512;
  for (int64_t c = 0; c < n16; c += kChunk) {
    const int64_t len = n16 - c < kChunk ? n16 - c : kChunk;
    bool has_nan = false;
    const M mc = extreme16<Dir>(q + c, len, init, has_nan);
    if constexpr (std::is_floating_point_v<M>) {
      if (has_nan) {
        value = q[c + find16<true>(q + c, len, mc)];
        return true;
      }
    }
    m = pick<Dir>(m, mc);
  }
  for (int64_t i = n16; i < n; ++i) {
    const M x = q[i];
    if (x != x) {
      value = x;
      return true;
    }
    m = pick<Dir>(m, x);
  }
  if constexpr (std::is_floating_point_v<M>) {
    if (m == M(0)) return false;
  }
  value = m;
  return true;
}

// {value, index} of the first maximum (Dir > 0) or minimum of the row q[0, n), n >= 1; the first
// NaN if there is one. Index is relative to q.
template <int Dir, typename M>
INGOT_SIMD_INLINE void row_arg_extreme(const M* q, int64_t n, M init, M& value, int64_t& index) {
  constexpr int64_t kChunk = 512;  // 4096 measured ~5% slower on 4096-element rows (longer searches)
  const int64_t n16 = n / 16 * 16;
  bool have = false;
  M best = init;
  int64_t at = 0;
  for (int64_t c = 0; c < n16; c += kChunk) {
    const int64_t len = n16 - c < kChunk ? n16 - c : kChunk;
    bool has_nan = false;
    const M m = extreme16<Dir>(q + c, len, init, has_nan);
    if constexpr (std::is_floating_point_v<M>) {
      if (has_nan) {
        const int64_t i = c + find16<true>(q + c, len, m);
        value = q[i];
        index = i;
        return;
      }
    }
    if (!have || (Dir > 0 ? m > best : m < best)) {
      best = m;
      at = c;  // the search waits until the last chunk that improves is known
      have = true;
    }
  }
  if (have) {
    const int64_t len = n16 - at < kChunk ? n16 - at : kChunk;
    at += find16<false>(q + at, len, best);
    best = q[at];  // the first element equal to the maximum: a first -0.0 or +0.0 keeps its sign
  }
  for (int64_t i = n16; i < n; ++i) {  // tail, scalar, with the functors' rules
    const M x = q[i];
    if (x != x) {
      value = x;
      index = i;
      return;
    }
    if (!have || (Dir > 0 ? x > best : x < best)) {
      best = x;
      at = i;
      have = true;
    }
  }
  value = best;
  index = at;
}

// Max (Dir > 0) or min of R rows into acc[0, nj) element-wise, rows in order: the outer strategy's
// inner loop. Each lane applies the functors' rule (a NaN accumulator stays; else a NaN element
// wins; ties keep the element), so results are bit-identical to the scalar loop; in explicit
// vectors because whether the auto-vectorizer takes that select differs between GCC versions and
// flags. 32-byte vectors: with GCC 12, 64-byte ones turned the selects into lane-by-lane inserts
// (a 4096x4096 float32 max over dim 0: 19 ms against 2.9 ms with 32-byte ones, 3.3 ms for the
// auto-vectorized scalar loop at -O3 and 11.8 ms at -O2, where it is not vectorized).
template <int Dir, int R, typename M>
INGOT_SIMD_INLINE void accumulate_extreme_rows(M* acc, const M* const* q, int64_t nj) {
  using V = Vec32<M>;
  using vt = typename V::type;
  // One lane's rule, for a vector of lanes and for the scalar tail alike (by reference: a
  // 32-byte vector passed by value trips GCC's ABI warning in the baseline build).
  auto step = [](auto& a, const auto& x) {
    const auto better = (Dir > 0 ? a > x : a < x) ? a : x;
    if constexpr (std::is_floating_point_v<M>) {
      a = a != a ? a : better;
    } else {
      a = better;
    }
  };
  int64_t j = 0;
  for (; j + V::kLanes <= nj; j += V::kLanes) {
    vt a;
    V::load(a, acc + j);
    for (int r = 0; r < R; ++r) {
      vt x;
      V::load(x, q[r] + j);
      step(a, x);
    }
    std::memcpy(acc + j, &a, sizeof(a));
  }
  for (; j < nj; ++j) {
    M a = acc[j];
    for (int r = 0; r < R; ++r) step(a, q[r][j]);
    acc[j] = a;
  }
}

}  // namespace ingot::cpu::simd

#undef INGOT_SIMD_INLINE
