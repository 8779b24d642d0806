// The generated structured ops: the meta step (iterator set-up) runs before any kernel, so its
// checks hold whether or not a backend has registered one.
#include <gtest/gtest.h>

#include <string>

#include "ingot/ingot.h"

namespace ingot {
namespace {

template <typename Error, typename Fn>
std::string message_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(GeneratedOps, InPlaceTrueDivisionOfIntTensorRaisesTypeError) {
  Tensor a = zeros({3}, kInt32);
  EXPECT_THROW(a.div_(2), TypeError);
  EXPECT_THROW(a.div_(zeros({3}, kInt32)), TypeError);
}

TEST(GeneratedOps, OutOfIntDtypeForFloatResultRaisesTypeError) {
  Tensor out = zeros({3}, kInt64);
  EXPECT_THROW(atan2_out(out, zeros({3}), zeros({3})), TypeError);
  EXPECT_THROW(exp_out(out, zeros({3}, kInt64)), TypeError);
}

TEST(GeneratedOps, ShapeMismatchErrorNamesTheOp) {
  const std::string msg = message_of<ValueError>([] { atan2(zeros({2}), zeros({3})); });
  EXPECT_NE(msg.find("atan2"), std::string::npos) << msg;
  const std::string method_msg = message_of<ValueError>([] { zeros({2}).add(zeros({4}), 2); });
  EXPECT_NE(method_msg.find("add"), std::string::npos) << method_msg;
}

TEST(GeneratedOps, InPlaceCannotBroadcastSelf) {
  Tensor a = zeros({3});
  EXPECT_THROW(a.mul_(zeros({2, 3})), ValueError);
}

TEST(GeneratedOps, OutVariantWritesIntoAndReturnsTheGivenTensor) {
  Tensor out = zeros({3});
  Tensor& r = add_out(out, full({3}, 2.0), full({3}, 3.0), 2);
  EXPECT_EQ(&r, &out);
  EXPECT_EQ(out.select(0, 1).item<float>(), 8.0f);
}

TEST(GeneratedOps, InPlaceMethodModifiesSelfAndReturnsIt) {
  Tensor a = full({2}, 5.0);
  Tensor& r = a.sub_(1, 2);
  EXPECT_EQ(&r, &a);
  EXPECT_EQ(a.select(0, 0).item<float>(), 3.0f);
}

TEST(GeneratedOps, MethodAndFunctionAgree) {
  Tensor a = full({2}, 6.0), b = full({2}, 4.0);
  EXPECT_EQ(a.div(b).select(0, 0).item<float>(), div(a, b).select(0, 0).item<float>());
  EXPECT_EQ(a.div(b).select(0, 0).item<float>(), 1.5f);
}

TEST(GeneratedOps, ScalarOverloadWrapsTheNumberBelowTensorsInPromotion) {
  // A Python-style float scalar does not promote a float16 tensor to float64.
  Tensor r = mul(full({2}, 3.0, kFloat16), 0.5);
  EXPECT_EQ(r.dtype(), kFloat16);
  EXPECT_EQ(r.select(0, 0).item<float>(), 1.5f);
}

TEST(GeneratedOps, ComparisonAllocatesBoolAndWhereSelects) {
  Tensor a = arange(4), b = full({4}, 2, kInt64);
  Tensor cond = eq(a, b);
  EXPECT_EQ(cond.dtype(), kBool);
  Tensor picked = where(cond, full({4}, 10, kInt64), a);
  EXPECT_EQ(picked.select(0, 2).item<int64_t>(), 10);
  EXPECT_EQ(picked.select(0, 3).item<int64_t>(), 3);
}

TEST(GeneratedOps, UnaryFloatOpPromotesIntegers) {
  Tensor r = zeros({2}, kInt32).exp();
  EXPECT_EQ(r.dtype(), kFloat32);
  EXPECT_EQ(r.select(0, 0).item<float>(), 1.0f);
  EXPECT_EQ(neg(full({1}, 2, kInt32)).select(0, 0).item<int32_t>(), -2);
}

}  // namespace
}  // namespace ingot
