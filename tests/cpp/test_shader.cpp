// compile_shader on the CPU: CUDA-dialect kernels built by the host compiler, threads as fibers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "backend/cuda/compile_cache.h"
#include "ingot/ingot.h"
#include "shader_test_kernels.h"

namespace ingot {
namespace {

const ShaderOptions kCpu{Device(kCPU), {}, "shader.cu"};

template <typename T>
Tensor host(const std::vector<T>& v) {
  Tensor t = empty({static_cast<int64_t>(v.size())}, dtype_v<T>);
  std::copy(v.begin(), v.end(), t.data_ptr<T>());
  return t;
}
template <typename T>
std::vector<T> values(const Tensor& t) {
  const Tensor c = t.to(Device(kCPU)).contiguous();
  return std::vector<T>(c.data_ptr<T>(), c.data_ptr<T>() + c.numel());
}
std::vector<float> ramp(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i % 13) - 6.0f;
  return v;
}

template <typename E, typename F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception of the expected type";
  return {};
}

TEST(Shader, ScaleRunsEveryThreadOfTheTotal) {
  const int n = 1000;  // not a multiple of the group
  auto lib = compile_shader(shader_test::kScale, kCpu);
  Tensor x = host(ramp(n)), y = zeros({n}, kFloat32);
  lib.kernel("scale")({x, y, 2.5, n}, {.threads = {n}, .group_size = {128}});
  const std::vector<float> got = values<float>(y), in = ramp(n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], 2.5f * in[static_cast<size_t>(i)]) << i;
}

TEST(Shader, BarrierTreeReductionGivesEachGroupsSum) {
  const int n = 256 * 5 + 17;
  auto lib = compile_shader(shader_test::kBlockSum, kCpu);
  const std::vector<float> in = ramp(n);
  const int groups = (n + 255) / 256;
  Tensor partial = full({groups}, -1.0, kFloat32);
  lib.kernel("block_sum")({host(in), partial, n}, {.threads = {groups * 256}, .group_size = {256}});
  const std::vector<float> got = values<float>(partial);
  for (int g = 0; g < groups; ++g) {
    float want = 0;
    for (int i = g * 256; i < std::min(n, (g + 1) * 256); ++i) want += in[static_cast<size_t>(i)];
    EXPECT_EQ(got[static_cast<size_t>(g)], want) << "group " << g;
  }
}

TEST(Shader, AtomicsHistogramCountsEveryValue) {
  const int n = 5000, nbins = 7;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<size_t>(i)] = (i * 37) % 101;
  Tensor bins = zeros({nbins}, kInt32), total = zeros({1}, kInt64), maxv = zeros({1}, kInt32);
  auto lib = compile_shader(shader_test::kHistogram, kCpu);
  lib.kernel("histogram")({host(in), bins, total, maxv, n, nbins}, {.threads = {n}, .group_size = {64}});
  std::vector<int32_t> want(nbins, 0);
  for (int v : in) ++want[static_cast<size_t>(v % nbins)];
  EXPECT_EQ(values<int32_t>(bins), want);
  EXPECT_EQ(values<int64_t>(total)[0], std::accumulate(in.begin(), in.end(), int64_t{0}));
  EXPECT_EQ(values<int32_t>(maxv)[0], 100);
}

TEST(Shader, WarpShuffleSumsEachWarp) {
  const int n = 1000;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<size_t>(i)] = i % 9 + 1;
  auto lib = compile_shader(shader_test::kWarpSum, kCpu);
  Tensor out = zeros({1}, kInt32);
  lib.kernel("warp_sum")({host(in), out, n}, {.threads = {n}, .group_size = {96}});
  EXPECT_EQ(values<int32_t>(out)[0], std::accumulate(in.begin(), in.end(), 0));
}

