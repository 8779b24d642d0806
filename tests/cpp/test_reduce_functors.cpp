// Reduction functors' block hooks (kernels/reduce.h: reduce_block), checked on the host against
// the functor's own element rule and a float64 reference. The CUDA drivers hand these hooks blocks
// of 8 to 32 values (a thread's registers), the CPU cascade blocks of 256, so both sizes are
// checked from the one source.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/ops/reduction.h"

namespace ingot {
namespace {

template <typename T>
std::vector<T> normal_block(int n, double mean, double sd, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist(mean, sd);
  std::vector<T> v(static_cast<size_t>(n));
  for (T& x : v) x = static_cast<T>(dist(gen));
  return v;
}

// Mean and sum of squared deviations of the stored values, in long double, two passes.
template <typename T>
std::pair<double, double> reference_moments(const std::vector<T>& v) {
  long double s = 0;
  for (T x : v) s += static_cast<double>(static_cast<float>(x));
  const long double mean = s / static_cast<long double>(v.size());
  long double m2 = 0;
  for (T x : v) {
    const long double e = static_cast<double>(static_cast<float>(x)) - mean;
    m2 += e * e;
  }
  return {static_cast<double>(mean), static_cast<double>(m2)};
}

template <typename T>
void expect_var_block_matches(const std::vector<T>& v, double rel) {
  var_reduction<T> ops{};
  const int n = static_cast<int>(v.size());
  const MomentsAcc<double> got = ops.reduce_block(v.data(), n);
  const auto [mean, m2] = reference_moments(v);
  EXPECT_EQ(got.n, n);
  // The mean to float32 precision of the data's scale (a mean near 0 has no relative precision).
  const double scale = std::abs(mean) + std::sqrt(m2 / n);
  EXPECT_NEAR(got.mean(), mean, 2e-7 * scale + 1e-300) << "n=" << n;
  EXPECT_NEAR(got.m2(), m2, rel * m2 + 1e-300) << "n=" << n << " mean=" << mean;
}

TEST(ReduceBlockHook, VarFloatBlocksMatchTheFloat64Moments) {
  for (int n : {8, 16, 32, 256}) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
      // Worst case over 20 blocks: a few float32 ulps of m2 (sum of n squares in two chains).
      expect_var_block_matches(normal_block<float>(n, 0.0, 1.0, seed), 4e-6);
      expect_var_block_matches(normal_block<float>(n, 1e4, 1e-2, seed), 4e-6);  // mean >> sd
      expect_var_block_matches(normal_block<BFloat16>(n, 3.0, 2.0, seed), 4e-6);
      expect_var_block_matches(normal_block<Half>(n, -7.0, 0.5, seed), 4e-6);
    }
  }
}

TEST(ReduceBlockHook, VarBlocksKeepDataWithALargeMean) {
  // 1e8 + N(0, 1) stored in float32 sits on multiples of 8: the block mean, the shift and the
  // deviations stay exact, as in float64.
  for (int n : {8, 16, 32}) {
    const auto v = normal_block<float>(n, 1e8, 20.0, 5);
    expect_var_block_matches(v, 1e-9);
  }
}

TEST(ReduceBlockHook, VarBlocksWithOverflowInfAndNanTakeTheFloat64Path) {
  var_reduction<float> ops{};
  const float big = 3e38f;
  std::vector<float> v(16, big);
  v[3] = -big;
  // The float32 sum overflows; the float64 path still gives finite moments.
  const auto acc = ops.reduce_block(v.data(), 16);
  const auto [mean, m2] = reference_moments(v);
  EXPECT_TRUE(std::isfinite(acc.m2()));
  EXPECT_NEAR(acc.mean(), mean, 1e-12 * std::abs(mean));
  EXPECT_NEAR(acc.m2(), m2, 1e-12 * m2);
  // Deviations whose squares overflow float32 (sum fine, sum of squares not).
  std::vector<float> w(16, 0.0f);
  w[0] = 2e19f;
  w[1] = -2e19f;
  const auto accw = ops.reduce_block(w.data(), 16);
  EXPECT_NEAR(accw.m2(), 8e38, 1e-6 * 8e38);
  v.assign(16, 1.0f);
  v[7] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(ops.variance(ops.reduce_block(v.data(), 16))));
  v[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(ops.variance(ops.reduce_block(v.data(), 16))));
}

TEST(ReduceBlockHook, VarBlockOfEqualValuesHasZeroSpread) {
  var_reduction<float> ops{};
  const std::vector<float> v(32, 0.1f);
  const auto acc = ops.reduce_block(v.data(), 32);
  EXPECT_EQ(acc.m2(), 0.0);
  EXPECT_FLOAT_EQ(static_cast<float>(acc.mean()), 0.1f);
}

// logsumexp: the block hook against the element rule, including the special values.
template <typename T>
void expect_lse_block_matches_elements(const std::vector<T>& v) {
  logsumexp_reduction<T> ops{};
  auto by_element = ops.identity();
  for (T x : v) by_element = ops.reduce(by_element, static_cast<opmath_t<T>>(x), 0);
  const auto block = ops.reduce_block(v.data(), static_cast<int>(v.size()));
  const float want = static_cast<float>(ops.project(by_element)), got = static_cast<float>(ops.project(block));
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got));
  } else if (std::isinf(want)) {
    EXPECT_EQ(got, want);
  } else {
    EXPECT_NEAR(got, want, 4 * std::numeric_limits<float>::epsilon() * std::max(1.0f, std::abs(want)));
  }
}

TEST(ReduceBlockHook, LogsumexpBlocksMatchTheElementRule) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (int n : {8, 16, 32, 256}) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
      expect_lse_block_matches_elements(normal_block<float>(n, 0.0, 30.0, seed));
      expect_lse_block_matches_elements(normal_block<BFloat16>(n, -5.0, 3.0, seed));
      expect_lse_block_matches_elements(normal_block<double>(n, 100.0, 1.0, seed));
    }
    auto v = normal_block<float>(n, 0.0, 1.0, 9);
    v[1] = -inf;
    expect_lse_block_matches_elements(v);  // -inf adds nothing
    v[2] = inf;
    expect_lse_block_matches_elements(v);  // +inf wins
    v[3] = nan;
    expect_lse_block_matches_elements(v);  // NaN wins over everything
    v.assign(static_cast<size_t>(n), -inf);
    expect_lse_block_matches_elements(v);  // all -inf: -inf
    v[n - 1] = nan;
    expect_lse_block_matches_elements(v);
    v = normal_block<float>(n, 0.0, 1.0, 10);
    v[n / 2] = nan;
    expect_lse_block_matches_elements(v);  // NaN among finite values
  }
}

}  // namespace
}  // namespace ingot
