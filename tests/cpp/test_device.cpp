#include <gtest/gtest.h>

#include "ingot/device.h"
#include "ingot/error.h"

using namespace ingot;

TEST(Device, DefaultsToCpu0) {
  Device d;
  EXPECT_TRUE(d.is_cpu());
  EXPECT_EQ(d.str(), "cpu:0");
}

TEST(Device, ParsesSpecs) {
  EXPECT_EQ(Device("cpu"), Device(kCPU));
  EXPECT_EQ(Device("cuda"), Device(kCUDA, 0));
  EXPECT_EQ(Device("cuda:3"), Device(kCUDA, 3));
  EXPECT_EQ(Device("cuda:3").str(), "cuda:3");
}

TEST(Device, RejectsBadSpecsWithValueError) {
  for (const char* bad : {"gpu", "cuda:", "cuda:x", "cuda:-1", "cuda:1000", "", "cpu:0:1"}) {
    try {
      Device d(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("Device"), std::string::npos);
    }
  }
}
