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

}  // namespace
}  // namespace ingot
