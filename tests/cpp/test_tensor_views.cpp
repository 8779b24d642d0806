#include <gtest/gtest.h>

#include "ingot/factories.h"
#include "ingot/tensor.h"
#include "tests/cpp/tensor_values.h"

using namespace ingot;
using ingot::testing::iota_tensor;
using ingot::testing::values;
using V = std::vector<float>;
using Shape = std::vector<int64_t>;

TEST(TensorViews, ViewSharesStorageAndKeepsOrder) {
  Tensor a = iota_tensor({2, 3});
  Tensor v = a.view({3, 2});
  EXPECT_TRUE(v.storage().is_same(a.storage()));
  EXPECT_EQ(v.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(values<float>(v), (V{0, 1, 2, 3, 4, 5}));
}

TEST(TensorViews, ViewInfersMinusOne) {
  EXPECT_EQ(iota_tensor({2, 3, 4}).view({-1, 4}).sizes(), IntArrayRef({6, 4}));
  EXPECT_EQ(iota_tensor({0, 3}).view({3, -1, 5}).sizes(), IntArrayRef({3, 0, 5}));
}

TEST(TensorViews, ViewOfTransposedFailsWithValueError) {
  Tensor t = iota_tensor({2, 3}).t();
  EXPECT_THROW(t.view({6}), ValueError);
  try {
    t.view({6});
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("view"), std::string::npos);
  }
}

TEST(TensorViews, ViewSplitsAndMergesCompatibleNonContiguousDims) {
  // A [4, 6] tensor sliced to its first 3 columns: rows stay contiguous, so splitting a row works.
  Tensor s = iota_tensor({4, 6}).slice(1, 0, 3);
  Tensor v = s.view({2, 2, 3});
  EXPECT_EQ(v.strides(), IntArrayRef({12, 6, 1}));
  EXPECT_THROW(s.view({12}), ValueError);
  // Merging a transposed pair back is fine when each chunk stays contiguous.
  Tensor p = iota_tensor({2, 3, 4}).permute({1, 2, 0});  // strides 4, 1, 12
  EXPECT_EQ(p.view({12, 2}).strides(), IntArrayRef({1, 12}));
}

TEST(TensorViews, ViewWithWrongNumelThrows) {
  EXPECT_THROW(iota_tensor({2, 3}).view({4}), ValueError);
  EXPECT_THROW(iota_tensor({2, 3}).view({-1, -1}), ValueError);
}

TEST(TensorViews, ViewOfZeroDimAndIntoOnes) {
  Tensor s = iota_tensor({});
  EXPECT_EQ(s.view({1, 1}).sizes(), IntArrayRef({1, 1}));
  EXPECT_EQ(iota_tensor({1}).view({}).dim(), 0);
}

TEST(TensorViews, PermuteReordersSizesAndStrides) {
  Tensor p = iota_tensor({2, 3, 4}).permute({2, 0, 1});
  EXPECT_EQ(p.sizes(), IntArrayRef({4, 2, 3}));
  EXPECT_EQ(p.strides(), IntArrayRef({1, 12, 4}));
  EXPECT_FALSE(p.is_contiguous());
  EXPECT_TRUE(p.is_non_overlapping_and_dense());
}

TEST(TensorViews, PermuteRejectsBadDims) {
  Tensor a = iota_tensor({2, 3});
  EXPECT_THROW(a.permute({0}), ValueError);
  EXPECT_THROW(a.permute({0, 0}), ValueError);
  EXPECT_THROW(a.permute({0, 2}), IndexError);
}

