// CPU-only fast paths for max/min and argmax/argmin over contiguous data, chosen by reduce_loops.h
// when the functor declares `static constexpr int plain_extreme = +1` (max) or `-1` (min) and the
// element type is a plain arithmetic type (not bool, not float16/bfloat16: those take the generic
// cascade). GCC vector extensions, 16 elements a step in vectors of at most 32 bytes (SSE2 runs
// one as two, the AVX2/AVX-512 clones of reduce_loops.h's callers as one), rather than relying on
// the auto-vectorizer, which does not vectorize the NaN-propagating select of the functors. The
// functions are always inlined, so each ISA clone of the caller gets its own copy.
//  * max over a row: 16 lanes of plain compare-select (vector max) plus a NaN flag (x != x) per
//    lane, in chunks whose lanes are folded into the row's; a row with a NaN gives its first NaN. A
//    maximum is unique as a value except for a zero (-0.0 == +0.0), and for that case the caller
//    takes the generic cascade, so results stay bit-identical to it.
//  * argmax over a row: chunks of kChunk elements; the lane-wise max of each chunk, compared with
//    the lane-wise max of the chunks before it (the lanes are combined only when one of them
//    beats it), the first chunk holding the row's maximum remembered, and one vector search in it
//    at the end for the first occurrence (or, at once, in a chunk holding a NaN). Searching each
//    chunk that beat the best so far read ~2.7 of 8 chunks again on random 4096-element rows. The
//    result (first index of the maximum, first NaN wins) does not depend on the chunking.
//  * Both take `prefetch` (memory_policy.h): software prefetch 4 KiB ahead or none.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ingot::cpu::simd {

template <typename M>
constexpr bool vectorizable = std::is_arithmetic_v<M> && !std::is_same_v<M, bool>;

#define INGOT_SIMD_INLINE inline __attribute__((always_inline))
#define INGOT_SIMD_INLINE_LAMBDA __attribute__((always_inline))

// Under the plain memory policy (no software prefetch, memory_policy.h), rows of at least
// kStreamMin elements are read as kPlainParts parts at once (StreamLanes here; the sums' cascade in
// reduce_loops.h): more sequential streams for the hardware prefetchers. On the Zen 4 dev box a
// 16M-element float32 argmax took 1.81 ms against 1.90 in one row (NumPy 1.94), amax 1.82 against
// 1.92; a bare C++ max read the 64 MiB in 1.76-1.83 ms as four parts against 1.95-2.35 as one; on
// the Zen 3 dev box (AVX2) 2.6-2.7 ms against 3.6-3.7 (2026-12-04). On the H200 host's Xeon
// (assisted policy) the part count made no difference, so the assisted loops keep one.
constexpr int64_t kStreamMin = int64_t{1} << 16;
constexpr int kPlainParts = 4;
static_assert(kStreamMin / kPlainParts >= 512, "every part of a row read in parts holds a 512-element chunk");
// Under the plain policy too, many shorter rows (kRowsMin to kStreamMin elements) are read
// kRowsTogether at a time, one stream each (rows_extreme, rows_arg_extreme here; the sums'
// cascade_rows in reduce_loops.h).
constexpr int64_t kRowsMin = 1024;
constexpr int kRowsTogether = 4;
// Elements a chunk of the max/argmax loops (argmax with 4096 measured ~5% slower on 4096-element
// rows: longer searches).
constexpr int64_t kChunk = 512;

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

// Whether any lane of a vector mask (or vector) is nonzero: OR-ed as 64-bit words, which every
// clone compiles to a few instructions (a loop over the lanes extracted them one at a time).
template <typename T>
INGOT_SIMD_INLINE bool any_lane(const T& mask) {
  static_assert(sizeof(T) % 8 == 0);
  uint64_t w[sizeof(T) / 8];
  std::memcpy(w, &mask, sizeof(T));
  uint64_t a = 0;
  for (size_t k = 0; k < sizeof(T) / 8; ++k) a |= w[k];
  return a != 0;
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
    if (any_lane(hit)) {
      for (int64_t k = i;; ++k) {
        if (Nan ? q[k] != q[k] : q[k] == val) return k;
      }
    }
  }
  return n;
}

