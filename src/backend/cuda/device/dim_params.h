// The parameter block of every CUDA dim kernel (device/dim_kernels.cuh), filled by the host
// (src/backend/cuda/dim_launch.cpp). Portable subset: the host compiler and NVRTC both read it.
#pragma once

#include "kernels/dim.h"

namespace ingot::cuda {

inline constexpr int kDimBlockThreads = 256;
// Softmax rows: 16-byte vectors per thread held in registers between reading a row and writing
// it: 32 registers of input (fewer for 8-byte types, whose math takes more registers). A row of
// 16384 is then 256 threads of bfloat16 or 512 of float32. With 4 vectors, 2-byte rows took twice
// the threads, and the per-thread cost of the group reductions with them: on the H200
// (bench/RESULTS.md, 2026-12-02) 8 vectors made bfloat16 16384x16384 softmax 75% -> 82% of copy,
// log_softmax 69% -> 82%.
INGOT_HOST_DEVICE constexpr int softmax_reg_vectors(size_t in_size) { return in_size <= 4 ? 8 : 4; }
// Scans: a tile is threads * V * U elements (U = 1, 2 or 4, by state width); chunked scans cut
// rows into multiples of kDimBlockThreads * V * kScanTileVectors, whole tiles for every U.
inline constexpr int kScanTileVectors = 4;

struct DimParams {
  char* out;
  const char* in;
  char* indices;            // int64, index scans
  char* scratch;            // chunked scans: one state per chunk
  int64_t rows;             // rows strategies: rows in this launch; cols: outer slabs
  int64_t n;                // elements along the dim
  int64_t inner;            // cols: columns per slab (also the stride along the dim, in elements)
  int64_t chunk;            // chunked scans: elements per chunk (a multiple of the tile)
  int32_t threads_per_row;  // rows strategies: a power of two, 32..1024 (softmax: 8..1024)
  int32_t aligned;          // rows and chunked: rows whole vectors, every operand vector-aligned
};

}  // namespace ingot::cuda
