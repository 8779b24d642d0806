// Every misuse raises the typed exception, and its message names the op and the values involved.
#include <gtest/gtest.h>

#include <functional>

#include "ingot/factories.h"
#include "tests/cpp/tensor_values.h"

using namespace ingot;
using ingot::testing::iota_tensor;

namespace {
template <typename E>
void expect_error(const std::function<void()>& f, std::vector<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning " << parts.front();
  } catch (const E& e) {
    for (const std::string& p : parts) {
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
          << "message '" << e.what() << "' lacks '" << p << "'";
    }
  }
}
}  // namespace

TEST(Errors, BadShapes) {
  expect_error<ValueError>([] { empty({3, -2}); }, {"empty", "-2", "[3, -2]"});
  expect_error<ValueError>([] { zeros({-1}); }, {"zeros", "-1"});
  expect_error<ValueError>([] { iota_tensor({2, 3}).view({4}); }, {"view", "[4]", "6"});
  expect_error<ValueError>([] { iota_tensor({2, 3}).reshape({-1, -1}); }, {"reshape", "-1"});
  expect_error<ValueError>([] { full({-4}, 1); }, {"full", "-4"});
  expect_error<ValueError>([] { ones({2, -3}); }, {"ones", "-3"});
  expect_error<ValueError>([] { rand({-5}); }, {"rand", "-5"});
  expect_error<ValueError>([] { empty_strided({2}, {1, 1}); }, {"empty_strided", "[2]", "[1, 1]"});
  expect_error<ValueError>([] { from_blob(nullptr, {3}); }, {"from_blob", "[3]"});
}

TEST(Errors, ViewIncompatibleWithStrides) {
  expect_error<ValueError>(
      [] {
        iota_tensor({2, 3}).t().view({6});
      },
      {"view", "[6]", "[3, 2]", "[1, 3]", "reshape"});
}

TEST(Errors, BadDims) {
  expect_error<IndexError>([] { iota_tensor({2, 3}).transpose(0, 2); }, {"transpose", "2"});
  expect_error<IndexError>([] { iota_tensor({2, 3}).select(-3, 0); }, {"select", "-3"});
  expect_error<IndexError>([] { iota_tensor({2}).slice(1); }, {"slice", "1"});
  expect_error<IndexError>([] { iota_tensor({2}).squeeze(2); }, {"squeeze", "2"});
  expect_error<IndexError>([] { iota_tensor({2}).unsqueeze(-3); }, {"unsqueeze", "-3"});
  expect_error<IndexError>([] { iota_tensor({2, 2}).diagonal(0, 0, 5); }, {"diagonal", "5"});
  expect_error<ValueError>([] { iota_tensor({2, 2}).permute({1, 1}); }, {"permute", "1"});
  expect_error<ValueError>([] { iota_tensor({2, 2}).permute({0, 1, 2}); }, {"permute", "3"});
  expect_error<ValueError>([] { iota_tensor({2, 2, 2}).t(); }, {"t:", "3"});
}

TEST(Errors, OutOfRangeIndex) {
  expect_error<IndexError>([] { iota_tensor({4}).select(0, 4); }, {"select", "4"});
  expect_error<IndexError>([] { iota_tensor({4}).select(0, -5); }, {"select", "-5"});
}

TEST(Errors, ItemOnMultiElement) {
  expect_error<ValueError>([] { iota_tensor({2, 2}).item(); }, {"item", "4", "[2, 2]"});
}

TEST(Errors, ExpandToIncompatibleSize) {
  expect_error<ValueError>([] { iota_tensor({3, 2}).expand({3, 4}); }, {"expand", "2", "4"});
  expect_error<ValueError>([] { iota_tensor({3}).broadcast_to({2, 2}); }, {"broadcast_to", "3"});
  expect_error<ValueError>([] { iota_tensor({3, 1}).expand({3}); }, {"expand", "[3]"});
}

TEST(Errors, AsStridedOutOfStorage) {
  expect_error<ValueError>(
      [] {
        iota_tensor({4}).as_strided({2, 2}, {2, 2});
      },
      {"as_strided", "[2, 2]", "4"});
}

TEST(Errors, DtypeMismatchInDataPtr) {
  expect_error<TypeError>([] { iota_tensor({2}, kInt32).data_ptr<int64_t>(); },
                          {"data_ptr", "int32", "int64"});
}

TEST(Errors, FactoryArguments) {
  expect_error<ValueError>([] { arange(0, 1, 0); }, {"arange", "step"});
  expect_error<ValueError>([] { arange(0, 5, -1); }, {"arange", "-1"});
  expect_error<ValueError>([] { linspace(0, 1, -2); }, {"linspace", "-2"});
  expect_error<ValueError>([] { eye(-2); }, {"eye", "-2"});
  expect_error<ValueError>([] { randint(3, 1, {2}); }, {"randint", "3", "1"});
  expect_error<ValueError>([] { randint(0, 1000, {2}, kInt8); }, {"randint", "1000", "int8"});
  expect_error<TypeError>([] { rand({2}, kInt64); }, {"rand", "int64"});
}

TEST(Errors, SliceStepZero) {
  expect_error<ValueError>([] { iota_tensor({4}).slice(0, 0, 4, 0); }, {"slice", "step"});
}

TEST(UndefinedTensor, MetadataAndViewsRaiseValueErrorInsteadOfCrashing) {
  const ingot::Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_THROW((void)t.sizes(), ingot::ValueError);
  EXPECT_THROW((void)t.numel(), ingot::ValueError);
  EXPECT_THROW((void)t.dtype(), ingot::ValueError);
  EXPECT_THROW((void)t.data_ptr(), ingot::ValueError);
  EXPECT_THROW((void)t.size(0), ingot::ValueError);
  EXPECT_THROW((void)t.transpose(0, 1), ingot::ValueError);
  EXPECT_THROW((void)t.item(), ingot::ValueError);
  try {
    (void)t.dim();
    FAIL() << "dim() of an undefined tensor did not throw";
  } catch (const ingot::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("undefined"), std::string::npos) << e.what();
  }
}
