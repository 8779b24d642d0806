// compile_shader on CUDA: the same kernels as test_shader.cpp, compared with the CPU path. The
// NVRTC tests need NVRTC only; the launches skip without a GPU (scripts/gpu-check runs them).
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "backend/cuda/nvrtc.h"
#include "ingot/cuda.h"
#include "ingot/ingot.h"
#include "shader/cuda_shader.h"
#include "tests/cpp/shader_test_kernels.h"

namespace ingot {
namespace {

#define REQUIRE_NVRTC() \
  if (!cuda::nvrtc_is_available()) GTEST_SKIP() << "NVRTC not found"
#define REQUIRE_GPU() \
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device here"

const Device kGpu(kCUDA, 0);
const Device kHost(kCPU);

cuda::CompiledModule nvrtc_compile(const char* source, std::vector<std::string> expressions) {
  return cuda::compile(shader::cuda_shader_request(source, {}, expressions, 9, 0));
}

TEST(CudaShaderNvrtc, EveryTestKernelCompilesAndIsFoundByName) {
  REQUIRE_NVRTC();
  const std::pair<const char*, const char*> kernels[] = {
      {shader_test::kScale, "scale"},         {shader_test::kBlockSum, "block_sum"},
      {shader_test::kHistogram, "histogram"}, {shader_test::kWarpSum, "warp_sum"},
      {shader_test::kTranspose, "transpose"}, {shader_test::kSumList, "sum_list"},
      {shader_test::kTemplateScale, "tscale<float>"}};
  for (const auto& [source, name] : kernels) {
    const cuda::CompiledModule m = nvrtc_compile(source, {name});
    const std::string* lowered = m.lowered_name(name);
    ASSERT_NE(lowered, nullptr) << name;
    EXPECT_FALSE(lowered->empty()) << name;
    EXPECT_FALSE(m.image.empty()) << name;
  }
}

TEST(CudaShaderNvrtc, CompileErrorsNameTheUsersLine) {
  REQUIRE_NVRTC();
  try {
    nvrtc_compile("// 1\n__global__ void k(float* x) {\n  x[0] = undeclared_name;\n}\n", {"k"});
    FAIL() << "compiled";
  } catch (const CompileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("shader.cu(3)"), std::string::npos) << m;
    EXPECT_NE(m.find("undeclared_name"), std::string::npos) << m;
  }
}

template <typename T>
Tensor host(const std::vector<T>& v) {
  Tensor t = empty({static_cast<int64_t>(v.size())}, dtype_v<T>);
  std::copy(v.begin(), v.end(), t.data_ptr<T>());
  return t;
}

// Runs `name` from `source` on both devices with the same arguments (tensors copied to each) and
// returns the output tensors' bytes from each.
void expect_same_on_both(const char* source, const std::string& name, std::vector<KernelArg> args,
                         const LaunchConfig& config, std::vector<size_t> outputs) {
  std::vector<Tensor> results[2];
  int side = 0;
  for (Device d : {kHost, kGpu}) {
    std::vector<KernelArg> on_device;
    for (const KernelArg& a : args) {
      if (a.kind() == KernelArg::Kind::Tensor) {
        on_device.emplace_back(a.tensors()[0].to(d, true));
      } else {
        on_device.push_back(a);
      }
    }
    compile_shader(source, {d, {}, "shader.cu"}).kernel(name)(on_device, config);
    for (size_t o : outputs) results[side].push_back(on_device[o].tensors()[0].to(kHost));
    ++side;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    ASSERT_EQ(results[0][i].nbytes(), results[1][i].nbytes());
    EXPECT_EQ(std::memcmp(results[0][i].data_ptr(), results[1][i].data_ptr(), results[0][i].nbytes()), 0)
        << name << " output " << outputs[i] << "\ncpu:\n" << results[0][i] << "\ncuda:\n" << results[1][i];
  }
}

std::vector<float> ramp(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i % 13) - 6.0f;
  return v;
}

TEST(CudaShader, ScaleEqualsTheCpu) {
  REQUIRE_GPU();
  const int n = 1000;
  expect_same_on_both(shader_test::kScale, "scale", {host(ramp(n)), zeros({n}, kFloat32), 2.5, n},
                      {.threads = {n}, .group_size = {128}}, {1});
}

