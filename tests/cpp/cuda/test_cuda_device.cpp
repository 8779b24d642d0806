// Runs with and without a GPU: without one, every query must fail cleanly (no crash, no output).
#include <gtest/gtest.h>

#include <string>

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "ingot/error.h"

namespace cuda = ingot::cuda;

TEST(CudaDevice, IsAvailableNeverThrowsOrPrints) {
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  bool available = false;
  EXPECT_NO_THROW(available = cuda::is_available());
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(available, cuda::device_count() > 0);
}

TEST(CudaDevice, BadIndexNamesTheIndexAndTheCount) {
  if (cuda::driver_or_null() == nullptr || cuda::driver_init_result() != CUDA_SUCCESS) {
    GTEST_SKIP() << "no usable CUDA driver";
  }
  const int count = cuda::device_count();
  try {
    cuda::device_properties(count);
    FAIL() << "device_properties accepted index " << count;
  } catch (const ingot::IndexError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("index " + std::to_string(count)), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(count) + " device"), std::string::npos) << msg;
  }
  EXPECT_THROW(cuda::context(-1), ingot::IndexError);
}

TEST(CudaDevice, WithoutADriverQueriesRaiseAcceleratorError) {
  if (cuda::is_available()) GTEST_SKIP() << "a GPU is present";
  if (cuda::driver_or_null() != nullptr && cuda::driver_init_result() == CUDA_SUCCESS) {
    GTEST_SKIP() << "a driver without devices (covered by BadIndexNamesTheIndexAndTheCount)";
  }
  EXPECT_THROW(cuda::device_properties(0), ingot::AcceleratorError);
  EXPECT_THROW(cuda::set_current_device(0), ingot::AcceleratorError);
  EXPECT_EQ(cuda::current_device(), -1);
}

TEST(CudaDriver, ErrorMessageNamesTheCallAndTheCode) {
  const std::string msg = cuda::driver_error_message("cuMemAlloc(&p, 8)", CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(msg.find("cuMemAlloc(&p, 8) failed"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(2)"), std::string::npos) << msg;
  if (cuda::driver_or_null() != nullptr) {
    EXPECT_NE(msg.find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << msg;
  }
}

TEST(CudaDriver, CheckMacroThrowsAcceleratorError) {
  EXPECT_NO_THROW(INGOT_CU_CHECK(CUDA_SUCCESS));
  try {
    INGOT_CU_CHECK(CUDA_ERROR_INVALID_VALUE);
    FAIL() << "no throw";
  } catch (const ingot::AcceleratorError& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA_ERROR_INVALID_VALUE failed"), std::string::npos)
        << e.what();
  }
}

TEST(CudaDevice, PropertiesDescribeARealDevice) {
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  const cuda::DeviceProperties& p = cuda::device_properties(0);
  EXPECT_FALSE(p.name.empty());
  EXPECT_GE(p.major, 5);
  EXPECT_EQ(p.warp_size, 32);
  EXPECT_GT(p.multiprocessor_count, 0);
  EXPECT_GT(p.total_memory, 0u);
  EXPECT_GE(p.max_threads_per_block, 512);
  EXPECT_GE(p.max_grid_dim[0], 65535);
  EXPECT_GE(p.max_shared_memory_per_block_optin, p.max_shared_memory_per_block);
  EXPECT_EQ(&cuda::device_properties(0), &p);  // cached
}

TEST(CudaDevice, SetCurrentDeviceMakesItsPrimaryContextCurrent) {
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  cuda::set_current_device(0);
  EXPECT_EQ(cuda::current_device(), 0);
  CUcontext current = nullptr;
  INGOT_CU_CHECK(cuda::driver().cuCtxGetCurrent(&current));
  EXPECT_EQ(current, cuda::context(0));
  EXPECT_EQ(cuda::context(0), cuda::context(0));  // retained once
}

TEST(CudaDriver, FailedDriverCallNamesTheResult) {
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  CUdevice dev = 0;
  try {
    INGOT_CU_CHECK(cuda::driver().cuDeviceGet(&dev, 1 << 20));
    FAIL() << "no throw";
  } catch (const ingot::AcceleratorError& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA_ERROR_INVALID_DEVICE"), std::string::npos)
        << e.what();
  }
}
