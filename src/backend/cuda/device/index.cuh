// The CUDA loop driver for index kernels (kernels/index.h): one thread per element, a few
// elements per thread spaced a block apart (accesses stay coalesced), byte offsets from fast
// integer division. Compiled by NVRTC only.
#pragma once

#include "backend/cuda/device/params.h"
#include "kernels/index.h"

namespace ingot::cuda {

inline constexpr int kIndexBlockThreads = 128;
inline constexpr int kIndexElemsPerThread = 4;

// Operands: 0 out, 1 in, 2 index; offsets fit in int32 (the iterator was split).
struct IndexLaunch {
  char* data[3];
  int32_t strides[3][kMaxDims];  // bytes, dim 0 fastest
  IntDivider sizes[kMaxDims];
  int32_t ndim;
  int32_t numel;
  IndexParams index;
  ErrorBuffer* errors;
};

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
template <typename K>
__device__ __forceinline__ void index_kernel_body(const IndexLaunch& p) {
  const int32_t base =
      static_cast<int32_t>(blockIdx.x) * (kIndexBlockThreads * kIndexElemsPerThread) +
      static_cast<int32_t>(threadIdx.x);
#pragma unroll
  for (int k = 0; k < kIndexElemsPerThread; ++k) {
    const int32_t i = base + k * kIndexBlockThreads;
    if (i >= p.numel) return;
    uint32_t rest = static_cast<uint32_t>(i);
    int32_t off0 = 0, off1 = 0, off2 = 0;
    for (int d = 0; d < p.ndim; ++d) {
      const uint32_t q = p.sizes[d].div(rest);
      const int32_t r = static_cast<int32_t>(rest - q * p.sizes[d].divisor);
      rest = q;
      off0 += r * p.strides[0][d];
      off1 += r * p.strides[1][d];
      off2 += r * p.strides[2][d];
    }
    K::apply(p.data[0] + off0, p.data[1] + off1, p.data[2] + off2, p.index, p.errors);
  }
}
#endif

}  // namespace ingot::cuda

#define INGOT_CUDA_INDEX_KERNEL(name, Kernel)                                     \
  extern "C" __global__ void __launch_bounds__(::ingot::cuda::kIndexBlockThreads) \
      name(const ::ingot::cuda::IndexLaunch p) {                                  \
    ::ingot::cuda::index_kernel_body<Kernel>(p);                                  \
  }