TEST(Shader, TemplateKernelsAreInstantiatedByName) {
  auto lib = compile_shader(shader_test::kTemplateScale, kCpu);
  EXPECT_EQ(lib.kernel_names(), std::vector<std::string>{"tscale"});
  Tensor xd = host(std::vector<double>{1, 2, 3}), yd = zeros({3}, kFloat64);
  lib.kernel("tscale<double>")({xd, yd, 0.5, 3}, {.threads = {3}});
  EXPECT_EQ(values<double>(yd), (std::vector<double>{0.5, 1, 1.5}));
  Tensor xi = host(std::vector<int64_t>{1, 2, 3}), yi = zeros({3}, kInt64);
  lib.kernel("tscale<long long>")({xi, yi, 3, 3}, {.threads = {3}});
  EXPECT_EQ(values<int64_t>(yi), (std::vector<int64_t>{3, 6, 9}));
  EXPECT_NE(message_of<ValueError>([&] { lib.kernel("tscale"); }).find("is a template"), std::string::npos);
}

TEST(Shader, TwoDimensionalGroupsWithDynamicSharedMemoryAndIncludes) {
  const int rows = 37, cols = 21;
  std::vector<float> in(rows * cols);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  auto lib = compile_shader(shader_test::kTranspose, kCpu);
  Tensor out = zeros({cols * rows}, kFloat32);
  lib.kernel("transpose")({host(in), out, rows, cols},
                          {.threads = {cols, rows}, .group_size = {8, 4}, .shared_memory_bytes = 32 * 4});
  const std::vector<float> got = values<float>(out);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) ASSERT_EQ(got[static_cast<size_t>(c * rows + r)], in[static_cast<size_t>(r * cols + c)]);
  }
}

TEST(Shader, TensorListsBecomePointerArrays) {
  auto lib = compile_shader(shader_test::kSumList, kCpu);
  Tensor a = host(std::vector<float>{1, 2, 3}), b = host(std::vector<float>{10, 20, 30}), out = zeros({3}, kFloat32);
  lib.kernel("sum_list")({std::vector<Tensor>{a, b, a}, 3, out, 3}, {.threads = {3}});
  EXPECT_EQ(values<float>(out), (std::vector<float>{12, 24, 36}));
}

TEST(Shader, TensorsBindWithTheirStorageOffset) {
  auto lib = compile_shader(shader_test::kScale, kCpu);
  Tensor x = host(std::vector<float>{1, 2, 3, 4, 5, 6}), y = zeros({6}, kFloat32);
  lib.kernel("scale")({x.slice(0, 2), y.slice(0, 3), 10.0, 3}, {.threads = {3}});
  EXPECT_EQ(values<float>(y), (std::vector<float>{0, 0, 0, 30, 40, 50}));
}

TEST(Shader, ArgumentErrorsNameTheParameter) {
  auto lib = compile_shader(shader_test::kScale, kCpu);
  auto k = lib.kernel("scale");
  Tensor f = zeros({4}, kFloat32), i = zeros({4}, kInt32);
  std::string m = message_of<TypeError>([&] { k({i, f, 1.0, 4}, {.threads = {4}}); });
  EXPECT_NE(m.find("'x'"), std::string::npos) << m;
  EXPECT_NE(m.find("int32"), std::string::npos) << m;
  m = message_of<TypeError>([&] { k({f, f, 1.0}, {.threads = {4}}); });
  EXPECT_NE(m.find("takes 4 arguments, got 3"), std::string::npos) << m;
  m = message_of<TypeError>([&] { k({f, f, 1.0, 4, 5}, {.threads = {4}}); });
  EXPECT_NE(m.find("got 5"), std::string::npos) << m;
  m = message_of<OverflowError>([&] { k({f, f, 1.0, int64_t{1} << 40}, {.threads = {4}}); });
  EXPECT_NE(m.find("'n'"), std::string::npos) << m;
  m = message_of<OverflowError>([&] { k({f, f, 1e300, 4}, {.threads = {4}}); });
  EXPECT_NE(m.find("'a'"), std::string::npos) << m;
  m = message_of<TypeError>([&] { k({f, f, 1.0, 4.5}, {.threads = {4}}); });
  EXPECT_NE(m.find("takes an integer"), std::string::npos) << m;
}

