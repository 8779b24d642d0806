// neg and exp through the C++ API: wrapping, overflow and the dtype errors. Values on every dtype
// and layout are checked by the OpInfo table (tests/python/test_opinfo.py).
#include <cmath>
#include <functional>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

TEST(OpsUnary, NegOfUnsignedAndMostNegativeValuesWraps) {
  EXPECT_EQ(ints_of(neg(tensor_of({1, 0, 255}, {3}, kUInt8))), (std::vector<int64_t>{255, 0, 1}));
  EXPECT_EQ(ints_of(neg(tensor_of({-128, 127}, {2}, kInt8))), (std::vector<int64_t>{-128, -127}));
}

TEST(OpsUnary, NegOfBoolIsATypeErrorNamingNeg) {
  const std::string msg = error_message<TypeError>([] { neg(filled({2}, 1, kBool)); });
  EXPECT_NE(msg.find("neg"), std::string::npos) << msg;
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