// Lane-wise max (Dir > 0) or min over 16 elements a step, kept in vectors across calls of run(),
// with a NaN flag per lane; value() combines the lanes (any order gives the same value: an extreme
// other than a zero is unique as a value, and callers handle zeros).
template <int Dir, typename M>
struct LaneExtreme {
  using V = Vec32<M>;
  using vt = typename V::type;
  using mt = decltype(vt{} != vt{});
  vt m[V::kVecs];
  mt nan[V::kVecs];

  // The broadcast goes through memory: `vt{} + init` made GCC 12 warn, in the baseline clone of
  // 8-byte elements (a 32-byte vector split in two), that the member is read before it is set.
  explicit INGOT_SIMD_INLINE LaneExtreme(M init) {
    M lanes[V::kLanes];
    for (int l = 0; l < V::kLanes; ++l) lanes[l] = init;
    for (int v = 0; v < V::kVecs; ++v) {
      std::memcpy(&m[v], lanes, sizeof(lanes));
      nan[v] = mt{};
    }
  }
  // q[0, n), n a multiple of 16. Prefetch: 4 KiB ahead (memory_policy.h).
  template <bool Prefetch>
  INGOT_SIMD_INLINE void run(const M* q, int64_t n) {
    for (int64_t i = 0; i < n; i += 16) {
      if constexpr (Prefetch) __builtin_prefetch(reinterpret_cast<const char*>(q + i) + 4096);
      for (int v = 0; v < V::kVecs; ++v) {
        vt x;
        V::load(x, q + i + v * V::kLanes);
        lanes_pick(m[v], x);
        if constexpr (std::is_floating_point_v<M>) nan[v] |= (x != x);
      }
    }
  }
  // The lanes of every vector into m[0] and nan[0].
  INGOT_SIMD_INLINE void fold() {
    for (int v = 1; v < V::kVecs; ++v) {
      lanes_pick(m[0], m[v]);
      nan[0] |= nan[v];
    }
  }
  // After fold(): whether any element was NaN (the lanes' values are then meaningless).
  INGOT_SIMD_INLINE bool has_nan() const {
    if constexpr (std::is_floating_point_v<M>) {
      return any_lane(nan[0]);
    } else {
      return false;
    }
  }
  // The extreme of a vector's lanes, halves picked against each other (a few shuffles and selects;
  // a loop over the lanes was a chain of kLanes dependent selects).
  template <int B>
  static INGOT_SIMD_INLINE M halves_value(const typename Vec<M, B>::type& x) {
    if constexpr (B == static_cast<int>(sizeof(M))) {
      return x[0];
    } else {
      using H = typename Vec<M, B / 2>::type;
      H lo, hi;
      std::memcpy(&lo, &x, B / 2);
      std::memcpy(&hi, reinterpret_cast<const char*>(&x) + B / 2, B / 2);
      lo = (Dir > 0 ? lo > hi : lo < hi) ? lo : hi;
      return halves_value<B / 2>(lo);
    }
  }
  static INGOT_SIMD_INLINE M lanes_value(const vt& x) { return halves_value<static_cast<int>(sizeof(vt))>(x); }
  // After fold(): the extreme of m[0]'s lanes.
  INGOT_SIMD_INLINE M value() const { return lanes_value(m[0]); }
  // x = the lane-wise extreme of x and y (a lane where y is NaN takes y: the NaN flags track
  // those); in place: a 32-byte vector returned by value trips GCC's ABI warning in the baseline
  // build.
  static INGOT_SIMD_INLINE void lanes_pick(vt& x, const vt& y) {
    x = (Dir > 0 ? x > y : x < y) ? x : y;
  }
  // A chunk q[0, len) (len a multiple of 16) into fresh lanes, folded: the index of its first NaN,
  // or len when it has none.
  template <bool Prefetch>
  INGOT_SIMD_INLINE int64_t scan(const M* q, int64_t len) {
    run<Prefetch>(q, len);
    fold();
    return has_nan() ? find16<true>(q, len, M()) : len;
  }
};

