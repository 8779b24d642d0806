// add, sub, mul, div, atan2 end to end (ops.yaml -> stub -> CPU kernels) on every dtype the
// registration macros give them, against long double reference math.
#include <cmath>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;
double arith_ulps(ScalarType t) { return is_floating_type(t) ? 1.0 : 0.0; }
double transcendental_ulps(ScalarType t) { return t == kFloat16 || t == kBFloat16 ? 1.0 : 2.0; }
ScalarType float_result(ScalarType t) { return is_floating_type(t) ? t : kFloat32; }

TEST(OpsBinary, AddMatchesReferenceOnEveryDtype) {
  for (ScalarType t : kAllDtypes) {
    check_binary("add", t, t, [](const Tensor& a, const Tensor& b) { return add(a, b); },
                 [](long double a, long double b) { return a + b; }, arith_ulps(t));
  }
}

TEST(OpsBinary, AddWithAlphaScalesTheSecondOperand) {
  for (ScalarType t : kAllDtypes) {
    const Scalar alpha = t == kBool ? Scalar(true) : is_floating_type(t) ? Scalar(2.5) : Scalar(3);
    const long double av = t == kBool ? 1 : is_floating_type(t) ? 2.5L : 3;
    // alpha * b is rounded to the compute type before the add (no fused multiply-add).
    const auto product = [&](long double b) -> long double {
      return t == kFloat64 ? static_cast<double>(av * b) : is_floating_type(t) ? static_cast<float>(av * b) : av * b;
    };
    check_binary("add alpha", t, t, [&](const Tensor& a, const Tensor& b) { return add(a, b, alpha); },
                 [&](long double a, long double b) { return a + product(b); }, arith_ulps(t));
  }
}

TEST(OpsBinary, SubMatchesReferenceOnEveryNonBoolDtype) {
  for (ScalarType t : kAllDtypes) {
    if (t == kBool) continue;
    check_binary("sub", t, t, [](const Tensor& a, const Tensor& b) { return sub(a, b, 2); },
                 [](long double a, long double b) { return a - 2 * b; }, arith_ulps(t) * 2);
  }
}

TEST(OpsBinary, SubOfBoolTensorsIsATypeErrorNamingSub) {
  const Tensor a = filled({3}, 1, kBool);
  const std::string msg = error_message<TypeError>([&] { sub(a, a); });
  EXPECT_NE(msg.find("sub"), std::string::npos) << msg;
}

TEST(OpsBinary, MulMatchesReferenceOnEveryDtype) {
  for (ScalarType t : kAllDtypes) {
    check_binary("mul", t, t, [](const Tensor& a, const Tensor& b) { return mul(a, b); },
                 [](long double a, long double b) { return a * b; }, arith_ulps(t));
  }
}

TEST(OpsBinary, DivIsTrueDivisionAndIntegersGiveFloat32) {
  for (ScalarType t : kAllDtypes) {
    check_binary("div", t, float_result(t), [](const Tensor& a, const Tensor& b) { return div(a, b); },
                 [](long double a, long double b) { return a / b; }, 1.0);
  }
}

TEST(OpsBinary, IntegerDivisionByZeroGivesInfinityOrNan) {
  const Tensor out = div(tensor_of({3, -3, 0}, {3}, kInt32), filled({3}, 0, kInt32));
  const std::vector<long double> v = values_of(out);
  EXPECT_EQ(v[0], INFINITY);
  EXPECT_EQ(v[1], -INFINITY);
  EXPECT_TRUE(std::isnan(v[2]));
}

TEST(OpsBinary, Atan2MatchesReferenceOnEveryDtype) {
  for (ScalarType t : kAllDtypes) {
    check_binary("atan2", t, float_result(t), [](const Tensor& a, const Tensor& b) { return atan2(a, b); },
                 [](long double a, long double b) { return std::atan2(a, b); }, transcendental_ulps(t));
  }
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
