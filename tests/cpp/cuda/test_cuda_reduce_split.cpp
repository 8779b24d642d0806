// CUDA reductions past 32-bit offsets (src/backend/cuda/reduce.cpp): the launch is split into
// pieces, along output dims and then along reduced dims chained through an accumulation buffer.
// set_reduce_index_limit (INGOT_CUDA_REDUCE_INDEX_LIMIT at start-up) lowers the limit so that small
// inputs take every split path; the results must equal the CPU backend's (values within float
// tolerance, indices exactly).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/cuda/kernel_library.h"
#include "ingot/cuda.h"
#include "ingot/ingot.h"

namespace ingot {
namespace {

#define REQUIRE_GPU() \
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device here"

const Device kGpu(kCUDA, 0);

// 3 sin(0.61 i) with a few exact repeats of the maximum (ties: the first index wins) and, when
// asked, NaNs late in the tensor (the first NaN wins an argmax).
Tensor sample(const std::vector<int64_t>& sizes, ScalarType dtype, bool nans = false) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 3 * std::sin(0.61 * static_cast<double>(i));
  for (int64_t i = n / 3; i < n; i += n / 4 + 1) v[static_cast<size_t>(i)] = 3.5;
  if (nans) {
    v[static_cast<size_t>(n * 2 / 3)] = NAN;
    v[static_cast<size_t>(n - 2)] = NAN;
  }
  return from_blob(v.data(), sizes, kFloat64).to(dtype, true);
}

void expect_close(const Tensor& cpu, const Tensor& gpu, const std::string& what) {
  ASSERT_EQ(gpu.device(), kGpu) << what;
  ASSERT_EQ(gpu.sizes(), cpu.sizes()) << what;
  ASSERT_EQ(gpu.dtype(), cpu.dtype()) << what;
  const Tensor a = cpu.to(kFloat64, true).contiguous();
  const Tensor b = gpu.to(Device(kCPU)).to(kFloat64, true).contiguous();
  const double tol = is_floating_type(cpu.dtype()) ? 1e-4 : 0.0;
  int64_t bad = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.data_ptr<double>()[i], y = b.data_ptr<double>()[i];
    const bool ok = std::isnan(x) ? std::isnan(y) : x == y || std::abs(x - y) <= tol * (std::abs(x) + 1);
    if (!ok && bad++ < 3) ADD_FAILURE() << what << " at " << i << ": cpu " << x << ", cuda " << y;
  }
  EXPECT_EQ(bad, 0) << what;
}

// Sets the reduction launch limit for its lifetime, then restores the previous one.
class ScopedIndexLimit {
 public:
  explicit ScopedIndexLimit(int64_t limit) : old_(cuda::set_reduce_index_limit(limit)) {}
  ~ScopedIndexLimit() { cuda::set_reduce_index_limit(old_); }
  ScopedIndexLimit(const ScopedIndexLimit&) = delete;
  ScopedIndexLimit& operator=(const ScopedIndexLimit&) = delete;

 private:
  int64_t old_;
};

// Runs every case with the given limit (bytes per launch) and compares with the CPU.
void check_all(const char* limit) {
  ScopedIndexLimit scoped(std::stoll(limit));
  const Tensor x = sample({300, 77}, kFloat32);
  const Tensor xg = x.to(kGpu);
  const std::string at = std::string(" (limit ") + limit + ")";
  // Full reductions: one output, the reduction cut along its slowest dim into a chain.
  expect_close(sum(x), sum(xg), "sum" + at);
  expect_close(mean(x), mean(xg), "mean" + at);
  expect_close(var(x), var(xg), "var" + at);
  expect_close(logsumexp(x), logsumexp(xg), "logsumexp" + at);
  expect_close(argmax(x), argmax(xg), "argmax" + at);
  const Tensor xn = sample({300, 77}, kFloat32, true);
  expect_close(argmax(xn), argmax(xn.to(kGpu)), "argmax with NaNs" + at);
  // Inner and outer dims: outputs split, and rows chained.
  const std::vector<int64_t> d1 = {1}, d0 = {0};
  expect_close(sum(x, d1), sum(xg, d1), "sum dim 1" + at);
  expect_close(var(x, d0), var(xg, d0), "var dim 0" + at);
  const auto [vc, ic] = max(x, 0);
  const auto [vg, ig] = max(xg, 0);
  expect_close(vc, vg, "max dim 0 values" + at);
  expect_close(ic, ig, "max dim 0 indices" + at);
  expect_close(argmax(x, 1), argmax(xg, 1), "argmax dim 1" + at);
  // Several reduced dims, not contiguous: the slowest reduced dim is the one cut.
  const Tensor y = sample({6, 40, 35}, kFloat32).permute({2, 0, 1});
  const Tensor yg = y.to(kGpu);
  const std::vector<int64_t> d12 = {1, 2}, d02 = {0, 2};
  expect_close(sum(y, d12), sum(yg, d12), "sum dims 1,2 of a permuted tensor" + at);
  expect_close(var(y, d02), var(yg, d02), "var dims 0,2 of a permuted tensor" + at);
  expect_close(argmax(y), argmax(yg), "argmax of a permuted tensor" + at);
  // Integers accumulate in int64 exactly across pieces.
  const Tensor k = sample({500, 33}, kInt32);
  expect_close(sum(k), sum(k.to(kGpu)), "int32 sum" + at);
}

TEST(CudaReduceSplit, PiecesMatchTheCpuBackend) {
  REQUIRE_GPU();
  check_all("2147483647");  // one launch
  check_all("65536");       // a few pieces
  check_all("4096");        // many pieces, outputs split too
  check_all("256");         // pieces of a few dozen elements
}

}  // namespace
}  // namespace ingot
