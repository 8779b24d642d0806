#include <gtest/gtest.h>

#include <sstream>

#include "ingot/scalar.h"

using namespace ingot;

namespace {
std::string repr(const Scalar& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}
}  // namespace

TEST(Scalar, KindFollowsTheCppType) {
  EXPECT_TRUE(Scalar(true).is_bool());
  EXPECT_TRUE(Scalar(3).is_integral());
  EXPECT_TRUE(Scalar(uint8_t{3}).is_integral());
  EXPECT_TRUE(Scalar(3.0f).is_floating_point());
  EXPECT_TRUE(Scalar(Half(1.5f)).is_floating_point());
  EXPECT_TRUE(Scalar().is_integral());
}

TEST(Scalar, DtypeIsBoolInt64OrFloat64) {
  EXPECT_EQ(Scalar(false).dtype(), kBool);
  EXPECT_EQ(Scalar(int8_t{1}).dtype(), kInt64);
  EXPECT_EQ(Scalar(1.0f).dtype(), kFloat64);
}

TEST(Scalar, ToConverts) {
  EXPECT_EQ(Scalar(2.75).to<int>(), 2);
  EXPECT_EQ(Scalar(-2.75).to<int64_t>(), -2);
  EXPECT_EQ(Scalar(int64_t{1} << 40).to<int64_t>(), int64_t{1} << 40);
  EXPECT_EQ(static_cast<float>(Scalar(3).to<Half>()), 3.0f);
  EXPECT_EQ(static_cast<float>(Scalar(0.1).to<BFloat16>()), static_cast<float>(BFloat16(0.1f)));
  EXPECT_TRUE(Scalar(0.5).to<bool>());
}

TEST(Scalar, EqualityNeedsSameKind) {
  EXPECT_EQ(Scalar(1), Scalar(int64_t{1}));
  EXPECT_FALSE(Scalar(1) == Scalar(1.0));
  EXPECT_FALSE(Scalar(true) == Scalar(1));
}

TEST(Scalar, PrintsLikePython) {
  EXPECT_EQ(repr(true), "True");
  EXPECT_EQ(repr(-7), "-7");
  EXPECT_EQ(repr(2.0), "2.0");
  EXPECT_EQ(repr(0.1), "0.1");
  EXPECT_EQ(repr(1e300), "1e+300");
  EXPECT_EQ(repr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(repr(std::numeric_limits<double>::quiet_NaN()), "nan");
}
