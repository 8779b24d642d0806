#include <gtest/gtest.h>

#include <cmath>

#include "ingot/factories.h"
#include "kernels/philox.h"
#include "tests/cpp/tensor_values.h"

using namespace ingot;
using ingot::testing::values;

namespace {
philox::Counter kat(philox::Counter c, philox::Key k) { return philox::philox4x32_10(c, k); }
void expect_words(const philox::Counter& got, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  EXPECT_EQ(got.w[0], a);
  EXPECT_EQ(got.w[1], b);
  EXPECT_EQ(got.w[2], c);
  EXPECT_EQ(got.w[3], d);
}
}  // namespace

// Known answers from Random123's kat_vectors (philox4x32, 10 rounds).
TEST(Philox, MatchesRandom123KnownAnswers) {
  expect_words(kat({{0, 0, 0, 0}}, {{0, 0}}), 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8);
  expect_words(kat({{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}}, {{0xffffffff, 0xffffffff}}),
               0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd);
  expect_words(kat({{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, {{0xa4093822, 0x299f31d0}}),
               0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1);
}

TEST(Philox, ElementWordsDependOnlyOnSeedOffsetAndIndex) {
  const philox::Counter a = philox::element_words(7, 100, 5);
  const philox::Counter b = philox::element_words(7, 103, 2);
  EXPECT_EQ(a.w[0], b.w[0]);
  const philox::Counter c = philox::element_words(8, 100, 5);
  EXPECT_NE(a.w[0], c.w[0]);
  // The counter's high word carries offsets past 2^32.
  EXPECT_NE(philox::element_words(7, uint64_t{1} << 32, 0).w[0],
            philox::element_words(7, 0, 0).w[0]);
}

TEST(Random, RandIsInUnitIntervalForEveryFloatDtype) {
  for (ScalarType dt : {kFloat16, kBFloat16, kFloat32, kFloat64}) {
    Tensor r = rand({20000}, dt);
    EXPECT_EQ(r.dtype(), dt);
    double lo = 1, hi = 0;
    for (int64_t i = 0; i < r.numel(); ++i) {
      const double v = r.select(0, i).item<double>();
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    EXPECT_GE(lo, 0.0) << dt;
    EXPECT_LT(hi, 1.0) << dt;
    EXPECT_LT(lo, 0.01) << dt;  // and it actually spreads over the interval
    EXPECT_GT(hi, 0.99) << dt;
  }
}

TEST(Random, RandMeanAndVarianceAreUniform) {
  manual_seed(1);
  std::vector<float> v = values<float>(rand({100000}));
  double sum = 0, sq = 0;
  for (float x : v) sum += x, sq += double(x) * x;
  const double mean = sum / v.size(), var = sq / v.size() - mean * mean;
  EXPECT_NEAR(mean, 0.5, 0.01);
  EXPECT_NEAR(var, 1.0 / 12, 0.005);
}

TEST(Random, RandnHasZeroMeanUnitStd) {
  for (ScalarType dt : {kFloat32, kFloat64}) {
    manual_seed(2);
    Tensor r = randn({100000}, dt);
    std::vector<double> v;
    if (dt == kFloat32) {
      for (float x : values<float>(r)) v.push_back(x);
    } else {
      v = values<double>(r);
    }
    double sum = 0, sq = 0;
    int beyond3 = 0;
    for (double x : v) sum += x, sq += x * x, beyond3 += std::fabs(x) > 3;
    const double mean = sum / v.size(), sd = std::sqrt(sq / v.size() - mean * mean);
    EXPECT_NEAR(mean, 0.0, 0.02) << dt;
    EXPECT_NEAR(sd, 1.0, 0.02) << dt;
    EXPECT_NEAR(beyond3 / 1e5, 0.0027, 0.001) << dt;  // normal tails, not uniform-ish
  }
}

TEST(Random, RandintStaysInRangeAndHitsBothEnds) {
  Tensor r = randint(-3, 4, {10000});
  EXPECT_EQ(r.dtype(), kInt64);
  std::vector<int64_t> v = values<int64_t>(r);
  EXPECT_EQ(*std::min_element(v.begin(), v.end()), -3);
  EXPECT_EQ(*std::max_element(v.begin(), v.end()), 3);
  for (int64_t x : values<int32_t>(randint(0, 5, {1000}, kInt32))) EXPECT_TRUE(x >= 0 && x < 5);
  for (uint8_t x : values<uint8_t>(randint(250, 256, {1000}, kUInt8))) EXPECT_GE(x, 250);
  for (float x : values<float>(randint(0, 3, {100}, kFloat32))) EXPECT_EQ(x, std::floor(x));
  Tensor big = randint(INT64_MIN, INT64_MAX, {10});
  EXPECT_EQ(big.numel(), 10);
}

TEST(Random, RandintRejectsBadRanges) {
  EXPECT_THROW(randint(5, 5, {2}), ValueError);
  EXPECT_THROW(randint(0, 300, {2}, kUInt8), ValueError);
  EXPECT_THROW(randint(-1, 2, {2}, kUInt8), ValueError);
  EXPECT_THROW(randint(0, 2, {-2}), ValueError);
}

TEST(Random, ManualSeedReproduces) {
  manual_seed(42);
  Tensor a = rand({64});
  Tensor b = randn({8, 8});
  manual_seed(42);
  EXPECT_EQ(values<float>(rand({64})), values<float>(a));
  EXPECT_EQ(values<float>(randn({8, 8})), values<float>(b));
}

TEST(Random, AdvancingGivesNewValues) {
  manual_seed(42);
  std::vector<float> a = values<float>(rand({64}));
  std::vector<float> b = values<float>(rand({64}));
  EXPECT_NE(a, b);
  manual_seed(43);
  EXPECT_NE(values<float>(rand({64})), a);
}

TEST(Random, ConsecutiveDrawsContinueTheCounterStream) {
  // Element i depends only on (seed, offset + i): two draws equal one draw of the combined size.
  Generator g1(9), g2(9);
  std::vector<double> whole = values<double>(rand({10}, kFloat64, &g1));
  std::vector<double> first = values<double>(rand({4}, kFloat64, &g2));
  std::vector<double> rest = values<double>(rand({6}, kFloat64, &g2));
  first.insert(first.end(), rest.begin(), rest.end());
  EXPECT_EQ(whole, first);
  EXPECT_EQ(g1.offset(), 10u);
}

TEST(Random, ValuesFollowTheDocumentedScheme) {
  Generator g(123);
  g.advance(5);
  std::vector<float> v = values<float>(rand({3}, kFloat32, &g));
  for (int i = 0; i < 3; ++i) {
    const uint32_t w0 = philox::element_words(123, 5, static_cast<uint64_t>(i)).w[0];
    EXPECT_EQ(v[static_cast<size_t>(i)], static_cast<float>(w0 >> 8) / 16777216.0f);
  }
}

TEST(Random, ExplicitGeneratorLeavesDefaultAlone) {
  manual_seed(5);
  Generator g(5);
  rand({100}, kFloat32, &g);
  EXPECT_EQ(default_generator().offset(), 0u);
  EXPECT_EQ(g.offset(), 100u);
}

TEST(Random, IntegerDtypeForRandIsTypeError) {
  EXPECT_THROW(rand({2}, kInt32), TypeError);
  EXPECT_THROW(randn({2}, kBool), TypeError);
}

TEST(Random, EmptyAndZeroDim) {
  EXPECT_EQ(rand({0, 4}).numel(), 0);
  EXPECT_EQ(randn({}).dim(), 0);
  EXPECT_EQ(randint(0, 2, {}).dim(), 0);
}