// S runs of memory read in one loop, run k from p[k] (the parts of a long row, or S rows): S
// sequential streams for the hardware prefetchers rather than one. Lane-wise extremes per run; one
// NaN flag for all runs (a NaN anywhere sends the caller to search each run from its start).
template <int Dir, int S, typename M>
struct StreamLanes {
  using E = LaneExtreme<Dir, M>;
  using V = typename E::V;
  using vt = typename E::vt;
  using mt = typename E::mt;
  vt m[S][V::kVecs];
  mt nan[V::kVecs];
  vt init_lanes;

  explicit INGOT_SIMD_INLINE StreamLanes(M init) : init_lanes(E(init).m[0]) {}
  // Elements [off, off + len) of every run (len a multiple of 16); whether any of them was NaN.
  INGOT_SIMD_INLINE bool scan(const M* const* p, int64_t off, int64_t len) {
    for (int k = 0; k < S; ++k) {
      for (int v = 0; v < V::kVecs; ++v) m[k][v] = init_lanes;
    }
    for (int v = 0; v < V::kVecs; ++v) nan[v] = mt{};
    for (int64_t i = off; i < off + len; i += 16) {
      for (int k = 0; k < S; ++k) {
        for (int v = 0; v < V::kVecs; ++v) {
          vt x;
          V::load(x, p[k] + i + v * V::kLanes);
          E::lanes_pick(m[k][v], x);
          if constexpr (std::is_floating_point_v<M>) nan[v] |= (x != x);
        }
      }
    }
    if constexpr (std::is_floating_point_v<M>) {
      for (int v = 1; v < V::kVecs; ++v) nan[0] |= nan[v];
      return any_lane(nan[0]);
    } else {
      return false;
    }
  }
  // Part k's lanes of the last chunk, folded into one vector.
  INGOT_SIMD_INLINE void folded(int k, vt& out) const {
    out = m[k][0];
    for (int v = 1; v < V::kVecs; ++v) E::lanes_pick(out, m[k][v]);
  }
  // Elements [0, n) of every run (n a multiple of 16), in chunks of kChunk: lanes[k] becomes the
  // lane-wise extreme of run k (starting from lanes[k]). False at the first chunk holding a NaN,
  // in any run (the caller searches then).
  INGOT_SIMD_INLINE bool extreme_chunks(const M* const* p, int64_t n, vt* lanes) {
    return chunks(p, n, [&](int k, int64_t, const vt& f) INGOT_SIMD_INLINE_LAMBDA { E::lanes_pick(lanes[k], f); });
  }
  // The same for argmax: best[k] becomes run k's extreme and at[k] the offset of its first chunk
  // holding it. A later chunk is taken only when strictly better, without a branch on the data:
  // whether a chunk improves is a coin toss early in a row, and the mispredictions cost argmax over
  // 4096-element rows ~3% on the Zen 4 dev box (2026-12-04).
  INGOT_SIMD_INLINE bool arg_chunks(const M* const* p, int64_t n, M* best, int64_t* at) {
    return chunks(p, n, [&](int k, int64_t c, const vt& f) INGOT_SIMD_INLINE_LAMBDA {
      const M x = E::lanes_value(f);
      const bool better = c == 0 || (Dir > 0 ? x > best[k] : x < best[k]);
      best[k] = better ? x : best[k];
      at[k] = better ? c : at[k];
    });
  }

 private:
  template <typename Take>
  INGOT_SIMD_INLINE bool chunks(const M* const* p, int64_t n, Take take) {
    for (int64_t c = 0; c < n; c += kChunk) {
      if (scan(p, c, n - c < kChunk ? n - c : kChunk)) return false;
      for (int k = 0; k < S; ++k) {
        vt f;
        folded(k, f);
        take(k, c, f);
      }
    }
    return true;
  }
};

