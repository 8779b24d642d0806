// Layouts and overload forms end to end: broadcasting, out=, in-place, non-contiguous views,
// 0-d and empty tensors. Non-contiguous results must equal the contiguous computation.
#include "ops_test_support.h"

namespace ingot {
namespace {

using namespace ingot::testing;

Tensor matrix(int64_t rows, int64_t cols, ScalarType dtype, int seed) {
  return tensor_of(sample_values(dtype, rows * cols, seed), {rows, cols}, dtype);
}

void expect_same_values(const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.sizes().vec(), want.sizes().vec());
  ASSERT_EQ(got.dtype(), want.dtype());
  EXPECT_EQ(values_of(got), values_of(want));
}

TEST(OpsLayouts, BroadcastsRowsColumnsAndBothOperands) {
  const Tensor col = tensor_of({1, 2, 3}, {3, 1}, kFloat32), row = tensor_of({10, 20, 30, 40}, {1, 4}, kFloat32);
  const Tensor out = add(col, row);
  ASSERT_EQ(out.sizes().vec(), (std::vector<int64_t>{3, 4}));
  std::vector<long double> want;
  for (int r = 1; r <= 3; ++r) {
    for (int c = 1; c <= 4; ++c) want.push_back(r + 10 * c);
  }
  EXPECT_EQ(values_of(out), want);
  expect_same_values(mul(matrix(5, 4, kInt32, 1), tensor_of({1, -1, 2, 0}, {4}, kInt32)),
                     mul(matrix(5, 4, kInt32, 1), tensor_of({1, -1, 2, 0}, {4}, kInt32).expand({5, 4}).contiguous()));
}

TEST(OpsLayouts, TransposedInputsGiveTheContiguousResult) {
  const Tensor a = matrix(6, 9, kFloat32, 1), b = matrix(9, 6, kFloat32, 2);
  expect_same_values(atan2(a.t(), b), atan2(a.t().contiguous(), b));
  expect_same_values(sub(b, a.t(), 3), sub(b, a.t().contiguous(), 3));
}

TEST(OpsLayouts, SlicesWithStepsAndNegativeStridesGiveTheContiguousResult) {
  const Tensor a = matrix(8, 10, kInt16, 1), b = matrix(8, 10, kInt16, 2);
  const Tensor as = a.slice(1, 1, std::nullopt, 3), bs = b.flip({0}).slice(1, 0, 7, 2).slice(1, 0, 3);
  expect_same_values(add(as, bs), add(as.contiguous(), bs.contiguous()));
  expect_same_values(neg(a.flip({0, 1})), neg(a.flip({0, 1}).contiguous()));
  expect_same_values(exp(a.slice(0, 7, std::nullopt, -2)), exp(a.slice(0, 7, std::nullopt, -2).contiguous()));
}

TEST(OpsLayouts, ZeroDimInputsGiveZeroDimResults) {
  const Tensor a = tensor_of({3}, {}, kFloat64), b = tensor_of({4}, {}, kFloat64);
  const Tensor out = atan2(a, b);
  EXPECT_EQ(out.dim(), 0);
  EXPECT_EQ(values_of(out)[0], static_cast<long double>(std::atan2(3.0, 4.0)));
  EXPECT_EQ(values_of(where(tensor_of({0}, {}, kBool), a, b))[0], 4);
}

TEST(OpsLayouts, ZeroDimTensorBroadcastsAgainstAMatrix) {
  const Tensor m = matrix(3, 4, kFloat32, 1);
  expect_same_values(mul(m, tensor_of({2}, {}, kFloat32)), mul(m, filled({3, 4}, 2)));
}

TEST(OpsLayouts, EmptyTensorsGiveEmptyResults) {
  const Tensor e = filled({0, 3}, 0);
  EXPECT_EQ(add(e, e).sizes().vec(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(exp(e).numel(), 0);
  EXPECT_EQ(eq(e, filled({3}, 0)).sizes().vec(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(where(filled({0, 1}, 1, kBool), e, e).sizes().vec(), (std::vector<int64_t>{0, 3}));
}

TEST(OpsLayouts, OutWritesIntoTheGivenTensorConvertingTheDtype) {
  Tensor out = filled({4}, -1, kFloat64);
  const Tensor a = tensor_of({1, 2, 3, 4}, {4}, kInt32);
  Tensor& r = add_out(out, a, a, 2);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(values_of(out), (std::vector<long double>{3, 6, 9, 12}));
  Tensor flags = filled({4}, 7, kFloat32);
  eq_out(flags, a, Scalar(3));
  EXPECT_EQ(values_of(flags), (std::vector<long double>{0, 0, 1, 0}));
}

TEST(OpsLayouts, OutIntoANonContiguousView) {
  Tensor base = filled({4, 6}, 0);
  Tensor view = base.t();
  atan2_out(view, matrix(6, 4, kFloat32, 1), matrix(6, 4, kFloat32, 2));
  expect_same_values(base.t(), atan2(matrix(6, 4, kFloat32, 1), matrix(6, 4, kFloat32, 2)));
}

TEST(OpsLayouts, OutOfAnIntegerDtypeForAFloatResultIsATypeError) {
  Tensor out = filled({2}, 0, kInt32);
  EXPECT_THROW(div_out(out, filled({2}, 1, kInt32), filled({2}, 2, kInt32)), TypeError);
}

TEST(OpsLayouts, InPlaceUpdatesSelfAndKeepsItsDtype) {
  Tensor a = tensor_of({1, 2, 3}, {3}, kFloat16);
  Tensor& r = a.mul_(tensor_of({2, 2, 2}, {3}, kInt64));
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.dtype(), kFloat16);
  EXPECT_EQ(values_of(a), (std::vector<long double>{2, 4, 6}));
  a.add_(Scalar(1), Scalar(2));
  EXPECT_EQ(values_of(a), (std::vector<long double>{4, 6, 8}));
}

TEST(OpsLayouts, InPlaceOnATransposedViewWritesThroughToTheBase) {
  Tensor base = matrix(3, 5, kFloat64, 1);
  const Tensor before = base.clone();
  Tensor view = base.t();
  view.neg_();
  expect_same_values(base, neg(before));
}

TEST(OpsLayouts, InPlaceThatCannotCastTheResultIsATypeError) {
  Tensor i = filled({3}, 1, kInt32);
  EXPECT_THROW(i.add_(filled({3}, 0.5)), TypeError);
  EXPECT_THROW(i.atan2_(i), TypeError);
  Tensor b = filled({3}, 1, kBool);
  EXPECT_THROW(b.mul_(filled({3}, 2, kInt32)), TypeError);
}

TEST(OpsLayouts, LargeNonContiguousInputsCoverEveryElement) {
  // Bigger than the parallel grain, read transposed.
  const int64_t r = 300, c = 257;
  const Tensor a = matrix(r, c, kFloat32, 1), b = matrix(c, r, kFloat32, 2);
  expect_same_values(mul(a, b.t()), mul(a, b.t().contiguous()));
}

}  // namespace
}  // namespace ingot
