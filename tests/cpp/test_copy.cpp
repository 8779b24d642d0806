#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ingot/ingot.h"
#include "iterator_test_util.h"
#include "tensor_values.h"

namespace ingot {
namespace {

using testing::iota_tensor;
using testing::values;

TEST(Copy, ConvertsInt32ToFloat32) {
  Tensor src = iota_tensor({4}, kInt32);
  Tensor dst = empty({4}, kFloat32);
  dst.copy_(src);
  EXPECT_EQ(values<float>(dst), (std::vector<float>{0, 1, 2, 3}));
}

TEST(Copy, FloatToIntTruncatesTowardZero) {
  std::vector<double> data{-2.7, -0.5, 0.5, 2.7};
  Tensor src = from_blob(data.data(), {4}, kFloat64);
  Tensor dst = empty({4}, kInt64);
  dst.copy_(src);
  EXPECT_EQ(values<int64_t>(dst), (std::vector<int64_t>{-2, 0, 0, 2}));
}

TEST(Copy, FloatToNarrowIntWrapsThroughInt64) {
  std::vector<float> data{-1.0f, 255.9f, 256.0f, 300.5f};
  Tensor src = from_blob(data.data(), {4}, kFloat32);
  Tensor dst = empty({4}, kUInt8);
  dst.copy_(src);
  EXPECT_EQ(values<uint8_t>(dst), (std::vector<uint8_t>{255, 255, 0, 44}));
}

TEST(Copy, NonZeroBecomesTrue) {
  std::vector<float> data{0.0f, -0.0f, 0.25f, -3.0f};
  Tensor dst = empty({4}, kBool);
  dst.copy_(from_blob(data.data(), {4}, kFloat32));
  EXPECT_EQ(values<bool>(dst), (std::vector<bool>{false, false, true, true}));
}

TEST(Copy, Float32ToFloat16RoundsToNearest) {
  std::vector<float> data{1.0f, 65504.0f, 1.0f + 1.0f / 4096.0f};
  Tensor dst = empty({3}, kFloat16);
  dst.copy_(from_blob(data.data(), {3}, kFloat32));
  const auto v = values<Half>(dst);
  EXPECT_EQ(static_cast<float>(v[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(v[1]), 65504.0f);
  EXPECT_EQ(static_cast<float>(v[2]), 1.0f);  // the tie rounds to the even neighbour
}

TEST(Copy, BroadcastsSourceRowToEveryRow) {
  Tensor dst = zeros({2, 3}, kInt64);
  dst.copy_(iota_tensor({3}, kInt64));
  EXPECT_EQ(values<int64_t>(dst), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
}

TEST(Copy, IntoTransposedViewWritesTransposedPositions) {
  Tensor base = zeros({3, 2}, kFloat32);
  base.t().copy_(iota_tensor({2, 3}));
  EXPECT_EQ(values<float>(base), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(Copy, FromNegativeStrideSource) {
  Tensor dst = empty({5}, kInt32);
  dst.copy_(iota_tensor({5}, kInt32).flip({0}));
  EXPECT_EQ(values<int32_t>(dst), (std::vector<int32_t>{4, 3, 2, 1, 0}));
}

TEST(Copy, FromZeroStrideSource) {
  Tensor dst = empty({2, 3}, kFloat64);
  dst.copy_(iota_tensor({2, 1}).expand({2, 3}));
  EXPECT_EQ(values<double>(dst), (std::vector<double>{0, 0, 0, 1, 1, 1}));
}

TEST(Copy, IntoSteppedSliceLeavesGapsUntouched) {
  Tensor base = zeros({6}, kInt16);
  base.slice(0, 1, std::nullopt, 2).copy_(iota_tensor({3}, kInt16).flip({0}));
  EXPECT_EQ(values<int16_t>(base), (std::vector<int16_t>{0, 2, 0, 1, 0, 0}));
}

TEST(Copy, ShiftedOverlappingViewReadsBeforeWriting) {
  Tensor x = iota_tensor({6}, kInt32);
  x.slice(0, 1).copy_(x.slice(0, 0, 5));
  EXPECT_EQ(values<int32_t>(x), (std::vector<int32_t>{0, 0, 1, 2, 3, 4}));
}

TEST(Copy, ReversedSelfAliasIsExact) {
  Tensor x = iota_tensor({5}, kFloat32);
  x.copy_(x.flip({0}));
  EXPECT_EQ(values<float>(x), (std::vector<float>{4, 3, 2, 1, 0}));
}

TEST(Copy, TransposedSelfAliasIsExact) {
  Tensor x = iota_tensor({3, 3}, kFloat32);
  x.copy_(x.t());
  EXPECT_EQ(values<float>(x), (std::vector<float>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
}

TEST(Copy, FromItselfIsANoOp) {
  Tensor x = iota_tensor({4}, kInt8);
  x.copy_(x);
  EXPECT_EQ(values<int8_t>(x), (std::vector<int8_t>{0, 1, 2, 3}));
}

TEST(Copy, LargeTransposedCopyMatchesElementwise) {
  Tensor src = iota_tensor({300, 500}, kInt32);
  Tensor dst = empty({500, 300}, kInt64);
  dst.copy_(src.t());
  const auto out = values<int64_t>(dst);
  for (int64_t i = 0; i < 500; ++i) {
    for (int64_t j = 0; j < 300; ++j) ASSERT_EQ(out[i * 300 + j], j * 500 + i);
  }
}

TEST(Copy, IntoExpandedViewIsValueError) {
  Tensor dst = zeros({3}).expand({2, 3});
  testing::expect_error<ValueError>([&] { dst.copy_(zeros({2, 3})); }, {"copy_", "internal overlap"});
}

TEST(Copy, SourceThatDoesNotBroadcastIsValueError) {
  Tensor dst = zeros({3});
  testing::expect_error<ValueError>([&] { dst.copy_(zeros({2, 3})); }, {"copy_", "[2, 3]"});
}

TEST(Copy, EmptyTensorsCopyNothing) {
  Tensor dst = empty({0, 3});
  dst.copy_(empty({0, 3}, kInt32));
  EXPECT_EQ(dst.numel(), 0);
}

TEST(Fill, EveryDtypeHoldsTheValue) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto dtype = static_cast<ScalarType>(i);
    Tensor t = empty({2, 3}, dtype);
    t.fill_(1);
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      for (T v : values<T>(t)) EXPECT_EQ(static_cast<double>(v), 1.0) << dtype;
    });
  }
}

TEST(Fill, StridedViewWritesOnlyItsElements) {
  Tensor base = zeros({4, 4}, kInt32);
  base.slice(0, 0, std::nullopt, 2).slice(1, 1, 3).t().fill_(7);
  EXPECT_EQ(values<int32_t>(base),
            (std::vector<int32_t>{0, 7, 7, 0, 0, 0, 0, 0, 0, 7, 7, 0, 0, 0, 0, 0}));
}

TEST(Fill, FloatValueIntoIntTensorTruncates) {
  Tensor t = empty({2}, kInt32);
  t.fill_(-2.9);
  EXPECT_EQ(values<int32_t>(t), (std::vector<int32_t>{-2, -2}));
}

TEST(Fill, ZeroDimTensor) {
  Tensor t = empty({}, kFloat64);
  t.fill_(2.5);
  EXPECT_EQ(values<double>(t), (std::vector<double>{2.5}));
}

TEST(Fill, OverflowingIntegerIsValueError) {
  Tensor t = empty({2}, kUInt8);
  testing::expect_error<ValueError>([&] { t.fill_(300); }, {"fill_", "uint8"});
  testing::expect_error<ValueError>([&] { t.fill_(-1); }, {"fill_", "overflow"});
}

TEST(Fill, OverflowingFloat16IsValueError) {
  Tensor t = empty({2}, kFloat16);
  testing::expect_error<ValueError>([&] { t.fill_(1e6); }, {"fill_", "float16"});
}

TEST(Fill, NanIntoIntegerIsValueError) {
  Tensor t = empty({2}, kInt64);
  testing::expect_error<ValueError>([&] { t.fill_(std::nan("")); }, {"fill_", "int64"});
}

TEST(Fill, InfinityIntoFloat16IsKept) {
  Tensor t = empty({1}, kFloat16);
  t.fill_(std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isinf(static_cast<float>(values<Half>(t)[0])));
}

TEST(Fill, ExpandedViewIsValueError) {
  Tensor t = zeros({1, 3}).expand({4, 3});
  testing::expect_error<ValueError>([&] { t.fill_(1); }, {"fill_", "internal overlap"});
}

TEST(Contiguous, ReturnsSelfWhenAlreadyContiguous) {
  Tensor t = iota_tensor({2, 3});
  EXPECT_TRUE(t.contiguous().is_same(t));
}

TEST(Contiguous, CopiesTransposedIntoRowMajor) {
  Tensor c = iota_tensor({2, 3}).t().contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(values<float>(c), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST(Clone, OwnsNewMemory) {
  Tensor t = iota_tensor({3});
  Tensor c = t.clone();
  t.fill_(9);
  EXPECT_FALSE(c.storage().is_same(t.storage()));
  EXPECT_EQ(values<float>(c), (std::vector<float>{0, 1, 2}));
}

TEST(Clone, KeepsPermutedLayoutOfDenseInput) {
  Tensor t = iota_tensor({2, 3, 4}).permute({2, 0, 1});
  Tensor c = t.clone();
  EXPECT_EQ(c.strides(), t.strides());
  EXPECT_EQ(values<float>(c), values<float>(t));
}

TEST(Clone, OfSteppedSliceIsDense) {
  Tensor t = iota_tensor({6}).slice(0, 0, std::nullopt, 2);
  Tensor c = t.clone();
  EXPECT_EQ(c.strides(), IntArrayRef({1}));
  EXPECT_EQ(values<float>(c), (std::vector<float>{0, 2, 4}));
}

TEST(To, ReturnsSelfForSameDtypeUnlessCopyRequested) {
  Tensor t = iota_tensor({3});
  EXPECT_TRUE(t.to(kFloat32).is_same(t));
  EXPECT_FALSE(t.to(kFloat32, true).storage().is_same(t.storage()));
}

TEST(To, ConvertsValuesAndKeepsShape) {
  Tensor t = iota_tensor({2, 2}, kFloat32).to(kBFloat16);
  EXPECT_EQ(t.dtype(), kBFloat16);
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 2}));
  std::vector<float> got;
  for (BFloat16 v : values<BFloat16>(t)) got.push_back(static_cast<float>(v));
  EXPECT_EQ(got, (std::vector<float>{0, 1, 2, 3}));
}

}  // namespace
}  // namespace ingot

namespace ingot {
namespace {

TEST(Copy, UndefinedSourceIsValueError) {
  Tensor dst = zeros({2});
  testing::expect_error<ValueError>([&] { dst.copy_(Tensor()); }, {"copy_", "defined"});
}

}  // namespace
}  // namespace ingot