TEST(CudaShader, BarrierReductionEqualsTheCpu) {
  REQUIRE_GPU();
  const int n = 256 * 5 + 17, groups = 6;
  expect_same_on_both(shader_test::kBlockSum, "block_sum", {host(ramp(n)), zeros({groups}, kFloat32), n},
                      {.threads = {groups * 256}, .group_size = {256}}, {1});
}

TEST(CudaShader, AtomicsAndWarpShufflesEqualTheCpu) {
  REQUIRE_GPU();
  const int n = 5000;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<size_t>(i)] = (i * 37) % 101;
  expect_same_on_both(shader_test::kHistogram, "histogram",
                      {host(in), zeros({7}, kInt32), zeros({1}, kInt64), zeros({1}, kInt32), n, 7},
                      {.threads = {n}, .group_size = {64}}, {1, 2, 3});
  expect_same_on_both(shader_test::kWarpSum, "warp_sum", {host(in), zeros({1}, kInt32), n},
                      {.threads = {n}, .group_size = {96}}, {1});
}

TEST(CudaShader, TemplatesTwoDimsAndDynamicSharedMemoryEqualTheCpu) {
  REQUIRE_GPU();
  expect_same_on_both(shader_test::kTemplateScale, "tscale<float>",
                      {host(ramp(50)), zeros({50}, kFloat32), 0.5f, 50}, {.threads = {50}}, {1});
  const int rows = 37, cols = 21;
  expect_same_on_both(shader_test::kTranspose, "transpose",
                      {host(ramp(rows * cols)), zeros({rows * cols}, kFloat32), rows, cols},
                      {.threads = {cols, rows}, .group_size = {8, 4}, .shared_memory_bytes = 128}, {1});
}

TEST(CudaShader, PointerArraysAndLimits) {
  REQUIRE_GPU();
  auto lib = compile_shader(shader_test::kSumList, {kGpu, {}, "shader.cu"});
  Tensor a = host(std::vector<float>{1, 2, 3}).to(kGpu), out = zeros({3}, TensorOptions(kGpu).dtype(kFloat32));
  lib.kernel("sum_list")({std::vector<Tensor>{a, a}, 2, out, 3}, {.threads = {3}});
  const Tensor back = out.to(kHost);
  EXPECT_EQ(std::vector<float>(back.data_ptr<float>(), back.data_ptr<float>() + 3), (std::vector<float>{2, 4, 6}));
  const KernelLimits l = lib.kernel("sum_list").limits();
  EXPECT_GE(l.max_threads_per_group, 256);
  EXPECT_GT(l.registers, 0);
  EXPECT_THROW(lib.kernel("sum_list")({std::vector<Tensor>{a}, 1, out, 3}, {.threads = {3}, .group_size = {4096}}),
               ValueError);
  EXPECT_THROW(lib.kernel("sum_list")({std::vector<Tensor>{host(std::vector<float>{1})}, 1, out, 3}, {.threads = {3}}),
               ValueError);  // a host tensor for a CUDA library
}

#if __has_include("kernels/error_buffer.h")
TEST(CudaShader, ErrorBufferReportsRaiseAtTheNextSynchronization) {
  REQUIRE_GPU();
  auto lib = compile_shader(R"(
#include "kernels/error_buffer.h"
__global__ void check(ingot::ErrorBuffer* errors, const int* index, int n, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && index[i] >= size) INGOT_REPORT_ERROR(errors, "index %d is out of bounds for size %d", index[i], size);
})", {kGpu, {}, "shader.cu"});
  Tensor index = host(std::vector<int32_t>{0, 9, 1}).to(kGpu);
  lib.kernel("check")({index, 3, 3}, {.threads = {3}});
  try {
    cuda::synchronize(0);
    FAIL() << "no error raised";
  } catch (const AcceleratorError& e) {
    EXPECT_NE(std::string(e.what()).find("index 9 is out of bounds for size 3"), std::string::npos) << e.what();
  }
  lib.kernel("check")({index, 3, 10}, {.threads = {3}});
  cuda::synchronize(0);  // cleared, and this launch reported nothing
}
#endif

}  // namespace
}  // namespace ingot