// Max (Dir > 0) or min of the row q[0, n), n >= 1: the first NaN if there is one. Returns false,
// leaving value unset, when the extreme is a zero of a floating type: which of -0.0 and +0.0 the
// generic cascade returns depends on its grouping, so the caller takes the generic path then.
// In chunks of kChunk elements, as row_arg_extreme: each chunk's lanes start afresh and are then
// folded into the row's lanes (a vector select; the lanes are combined once, at the end), and a
// chunk with a NaN is searched for its first one. A single pass with one set of accumulators over
// a 16M-element row ran at 0.90x NumPy's max on the H200 host's Xeon where argmax's chunked loop
// ran at 1.27-1.34x (2026-12-04); on the Zen 4 dev box the two forms ran alike.
template <int Dir, bool Prefetch, int S, typename M>
INGOT_SIMD_INLINE bool row_extreme(const M* q, int64_t n, M init, M& value) {
  using E = LaneExtreme<Dir, M>;
  const int64_t n16 = n / 16 * 16;
  typename E::vt lanes = E(init).m[0];
  int64_t c0 = 0;
  if (S > 1 && n >= kStreamMin) {
    const int64_t part = n / S / kChunk * kChunk;
    StreamLanes<Dir, S, M> st(init);
    const M* parts[S];
    typename E::vt part_lanes[S];
    for (int k = 0; k < S; ++k) {
      parts[k] = q + k * part;
      part_lanes[k] = lanes;
    }
    if (!st.extreme_chunks(parts, part, part_lanes)) {  // a NaN in [0, S * part): the first one
      value = q[find16<true>(q, S * part, M())];
      return true;
    }
    for (int k = 0; k < S; ++k) E::lanes_pick(lanes, part_lanes[k]);
    c0 = S * part;
  }
  for (int64_t c = c0; c < n16; c += kChunk) {
    const int64_t len = n16 - c < kChunk ? n16 - c : kChunk;
    E e(init);
    if (const int64_t k = e.template scan<Prefetch>(q + c, len); k < len) {
      value = q[c + k];
      return true;
    }
    E::lanes_pick(lanes, e.m[0]);
  }
  M m = E::lanes_value(lanes);
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
template <int Dir, typename M>
INGOT_SIMD_INLINE bool row_extreme(const M* q, int64_t n, M init, M& value, bool prefetch) {
  return prefetch ? row_extreme<Dir, true, 1>(q, n, init, value)
                  : row_extreme<Dir, false, kPlainParts>(q, n, init, value);
}

// {value, index} of the first maximum (Dir > 0) or minimum of the row q[0, n), n >= 1; the first
// NaN if there is one. Index is relative to q.
template <int Dir, bool Prefetch, int S, typename M>
INGOT_SIMD_INLINE void row_arg_extreme(const M* q, int64_t n, M init, M& value, int64_t& index) {
  using E = LaneExtreme<Dir, M>;
  const int64_t n16 = n / 16 * 16;
  bool have = false;
  M best = init;
  int64_t at = 0;
  int64_t c0 = 0;
  if (S > 1 && n >= kStreamMin) {
    // Each part keeps its own best and the first chunk holding it; the parts are then taken in
    // order, a later one only when strictly better, so the earliest chunk with the maximum wins.
    const int64_t part = n / S / kChunk * kChunk;
    StreamLanes<Dir, S, M> st(init);
    const M* parts[S];
    M best_k[S];
    int64_t at_k[S] = {};
    for (int k = 0; k < S; ++k) {
      parts[k] = q + k * part;
      best_k[k] = init;
    }
    if (!st.arg_chunks(parts, part, best_k, at_k)) {  // a NaN in [0, S * part): the first one
      index = find16<true>(q, S * part, M());
      value = q[index];
      return;
    }
    best = best_k[0];
    at = at_k[0];
    have = true;
    for (int k = 1; k < S; ++k) {
      if (Dir > 0 ? best_k[k] > best : best_k[k] < best) {
        best = best_k[k];
        at = k * part + at_k[k];
      }
    }
    c0 = S * part;
  }
  for (int64_t c = c0; c < n16; c += kChunk) {
    const int64_t len = n16 - c < kChunk ? n16 - c : kChunk;
    E e(init);
    if (const int64_t k = e.template scan<Prefetch>(q + c, len); k < len) {
      value = q[c + k];
      index = c + k;
      return;
    }
    // Without a branch on the data, as StreamLanes::arg_chunks; the search waits until the last
    // chunk that improves is known.
    const M m = e.value();
    const bool better = !have || (Dir > 0 ? m > best : m < best);
    best = better ? m : best;
    at = better ? c : at;
    have = true;
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
template <int Dir, typename M>
INGOT_SIMD_INLINE void row_arg_extreme(const M* q, int64_t n, M init, M& value, int64_t& index,
                                       bool prefetch) {
  if (prefetch) {
    row_arg_extreme<Dir, true, 1>(q, n, init, value, index);
  } else {
    row_arg_extreme<Dir, false, kPlainParts>(q, n, init, value, index);
  }
}

// Max (Dir > 0) or min of each of the S rows q[k][0, n), n >= 16, read together (S streams, as
// the parts of a long row; reduce_loops.h takes this for many rows under the plain memory policy).
// Per row as row_extreme: value[k] and true, or false for a zero extreme (the caller's generic
// path). A NaN in any row sends each row to row_extreme on its own.
template <int Dir, int S, typename M>
INGOT_SIMD_INLINE void rows_extreme(const M* const* q, int64_t n, M init, M* value, bool* ok) {
  using E = LaneExtreme<Dir, M>;
  const int64_t n16 = n / 16 * 16;
  StreamLanes<Dir, S, M> st(init);
  typename E::vt lanes[S];
  for (int k = 0; k < S; ++k) lanes[k] = st.init_lanes;
  if (!st.extreme_chunks(q, n16, lanes)) {
    for (int k = 0; k < S; ++k) ok[k] = row_extreme<Dir, false, 1>(q[k], n, init, value[k]);
    return;
  }
  for (int k = 0; k < S; ++k) {
    M m = E::lanes_value(lanes[k]);
    bool nan = false;
    for (int64_t i = n16; i < n && !nan; ++i) {
      const M x = q[k][i];
      nan = x != x;
      m = nan ? x : pick<Dir>(m, x);
    }
    value[k] = m;
    if constexpr (std::is_floating_point_v<M>) {
      ok[k] = nan || m != M(0);
    } else {
      ok[k] = true;
    }
  }
}

// {value, index} of the first maximum (Dir > 0) or minimum of each of the S rows q[k][0, n),
// n >= 16, read together; per row as row_arg_extreme (index relative to q[k]). A NaN in any row
// sends each row to row_arg_extreme on its own.
template <int Dir, int S, typename M>
INGOT_SIMD_INLINE void rows_arg_extreme(const M* const* q, int64_t n, M init, M* value, int64_t* index) {
  const int64_t n16 = n / 16 * 16;
  StreamLanes<Dir, S, M> st(init);
  M best[S];
  int64_t at[S] = {};
  for (int k = 0; k < S; ++k) best[k] = init;
  if (!st.arg_chunks(q, n16, best, at)) {
    for (int k = 0; k < S; ++k) row_arg_extreme<Dir, false, 1>(q[k], n, init, value[k], index[k]);
    return;
  }
  for (int k = 0; k < S; ++k) {
    int64_t a = at[k];
    a += find16<false>(q[k] + a, n16 - a < kChunk ? n16 - a : kChunk, best[k]);
    M b = q[k][a];  // the first element equal to the maximum: a first -0.0 or +0.0 keeps its sign
    for (int64_t i = n16; i < n; ++i) {  // tail, scalar, with the functors' rules
      const M x = q[k][i];
      if (x != x) {
        b = x;
        a = i;
        break;
      }
      if (Dir > 0 ? x > b : x < b) {
        b = x;
        a = i;
      }
    }
    value[k] = b;
    index[k] = a;
  }
}

// any/all/count_nonzero over a row of unsigned integers U, the elements' bits (the sign bit left
// out of mask for a floating type, so -0.0 counts as zero and NaN as nonzero): 64 bytes a step
// in two 32-byte vectors, chunks of kChunk elements.
template <typename U>
struct BitsRow {
  static_assert(std::is_unsigned_v<U>);
  using V = Vec<U, 32>;
  using vt = typename V::type;
  static constexpr int64_t kStep = 2 * V::kLanes;
  static_assert(kChunk % kStep == 0);

  // Whether an element has a bit of mask set (Nonzero) or none (!Nonzero), stopping after the
  // first chunk that decides, as NumPy's any/all stop early.
  template <bool Nonzero>
  static INGOT_SIMD_INLINE bool has(const U* q, int64_t n, U mask) {
    const vt m = vt{} + mask;
    const int64_t body = n / kStep * kStep;
    for (int64_t c = 0; c < body; c += kChunk) {
      const int64_t end = body - c < kChunk ? body : c + kChunk;
      auto hit = vt{} != vt{};
      for (int64_t i = c; i < end; i += kStep) {
        for (int v = 0; v < 2; ++v) {
          vt x;
          V::load(x, q + i + v * V::kLanes);
          hit |= Nonzero ? (x & m) != vt{} : (x & m) == vt{};
        }
      }
      if (any_lane(hit)) return true;
    }
    for (int64_t i = body; i < n; ++i) {
      if (((load(q + i) & mask) != 0) == Nonzero) return true;
    }
    return false;
  }
  // How many elements have a bit of mask set: counted in U-wide lanes, added up before a lane
  // can wrap (each lane gains at most kChunk / kStep a chunk).
  static INGOT_SIMD_INLINE int64_t count(const U* q, int64_t n, U mask) {
    constexpr uint64_t kLaneMax = static_cast<U>(~U(0));
    constexpr int64_t kChunksPerFlush = static_cast<int64_t>(
        kLaneMax / (kChunk / kStep) < (uint64_t{1} << 20) ? kLaneMax / (kChunk / kStep) : (uint64_t{1} << 20));
    const vt m = vt{} + mask;
    const int64_t body = n / kStep * kStep;
    int64_t total = 0;
    for (int64_t c0 = 0; c0 < body; c0 += kChunksPerFlush * kChunk) {
      const int64_t end = body - c0 < kChunksPerFlush * kChunk ? body : c0 + kChunksPerFlush * kChunk;
      vt cnt[2] = {vt{}, vt{}};
      for (int64_t i = c0; i < end; i += kStep) {
        for (int v = 0; v < 2; ++v) {
          vt x;
          V::load(x, q + i + v * V::kLanes);
          cnt[v] -= (vt)((x & m) != vt{});  // a true lane is all ones: -1
        }
      }
      for (int v = 0; v < 2; ++v) {
        for (int l = 0; l < V::kLanes; ++l) total += static_cast<int64_t>(cnt[v][l]);
      }
    }
    for (int64_t i = body; i < n; ++i) total += (load(q + i) & mask) != 0;
    return total;
  }
  // One element's bits: through memcpy, as the vector loads, since q points at floats (or other
  // types) viewed as U.
  static INGOT_SIMD_INLINE U load(const U* p) {
    U x;
    std::memcpy(&x, p, sizeof(x));
    return x;
  }
};

// The largest (Dir > 0) or smallest magnitude in the row q[0, n) of floats, given as their bits S
// (signed integers of the float's width): with the sign bit masked off (mask), the bits of
// magnitudes are ordered as the magnitudes, and NaNs lie above +inf (inf_key). So the extreme
// is an integer max or min, which every ISA vectorizes (the float select that keeps a NaN does
// not). key: the extreme's bits; false when the row holds a NaN (the caller takes the generic
// path, for the payload of its first NaN). n >= 1.
template <int Dir, typename S>
INGOT_SIMD_INLINE bool row_abs_extreme(const S* q, int64_t n, S mask, S inf_key, S& key) {
  static_assert(std::is_signed_v<S>);
  using V = Vec<S, 32>;
  using vt = typename V::type;
  constexpr int64_t kStep = 2 * V::kLanes;
  const vt m = vt{} + mask;
  vt ext[2], top[2];  // top: the largest key, for the NaN test of a min
  for (int v = 0; v < 2; ++v) {
    ext[v] = vt{} + (Dir > 0 ? S(0) : inf_key);
    top[v] = vt{};
  }
  const int64_t body = n / kStep * kStep;
  for (int64_t i = 0; i < body; i += kStep) {
    for (int v = 0; v < 2; ++v) {
      vt x;
      V::load(x, q + i + v * V::kLanes);
      x &= m;
      ext[v] = (Dir > 0 ? x > ext[v] : x < ext[v]) ? x : ext[v];
      if constexpr (Dir < 0) top[v] = x > top[v] ? x : top[v];
    }
  }
  S e = Dir > 0 ? S(0) : inf_key, t = 0;
  for (int v = 0; v < 2; ++v) {
    for (int l = 0; l < V::kLanes; ++l) {
      e = (Dir > 0 ? ext[v][l] > e : ext[v][l] < e) ? ext[v][l] : e;
      t = top[v][l] > t ? top[v][l] : t;
    }
  }
  for (int64_t i = body; i < n; ++i) {
    S x;
    std::memcpy(&x, q + i, sizeof(x));  // floats viewed as S: a byte copy, not an aliasing load
    x = static_cast<S>(x & mask);
    e = (Dir > 0 ? x > e : x < e) ? x : e;
    t = x > t ? x : t;
  }
  if ((Dir > 0 ? e : t) > inf_key) return false;
  key = e;
  return true;
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
    if constexpr (!std::is_floating_point_v<M>) {
      a = better;
    } else if constexpr (std::is_same_v<std::remove_cvref_t<decltype(a)>, M>) {
      a = a != a ? a : better;
    } else {
      // The NaN accumulator put back with bit operations: written as a second select, GCC merged
      // the two into one blend under an OR of two compares (four instructions a row); apart, the
      // first is a single max instruction (three a row). Memory-bound as this loop is, fewer
      // instructions a byte keep more loads in flight: a 4096x4096 float32 max over dim 0 in a
      // harness took 3.0-3.3 ms against 3.3-3.8 (Zen 4, bench/RESULTS.md 2026-12-04 morning).
      using mask = decltype(a != a);
      const mask nan = a != a;
      mask av, bv;
      std::memcpy(&av, &a, sizeof(a));
      std::memcpy(&bv, &better, sizeof(better));
      const mask r = (nan & av) | (~nan & bv);
      std::memcpy(&a, &r, sizeof(a));
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

// argmax (Dir > 0) or argmin of R rows into best[0, nj) and at[0, nj) element-wise, rows in order
// (row k numbered k0 + k): a row takes a lane when strictly better than its best, or when it is a
// NaN and the best is not, so each lane keeps its first extreme or first NaN. I is a signed
// integer as wide as M, so a lane's compare mask selects its row number too. In explicit vectors:
// GCC 12 vectorized the scalar form of one row a pass but not of several (float32 over dim 0 of
// 2048x2048: 1.1 ms one row a pass, 7.7 scalar with four; the sum 0.4).
template <int Dir, int R, typename M, typename I>
INGOT_SIMD_INLINE void accumulate_arg_rows(M* best, I* at, const M* const* q, I k0, int64_t nj) {
  static_assert(sizeof(I) == sizeof(M));
  using V = Vec32<M>;
  using vt = typename V::type;
  typedef I it __attribute__((vector_size(sizeof(vt))));
  // One lane's rule, for vectors and for the scalar tail alike (by reference: see
  // accumulate_extreme_rows).
  auto step = [](auto& b, auto& i, const auto& v, const auto& k) {
    auto take = Dir > 0 ? v > b : v < b;
    if constexpr (std::is_floating_point_v<M>) take = (take | (v != v)) & (b == b);
    b = take ? v : b;
    i = take ? k : i;
  };
  it kv[R];  // the row numbers, broadcast through memory (see LaneExtreme's constructor)
  for (int k = 0; k < R; ++k) {
    I lanes[V::kLanes];
    for (int l = 0; l < V::kLanes; ++l) lanes[l] = static_cast<I>(k0 + k);
    std::memcpy(&kv[k], lanes, sizeof(lanes));
  }
  int64_t j = 0;
  for (; j + V::kLanes <= nj; j += V::kLanes) {
    vt b;
    it i;
    V::load(b, best + j);
    std::memcpy(&i, at + j, sizeof(i));
    for (int k = 0; k < R; ++k) {
      vt v;
      V::load(v, q[k] + j);
      step(b, i, v, kv[k]);
    }
    std::memcpy(best + j, &b, sizeof(b));
    std::memcpy(at + j, &i, sizeof(i));
  }
  for (; j < nj; ++j) {
    M b = best[j];
    I i = at[j];
    for (int k = 0; k < R; ++k) step(b, i, q[k][j], static_cast<I>(k0 + k));
    best[j] = b;
    at[j] = i;
  }
}

}  // namespace ingot::cpu::simd

#undef INGOT_SIMD_INLINE
#undef INGOT_SIMD_INLINE_LAMBDA
