// The parameter block of the CUDA reduction kernels (device/reduce.cuh), filled on the host from
// ReduceArgs (src/backend/cuda/reduce.cpp). Portable subset: compiled by the host and by NVRTC.
// Kernels index with 32-bit offsets and counts: the host splits an input whose offsets do not fit
// into pieces that do (kMaxIndex32), and pieces along reduced dims chain through an accumulation
// buffer (acc_mode) so each output is still reduced once, in index order.
#pragma once

#include "kernels/reduce.h"

namespace ingot::cuda {

inline constexpr int kReduceThreads = 256;   // block size of both strategies
inline constexpr int kReduceUnroll = 4;      // independent loads in flight per thread
inline constexpr int64_t kSplitChunk = 4096;  // split boundaries of one output's range (elements)
inline constexpr int kMaxAccBytes = 32;       // split buffers hold this much per partial accumulator

// Offsets and counts of one launch stay below this; the headroom under 2^31 keeps loop counters
// that step past the end (by up to a grid's stride) from overflowing.
inline constexpr int64_t kMaxIndex32 = (int64_t{1} << 31) - (int64_t{1} << 20);

// acc_mode bits: a piece of a reduction split along reduced dims (src/backend/reduce_split.h).
inline constexpr int kAccIn = 1;   // combine with the accumulator already in acc_buf (earlier pieces)
inline constexpr int kAccOut = 2;  // write the accumulator to acc_buf instead of the outputs

struct ReduceLaunch {
  char* out[2];
  const char* in;
  void* partials;          // split accumulators: [n_out][splits] slots (inner), planar (outer)
  unsigned int* counters;  // blocks done per output (inner) or per block column (outer); zeroed
  void* acc_buf;           // [n_out] accumulators carried between pieces (acc_mode)
  int64_t idx_base;        // reduction index of this piece's first element (argmax's indices)
  int64_t n_out;           // < 2^31, like every offset below
  int64_t n_red;
  int32_t nout_dims;
  int32_t nred_dims;
  int32_t splits;  // blocks (gridDim.y) sharing each output's reduction
  int32_t acc_mode;
  int64_t out_sizes[kMaxReduceDims];
  int64_t out_strides[2][kMaxReduceDims];
  int64_t in_out_strides[kMaxReduceDims];
  int64_t red_sizes[kMaxReduceDims];
  int64_t in_red_strides[kMaxReduceDims];
  ReduceParams params;
};

}  // namespace ingot::cuda