TEST(TensorViews, TransposeValues) {
  Tensor t = iota_tensor({2, 3}).transpose(0, -1);
  EXPECT_EQ(t.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(values<float>(t), (V{0, 3, 1, 4, 2, 5}));
}

TEST(TensorViews, TOnlyForUpTo2D) {
  EXPECT_EQ(iota_tensor({5}).t().sizes(), IntArrayRef({5}));
  EXPECT_EQ(iota_tensor({}).t().dim(), 0);
  EXPECT_THROW(iota_tensor({1, 2, 3}).t(), ValueError);
}

TEST(TensorViews, SliceFollowsPythonSemantics) {
  Tensor a = iota_tensor({10});
  // Reference: Python's list slicing of range(10), written out by hand.
  EXPECT_EQ(values<float>(a.slice(0, 2, 8, 3)), (V{2, 5}));
  EXPECT_EQ(values<float>(a.slice(0, -3)), (V{7, 8, 9}));
  EXPECT_EQ(values<float>(a.slice(0, std::nullopt, std::nullopt, -1)),
            (V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values<float>(a.slice(0, 8, 2, -2)), (V{8, 6, 4}));
  EXPECT_EQ(values<float>(a.slice(0, -1, -4, -1)), (V{9, 8, 7}));
  EXPECT_EQ(values<float>(a.slice(0, 100, std::nullopt, -3)), (V{9, 6, 3, 0}));
  EXPECT_EQ(a.slice(0, 5, 2).numel(), 0);
  EXPECT_EQ(a.slice(0, -100, 100).numel(), 10);
  EXPECT_EQ(a.slice(0, 3, 100, -1).numel(), 0);
}

TEST(TensorViews, SliceWithNegativeStepIsAViewWithNegativeStride) {
  Tensor a = iota_tensor({3, 4});
  Tensor r = a.slice(1, std::nullopt, std::nullopt, -2);
  EXPECT_TRUE(r.storage().is_same(a.storage()));
  EXPECT_EQ(r.strides(), IntArrayRef({4, -2}));
  EXPECT_EQ(values<float>(r), (V{3, 1, 7, 5, 11, 9}));
}

TEST(TensorViews, SliceStepZeroThrows) {
  EXPECT_THROW(iota_tensor({4}).slice(0, 0, 4, 0), ValueError);
}

TEST(TensorViews, SelectDropsDim) {
  Tensor a = iota_tensor({3, 4});
  EXPECT_EQ(values<float>(a.select(1, 2)), (V{2, 6, 10}));
  EXPECT_EQ(values<float>(a.select(0, -1)), (V{8, 9, 10, 11}));
  EXPECT_EQ(a.select(0, 1).select(0, 1).dim(), 0);
  EXPECT_EQ(a.select(0, 1).select(0, 1).item<float>(), 5.0f);
}

TEST(TensorViews, SelectOutOfRangeIsIndexError) {
  EXPECT_THROW(iota_tensor({3}).select(0, 3), IndexError);
  EXPECT_THROW(iota_tensor({3}).select(0, -4), IndexError);
  EXPECT_THROW(iota_tensor({}).select(0, 0), IndexError);
}

TEST(TensorViews, ExpandUsesZeroStrides) {
  Tensor a = iota_tensor({3, 1});
  Tensor e = a.expand({2, 3, 4});
  EXPECT_EQ(e.strides(), IntArrayRef({0, 1, 0}));
  std::vector<float> expect;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) expect.push_back(static_cast<float>(j));
  EXPECT_EQ(values<float>(e), expect);
  EXPECT_EQ(a.expand({-1, 5}).sizes(), IntArrayRef({3, 5}));
  EXPECT_EQ(a.expand({3, 0}).numel(), 0);
}

TEST(TensorViews, ExpandToIncompatibleSizeThrows) {
  Tensor a = iota_tensor({3, 1});
  EXPECT_THROW(a.expand({4, 2}), ValueError);
  EXPECT_THROW(a.expand({3}), ValueError);
  EXPECT_THROW(a.expand({-1, 3, 1}), ValueError);
  EXPECT_THROW(a.broadcast_to({2, 2}), ValueError);
}

TEST(TensorViews, BroadcastToScalar) {
  Tensor e = iota_tensor({}).broadcast_to({2, 2});
  EXPECT_EQ(e.strides(), IntArrayRef({0, 0}));
  EXPECT_EQ(values<float>(e), (V{0, 0, 0, 0}));
}

TEST(TensorViews, SqueezeAndUnsqueeze) {
  Tensor a = iota_tensor({1, 3, 1});
  EXPECT_EQ(a.squeeze().sizes(), IntArrayRef({3}));
  EXPECT_EQ(a.squeeze(0).sizes(), IntArrayRef({3, 1}));
  EXPECT_EQ(a.squeeze(1).sizes(), IntArrayRef({1, 3, 1}));
  EXPECT_EQ(a.squeeze(-1).sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(iota_tensor({3}).unsqueeze(0).sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(iota_tensor({3}).unsqueeze(-1).sizes(), IntArrayRef({3, 1}));
  EXPECT_EQ(iota_tensor({}).unsqueeze(0).sizes(), IntArrayRef({1}));
  EXPECT_EQ(iota_tensor({}).squeeze(0).dim(), 0);
  EXPECT_TRUE(iota_tensor({2, 3}).unsqueeze(1).is_contiguous());
  EXPECT_THROW(iota_tensor({3}).unsqueeze(2), IndexError);
  EXPECT_THROW(iota_tensor({3}).squeeze(1), IndexError);
}

TEST(TensorViews, AsStridedChecksStorageBounds) {
  Tensor a = iota_tensor({6});
  Tensor w = a.as_strided({2, 3}, {1, 2}, 0);
  EXPECT_EQ(values<float>(w), (V{0, 2, 4, 1, 3, 5}));
  EXPECT_EQ(values<float>(a.as_strided({2}, {1}, 4)), (V{4, 5}));
  EXPECT_THROW(a.as_strided({2, 3}, {3, 2}, 0), ValueError);
  EXPECT_THROW(a.as_strided({2}, {1}, -1), ValueError);
  EXPECT_THROW(a.as_strided({2}, {1, 1}), ValueError);
  EXPECT_THROW(a.as_strided({3}, {-1}, 1), ValueError);
  EXPECT_EQ(values<float>(a.as_strided({3}, {-1}, 2)), (V{2, 1, 0}));
}

TEST(TensorViews, DiagonalWithOffsets) {
  Tensor a = iota_tensor({3, 4});
  EXPECT_EQ(values<float>(a.diagonal()), (V{0, 5, 10}));
  EXPECT_EQ(values<float>(a.diagonal(1)), (V{1, 6, 11}));
  EXPECT_EQ(values<float>(a.diagonal(2)), (V{2, 7}));
  EXPECT_EQ(values<float>(a.diagonal(-1)), (V{4, 9}));
  EXPECT_EQ(a.diagonal(5).numel(), 0);
  EXPECT_EQ(a.diagonal(-5).numel(), 0);
  EXPECT_EQ(values<float>(a.diagonal(0, 1, 0)), (V{0, 5, 10}));
  EXPECT_THROW(a.diagonal(0, 1, 1), ValueError);
}

TEST(TensorViews, DiagonalOfBatchAppendsDim) {
  Tensor d = iota_tensor({2, 2, 3}).diagonal(0, 0, 2);
  EXPECT_EQ(d.sizes(), IntArrayRef({2, 2}));
  // d[j][i] = a[i][j][i] = 6i + 3j + i
  EXPECT_EQ(values<float>(d), (V{0, 7, 3, 10}));
}

TEST(TensorViews, FlipIsAViewWithNegativeStrides) {
  Tensor a = iota_tensor({2, 3});
  Tensor f = a.flip({0, 1});
  EXPECT_TRUE(f.storage().is_same(a.storage()));
  EXPECT_EQ(f.strides(), IntArrayRef({-3, -1}));
  EXPECT_EQ(values<float>(f), (V{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(values<float>(a.flip({-1})), (V{2, 1, 0, 5, 4, 3}));
  EXPECT_FALSE(f.is_contiguous());
  EXPECT_FALSE(f.is_non_overlapping_and_dense());
  EXPECT_THROW(a.flip({1, -1}), ValueError);
  EXPECT_THROW(a.flip({2}), IndexError);
}

TEST(TensorViews, WritesThroughAViewReachTheBase) {
  Tensor a = iota_tensor({2, 2});
  a.t().select(0, 1).select(0, 0).data_ptr<float>()[0] = 42.0f;
  EXPECT_EQ(values<float>(a), (V{0, 42, 2, 3}));
}

TEST(TensorViews, ViewsOfEmptyTensors) {
  Tensor a = iota_tensor({0, 3});
  EXPECT_EQ(a.t().sizes(), IntArrayRef({3, 0}));
  EXPECT_EQ(a.flip({0}).numel(), 0);
  EXPECT_EQ(a.slice(1, 1).sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(a.unsqueeze(0).sizes(), IntArrayRef({1, 0, 3}));
  EXPECT_EQ(a.select(1, 2).sizes(), IntArrayRef({0}));
  EXPECT_EQ(a.view({3, 0, 1}).sizes(), IntArrayRef({3, 0, 1}));
}

TEST(TensorReshape, IsAViewWhenStridesAllow) {
  Tensor a = iota_tensor({2, 3, 4});
  Tensor r = a.reshape({6, -1});
  EXPECT_TRUE(r.storage().is_same(a.storage()));
  EXPECT_EQ(r.sizes(), IntArrayRef({6, 4}));
  Tensor s = iota_tensor({4, 6}).slice(1, 0, 3);  // rows still contiguous
  EXPECT_TRUE(s.reshape({2, 2, 3}).storage().is_same(s.storage()));
}

TEST(TensorReshape, CopiesWhenItMust) {
  Tensor t = iota_tensor({2, 3}).t();
  Tensor r = t.reshape({6});
  EXPECT_FALSE(r.storage().is_same(t.storage()));
  EXPECT_TRUE(r.is_contiguous());
  EXPECT_EQ(values<float>(r), (V{0, 3, 1, 4, 2, 5}));
  Tensor f = iota_tensor({4}).flip({0}).reshape({2, 2});
  EXPECT_EQ(values<float>(f), (V{3, 2, 1, 0}));
}

TEST(TensorReshape, FlattenAndErrors) {
  EXPECT_EQ(iota_tensor({}).flatten().sizes(), IntArrayRef({1}));
  EXPECT_EQ(values<float>(iota_tensor({2, 2}).t().flatten()), (V{0, 2, 1, 3}));
  EXPECT_THROW(iota_tensor({2, 3}).reshape({5}), ValueError);
  EXPECT_THROW(iota_tensor({2, 3}).reshape({-1, -1}), ValueError);
  EXPECT_THROW(iota_tensor({0, 3}).reshape({-1, 0}), ValueError);
  EXPECT_EQ(iota_tensor({0, 3}).reshape({3, -1}).sizes(), IntArrayRef({3, 0}));
}