TEST(Shader, FloatingScalarsOverflowExactlyWhenTheyRoundToInfinity) {
  auto lib = compile_shader("__global__ void k(float* out, half h, float f) { out[0] = (float)h; out[1] = f; }", kCpu);
  auto k = lib.kernel("k");
  Tensor out = zeros({2}, kFloat32);
  k({out, 65519.0, 0x1.fffffefffffffp127}, {.threads = {1}});  // round down to the largest finite
  EXPECT_EQ(values<float>(out), (std::vector<float>{65504.0f, std::numeric_limits<float>::max()}));
  EXPECT_THROW(k({out, 65520.0, 1.0}, {.threads = {1}}), OverflowError);
  EXPECT_THROW(k({out, 1.0, 0x1.ffffffp127}, {.threads = {1}}), OverflowError);
  EXPECT_THROW(k({out, 1.0, -1e300}, {.threads = {1}}), OverflowError);
  k({out, -INFINITY, NAN}, {.threads = {1}});  // not finite: passed as they are
  EXPECT_EQ(values<float>(out)[0], -INFINITY);
  EXPECT_TRUE(std::isnan(values<float>(out)[1]));
}

TEST(Shader, BadLaunchConfigurationsFailBeforeRunning) {
  auto lib = compile_shader(shader_test::kScale, kCpu);
  auto k = lib.kernel("scale");
  Tensor x = host(std::vector<float>{1, 2}), y = zeros({2}, kFloat32);
  auto expect_value_error = [&](LaunchConfig c, const char* part) {
    const std::string m = message_of<ValueError>([&] { k({x, y, 3.0, 2}, c); });
    EXPECT_NE(m.find(part), std::string::npos) << m;
  };
  expect_value_error({.threads = {2}, .group_size = {2048}}, "limit of 1024");
  expect_value_error({.threads = {2}, .group_size = {64, 64}}, "group_size has 2 dims");
  expect_value_error({.threads = {2, 2}, .group_size = {64, 64}}, "4096 threads");
  expect_value_error({.threads = {0}}, "threads[0] is 0");
  expect_value_error({.threads = {-4}}, "threads[0] is -4");
  expect_value_error({.threads = {2}, .group_size = {0}}, "group_size[0] is 0");
  expect_value_error({.threads = {}}, "1 to 3 sizes");
  expect_value_error({.threads = {1, 1, 1, 1}}, "1 to 3 sizes");
  expect_value_error({.threads = {2}, .shared_memory_bytes = -1}, "negative");
  EXPECT_EQ(values<float>(y), (std::vector<float>{0, 0}));  // nothing ran
}

TEST(Shader, UnknownKernelNamesTheKernelsThereAre) {
  auto lib = compile_shader(shader_test::kScale, kCpu);
  const std::string m = message_of<ValueError>([&] { lib.kernel("scal"); });
  EXPECT_NE(m.find("defines: scale"), std::string::npos) << m;
}

TEST(Shader, CompileErrorsCarryTheLogWithTheUsersLineNumbers) {
  const std::string src = "// line 1\n__global__ void k(float* x) {\n  x[0] = undeclared_name;\n}\n";
  const std::string m = message_of<CompileError>([&] { compile_shader(src, kCpu); });
  EXPECT_NE(m.find("shader.cu:3:"), std::string::npos) << m;
  EXPECT_NE(m.find("undeclared_name"), std::string::npos) << m;
}

TEST(Shader, TwoSourcesDefiningOneKernelNameKeepTheirOwnCode) {
  const char* one = "__global__ void fill(int* x) { x[threadIdx.x] = 1; }";
  const char* two = "__global__ void fill(int* x) { x[threadIdx.x] = 2; }";
  Tensor a = zeros({4}, kInt32), b = zeros({4}, kInt32);
  compile_shader(one, kCpu).kernel("fill")({a}, {.threads = {4}});
  compile_shader(two, kCpu).kernel("fill")({b}, {.threads = {4}});
  EXPECT_EQ(values<int32_t>(a), (std::vector<int32_t>(4, 1)));
  EXPECT_EQ(values<int32_t>(b), (std::vector<int32_t>(4, 2)));
}

