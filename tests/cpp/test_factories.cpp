#include <gtest/gtest.h>

#include "ingot/factories.h"
#include "tests/cpp/tensor_values.h"

using namespace ingot;
using ingot::testing::iota_tensor;
using ingot::testing::values;

TEST(Factories, EmptyDefaultsToFloat32OnCpu) {
  Tensor t = empty({2, 3});
  EXPECT_EQ(t.dtype(), kFloat32);
  EXPECT_TRUE(t.device().is_cpu());
  EXPECT_EQ(t.strides(), IntArrayRef({3, 1}));
  EXPECT_EQ(t.storage().nbytes(), 24u);
  EXPECT_EQ(empty({4}, kInt16).dtype(), kInt16);
  EXPECT_EQ(empty({4}, TensorOptions().dtype(kUInt8).device(Device(kCPU))).dtype(), kUInt8);
}

TEST(Factories, EmptyAcceptsZeroSizesAndNoDims) {
  EXPECT_EQ(empty({0, 5}).numel(), 0);
  EXPECT_EQ(empty({}).numel(), 1);
  EXPECT_NE(empty({0}).data_ptr(), nullptr);
}

TEST(Factories, NegativeSizeIsValueErrorNamingTheOp) {
  try {
    empty({2, -1});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos);
  }
  EXPECT_THROW(zeros({-3}), ValueError);
  EXPECT_THROW(empty({int64_t{1} << 40, int64_t{1} << 40}), ValueError);
}

TEST(Factories, ZerosAreZeroForEveryDtype) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto dt = static_cast<ScalarType>(i);
    Tensor z = zeros({3, 5}, dt);
    EXPECT_EQ(z.dtype(), dt);
    for (int64_t k = 0; k < 15; ++k) EXPECT_EQ(z.view({15}).select(0, k).item<double>(), 0.0) << dt;
  }
}

TEST(Factories, EmptyStridedSizesStorageForTheLayout) {
  Tensor t = empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(t.storage().nbytes(), 6 * sizeof(float));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(empty_strided({3, 0}, {5, 5}).storage().nbytes(), 0u);
  EXPECT_EQ(empty_strided({2, 2}, {0, 1}).storage().nbytes(), 2 * sizeof(float));
  EXPECT_THROW(empty_strided({2}, {1, 1}), ValueError);
  EXPECT_THROW(empty_strided({2}, {-1}), ValueError);
}

TEST(Factories, FromBlobDoesNotCopyOrFree) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  {
    Tensor t = from_blob(data, {2, 3});
    EXPECT_EQ(t.data_ptr(), data);
    t.data_ptr<float>()[4] = 40;
  }
  EXPECT_EQ(data[4], 40);  // still ours, and writes went to our memory
}

TEST(Factories, FromBlobRunsDeleterWithTheCallersPointer) {
  int32_t data[4] = {1, 2, 3, 4};
  void* freed = nullptr;
  {
    Tensor t = from_blob(data, {4}, kInt32, [&](void* p) { freed = p; });
    Tensor v = t.slice(0, 1);
    t = Tensor();
    EXPECT_EQ(freed, nullptr);  // the view keeps the storage alive
  }
  EXPECT_EQ(freed, data);
}

