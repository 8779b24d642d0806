#include <gtest/gtest.h>

#include "ingot/ingot.h"

namespace ingot {
namespace {

// PyTorch's documented promotion lattice (c10/core/ScalarType.cpp, torch.promote_types), written
// out by hand in enum order: bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64.
constexpr ScalarType b1 = kBool, u1 = kUInt8, i1 = kInt8, i2 = kInt16, i4 = kInt32, i8 = kInt64,
                     f2 = kFloat16, bf = kBFloat16, f4 = kFloat32, f8 = kFloat64;
constexpr ScalarType kExpected[10][10] = {
    /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8 */
    /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
    /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
    /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
    /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
    /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
    /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
    /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
};

TEST(PromoteTypes, MatchesPyTorchTableForEveryPair) {
  for (int a = 0; a < kNumScalarTypes; ++a) {
    for (int b = 0; b < kNumScalarTypes; ++b) {
      const auto ta = static_cast<ScalarType>(a), tb = static_cast<ScalarType>(b);
      EXPECT_EQ(promote_types(ta, tb), kExpected[a][b]) << ta << " + " << tb;
    }
  }
}

Tensor dimensioned(ScalarType t) { return zeros({2}, t); }
Tensor zero_dim(ScalarType t) { return zeros({}, t); }

TEST(ResultType, IntScalarDoesNotWidenIntTensor) {
  EXPECT_EQ(result_type(dimensioned(kInt32), Scalar(5)), kInt32);
  EXPECT_EQ(result_type(dimensioned(kUInt8), Scalar(1000)), kUInt8);
}

TEST(ResultType, FloatScalarWithIntTensorGivesDefaultFloat32) {
  EXPECT_EQ(result_type(dimensioned(kInt64), Scalar(2.5)), kFloat32);
  EXPECT_EQ(result_type(dimensioned(kBool), Scalar(2.5)), kFloat32);
}

TEST(ResultType, FloatScalarKeepsReducedFloatTensor) {
  EXPECT_EQ(result_type(dimensioned(kFloat16), Scalar(2.5)), kFloat16);
  EXPECT_EQ(result_type(dimensioned(kBFloat16), Scalar(2.5)), kBFloat16);
}

TEST(ResultType, IntScalarLiftsBoolTensorToInt64) {
  EXPECT_EQ(result_type(dimensioned(kBool), Scalar(1)), kInt64);
  EXPECT_EQ(result_type(dimensioned(kBool), Scalar(true)), kBool);
}

TEST(ResultType, ZeroDimTensorOfSameCategoryIsIgnored) {
  EXPECT_EQ(result_type(dimensioned(kInt32), zero_dim(kInt64)), kInt32);
  EXPECT_EQ(result_type(dimensioned(kFloat32), zero_dim(kFloat64)), kFloat32);
  EXPECT_EQ(result_type(dimensioned(kUInt8), zero_dim(kInt8)), kUInt8);
}

TEST(ResultType, ZeroDimTensorOfHigherCategoryKeepsItsDtype) {
  EXPECT_EQ(result_type(dimensioned(kInt32), zero_dim(kFloat64)), kFloat64);
  EXPECT_EQ(result_type(dimensioned(kInt64), zero_dim(kFloat16)), kFloat16);
  EXPECT_EQ(result_type(dimensioned(kBool), zero_dim(kInt16)), kInt16);
}

TEST(ResultType, ZeroDimTensorsAmongThemselvesUseTheLattice) {
  EXPECT_EQ(result_type(zero_dim(kInt32), zero_dim(kInt64)), kInt64);
  EXPECT_EQ(result_type(zero_dim(kUInt8), zero_dim(kInt8)), kInt16);
}

TEST(ResultType, ZeroDimTensorOutranksWrappedNumber) {
  EXPECT_EQ(result_type(zero_dim(kInt32), Scalar(7)), kInt32);
  EXPECT_EQ(result_type(zero_dim(kInt32), Scalar(7.5)), kFloat32);
  EXPECT_EQ(result_type(zero_dim(kFloat16), Scalar(7.5)), kFloat16);
}

TEST(ResultType, DimensionedTensorsUseTheLattice) {
  EXPECT_EQ(result_type(dimensioned(kInt64), dimensioned(kFloat32)), kFloat32);
  EXPECT_EQ(result_type(dimensioned(kBool), dimensioned(kUInt8)), kUInt8);
  EXPECT_EQ(result_type(dimensioned(kFloat16), dimensioned(kBFloat16)), kFloat32);
}

TEST(ResultType, WrappedNumberTensorRanksLikeAScalar) {
  EXPECT_EQ(result_type(dimensioned(kInt16), scalar_to_tensor(Scalar(3))), kInt16);
  EXPECT_EQ(result_type(dimensioned(kInt16), scalar_to_tensor(Scalar(3.0))), kFloat32);
}

TEST(ResultType, OnlyScalarsGiveTheirDefaults) {
  EXPECT_EQ(result_type({Scalar(5), Scalar(6)}), kInt64);
  EXPECT_EQ(result_type({Scalar(5), Scalar(6.0)}), kFloat32);
  EXPECT_EQ(result_type({Scalar(true)}), kBool);
}

TEST(ResultType, ManyOperandsMixGroups) {
  EXPECT_EQ(result_type({dimensioned(kInt8), dimensioned(kUInt8), zero_dim(kInt64), Scalar(1.5)}),
            kFloat32);
  EXPECT_EQ(result_type({dimensioned(kInt8), zero_dim(kFloat64), Scalar(1.5)}), kFloat64);
}

TEST(ResultType, NoOperandsIsValueError) {
  try {
    result_type(std::vector<TensorOrScalar>{});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("result_type"), std::string::npos);
  }
}

TEST(CanCast, FloatingToIntegralIsRefused) {
  for (ScalarType from : {kFloat16, kBFloat16, kFloat32, kFloat64}) {
    for (ScalarType to : {kUInt8, kInt8, kInt16, kInt32, kInt64}) EXPECT_FALSE(can_cast(from, to));
  }
}

TEST(CanCast, NonBoolToBoolIsRefused) {
  for (ScalarType from : {kUInt8, kInt64, kFloat16, kFloat64}) EXPECT_FALSE(can_cast(from, kBool));
}

TEST(CanCast, WideningNarrowingAndBoolSourcesAreAllowed) {
  EXPECT_TRUE(can_cast(kFloat64, kFloat16));
  EXPECT_TRUE(can_cast(kInt64, kUInt8));
  EXPECT_TRUE(can_cast(kInt32, kFloat32));
  EXPECT_TRUE(can_cast(kBool, kInt8));
  EXPECT_TRUE(can_cast(kBool, kBool));
}

}  // namespace
}  // namespace ingot
