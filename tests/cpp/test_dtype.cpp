#include <gtest/gtest.h>

#include <sstream>

#include "ingot/dtype.h"

using namespace ingot;

TEST(Dtype, NamesRoundTripThroughParser) {
  const char* names[] = {"bool",  "uint8",   "int8",     "int16",   "int32",
                         "int64", "float16", "bfloat16", "float32", "float64"};
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    EXPECT_EQ(dtype_name(t), names[i]);
    EXPECT_EQ(dtype_from_name(names[i]), t);
  }
  EXPECT_EQ(dtype_from_name("float"), std::nullopt);
  EXPECT_EQ(dtype_from_name(""), std::nullopt);
}

TEST(Dtype, ElementSizes) {
  const size_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8};
  for (int i = 0; i < kNumScalarTypes; ++i)
    EXPECT_EQ(element_size(static_cast<ScalarType>(i)), sizes[i]) << i;
}

TEST(Dtype, Categories) {
  EXPECT_TRUE(is_floating_type(kBFloat16));
  EXPECT_FALSE(is_floating_type(kInt64));
  EXPECT_TRUE(is_integral_type(kBool, true));
  EXPECT_FALSE(is_integral_type(kBool, false));
  EXPECT_TRUE(is_integral_type(kUInt8, false));
  EXPECT_FALSE(is_signed_type(kUInt8));
  EXPECT_TRUE(is_signed_type(kInt8));
}

TEST(Dtype, DtypeOfMapsCppTypes) {
  EXPECT_EQ(dtype_v<Half>, kFloat16);
  EXPECT_EQ(dtype_v<BFloat16>, kBFloat16);
  EXPECT_EQ(dtype_v<int16_t>, kInt16);
  EXPECT_EQ(dtype_v<double>, kFloat64);
}

TEST(Dtype, VisitDtypePassesTheCppType) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    const size_t n = visit_dtype(t, [](auto tag) { return sizeof(typename decltype(tag)::type); });
    EXPECT_EQ(n, element_size(t));
  }
  EXPECT_THROW(visit_dtype(static_cast<ScalarType>(42), [](auto) { return 0; }), TypeError);
}

TEST(Dtype, Streams) {
  std::ostringstream os;
  os << kBFloat16;
  EXPECT_EQ(os.str(), "bfloat16");
}
