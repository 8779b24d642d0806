// The CUDA error buffer end to end (DESIGN.md §6): a kernel reports through INGOT_REPORT_ERROR into
// the stream's mapped buffer; the host raises AcceleratorError at the next synchronization that
// happens anyway (synchronize(), a device-to-host copy, item()), adds none of its own, and the
// stream keeps working afterwards. Skipped without a GPU; the compile test needs NVRTC only.
#include <gtest/gtest.h>

#include <string>

#include "backend/cuda/device.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/error_buffer.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/stream.h"
#include "ingot/cuda.h"
#include "ingot/ingot.h"

namespace ingot {
namespace {

#define REQUIRE_GPU() \
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device here"

const Device kGpu(kCUDA, 0);

// Thread i of n reports "element %d is bad (limit %lld)" when i >= limit, and writes i to out[i]
// otherwise: the bad elements are skipped, the rest are computed.
constexpr const char* kReportingKernel = R"cuda(
#include "kernels/error_buffer.h"
extern "C" __global__ void report_some(ingot::ErrorBuffer* errors, int* out, int n, long long limit) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i >= limit) {
    INGOT_REPORT_ERROR(errors, "element %d is bad (limit %lld)", i, limit);
    return;
  }
  out[i] = i;
}
)cuda";

cuda::CompiledModule compile_reporting_kernel(int major, int minor) {
  cuda::CompileRequest r;
  r.source = kReportingKernel;
  r.name = "report_some.cu";
  for (const cuda::EmbeddedSource& h : cuda::embedded_kernel_sources()) r.headers.push_back(h);
  r.options = {"-std=c++17"};
  r.arch_major = major;
  r.arch_minor = minor;
  return cuda::compile(r);
}

CUfunction reporting_kernel() {
  static CUfunction fn = [] {
    const cuda::DeviceProperties& p = cuda::device_properties(0);
    const cuda::CompiledModule m = compile_reporting_kernel(p.major, p.minor);
    cuda::set_current_device(0);
    CUmodule module = nullptr;
    CUfunction f = nullptr;
    INGOT_CU_CHECK(cuda::driver().cuModuleLoadData(&module, m.image.data()));
    INGOT_CU_CHECK(cuda::driver().cuModuleGetFunction(&f, module, "report_some"));
    return f;
  }();
  return fn;
}

void launch_reporting_kernel(Tensor& out, long long limit) {
  ErrorBuffer* errors = cuda::error_buffer(0);
  void* data = out.data_ptr();
  int n = static_cast<int>(out.numel());
  void* args[] = {&errors, &data, &n, &limit};
  cuda::set_current_device(0);
  INGOT_CU_CHECK(cuda::driver().cuLaunchKernel(reporting_kernel(), (n + 127) / 128, 1, 1, 128, 1, 1,
                                               0, cuda::stream(0), args, nullptr));
}

TEST(CudaErrorBuffer, TheReportMacroCompilesUnderNvrtc) {
  if (!cuda::nvrtc_is_available()) GTEST_SKIP() << "no NVRTC here";
  EXPECT_FALSE(compile_reporting_kernel(9, 0).image.empty());
}

TEST(CudaErrorBuffer, SynchronizeRaisesTheFirstReportWithTheCount) {
  REQUIRE_GPU();
  cuda::synchronize();
  Tensor out = zeros({1000}, TensorOptions(kInt32).device(kGpu));
  launch_reporting_kernel(out, 990);
  try {
    cuda::synchronize();
    FAIL() << "no AcceleratorError";
  } catch (const AcceleratorError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("is bad (limit 990)"), std::string::npos) << what;
    EXPECT_NE(what.find("report_some.cu"), std::string::npos) << what;
    EXPECT_NE(what.find("[and 9 more errors]"), std::string::npos) << what;
  }
  // The buffer was reset, and the good elements were computed.
  EXPECT_NO_THROW(cuda::synchronize());
  EXPECT_EQ(out.to(Device(kCPU)).data_ptr<int32_t>()[989], 989);
}

TEST(CudaErrorBuffer, CheckingAddsNoSynchronization) {
  REQUIRE_GPU();
  cuda::synchronize();
  Tensor out = zeros({256}, TensorOptions(kInt32).device(kGpu));
  Tensor other = ones({256}, TensorOptions(kFloat32).device(kGpu));
  const uint64_t before = cuda::host_synchronizations();
  launch_reporting_kernel(out, 100);
  Tensor sum = add(other, other);  // more work after the error: no synchronization either
  EXPECT_EQ(cuda::host_synchronizations(), before);
  EXPECT_THROW(cuda::synchronize(), AcceleratorError);
  EXPECT_EQ(cuda::host_synchronizations(), before + 1);  // only the one asked for
}

TEST(CudaErrorBuffer, ADeviceToHostCopyRaises) {
  REQUIRE_GPU();
  cuda::synchronize();
  Tensor out = zeros({64}, TensorOptions(kInt32).device(kGpu));
  launch_reporting_kernel(out, 10);
  const uint64_t before = cuda::host_synchronizations();
  EXPECT_THROW(out.to(Device(kCPU)), AcceleratorError);
  EXPECT_EQ(cuda::host_synchronizations(), before + 1);
}

TEST(CudaErrorBuffer, ItemRaises) {
  REQUIRE_GPU();
  cuda::synchronize();
  Tensor out = zeros({64}, TensorOptions(kInt32).device(kGpu));
  launch_reporting_kernel(out, 0);
  EXPECT_THROW(out.select(0, 3).item<int32_t>(), AcceleratorError);
}

TEST(CudaErrorBuffer, TheStreamKeepsWorkingAfterAnError) {
  REQUIRE_GPU();
  cuda::synchronize();
  Tensor out = zeros({64}, TensorOptions(kInt32).device(kGpu));
  launch_reporting_kernel(out, 0);
  EXPECT_THROW(cuda::synchronize(), AcceleratorError);
  Tensor a = full({1000}, 3.0, kFloat32).to(kGpu);
  Tensor b = mul(a, a).to(Device(kCPU));
  EXPECT_EQ(b.data_ptr<float>()[999], 9.0f);
  launch_reporting_kernel(out, 64);  // no bad element this time
  EXPECT_NO_THROW(cuda::synchronize());
}

}  // namespace
}  // namespace ingot