TEST(Shader, ASecondCompileOfASourceIsACacheHit) {
  const std::string src = "__global__ void k(int* x) { x[0] = " + std::to_string(std::rand()) + "; }";
  const auto before = cuda::kernel_cache().stats();
  compile_shader(src, kCpu);
  const auto mid = cuda::kernel_cache().stats();
  compile_shader(src, kCpu);
  const auto after = cuda::kernel_cache().stats();
  EXPECT_EQ(mid.misses + mid.memory_hits + mid.disk_hits, before.misses + before.memory_hits + before.disk_hits + 1);
  // The second compile finds the loaded object without asking the cache or the compiler.
  EXPECT_EQ(after.misses, mid.misses);
}

TEST(Shader, BarriersNotEveryThreadReachesAreAnError) {
  // Half a warp waits at the warp's barrier, the other half at the block's: neither completes.
  auto lib = compile_shader(
      "__global__ void bad(int* x) { if (threadIdx.x < 16) __syncwarp(); else __syncthreads(); }", kCpu);
  Tensor x = zeros({32}, kInt32);
  const std::string m = message_of<AcceleratorError>([&] { lib.kernel("bad")({x}, {.threads = {32}, .group_size = {32}}); });
  EXPECT_NE(m.find("different barriers"), std::string::npos) << m;
}

TEST(Shader, SharedMemoryIsPerGroupAndLocalsPerThread) {
  // Each group writes its index into shared memory, waits, and every thread reads it back.
  auto lib = compile_shader(R"(
__global__ void k(int* out) {
  __shared__ int g;
  int mine = threadIdx.x * 3;
  if (threadIdx.x == 0) g = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = g * 1000 + mine;
})", kCpu);
  Tensor out = zeros({8 * 32}, kInt32);
  lib.kernel("k")({out}, {.threads = {8 * 32}, .group_size = {32}});
  const std::vector<int32_t> got = values<int32_t>(out);
  for (int i = 0; i < 8 * 32; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], (i / 32) * 1000 + (i % 32) * 3) << i;
}

#if __has_include("kernels/error_buffer.h")
TEST(Shader, ErrorBufferParametersAreBoundByIngotAndCheckedAfterACpuLaunch) {
  auto lib = compile_shader(R"(
#include "kernels/error_buffer.h"
__global__ void gather(ingot::ErrorBuffer* errors, const int* index, float* out, int n, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (index[i] < 0 || index[i] >= size) {
    INGOT_REPORT_ERROR(errors, "index %d is out of bounds for size %d", index[i], size);
    return;
  }
  out[i] = static_cast<float>(index[i]);
})", kCpu);
  auto k = lib.kernel("gather");
  EXPECT_EQ(k.params().size(), 5u);
  Tensor out = zeros({3}, kFloat32);
  k({host(std::vector<int32_t>{0, 1, 2}), out, 3, 3}, {.threads = {3}});  // the caller passes 4
  EXPECT_EQ(values<float>(out), (std::vector<float>{0, 1, 2}));
  const std::string m = message_of<AcceleratorError>(
      [&] { k({host(std::vector<int32_t>{0, 7, 2}), out, 3, 3}, {.threads = {3}}); });
  EXPECT_NE(m.find("index 7 is out of bounds for size 3"), std::string::npos) << m;
  k({host(std::vector<int32_t>{2, 1, 0}), out, 3, 3}, {.threads = {3}});  // the buffer was cleared
  EXPECT_EQ(values<float>(out), (std::vector<float>{2, 1, 0}));
}
#else
TEST(Shader, ErrorBufferParametersAreRefusedWithoutTheErrorBuffer) {
  auto lib = compile_shader("namespace ingot { struct ErrorBuffer; }\n"
                            "__global__ void k(ingot::ErrorBuffer* errors, float* x) {}\n", kCpu);
  EXPECT_EQ(lib.kernel("k").params().size(), 2u);
  Tensor x = zeros({1}, kFloat32);
  EXPECT_THROW(lib.kernel("k")({x}, {.threads = {1}}), NotImplementedError);
  EXPECT_THROW(lib.kernel("k")({x, x}, {.threads = {1}}), TypeError);
}
#endif

}  // namespace
}  // namespace ingot
