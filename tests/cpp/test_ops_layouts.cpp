// Overload forms through the C++ API: out= converting the dtype, in-place through views, and a
// large non-contiguous input. Every op on every layout is checked by the OpInfo table
// (tests/python/test_opinfo.py).
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

TEST(OpsLayouts, LargeNonContiguousInputsCoverEveryElement) {
  // Bigger than the parallel grain, read transposed.
  const int64_t r = 300, c = 257;
  const Tensor a = matrix(r, c, kFloat32, 1), b = matrix(c, r, kFloat32, 2);
  expect_same_values(mul(a, b.t()), mul(a, b.t().contiguous()));
}

}  // namespace
}  // namespace ingot
