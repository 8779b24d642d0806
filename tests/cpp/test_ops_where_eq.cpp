// eq and where end to end: every dtype, promotion, Scalar overloads, NaN.
#include <cmath>

#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

TEST(OpsWhereEq, EqMatchesReferenceOnEveryDtype) {
  for (ScalarType t : kAllDtypes) {
    std::vector<double> av = sample_values(t, 24, 1, true), bv = av;
    for (size_t i = 0; i < bv.size(); i += 3) bv[i] = sample_values(t, 24, 5)[i];
    const Tensor a = tensor_of(av, {4, 6}, t), b = tensor_of(bv, {4, 6}, t);
    const Tensor out = eq(a, b);
    ASSERT_EQ(out.dtype(), kBool);
    std::vector<long double> exact;
    const std::vector<long double> x = values_of(a), y = values_of(b);
    for (size_t i = 0; i < x.size(); ++i) exact.push_back(x[i] == y[i]);
    expect_close(out, exact, 0, detail::concat("eq on ", t));
  }
}

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

TEST(OpsWhereEq, WhereSelectsOnEveryDtype) {
  const Tensor cond = tensor_of({1, 0, 0, 1, 1, 0}, {2, 3}, kBool);
  for (ScalarType t : kAllDtypes) {
    const Tensor a = tensor_of(sample_values(t, 6, 1), {2, 3}, t), b = tensor_of(sample_values(t, 6, 2), {2, 3}, t);
    const Tensor out = where(cond, a, b);
    ASSERT_EQ(out.dtype(), t);
    const std::vector<long double> c = values_of(cond), x = values_of(a), y = values_of(b);
    std::vector<long double> exact;
    for (size_t i = 0; i < c.size(); ++i) exact.push_back(c[i] != 0 ? x[i] : y[i]);
    expect_close(out, exact, 0, detail::concat("where on ", t));
  }
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
