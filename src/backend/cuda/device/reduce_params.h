// The parameter block of the CUDA reduction kernels (device/reduce.cuh), filled on the host from
// ReduceArgs (src/backend/cuda/reduce.cpp). Portable subset: compiled by the host and by NVRTC.
// Offsets and counts are 64-bit, so inputs of more than 2^31 elements reduce in one launch; the
// hot loops step pointers and need no 64-bit division.
#pragma once

#include "kernels/reduce.h"

namespace ingot::cuda {

inline constexpr int kReduceThreads = 256;   // block size of both strategies
inline constexpr int kReduceUnroll = 4;      // independent loads in flight per thread
inline constexpr int64_t kSplitChunk = 4096;  // split boundaries of one output's range (elements)
inline constexpr int kMaxAccBytes = 32;       // split buffers hold this much per partial accumulator

struct ReduceLaunch {
  char* out[2];
  const char* in;
  void* partials;          // [n_out][splits] accumulators when splits > 1
  unsigned int* counters;  // blocks done per output (inner) or per block column (outer); zeroed
  int64_t n_out;
  int64_t n_red;
  int32_t nout_dims;
  int32_t nred_dims;
  int32_t splits;  // blocks (gridDim.y) sharing each output's reduction
  int32_t pad;
  int64_t out_sizes[kMaxReduceDims];
  int64_t out_strides[2][kMaxReduceDims];
  int64_t in_out_strides[kMaxReduceDims];
  int64_t red_sizes[kMaxReduceDims];
  int64_t in_red_strides[kMaxReduceDims];
  ReduceParams params;
};

}  // namespace ingot::cuda
