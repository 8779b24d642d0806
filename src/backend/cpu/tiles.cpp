#include "backend/cpu/tiles.h"

#include <cstring>

#include "kernels/type_traits.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace ingot::cpu {

namespace {

// Source rows [c, c + 4) of the tile kPrefetchTiles further along dim 0 (`next` bytes per tile),
// `bytes` long, into L2: the hardware prefetcher does not see these short runs coming. Three tiles
// ahead into L2 rather than one into L1 (which holds few misses in flight): up to 20% faster on a
// transposed 4096^2 float32 copy in a C++ harness on the dev box, never slower in an interleaved
// A/B from Python (bench/RESULTS.md). A prefetch never faults, past the end of the data included.
constexpr int64_t kPrefetchTiles = 3;
inline void prefetch_rows(const char* row, int64_t s0, int64_t next, int64_t bytes) {
  for (int64_t k = 0; k < 4; ++k) {
    for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch(row + kPrefetchTiles * next + k * s0 + b, 0, 2);
  }
}

// buf[r * ld + c] = element r of source row c (source rows s0 bytes apart, elements contiguous),
// four by four through registers; false where the tile is not a multiple of 4 on both sides.
bool transpose4x4(uint32_t* buf, int64_t ld, const char* p, int64_t s0, int64_t rows, int64_t cols) {
#if defined(__SSE2__)
  if (rows % 4 != 0 || cols % 4 != 0) return false;
  for (int64_t c = 0; c < cols; c += 4) {
    const char* s = p + c * s0;
    prefetch_rows(s, s0, cols * s0, rows * 4);
    for (int64_t r = 0; r < rows; r += 4) {
      __m128 v0 = _mm_loadu_ps(reinterpret_cast<const float*>(s) + r);
      __m128 v1 = _mm_loadu_ps(reinterpret_cast<const float*>(s + s0) + r);
      __m128 v2 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 2 * s0) + r);
      __m128 v3 = _mm_loadu_ps(reinterpret_cast<const float*>(s + 3 * s0) + r);
      _MM_TRANSPOSE4_PS(v0, v1, v2, v3);  // moves bits only: right for any 4-byte type
      float* d = reinterpret_cast<float*>(buf + r * ld + c);
      _mm_storeu_ps(d, v0);
      _mm_storeu_ps(d + ld, v1);
      _mm_storeu_ps(d + 2 * ld, v2);
      _mm_storeu_ps(d + 3 * ld, v3);
    }
  }
  return true;
#else
  (void)buf, (void)ld, (void)p, (void)s0, (void)rows, (void)cols;
  return false;
#endif
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same with AVX2, eight by eight: about 1.4x the 4x4 version on a transposed 4096^2 float32
// copy with 128 x 128 tiles in a C++ harness on the dev box (the tiles are L2-sized; the buffer
// traffic of 4-wide stores then shows). No prefetch: with tiles this large it measured no faster.
__attribute__((target("avx2"))) bool transpose8x8(uint32_t* buf, int64_t ld, const char* p,
                                                  int64_t s0, int64_t rows, int64_t cols) {
  if (rows % 8 != 0 || cols % 8 != 0) return false;
  for (int64_t c = 0; c < cols; c += 8) {
    const char* s = p + c * s0;
    for (int64_t r = 0; r < rows; r += 8) {
      __m256 v[8];
      for (int k = 0; k < 8; ++k)
        v[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(s + k * s0) + r);
      // Pairs of rows interleaved, then pairs of pairs, then 128-bit halves: moves bits only.
      __m256 t[8], u[8];
      for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(v[k], v[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(v[k], v[k + 1]);
      }
      for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
        u[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
        u[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
        u[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
      }
      float* d = reinterpret_cast<float*>(buf + r * ld + c);
      for (int k = 0; k < 4; ++k) {
        _mm256_storeu_ps(d + k * ld, _mm256_permute2f128_ps(u[k], u[k + 4], 0x20));
        _mm256_storeu_ps(d + (k + 4) * ld, _mm256_permute2f128_ps(u[k], u[k + 4], 0x31));
      }
    }
  }
  return true;
}
bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#else
bool transpose8x8(uint32_t*, int64_t, const char*, int64_t, int64_t, int64_t) { return false; }
bool has_avx2() { return false; }
#endif

}  // namespace

template <int Size>
void gather_tile(void* out, int64_t ld, const char* p, int64_t s0, int64_t s1, int64_t rows, int64_t cols) {
  using T = uint_of_size_t<Size>;
  T* buf = static_cast<T*>(out);
  if (s1 == Size) {  // contiguous along r: read each source row c along r
    if constexpr (Size == 4) {
      if (has_avx2() && transpose8x8(buf, ld, p, s0, rows, cols)) return;
      if (transpose4x4(buf, ld, p, s0, rows, cols)) return;
    }
    for (int64_t c = 0; c < cols; ++c) {
      const T* src = reinterpret_cast<const T*>(p + c * s0);
      if (c % 4 == 0) prefetch_rows(p + c * s0, s0, cols * s0, rows * Size);
      for (int64_t r = 0; r < rows; ++r) buf[r * ld + c] = src[r];
    }
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) buf[r * ld + c] = *reinterpret_cast<const T*>(p + r * s1 + c * s0);
  }
}

template <int Size>
void scatter_tile(char* p, int64_t s0, int64_t s1, const void* in, int64_t ld, int64_t rows, int64_t cols,
                  bool stream) {
  using T = uint_of_size_t<Size>;
  const T* buf = static_cast<const T*>(in);
  if (s0 == Size) {  // contiguous along c: whole rows
    for (int64_t r = 0; r < rows; ++r) {
      char* dst = p + r * s1;
      const int64_t bytes = cols * Size;
#if defined(__SSE2__)
      if (stream && reinterpret_cast<uintptr_t>(dst) % 16 == 0 && bytes % 16 == 0 && (ld * Size) % 16 == 0) {
        const char* src = reinterpret_cast<const char*>(buf + r * ld);
        for (int64_t b = 0; b < bytes; b += 16) {
          _mm_stream_si128(reinterpret_cast<__m128i*>(dst + b),
                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + b)));
        }
        continue;
      }
#endif
      std::memcpy(dst, buf + r * ld, static_cast<size_t>(bytes));
    }
    return;
  }
  if (s1 == Size) {  // contiguous along r: write each row c along r
    for (int64_t c = 0; c < cols; ++c) {
      T* dst = reinterpret_cast<T*>(p + c * s0);
      for (int64_t r = 0; r < rows; ++r) dst[r] = buf[r * ld + c];
    }
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) *reinterpret_cast<T*>(p + r * s1 + c * s0) = buf[r * ld + c];
  }
}

void fence_streaming_stores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

#define INGOT_DEFINE_TILE(S)                                                                   \
  template void gather_tile<S>(void*, int64_t, const char*, int64_t, int64_t, int64_t, int64_t); \
  template void scatter_tile<S>(char*, int64_t, int64_t, const void*, int64_t, int64_t, int64_t, bool);
INGOT_TILE_SIZES(INGOT_DEFINE_TILE)
#undef INGOT_DEFINE_TILE

}  // namespace ingot::cpu
