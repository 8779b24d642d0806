// eq and where through the C++ API: promotion, Scalar overloads, NaN. Values on every dtype and
// layout are checked by the OpInfo table (tests/python/test_opinfo.py).
#include <cmath>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

TEST(OpsWhereEq, EqComparesMixedDtypesInTheCommonDtype) {
  const Tensor a = tensor_of({1, 2, 3}, {3}, kInt32), b = tensor_of({1.0, 2.5, 3.0}, {3}, kFloat16);
  EXPECT_EQ(ints_of(eq(a, b)), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(ints_of(eq(a, Scalar(2))), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(ints_of(eq(a, Scalar(2.5))), (std::vector<int64_t>{0, 0, 0}));
}

TEST(OpsWhereEq, EqOfNanIsFalse) {
  const Tensor a = tensor_of({NAN, 1.0}, {2}, kFloat32);
  EXPECT_EQ(ints_of(eq(a, a)), (std::vector<int64_t>{0, 1}));
}

TEST(OpsWhereEq, WherePromotesTheTwoBranchesAndBroadcastsTheCondition) {
  const Tensor cond = tensor_of({1, 0, 1}, {3}, kBool);
  const Tensor a = tensor_of({1, 2, 3, 4, 5, 6}, {2, 3}, kInt32), b = tensor_of({0.5}, {1}, kFloat64);
  const Tensor out = where(cond, a, b);
  EXPECT_EQ(out.dtype(), kFloat64);
  EXPECT_EQ(values_of(out), (std::vector<long double>{1, 0.5, 3, 4, 0.5, 6}));
}

TEST(OpsWhereEq, WhereNeedsABoolCondition) {
  EXPECT_THROW(where(filled({2}, 1, kInt32), filled({2}, 1), filled({2}, 0)), TypeError);
}

}  // namespace
}  // namespace ingot
