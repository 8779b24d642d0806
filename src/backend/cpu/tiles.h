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

// dst[0, bytes) = src[0, bytes) with streaming stores from dst's first 16-byte boundary on (plain
// copies before it and for a tail under 16 bytes); the caller fences once it is done. Inline: the
// dense loops call it once per block.
inline void stream_block(void* dst, const void* src, int64_t bytes) {
#if defined(__SSE2__)
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  int64_t head = static_cast<int64_t>((16 - reinterpret_cast<uintptr_t>(d) % 16) % 16);
  if (head > bytes) head = bytes;
  std::memcpy(d, s, static_cast<size_t>(head));
  int64_t k = head;
  for (; k + 16 <= bytes; k += 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + k), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k)));
  }
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
