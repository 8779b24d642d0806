// Dim ops (softmax, log_softmax, cumsum, cumprod, cummax, cummin) on CUDA against the CPU backend,
// one shape per CUDA strategy (rows, chunked scans, cols, cols_split). Integer and index results
// must be equal; float results within a bound scaled by the accumulation's magnitude. Skipped
// without a GPU; scripts/gpu-check also runs them under compute-sanitizer memcheck.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ingot/cuda.h"
#include "ingot/ingot.h"

namespace ingot {
namespace {

#define REQUIRE_GPU() \
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device here"

const Device kGpu(kCUDA, 0);

struct Shape {
  std::vector<int64_t> sizes;
  int64_t dim;
};
// rows; one long row (chunked scan); n < 64 columns (cols); few columns (cols_split); n = 1;
// softmax rows narrower than a warp, rows that fill 1024 threads' registers, and aligned rows too
// long for them (read twice).
const std::vector<Shape> kShapes = {{{7, 1000}, 1},  {{1, 100003}, 1}, {{40, 9000}, 0},
                                    {{3000, 5}, 0},  {{2, 1, 33}, 1},  {{67, 128}, 1},
                                    {{3, 32768}, 1}, {{2, 40000}, 1}};

// Floats: 4 sin(0.37 i), or (near_one) 1 + sin(0.37 i) / 64 so that long products stay finite and
// do not depend on the order of evaluation; integers: small values of both signs.
Tensor sample(const std::vector<int64_t>& sizes, ScalarType dtype, bool near_one = false) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const double w = std::sin(0.37 * static_cast<double>(i));
    v[static_cast<size_t>(i)] = is_floating_type(dtype) ? (near_one ? 1 + w / 64 : 4 * w)
                                                        : static_cast<double>((i * 7919) % 11 - 5);
  }
  return from_blob(v.data(), sizes, kFloat64).to(dtype, true);
}

double tolerance(ScalarType dtype) {
  switch (dtype) {
    case kFloat16:
      return 2e-3;
    case kBFloat16:
      return 1.6e-2;
    case kFloat32:
      return 1e-4;
    default:
      return 1e-10;
  }
}

// |gpu - cpu| <= tol * (|cpu| + scale) elementwise, NaN where the CPU has NaN; exact for integers.
void expect_close(const Tensor& cpu, const Tensor& gpu, double scale, const std::string& what) {
  ASSERT_EQ(gpu.device(), kGpu) << what;
  ASSERT_EQ(gpu.dtype(), cpu.dtype()) << what;
  ASSERT_EQ(gpu.sizes(), cpu.sizes()) << what;
  const Tensor a = cpu.to(kFloat64, true).contiguous();
  const Tensor b = gpu.to(Device(kCPU)).to(kFloat64, true).contiguous();
  const double* pa = a.data_ptr<double>();
  const double* pb = b.data_ptr<double>();
  const double tol = is_floating_type(cpu.dtype()) ? tolerance(cpu.dtype()) : 0.0;
  int64_t bad = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const bool ok = std::isnan(pa[i]) ? std::isnan(pb[i])
                                      : pa[i] == pb[i] || std::abs(pa[i] - pb[i]) <=
                                                              tol * (std::abs(pa[i]) + scale);
    if (!ok && bad++ < 3)
      ADD_FAILURE() << what << " at " << i << ": cpu " << pa[i] << ", cuda " << pb[i];
  }
  EXPECT_EQ(bad, 0) << what;
}

const std::vector<ScalarType> kAll = {kBool,  kUInt8,   kInt8,     kInt16,   kInt32,
                                      kInt64, kFloat16, kBFloat16, kFloat32, kFloat64};

