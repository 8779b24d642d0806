#include <gtest/gtest.h>

#include "ingot/half.h"

TEST(Half, RoundTripsOne) { EXPECT_EQ(static_cast<float>(ingot::Half(1.0f)), 1.0f); }
