// Moving one tile of a 2-d operand between memory and a small row-major buffer, for the tiled
// flavor (elementwise_loops.h). Only bytes move, so one instantiation per element size serves
// every dtype; they are compiled once, in tiles.cpp, not in every kernel unit.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ingot::cpu {

// buf[r * ld + c] = element (r, c) of the operand at p: byte strides s0 along c, s1 along r. Each
// source cache line is read whole (SSE transposes for 4-byte elements read along dim 1).
template <int Size>
void gather_tile(void* buf, int64_t ld, const char* p, int64_t s0, int64_t s1, int64_t rows, int64_t cols);
// The reverse: element (r, c) at p = buf[r * ld + c]; with `stream`, rows contiguous along c are
// written with streaming stores (the caller fences once it is done).
template <int Size>
void scatter_tile(char* p, int64_t s0, int64_t s1, const void* buf, int64_t ld, int64_t rows, int64_t cols,
                  bool stream);
// Orders the streaming stores of scatter_tile and stream_block before anything that follows.
void fence_streaming_stores();

// The 64-byte line at dst (64-byte aligned) = src[0, 64), with streaming stores. The caller
// fences once it is done.
inline void stream_line(void* dst, const void* src) {
#if defined(__SSE2__)
  for (int q = 0; q < 64; q += 16) {
    _mm_stream_si128(
        reinterpret_cast<__m128i*>(static_cast<char*>(dst) + q),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const char*>(src) + q)));
  }
#else
  std::memcpy(dst, src, 64);
#endif
}

// dst[0, bytes) = src[0, bytes): the whole 64-byte lines of dst with streaming stores, the partial
// lines at either end with plain copies. A line written partly streamed and partly through the
// cache costs a partial-line write to memory, so a run may be cut into blocks anywhere; callers
// still start blocks on lines where they can (lead_elements), since each partial line is read
// before it is written. The caller fences once it is done. Inline: the dense loops call it once
// per block.
inline void stream_block(void* dst, const void* src, int64_t bytes) {
#if defined(__SSE2__)
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  int64_t head = static_cast<int64_t>((64 - reinterpret_cast<uintptr_t>(d) % 64) % 64);
  if (head > bytes) head = bytes;
  std::memcpy(d, s, static_cast<size_t>(head));
  int64_t k = head;
  for (; k + 64 <= bytes; k += 64) stream_line(d + k, s + k);
  std::memcpy(d + k, s + k, static_cast<size_t>(bytes - k));
#else
  std::memcpy(dst, src, static_cast<size_t>(bytes));
#endif
}

#define INGOT_TILE_SIZES(X) X(1) X(2) X(4) X(8)
#define INGOT_DECLARE_TILE(S)                                                                       \
  extern template void gather_tile<S>(void*, int64_t, const char*, int64_t, int64_t, int64_t, int64_t); \
  extern template void scatter_tile<S>(char*, int64_t, int64_t, const void*, int64_t, int64_t, int64_t, bool);
INGOT_TILE_SIZES(INGOT_DECLARE_TILE)
#undef INGOT_DECLARE_TILE

}  // namespace ingot::cpu
