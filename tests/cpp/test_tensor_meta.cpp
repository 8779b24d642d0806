#include <gtest/gtest.h>

#include "ingot/factories.h"
#include "ingot/tensor.h"
#include "tests/cpp/tensor_values.h"

using namespace ingot;
using ingot::testing::iota_tensor;

namespace {
// EXPECT_THROW plus a check that the message names the op.
template <typename E, typename F>
void expect_error(F&& f, const std::string& op) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one naming " << op;
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(op), std::string::npos) << e.what();
  }
}
}  // namespace

TEST(TensorMeta, MakeComputesNumelAndContiguity) {
  Storage s = Storage::allocate(24 * sizeof(float), Device());
  Tensor t = Tensor::make(s, kFloat32, {2, 3, 4}, {12, 4, 1}, 0);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.dim(), 3);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.itemsize(), 4u);
  Tensor u = Tensor::make(s, kFloat32, {2, 3}, {1, 2}, 1);
  EXPECT_FALSE(u.is_contiguous());
  EXPECT_EQ(u.data_ptr(), static_cast<char*>(s.data()) + 4);
}

TEST(TensorMeta, MakeRejectsMismatchedDims) {
  Storage s = Storage::allocate(16, Device());
  EXPECT_THROW(Tensor::make(s, kFloat32, {2, 2}, {2}, 0), ValueError);
  EXPECT_THROW(Tensor::make(s, kFloat32, {-2}, {1}, 0), ValueError);
}

TEST(TensorMeta, SizeOneDimsIgnoreStrideForContiguity) {
  Storage s = Storage::allocate(12, Device());
  EXPECT_TRUE(Tensor::make(s, kFloat32, {1, 3}, {99, 1}, 0).is_contiguous());
  EXPECT_TRUE(Tensor::make(s, kFloat32, {0, 3}, {7, 7}, 0).is_contiguous());
}

TEST(TensorMeta, SizeAndStrideWrapNegativeDims) {
  Tensor t = iota_tensor({2, 3, 4});
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(-3), 12);
  expect_error<IndexError>([&] { t.size(3); }, "size");
  expect_error<IndexError>([&] { t.stride(-4); }, "stride");
  expect_error<IndexError>([&] { iota_tensor({}).size(0); }, "size");
}

TEST(TensorMeta, NonOverlappingAndDense) {
  EXPECT_TRUE(iota_tensor({2, 3}).t().is_non_overlapping_and_dense());
  EXPECT_FALSE(iota_tensor({2, 4}).slice(1, 0, 4, 2).is_non_overlapping_and_dense());
  EXPECT_FALSE(iota_tensor({3, 1}).expand({3, 2}).is_non_overlapping_and_dense());
  EXPECT_TRUE(iota_tensor({}).is_non_overlapping_and_dense());
}

TEST(TensorMeta, DataPtrChecksDtype) {
  Tensor t = iota_tensor({2});
  EXPECT_NO_THROW(t.data_ptr<float>());
  expect_error<TypeError>([&] { t.data_ptr<double>(); }, "data_ptr");
  expect_error<TypeError>([&] { t.data_ptr<int32_t>(); }, "data_ptr");
}

TEST(TensorMeta, ItemReadsTheSingleElement) {
  EXPECT_EQ(iota_tensor({1, 1}).item<float>(), 0.0f);
  EXPECT_EQ(iota_tensor({4}).select(0, 3).item<int>(), 3);
  EXPECT_TRUE(iota_tensor({3}, kInt64).select(0, 2).item().is_integral());
  EXPECT_TRUE(iota_tensor({2}, kBool).select(0, 1).item().is_bool());
  EXPECT_TRUE(iota_tensor({2}, kBFloat16).select(0, 1).item().is_floating_point());
  EXPECT_EQ(iota_tensor({2}, kFloat16).select(0, 1).item<double>(), 1.0);
}

TEST(TensorMeta, ItemOnManyOrNoElementsIsValueError) {
  expect_error<ValueError>([] { iota_tensor({2}).item(); }, "item");
  expect_error<ValueError>([] { iota_tensor({0}).item(); }, "item");
}

TEST(TensorMeta, ScalarToTensorIsWrappedZeroDim) {
  Tensor f = scalar_to_tensor(2.5);
  EXPECT_EQ(f.dim(), 0);
  EXPECT_EQ(f.dtype(), kFloat64);
  EXPECT_TRUE(f.is_wrapped_number());
  EXPECT_EQ(f.item<double>(), 2.5);
  EXPECT_EQ(scalar_to_tensor(int64_t{7}).dtype(), kInt64);
  EXPECT_EQ(scalar_to_tensor(7).item<int64_t>(), 7);
  EXPECT_EQ(scalar_to_tensor(true).dtype(), kBool);
  EXPECT_FALSE(iota_tensor({}).is_wrapped_number());
  EXPECT_FALSE(f.view({1}).is_wrapped_number());
}

TEST(TensorMeta, ZeroDimTensorBasics) {
  Tensor s = zeros({});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_TRUE(s.is_contiguous());
  EXPECT_EQ(s.item<float>(), 0.0f);
}