TEST(CudaDim, ScansMatchTheCpuBackend) {
  REQUIRE_GPU();
  for (const Shape& s : kShapes) {
    for (ScalarType dtype : kAll) {
      const Tensor x = sample(s.sizes, dtype);
      const Tensor xg = x.to(kGpu);
      const std::string what = std::string(dtype_name(dtype)) + " dim " + std::to_string(s.dim) +
                               " of " + std::to_string(s.sizes[0]) + "x...";
      // A scale of n * 4 covers cumsum's reordered float sums (|x| <= 4).
      expect_close(cumsum(x, s.dim), cumsum(xg, s.dim), 4.0 * static_cast<double>(x.size(s.dim)),
                   "cumsum " + what);
      const Tensor p = sample(s.sizes, dtype, true);
      expect_close(cumprod(p, s.dim), cumprod(p.to(kGpu), s.dim), 0.0, "cumprod " + what);
      for (bool max : {true, false}) {
        const auto [v, i] = max ? cummax(x, s.dim) : cummin(x, s.dim);
        const auto [vg, ig] = max ? cummax(xg, s.dim) : cummin(xg, s.dim);
        expect_close(v, vg, 0.0, (max ? "cummax values " : "cummin values ") + what);
        expect_close(i, ig, 0.0, (max ? "cummax indices " : "cummin indices ") + what);
      }
    }
  }
}

TEST(CudaDim, SoftmaxMatchesTheCpuBackend) {
  REQUIRE_GPU();
  for (const Shape& s : kShapes) {
    for (ScalarType dtype : {kFloat16, kBFloat16, kFloat32, kFloat64}) {
      const Tensor x = sample(s.sizes, dtype);
      const Tensor xg = x.to(kGpu);
      const std::string what = std::string(dtype_name(dtype)) + " dim " + std::to_string(s.dim);
      // The absolute part (0.01 tol) covers float16's subnormal probabilities.
      expect_close(softmax(x, s.dim), softmax(xg, s.dim), 0.01, "softmax " + what);
      expect_close(log_softmax(x, s.dim), log_softmax(xg, s.dim), 1.0, "log_softmax " + what);
    }
  }
}

TEST(CudaDim, SpecialSoftmaxRowsMatchTheCpuBackend) {
  REQUIRE_GPU();
  const double inf = INFINITY, nan = NAN;
  std::vector<double> v = {-inf, -inf, -inf, 1, -inf, 2, 1, inf, 2, 1, nan, 2, 1e4, 1e4 - 1, -1e4};
  const Tensor x = from_blob(v.data(), {5, 3}, kFloat64).to(kFloat32, true);
  expect_close(softmax(x, 1), softmax(x.to(kGpu), 1), 0.01, "softmax special rows");
  expect_close(log_softmax(x, 1), log_softmax(x.to(kGpu), 1), 1.0, "log_softmax special rows");
}

// A row that starts one element past a 16-byte boundary takes the scalar (unaligned) loads.
TEST(CudaDim, MisalignedRowsMatchTheCpuBackend) {
  REQUIRE_GPU();
  for (int64_t n : {int64_t{128}, int64_t{4096}, int64_t{40000}}) {
    const Tensor x = sample({1, n + 1}, kFloat32).slice(1, 1);
    const Tensor full = sample({1, n + 1}, kFloat32).to(kGpu);
    const Tensor odd = full.slice(1, 1);
    ASSERT_TRUE(odd.is_contiguous());
    const std::string what = "misaligned n " + std::to_string(n);
    expect_close(softmax(x, 1), softmax(odd, 1), 0.01, "softmax " + what);
    expect_close(log_softmax(x, 1), log_softmax(odd, 1), 1.0, "log_softmax " + what);
    expect_close(cumsum(x, 1), cumsum(odd, 1), 4.0 * static_cast<double>(n), "cumsum " + what);
    const auto [v, i] = cummax(x, 1);
    const auto [vg, ig] = cummax(odd, 1);
    expect_close(v, vg, 0.0, "cummax values " + what);
    expect_close(i, ig, 0.0, "cummax indices " + what);
  }
}

TEST(CudaDim, OutArgumentsAndIndexScanTuple) {
  REQUIRE_GPU();
  const Tensor x = sample({4, 50}, kFloat32).to(kGpu);
  Tensor values = empty({4, 50}, TensorOptions(kFloat32).device(kGpu));
  Tensor indices = empty({50, 4}, TensorOptions(kInt64).device(kGpu)).t();
  auto [v, i] = cummax_out(values, indices, x, 1);
  EXPECT_TRUE(v.is_same(values) && i.is_same(indices));
  expect_close(std::get<1>(cummax(x.to(Device(kCPU)), 1)), indices, 0.0, "cummax indices out=");
}

}  // namespace
}  // namespace ingot
