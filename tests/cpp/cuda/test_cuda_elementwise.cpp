// The CUDA backend end to end: memory, copies, and every elementwise flavor compared with the CPU
// backend. Skipped without a GPU (scripts/gpu-check runs them on one); the compile-only tests at
// the end need NVRTC alone and run everywhere the backend is built.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "backend/cuda/embedded_sources.h"
#include "backend/cuda/kernel_library.h"
#include "backend/cuda/nvrtc.h"
#include "ingot/cuda.h"
#include "ingot/ingot.h"

namespace ingot {
namespace {

#define REQUIRE_GPU() \
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device here"

const Device kGpu(kCUDA, 0);

Tensor ramp(int64_t n, ScalarType dtype, double scale = 0.37, double shift = -5) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = shift + scale * static_cast<double>(i % 97);
  return from_blob(v.data(), {n}, kFloat64).to(dtype, true);
}

// Exact equality of values and dtypes, NaNs equal to NaNs (both tensors on the host).
void expect_same(const Tensor& cpu, const Tensor& gpu) {
  ASSERT_EQ(gpu.device(), kGpu);
  const Tensor back = gpu.to(Device(kCPU)).contiguous();
  const Tensor ref = cpu.contiguous();
  ASSERT_EQ(back.dtype(), ref.dtype());
  ASSERT_EQ(back.sizes(), ref.sizes());
  EXPECT_EQ(std::memcmp(back.data_ptr(), ref.data_ptr(), ref.nbytes()), 0) << ref << "\nvs\n"
                                                                           << back;
}

TEST(CudaRuntime, IsAvailableAnswersWithoutThrowing) {
  const bool available = cuda::is_available();
  EXPECT_EQ(available, cuda::device_count() > 0);
}

TEST(CudaRuntime, WithoutAGpuDeviceTensorsRaiseAcceleratorError) {
  if (cuda::is_available()) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_THROW(empty({2}, TensorOptions(kFloat32).device(kGpu)), AcceleratorError);
  EXPECT_THROW(zeros({2}).to(kGpu), AcceleratorError);
}

TEST(CudaMemory, FreedMemoryIsReusedByThePool) {
  REQUIRE_GPU();
  cuda::synchronize();
  const int64_t before = cuda::memory_stats().allocated_bytes;
  { Tensor t = empty({1 << 20}, TensorOptions(kFloat32).device(kGpu)); }
  const int64_t reserved = cuda::memory_stats().reserved_bytes;
  { Tensor t = empty({1 << 20}, TensorOptions(kFloat32).device(kGpu)); }
  EXPECT_EQ(cuda::memory_stats().allocated_bytes, before);
  EXPECT_EQ(cuda::memory_stats().reserved_bytes, reserved);
}

TEST(CudaMemory, SmallBlocksOfOneSizeClassAreReusedAtOnce) {
  REQUIRE_GPU();
  void* first = nullptr;
  {
    Tensor t = empty({25}, TensorOptions(kFloat32).device(kGpu));  // 100 bytes: the 512-byte class
    first = t.data_ptr();
  }
  Tensor u = empty({50}, TensorOptions(kInt32).device(kGpu));
  EXPECT_EQ(u.data_ptr(), first);
  cuda::empty_cache();  // hands cached blocks back; live tensors are untouched
  u.fill_(4);
  EXPECT_EQ(u.select(0, 49).item<int64_t>(), 4);
}

TEST(CudaCopy, HostToDeviceAndBackRoundTripsEverySize) {
  REQUIRE_GPU();
  for (int64_t n : std::initializer_list<int64_t>{0, 1, 7, 1000, (int64_t{3} << 20) + 5,
                                                  (int64_t{20} << 20) + 3}) {
    const Tensor host = ramp(n, kInt32, 1, 0);
    expect_same(host, host.to(kGpu));
  }
}

TEST(CudaCopy, BetweenDtypesLayoutsAndDevices) {
  REQUIRE_GPU();
  const Tensor host = ramp(60, kFloat32).view({6, 10});
  const Tensor dev = host.to(kGpu);
  expect_same(host.t().contiguous(), dev.t().contiguous());
  expect_same(host.to(kFloat16), dev.to(kFloat16));
  Tensor strided_dst = zeros({10, 6}, TensorOptions(kFloat64).device(kGpu)).t();
  strided_dst.copy_(host);  // host -> non-contiguous device view, with a cast
  expect_same(host.to(kFloat64), strided_dst);
}

TEST(CudaFill, ContiguousAndStrided) {
  REQUIRE_GPU();
  Tensor t = empty({5, 7}, TensorOptions(kInt16).device(kGpu));
  t.fill_(-3);
  expect_same(full({5, 7}, -3, kInt16), t);
  t.t().select(0, 2).fill_(9);
  Tensor ref = full({5, 7}, -3, kInt16);
  ref.t().select(0, 2).fill_(9);
  expect_same(ref, t);
}

struct FlavorCase {
  const char* what;
  std::function<Tensor(const Tensor&, const Tensor&)> op;
};

// Every flavor of the binary kernels: dense (aligned and unaligned), scalar, row and column
// broadcast, strided (transposed, stepped), cast (mixed dtypes), host 0-d operands.
TEST(CudaElementwise, EveryFlavorMatchesTheCpuBackend) {
  REQUIRE_GPU();
  for (ScalarType dt : {kFloat32, kFloat16, kBFloat16, kFloat64, kInt32, kInt8, kUInt8}) {
    const Tensor a = ramp(64 * 33, dt).view({64, 33});
    const Tensor b = ramp(64 * 33, dt, 0.11, 2).view({64, 33});
    const Tensor row = ramp(33, dt, 0.5, 1);
    const Tensor col = ramp(64, dt, 0.25, 3).view({64, 1});
    const Tensor da = a.to(kGpu), db = b.to(kGpu), drow = row.to(kGpu), dcol = col.to(kGpu);
    SCOPED_TRACE(dtype_name(dt));
    expect_same(add(a, b), add(da, db));
    expect_same(mul(a.flatten().slice(0, 1), b.flatten().slice(0, 1)),
                mul(da.flatten().slice(0, 1), db.flatten().slice(0, 1)));  // unaligned bases
    expect_same(mul(a, scalar_to_tensor(3)), mul(da, scalar_to_tensor(3)));
    expect_same(add(a, row), add(da, drow));
    expect_same(add(a, col), add(da, dcol));
    expect_same(add(a.t(), b.t()), add(da.t(), db.t()));
    expect_same(
        mul(a.slice(0, 0, 63, 3).slice(1, 0, 32, 2), b.slice(0, 1, 64, 3).slice(1, 1, 33, 2)),
        mul(da.slice(0, 0, 63, 3).slice(1, 0, 32, 2), db.slice(0, 1, 64, 3).slice(1, 1, 33, 2)));
    expect_same(add(a, b.to(kFloat64)), add(da, db.to(kFloat64)));  // contiguous cast, specialized
    expect_same(mul(a.to(kInt32), b), mul(da.to(kInt32), db));
    expect_same(add(a.t(), b.to(kInt16).t()), add(da.t(), db.to(kInt16).t()));  // strided cast
    // Tiled: one operand contiguous along the other dim (a transposed input; a transposed out=).
    const Tensor bt = b.t().contiguous().t(), dbt = db.t().contiguous().t();
    expect_same(add(a, bt), add(da, dbt));
    expect_same(where(gt(a, bt), bt, a), where(gt(da, dbt), dbt, da));
    Tensor out_t = empty({33, 64}, dt).t(),
           dout_t = empty({33, 64}, TensorOptions(dt).device(kGpu)).t();
    add_out(out_t, a, b);
    add_out(dout_t, da, db);
    expect_same(out_t, dout_t);
    expect_same(add(a.t(), scalar_to_tensor(2.5)), add(da.t(), scalar_to_tensor(2.5)));
    // A 0-d operand in device memory is read by the kernel, never lifted on the host.
    expect_same(mul(a, full({}, 3, dt)), mul(da, full({}, 3, dt).to(kGpu)));
    expect_same(div(a, full({}, 2.0, kFloat64)), div(da, full({}, 2.0, kFloat64).to(kGpu)));
    expect_same(where(gt(a, b), a, scalar_to_tensor(1)),
                where(gt(da, db), da, scalar_to_tensor(1)));
  }
}

TEST(CudaElementwise, TranscendentalsMatchTheCpuBackendWithinOneUlp) {
  REQUIRE_GPU();
  const Tensor a = ramp(4096, kFloat32, 0.013, -20);
  const Tensor b = ramp(4096, kFloat32, -0.007, 3);
  const Tensor cpu = atan2(a, b), gpu = atan2(a.to(kGpu), b.to(kGpu)).to(Device(kCPU));
  const float* x = cpu.data_ptr<float>();
  const float* y = gpu.data_ptr<float>();
  for (int64_t i = 0; i < cpu.numel(); ++i) {
    int32_t ix, iy;
    std::memcpy(&ix, &x[i], 4);
    std::memcpy(&iy, &y[i], 4);
    EXPECT_LE(std::abs(ix - iy), 1) << i << ": " << x[i] << " vs " << y[i];
  }
}

TEST(CudaElementwise, EmptyAndZeroDim) {
  REQUIRE_GPU();
  const Tensor e = zeros({0, 3}, TensorOptions(kFloat32).device(kGpu));
  EXPECT_EQ(add(e, e).numel(), 0);
  const Tensor s = full({}, 2.5, kFloat32).to(kGpu);
  EXPECT_EQ(mul(s, s).item<float>(), 6.25f);
}

// More than 2^31 elements: the iterator splits into 32-bit sub-iterators.
TEST(CudaElementwise, MoreThanTwoToThe31ElementsSplitAndStayCorrect) {
  REQUIRE_GPU();
  const int64_t n = (int64_t{1} << 31) + 123;
  Tensor a = empty({n}, TensorOptions(kInt8).device(kGpu));
  a.fill_(3);
  const Tensor r = add(a, scalar_to_tensor(4));
  for (int64_t i : {int64_t{0}, (int64_t{1} << 31) - 1, int64_t{1} << 31, n - 1}) {
    EXPECT_EQ(r.select(0, i).item<int64_t>(), 7) << i;
  }
  Tensor h = empty({n}, TensorOptions(kFloat16).device(kGpu));
  h.fill_(1.5);
  const Tensor hs = add(h, full({}, 0.25, kFloat16));  // a host 0-d operand, lifted
  EXPECT_EQ(hs.select(0, n - 1).item<float>(), 1.75f);
  EXPECT_EQ(hs.select(0, int64_t{1} << 30).item<float>(), 1.75f);
  // Broadcast past 2^31 outputs: (n/2, 1) + (2,) -> (n/2, 2).
  const Tensor m = add(a.view({n, 1}).slice(0, 0, n / 2), full({2}, 1, kInt8).to(kGpu));
  EXPECT_EQ(m.select(0, n / 2 - 1).select(0, 1).item<int64_t>(), 4);
}

TEST(CudaErrors, DeviceIndexOutOfRangeIsAnIndexError) {
  REQUIRE_GPU();
  EXPECT_THROW(empty({2}, TensorOptions(kFloat32).device(Device(kCUDA, 100))), IndexError);
}

// Compile-only: NVRTC builds a module from the embedded headers without a GPU.
TEST(CudaKernelModules, SourceNamesTheHeaderAndEveryFlavor) {
  const KernelSignature* sig = kernel_registry().find("add_dense_float16_float16_float32");
  ASSERT_NE(sig, nullptr);
  const std::string src = cuda::CudaKernelLibrary::module_source(*sig, KernelFlavor::Broadcast);
  EXPECT_NE(src.find("#include \"kernels/ops/binary.h\""), std::string::npos) << src;
  EXPECT_NE(src.find("INGOT_CUDA_KERNEL(add, broadcast, float16_float16_float32, "
                     "::ingot::add_float16_float16_float32_kernel)"),
            std::string::npos)
      << src;
}

TEST(CudaKernelModules, ContiguousCastIsSpecializedToTheOperandDtypes) {
  const KernelSignature* sig = kernel_registry().find("add_dense_float32_float32_float32");
  ASSERT_NE(sig, nullptr);
  const ScalarType dtypes[] = {kFloat64, kInt32, kFloat32};
  EXPECT_EQ(cuda::CudaKernelLibrary::cast_kernel_name(*sig, dtypes),
            "add_cast_float32_float32_float32__float64_int32_float32");
  cuda::CompileRequest r;
  r.source = cuda::CudaKernelLibrary::cast_module_source(*sig, dtypes);
  for (const cuda::EmbeddedSource& h : cuda::embedded_kernel_sources()) r.headers.push_back(h);
  r.options = {"-std=c++17"};
  const cuda::CompiledModule m = cuda::compile(r);
  EXPECT_FALSE(m.image.empty()) << r.source;
}

TEST(CudaKernelModules, PrecompileOneOpForSm90) {
  const cuda::PrecompileReport r = cuda::precompile(9, 0, 2, "atan2");
  EXPECT_GT(r.modules, 4);
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
}

}  // namespace
}  // namespace ingot
