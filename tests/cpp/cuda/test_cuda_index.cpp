// Index ops on CUDA compared with the CPU, and bad indices through the error buffer: raised as
// AcceleratorError at the next synchronization, no synchronization added, the stream still works.
// Skipped without a GPU; the compile test needs NVRTC only.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backend/cuda/driver.h"
#include "ingot/cuda.h"
#include "ingot/ingot.h"

namespace ingot {
namespace {

#define REQUIRE_GPU() \
  if (!cuda::is_available()) GTEST_SKIP() << "no CUDA device here"

const Device kGpu(kCUDA, 0);
const Device kHost(kCPU);

Tensor ints(const std::vector<int64_t>& v, IntArrayRef sizes, ScalarType dtype = kInt64) {
  std::vector<int64_t> copy = v;
  return from_blob(copy.data(), sizes, kInt64).to(dtype, true);
}

Tensor ramp(IntArrayRef sizes, ScalarType dtype) {
  Tensor t = arange(Scalar(int64_t{1}), Scalar(int64_t{1} + empty(sizes).numel())).to(dtype);
  return t.reshape(sizes);
}

void expect_same(const Tensor& cpu, const Tensor& gpu) {
  const Tensor back = gpu.to(kHost).contiguous(), ref = cpu.contiguous();
  ASSERT_EQ(back.dtype(), ref.dtype());
  ASSERT_EQ(back.sizes(), ref.sizes());
  EXPECT_EQ(std::memcmp(back.data_ptr(), ref.data_ptr(), ref.nbytes()), 0) << ref << "\nvs\n"
                                                                           << back;
}

TEST(CudaIndex, IndexKernelsCompileForSm90) {
  for (const char* op : {"gather", "scatter", "scatter_add"}) {
    const cuda::PrecompileReport r = cuda::precompile(9, 0, 1, op);
    EXPECT_GE(r.modules, 8) << op;
    EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  }
}

TEST(CudaIndex, GatherIndexSelectAndTakeMatchTheCpuOnEveryDtype) {
  REQUIRE_GPU();
  for (ScalarType dtype :
       {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    for (ScalarType index_dtype : {kInt64, kInt32}) {
      const Tensor a = ramp({5, 6}, dtype).t();  // non-contiguous
      const Tensor g = ints({0, 4, -1, 2, 3, 3, 1, 0}, {2, 4}, index_dtype);
      const Tensor s = ints({5, 0, -6, 2}, {4}, index_dtype);
      expect_same(gather(a, 1, g), gather(a.to(kGpu), 1, g.to(kGpu)));
      expect_same(index_select(a, 0, s), index_select(a.to(kGpu), 0, s.to(kGpu)));
      expect_same(take(a, s), take(a.to(kGpu), s.to(kGpu)));
    }
  }
}

TEST(CudaIndex, ScatterAddOfIntegersMatchesTheCpuWithDuplicates) {
  REQUIRE_GPU();
  for (ScalarType dtype : {kUInt8, kInt8, kInt16, kInt32, kInt64, kBool}) {
    const Tensor index =
        arange(Scalar(int64_t{0}), Scalar(int64_t{3000})).remainder(Scalar(int64_t{7}));
    const Tensor src = ramp({3000}, dtype);
    const Tensor self = zeros({7}, TensorOptions(dtype));
    expect_same(scatter_add(self, 0, index, src),
                scatter_add(self.to(kGpu), 0, index.to(kGpu), src.to(kGpu)));
  }
}

TEST(CudaIndex, IndexPutAndAdvancedIndexMatchTheCpu) {
  REQUIRE_GPU();
  const Tensor a = ramp({4, 3}, kFloat32);
  const Tensor rows = ints({3, -1, 0}, {3}), cols = ints({2, 0, 1}, {3});
  expect_same(index(a, {rows, cols}), index(a.to(kGpu), {rows.to(kGpu), cols.to(kGpu)}));
  expect_same(index_put(a, {rows}, ramp({3}, kFloat32), true),
              index_put(a.to(kGpu), {rows.to(kGpu)}, ramp({3}, kFloat32).to(kGpu), true));
}

TEST(CudaIndex, AnIndexOutOfRangeRaisesAtTheNextSynchronizationAndAddsNone) {
  REQUIRE_GPU();
  const Tensor a = ramp({4, 8}, kFloat32).to(kGpu);
  const Tensor bad = ints({1, 4, 0}, {3}).to(kGpu);
  cuda::synchronize();
  const uint64_t before = cuda::host_synchronizations();
  Tensor r = index_select(a, 0, bad);  // rows 0 and 2 are written, row 1 is skipped
  EXPECT_EQ(cuda::host_synchronizations(), before);
  try {
    cuda::synchronize();
    FAIL() << "no AcceleratorError";
  } catch (const AcceleratorError& e) {
    EXPECT_NE(std::string(e.what()).find("index 4 is out of bounds for dimension 0 with size 4"),
              std::string::npos)
        << e.what();
    // Row 1 is skipped by every thread that moves part of it: one report each (8 floats, or
    // fewer when the row moves as 16-byte elements), and the message counts the others.
    EXPECT_NE(std::string(e.what()).find(" more error"), std::string::npos) << e.what();
  }
  EXPECT_EQ(cuda::host_synchronizations(), before + 1);
  // The stream, the context and the buffer keep working.
  expect_same(index_select(ramp({4, 8}, kFloat32), 0, ints({3, 0}, {2})),
              index_select(a, 0, ints({3, 0}, {2}).to(kGpu)));
}

TEST(CudaIndex, AScatterOutOfRangeWritesNothingOutside) {
  REQUIRE_GPU();
  Tensor big = zeros({3, 4}, TensorOptions(kInt32).device(kGpu));
  Tensor row =
      big.select(0, 1);  // scatter into the middle row: out of range must not touch rows 0, 2
  row.scatter_(0, ints({-5, 4, 100, 1}, {4}).to(kGpu), Scalar(int64_t{9}));
  EXPECT_THROW(big.to(kHost), AcceleratorError);
  expect_same(ints({0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0}, {3, 4}, kInt32), big);
}

}  // namespace
}  // namespace ingot