TEST(Factories, FromBlobWithStridesIncludingNegative) {
  double data[6] = {0, 1, 2, 3, 4, 5};
  Tensor t = from_blob(data, {3, 2}, {1, 3}, kFloat64);
  EXPECT_EQ(values<double>(t), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  // Start at the last element and walk backwards.
  Tensor r = from_blob(data + 5, {6}, {-1}, kFloat64);
  EXPECT_EQ(values<double>(r), (std::vector<double>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(r.storage().data(), data);
  EXPECT_THROW(from_blob(nullptr, {2}), ValueError);
}

TEST(Factories, EmptyLikeKeepsDtypeDeviceAndDimOrder) {
  Tensor t = iota_tensor({2, 3, 4}, kInt32).permute({2, 0, 1});
  Tensor e = empty_like(t);
  EXPECT_EQ(e.dtype(), kInt32);
  EXPECT_EQ(e.sizes(), t.sizes());
  EXPECT_EQ(e.strides(), t.strides());
  // A sliced, transposed input still gets a dense result in the same dim order.
  Tensor s = iota_tensor({4, 6}).slice(1, 0, 6, 2).t();
  Tensor es = empty_like(s);
  EXPECT_EQ(es.strides(), IntArrayRef({1, 3}));
  EXPECT_TRUE(es.is_non_overlapping_and_dense());
  // Giving only a device keeps the dtype; giving only a dtype keeps the device.
  EXPECT_EQ(empty_like(t, Device(kCPU)).dtype(), kInt32);
  EXPECT_EQ(empty_like(t, kFloat64).dtype(), kFloat64);
}

TEST(Factories, ZerosLikeOfFlippedIsDense) {
  Tensor z = zeros_like(iota_tensor({2, 3}).flip({1}));
  EXPECT_TRUE(z.is_contiguous());
  EXPECT_EQ(values<float>(z), std::vector<float>(6, 0.0f));
}

namespace {
template <typename T>
std::vector<T> seq(std::initializer_list<T> l) {
  return std::vector<T>(l);
}
}  // namespace

TEST(Factories, OnesAndFullForEveryDtype) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto dt = static_cast<ScalarType>(i);
    Tensor o = ones({2, 2}, dt);
    EXPECT_EQ(o.dtype(), dt);
    EXPECT_EQ(o.view({4}).select(0, 3).item<double>(), 1.0) << dt;
    EXPECT_EQ(full({3}, 1, dt).select(0, 2).item<double>(), 1.0) << dt;
  }
  EXPECT_EQ(values<float>(full({2, 2}, 2.5)), seq<float>({2.5, 2.5, 2.5, 2.5}));
}

TEST(Factories, FullInfersDtypeFromTheValue) {
  EXPECT_EQ(full({2}, true).dtype(), kBool);
  EXPECT_EQ(full({2}, 3).dtype(), kInt64);
  EXPECT_EQ(full({2}, 3.0).dtype(), kFloat32);
  EXPECT_EQ(full({2}, 3, kFloat64).dtype(), kFloat64);
  EXPECT_EQ(full({2}, 3.0, Device(kCPU)).dtype(), kFloat32);
  EXPECT_EQ(full({2}, 7, Device(kCPU)).dtype(), kInt64);
  EXPECT_EQ(ones({2}).dtype(), kFloat32);
}

TEST(Factories, FullRejectsNegativeSizes) { EXPECT_THROW(full({-1}, 1), ValueError); }

TEST(Factories, AliasedLikeFactoriesKeepDtype) {
  Tensor t = iota_tensor({2, 3}, kInt16).t();
  Tensor o = ones_like(t);
  EXPECT_EQ(o.dtype(), kInt16);
  EXPECT_EQ(o.strides(), t.strides());
  EXPECT_EQ(values<int16_t>(o), std::vector<int16_t>(6, 1));
  Tensor f = full_like(t, 9, kFloat64);
  EXPECT_EQ(f.dtype(), kFloat64);
  EXPECT_EQ(values<double>(f), std::vector<double>(6, 9.0));
}

TEST(Factories, ArangeOfIntegersIsInt64) {
  Tensor a = arange(5);
  EXPECT_EQ(a.dtype(), kInt64);
  EXPECT_EQ(values<int64_t>(a), seq<int64_t>({0, 1, 2, 3, 4}));
  EXPECT_EQ(values<int64_t>(arange(1, 10, 3)), seq<int64_t>({1, 4, 7}));
  EXPECT_EQ(values<int64_t>(arange(5, -5, -4)), seq<int64_t>({5, 1, -3}));
  EXPECT_EQ(arange(3, 3).numel(), 0);
}

TEST(Factories, ArangeWithAFloatArgumentIsFloat32) {
  Tensor a = arange(0, 1, 0.25);
  EXPECT_EQ(a.dtype(), kFloat32);
  EXPECT_EQ(values<float>(a), seq<float>({0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(arange(2.5).numel(), 3);
  EXPECT_EQ(values<double>(arange(1, 2, 0.5, kFloat64)), seq<double>({1, 1.5}));
  EXPECT_EQ(values<int32_t>(arange(0, 5, 2, kInt32)), seq<int32_t>({0, 2, 4}));
  EXPECT_EQ(arange(4, Device(kCPU)).dtype(), kInt64);
}

TEST(Factories, ArangeCountsExactlyAtInt64Extremes) {
  EXPECT_EQ(arange(INT64_MIN, INT64_MAX, INT64_MAX).numel(), 3);
  EXPECT_EQ(values<int64_t>(arange(INT64_MAX - 2, INT64_MAX)),
            seq<int64_t>({INT64_MAX - 2, INT64_MAX - 1}));
}

TEST(Factories, ArangeRejectsBadSteps) {
  EXPECT_THROW(arange(0, 5, 0), ValueError);
  EXPECT_THROW(arange(0, 5, -1), ValueError);
  EXPECT_THROW(arange(5, 0, 1), ValueError);
  EXPECT_THROW(arange(0, std::numeric_limits<double>::infinity()), ValueError);
  EXPECT_THROW(arange(0.0, 1e30, 1e-30), ValueError);
}

TEST(Factories, LinspaceHitsBothEndsExactly) {
  Tensor l = linspace(0, 1, 5);
  EXPECT_EQ(l.dtype(), kFloat32);
  EXPECT_EQ(values<float>(l), seq<float>({0, 0.25, 0.5, 0.75, 1}));
  std::vector<double> v = values<double>(linspace(0.1, 0.7, 7, kFloat64));
  EXPECT_EQ(v.front(), 0.1);
  EXPECT_EQ(v.back(), 0.7);
  EXPECT_NEAR(v[3], 0.4, 1e-15);
  EXPECT_EQ(values<float>(linspace(3, 3, 1)), seq<float>({3}));
  EXPECT_EQ(values<float>(linspace(2, -2, 3)), seq<float>({2, 0, -2}));
  EXPECT_EQ(linspace(0, 1, 0).numel(), 0);
  EXPECT_THROW(linspace(0, 1, -1), ValueError);
}

TEST(Factories, EyeSquareAndRectangular) {
  EXPECT_EQ(values<float>(eye(3)), seq<float>({1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(values<int64_t>(eye(2, 3, kInt64)), seq<int64_t>({1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values<bool>(eye(3, 2, kBool)), seq<bool>({true, false, false, true, false, false}));
  EXPECT_EQ(eye(0).numel(), 0);
  EXPECT_THROW(eye(-1), ValueError);
  EXPECT_THROW(eye(2, -3), ValueError);
}
