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
