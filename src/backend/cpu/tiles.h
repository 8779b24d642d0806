// Moving one tile of a 2-d operand between memory and a small row-major buffer, for the tiled
// flavor (elementwise_loops.h). Only bytes move, so one instantiation per element size serves
// every dtype; they are compiled once, in tiles.cpp, not in every kernel unit.
#pragma once

#include <cstdint>

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
// Orders the streaming stores of scatter_tile before anything that follows.
void fence_streaming_stores();

#define INGOT_TILE_SIZES(X) X(1) X(2) X(4) X(8)
#define INGOT_DECLARE_TILE(S)                                                                       \
  extern template void gather_tile<S>(void*, int64_t, const char*, int64_t, int64_t, int64_t, int64_t); \
  extern template void scatter_tile<S>(char*, int64_t, int64_t, const void*, int64_t, int64_t, int64_t, bool);
INGOT_TILE_SIZES(INGOT_DECLARE_TILE)
#undef INGOT_DECLARE_TILE

}  // namespace ingot::cpu
