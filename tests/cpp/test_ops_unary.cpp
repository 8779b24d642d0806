// neg and exp end to end on every dtype the macros give them, with special values.
#include <cmath>
#include <functional>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

void check_unary(const std::string& name, ScalarType dtype, ScalarType want_dtype,
                 const std::function<Tensor(const Tensor&)>& op,
                 const std::function<long double(long double)>& ref, double ulps) {
  const Tensor a = tensor_of(sample_values(dtype, 33, 3, true), {3, 11}, dtype);
  const Tensor out = op(a);
  ASSERT_EQ(out.dtype(), want_dtype) << name << " on " << dtype;
  std::vector<long double> exact;
  for (long double x : values_of(a)) exact.push_back(ref(x));
  expect_close(out, exact, ulps, detail::concat(name, " on ", dtype));
}

TEST(OpsUnary, NegMatchesReferenceOnEveryNonBoolDtype) {
  for (ScalarType t : kAllDtypes) {
    if (t == kBool) continue;
    check_unary("neg", t, t, [](const Tensor& a) { return neg(a); }, [](long double x) { return -x; }, 0);
  }
}

TEST(OpsUnary, NegOfUnsignedAndMostNegativeValuesWraps) {
  EXPECT_EQ(ints_of(neg(tensor_of({1, 0, 255}, {3}, kUInt8))), (std::vector<int64_t>{255, 0, 1}));
  EXPECT_EQ(ints_of(neg(tensor_of({-128, 127}, {2}, kInt8))), (std::vector<int64_t>{-128, -127}));
}

TEST(OpsUnary, NegOfBoolIsATypeErrorNamingNeg) {
  const std::string msg = error_message<TypeError>([] { neg(filled({2}, 1, kBool)); });
  EXPECT_NE(msg.find("neg"), std::string::npos) << msg;
}

TEST(OpsUnary, ExpMatchesReferenceAndIntegersGiveFloat32) {
  for (ScalarType t : kAllDtypes) {
    const ScalarType want = is_floating_type(t) ? t : kFloat32;
    const double ulps = t == kFloat16 || t == kBFloat16 ? 1.0 : 2.0;
    check_unary("exp", t, want, [](const Tensor& a) { return exp(a); }, [](long double x) { return std::exp(x); }, ulps);
  }
}

TEST(OpsUnary, ExpOverflowsToInfinityAndUnderflowsToZero) {
  const std::vector<long double> v = values_of(exp(tensor_of({100, -200, -INFINITY}, {3}, kFloat32)));
  EXPECT_EQ(v[0], INFINITY);
  EXPECT_EQ(v[1], 0);
  EXPECT_EQ(v[2], 0);
}

TEST(OpsUnary, InPlaceExpOfIntegerTensorIsATypeError) {
  Tensor a = filled({3}, 1, kInt32);
  EXPECT_THROW(a.exp_(), TypeError);
}

}  // namespace
}  // namespace ingot
