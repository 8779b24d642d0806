// Functor semantics and the portable type system, checked on the host without the library.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/ops/binary.h"
#include "kernels/ops/comparison.h"
#include "kernels/ops/unary.h"

namespace ingot {
namespace {

static_assert(is_floating_point_v<Half> && is_floating_point_v<BFloat16> && is_floating_point_v<double>);
static_assert(!is_floating_point_v<int> && is_integral_v<bool> && is_integral_v<int64_t>);
static_assert(is_signed_v<int8_t> && !is_signed_v<uint8_t> && is_signed_v<Half>);
static_assert(is_same_v<opmath_t<Half>, float> && is_same_v<opmath_t<BFloat16>, float>);
static_assert(is_same_v<opmath_t<int16_t>, int16_t> && is_same_v<opmath_t<double>, double>);
static_assert(is_same_v<accum_t<Half>, float> && is_same_v<accum_t<int8_t>, int64_t> &&
              is_same_v<accum_t<bool>, int64_t> && is_same_v<accum_t<float>, float>);
static_assert(is_same_v<make_int_seq<3>, int_seq<0, 1, 2>>);
static_assert(is_same_v<decltype(precise::atan2(Half(1.0f), Half(1.0f))), float>);

TEST(KernelsSemantics, SignedIntegerAddWrapsInsteadOfOverflowing) {
  const int32_t max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(add_functor()(max, int32_t{1}, int32_t{1}), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(add_functor()(int8_t{127}, int8_t{1}, int8_t{1}), int8_t{-128});
}

TEST(KernelsSemantics, IntegerMulWrapsModuloTwoToTheBits) {
  EXPECT_EQ(mul_functor()(int64_t{1} << 62, int64_t{4}), int64_t{0});
  EXPECT_EQ(mul_functor()(int16_t{300}, int16_t{300}), static_cast<int16_t>(90000 - 65536));
}

TEST(KernelsSemantics, NegOfMostNegativeIntegerIsItself) {
  EXPECT_EQ(neg_functor()(std::numeric_limits<int64_t>::min()), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(neg_functor()(uint8_t{1}), uint8_t{255});
}

TEST(KernelsSemantics, BoolAddIsLogicalOrAndMulIsLogicalAnd) {
  EXPECT_TRUE(add_functor()(true, true, true));
  EXPECT_TRUE(add_functor()(false, true, true));
  EXPECT_FALSE(add_functor()(false, true, false));
  EXPECT_FALSE(mul_functor()(true, false));
}

TEST(KernelsSemantics, TrueDivisionByZeroGivesInfinityOrNan) {
  EXPECT_EQ(div_functor()(1.0f, 0.0f), INFINITY);
  EXPECT_EQ(div_functor()(-1.0f, 0.0f), -INFINITY);
  EXPECT_TRUE(std::isnan(div_functor()(0.0f, 0.0f)));
}

TEST(KernelsSemantics, EqTreatsNanAsUnequalAndSignedZerosAsEqual) {
  EXPECT_FALSE(eq_functor()(NAN, NAN));
  EXPECT_TRUE(eq_functor()(0.0, -0.0));
}

TEST(KernelsSemantics, ConvertToBoolTestsForNonzero) {
  EXPECT_TRUE(convert<bool>(Half(0.5f)));
  EXPECT_FALSE(convert<bool>(BFloat16(-0.0f)));
  EXPECT_TRUE(convert<bool>(int64_t{-7}));
  EXPECT_EQ(convert<int32_t>(Half(-2.75f)), -2);
  EXPECT_EQ(convert<float>(true), 1.0f);
}

TEST(KernelsSemantics, LoadAsConvertsFromTheRuntimeDtype) {
  const BFloat16 v(3.0f);
  EXPECT_EQ(load_as<double>(reinterpret_cast<const char*>(&v), ScalarType::BFloat16), 3.0);
  char buf[8];
  store_as(buf, ScalarType::Int16, 41.9f);
  EXPECT_EQ(read_bytes<int16_t>(buf), 41);
}

}  // namespace
}  // namespace ingot

TEST(KernelConvert, FloatToNarrowIntegerWrapsThroughInt64LikeCopy) {
  EXPECT_EQ((ingot::convert<uint8_t>(-1.0f)), uint8_t{255});
  EXPECT_EQ((ingot::convert<int8_t>(200.7)), int8_t{-56});
  EXPECT_EQ((ingot::convert<int16_t>(ingot::BFloat16(-3.5f))), int16_t{-3});
}
