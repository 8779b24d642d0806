// add, sub, mul, div: C++ overloads, alpha rules, scalar promotion and rounding. Values on every
// dtype and layout are checked by the OpInfo table (tests/python/test_opinfo.py).
#include <cmath>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

TEST(OpsBinary, SubOfBoolTensorsIsATypeErrorNamingSub) {
  const Tensor a = filled({3}, 1, kBool);
  const std::string msg = error_message<TypeError>([&] { sub(a, a); });
  EXPECT_NE(msg.find("sub"), std::string::npos) << msg;
}

TEST(OpsBinary, IntegerDivisionByZeroGivesInfinityOrNan) {
  const Tensor out = div(tensor_of({3, -3, 0}, {3}, kInt32), filled({3}, 0, kInt32));
  const std::vector<long double> v = values_of(out);
  EXPECT_EQ(v[0], INFINITY);
  EXPECT_EQ(v[1], -INFINITY);
  EXPECT_TRUE(std::isnan(v[2]));
}

TEST(OpsBinary, IntegerAlphaMustNotBeFloatingPoint) {
  const Tensor a = filled({2}, 1, kInt32);
  const std::string msg = error_message<TypeError>([&] { add(a, a, 1.5); });
  EXPECT_NE(msg.find("add"), std::string::npos) << msg;
  EXPECT_THROW(sub(a, a, 0.5), TypeError);
}

TEST(OpsBinary, BoolAlphaNeedsABoolResult) {
  EXPECT_THROW(add(filled({2}, 1), filled({2}, 1), true), TypeError);
}

TEST(OpsBinary, ScalarOtherPromotesByCategoryOnly) {
  // int8 tensor + int scalar stays int8 (and wraps); int tensor * float scalar becomes float32.
  const Tensor a = tensor_of({100, -100, 5}, {3}, kInt8);
  const Tensor s = add(a, Scalar(100));
  EXPECT_EQ(s.dtype(), kInt8);
  EXPECT_EQ(ints_of(s), (std::vector<int64_t>{-56, 0, 105}));
  const Tensor m = mul(a, Scalar(0.5));
  EXPECT_EQ(m.dtype(), kFloat32);
  EXPECT_EQ(values_of(m), (std::vector<long double>{50, -50, 2.5}));
  EXPECT_EQ(div(a, Scalar(4)).dtype(), kFloat32);
}

TEST(OpsBinary, IntegerScalarOutsideTheComputeDtypeIsAnOverflowErrorNamingOpValueAndDtype) {
  const Tensor a = tensor_of({1, 2}, {2}, kInt8);
  const std::string msg = error_message<OverflowError>([&] { add(a, Scalar(1000)); });
  EXPECT_NE(msg.find("add: the number 1000 does not fit in int8"), std::string::npos) << msg;
  EXPECT_THROW(bitwise_left_shift(tensor_of({1}, {1}, kUInt8), Scalar(300)), OverflowError);
  EXPECT_THROW(sub(tensor_of({1}, {1}, kUInt8), Scalar(-1)), OverflowError);
  EXPECT_EQ(ints_of(add(a, Scalar(-128))), (std::vector<int64_t>{-127, -126}));  // the limits still fit
  EXPECT_EQ(add(a, Scalar(1000.0)).dtype(), kFloat32);                          // a float lifts the category
}

TEST(OpsBinary, Float16TimesDoubleScalarRoundsOnce) {
  // s = 1 + 2^-11 + 2^-12 is not a float16. In float32 then rounded once: 3 + 1 ulp(3); rounding
  // s to float16 first (1 + 2^-10) would give 3 + 2 ulp(3).
  const Tensor a = filled({4}, 3.0, kFloat16);
  const double s = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -12);
  const Tensor out = mul(a, Scalar(s));
  ASSERT_EQ(out.dtype(), kFloat16);
  const float want = static_cast<float>(Half(3.0f * static_cast<float>(s)));
  for (long double v : values_of(out)) EXPECT_EQ(static_cast<float>(v), want);
}

TEST(OpsBinary, MixedDtypesPromoteLikePyTorch) {
  EXPECT_EQ(add(filled({2}, 1, kUInt8), filled({2}, 1, kInt8)).dtype(), kInt16);
  EXPECT_EQ(add(filled({2}, 1, kInt32), filled({2}, 1, kFloat16)).dtype(), kFloat16);
  EXPECT_EQ(mul(filled({2}, 1, kFloat16), filled({2}, 1, kBFloat16)).dtype(), kFloat32);
  EXPECT_EQ(atan2(filled({2}, 1, kInt64), filled({2}, 1, kInt8)).dtype(), kFloat32);
  const Tensor a = tensor_of({1, 2, 3}, {3}, kInt16), b = tensor_of({0.5, 0.25, -1}, {3}, kFloat64);
  EXPECT_EQ(values_of(sub(a, b)), (std::vector<long double>{0.5, 1.75, 4}));
}

TEST(OpsBinary, ScalarOverloadsOfAddAndSubTakeAlpha) {
  const Tensor a = tensor_of({1, 2, 3}, {3}, kFloat32);
  EXPECT_EQ(values_of(add(a, Scalar(2), Scalar(3))), (std::vector<long double>{7, 8, 9}));
  EXPECT_EQ(values_of(sub(a, Scalar(1), Scalar(2))), (std::vector<long double>{-1, 0, 1}));
}

}  // namespace
}  // namespace ingot
