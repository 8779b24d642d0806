// Kernel sources the compile_shader tests run on the CPU (test_shader.cpp) and on CUDA
// (cuda/test_cuda_shader.cpp), so that both backends run the same text.
#pragma once

namespace ingot::shader_test {

inline constexpr const char* kScale = R"(
__global__ void scale(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
)";

// One partial sum per group: a shared-memory tree that needs every barrier to hold.
inline constexpr const char* kBlockSum = R"(
__global__ void block_sum(const float* x, float* partial, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
)";

inline constexpr const char* kHistogram = R"(
// ingot has no uint64 tensors and CUDA no atomicAdd(long long*): the total is an int64 tensor
// added to as unsigned (two's complement makes that the same sum).
__global__ void histogram(const int* values, int* bins, long long* total, int* maxv, int n,
                          int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[values[i] % nbins], 1);
    atomicAdd((unsigned long long*)total, (unsigned long long)values[i]);
    atomicMax(maxv, values[i]);
  }
}
)";

// A warp-shuffle sum per warp, then one atomicAdd per warp.
inline constexpr const char* kWarpSum = R"(
__global__ void warp_sum(const int* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? x[i] : 0;
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  unsigned any = __ballot_sync(0xffffffffu, v != 0);
  if ((threadIdx.x & 31) == 0 && any != 0u) atomicAdd(out, v);
}
)";

inline constexpr const char* kTemplateScale = R"(
template <typename T>
__global__ void tscale(const T* x, T* y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
)";

// 2-d indices, dynamic shared memory and an included ingot kernel header.
inline constexpr const char* kTranspose = R"(
#include "kernels/opmath.h"
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  extern __shared__ float tile[];
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  tile[t] = (r < rows && c < cols) ? in[r * cols + c] : 0.0f;
  __syncthreads();
  ingot::opmath_t<float> v = tile[t];
  if (r < rows && c < cols) out[c * rows + r] = v;
}
)";

// Pointer arrays: out[i] = sum of inputs[k][i].
inline constexpr const char* kSumList = R"(
__global__ void sum_list(const float* const* inputs, int count, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < count; ++k) s += inputs[k][i];
  out[i] = s;
}
)";

}  // namespace ingot::shader_test
