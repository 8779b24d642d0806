#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "ingot/factories.h"
#include "tests/cpp/tensor_values.h"

using namespace ingot;
using ingot::testing::iota_tensor;

namespace {
Tensor floats(std::vector<float> v, std::vector<int64_t> shape, ScalarType dt = kFloat32) {
  Tensor t = empty(shape, kFloat32);
  std::copy(v.begin(), v.end(), t.data_ptr<float>());
  return dt == kFloat32 ? t : t.to(dt);
}
}  // namespace

TEST(Print, MatrixIsNestedAndAligned) {
  EXPECT_EQ(floats({1, 2, 3, 4}, {2, 2}).str(),
            "tensor([[1., 2.],\n"
            "        [3., 4.]], dtype=float32)");
}

TEST(Print, ThreeDimsSeparateBlocksWithABlankLine) {
  EXPECT_EQ(iota_tensor({2, 1, 2}, kInt32).str(),
            "tensor([[[0, 1]],\n"
            "\n"
            "        [[2, 3]]], dtype=int32)");
}

TEST(Print, FractionsUseFourDecimalsAndSharedWidth) {
  EXPECT_EQ(floats({0.5f, -1.25f}, {2}).str(), "tensor([ 0.5000, -1.2500], dtype=float32)");
}

TEST(Print, WideRangesUseScientific) {
  EXPECT_EQ(floats({1e10f, 1}, {2}).str(), "tensor([1.0000e+10, 1.0000e+00], dtype=float32)");
  EXPECT_EQ(floats({1e-5f, 0.5f}, {2}).str(), "tensor([1.0000e-05, 5.0000e-01], dtype=float32)");
}

TEST(Print, NonFiniteValues) {
  EXPECT_EQ(floats({NAN, INFINITY, -INFINITY, 1}, {4}).str(),
            "tensor([ nan,  inf, -inf,   1.], dtype=float32)");
}

TEST(Print, IntegersBoolsAndHalf) {
  EXPECT_EQ(arange(3).str(), "tensor([0, 1, 2], dtype=int64)");
  EXPECT_EQ(arange(-1, 2).str(), "tensor([-1,  0,  1], dtype=int64)");
  EXPECT_EQ(iota_tensor({2}, kBool).str(), "tensor([False,  True], dtype=bool)");
  EXPECT_EQ(floats({0.25f, 2}, {2}, kFloat16).str(), "tensor([0.2500, 2.0000], dtype=float16)");
}

TEST(Print, ZeroDimAndEmpty) {
  EXPECT_EQ(scalar_to_tensor(3.5).str(), "tensor(3.5000, dtype=float64)");
  EXPECT_EQ(empty({0}).str(), "tensor([], dtype=float32)");
  EXPECT_EQ(empty({0, 3}, kInt8).str(), "tensor([], size=(0, 3), dtype=int8)");
  EXPECT_EQ(Tensor().str(), "tensor(undefined)");
}

TEST(Print, ViewsPrintTheirLogicalOrder) {
  EXPECT_EQ(iota_tensor({2, 3}, kInt64).t().flip({0}).str(),
            "tensor([[2, 5],\n"
            "        [1, 4],\n"
            "        [0, 3]], dtype=int64)");
}

TEST(Print, LargeTensorsAreSummarized) {
  EXPECT_EQ(arange(2000).str(), "tensor([   0,    1,    2, ..., 1997, 1998, 1999], dtype=int64)");
  const std::string s = arange(1001 * 7).view({1001, 7}).str();
  EXPECT_EQ(s.substr(0, s.find('\n')), "tensor([[   0,    1,    2, ...,    4,    5,    6],");
  EXPECT_NE(s.find("],\n        ...,\n        [6986,"), std::string::npos) << s;
}

TEST(Print, StreamOperatorMatchesStr) {
  std::ostringstream os;
  Tensor t = arange(2);
  os << t;
  EXPECT_EQ(os.str(), t.str());
}
