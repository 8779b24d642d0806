// Drives registered CPU kernels directly with raw pointers: each flavor, chunked ranges, lookup.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "backend/cpu/kernel_library.h"

namespace ingot {
namespace {

cpu::KernelFn kernel(const char* name) {
  cpu::KernelFn fn = cpu::cpu_kernel_library().find_kernel(name);
  EXPECT_NE(fn, nullptr) << name;
  return fn;
}

// Args for a 1-d or 2-d iteration; strides in bytes, one row of strides per operand.
ElementwiseArgs make_args(std::vector<void*> data, std::vector<int64_t> sizes,
                          std::vector<std::vector<int64_t>> strides, std::vector<ScalarType> dtypes = {}) {
  ElementwiseArgs a{};
  a.ndim = static_cast<int32_t>(sizes.size());
  a.scalar_input = -1;
  for (size_t d = 0; d < sizes.size(); ++d) a.sizes[d] = sizes[d];
  for (size_t k = 0; k < data.size(); ++k) {
    a.data[k] = static_cast<char*>(data[k]);
    for (size_t d = 0; d < sizes.size(); ++d) a.strides[k][d] = strides[k][d];
    if (k < dtypes.size()) a.dtypes[k] = dtypes[k];
  }
  return a;
}

TEST(KernelsFlavors, RegistersEveryFlavorUnderTheConventionalName) {
  for (const char* name : {"atan2_dense_float32_float32", "atan2_strided_float32_int64",
                           "atan2_cast_float16_float16", "add_dense_float16_float16_float32",
                           "add_scalar_int64_int64_int64", "sub_broadcast_uint8_uint8_uint8",
                           "eq_scalar_bool_int32", "where_broadcast_float64_float64",
                           "neg_dense_int8_int8", "exp_dense_float32_bool", "div_cast_float32_int16"}) {
    EXPECT_NE(cpu::cpu_kernel_library().find_kernel(name), nullptr) << name;
  }
}

TEST(KernelsFlavors, DoesNotRegisterKernelsTheMacrosExclude) {
  for (const char* name : {"neg_dense_bool_bool", "sub_dense_bool_bool_bool", "atan2_dense_int32_int32",
                           "add_dense_float32_float32", "exp_dense_int64_int64"}) {
    EXPECT_EQ(cpu::cpu_kernel_library().find_kernel(name), nullptr) << name;
  }
}

TEST(KernelsFlavors, SignaturesRecordStoredAndComputeTypes) {
  bool found = false;
  for (const KernelSignature* sig : kernel_registry().signatures("add")) {
    const KernelSignature& s = *sig;
    if (s.inputs[0] != kFloat16) continue;
    found = true;
    EXPECT_EQ(s.out, kFloat16);
    EXPECT_EQ(s.args[0], kFloat32);
    EXPECT_EQ(s.alpha, kFloat32);
    EXPECT_EQ(kernel_name(s, KernelFlavor::Broadcast), "add_broadcast_float16_float16_float32");
  }
  EXPECT_TRUE(found);
}

TEST(KernelsFlavors, DenseAtan2MatchesDoubleReferenceWithinOneUlp) {
  std::vector<float> a, b;
  for (int i = -20; i <= 20; ++i) {
    a.push_back(0.37f * static_cast<float>(i));
    b.push_back(1.5f - 0.11f * static_cast<float>(i));
  }
  std::vector<float> out(a.size());
  const int64_t n = static_cast<int64_t>(a.size());
  auto args = make_args({out.data(), a.data(), b.data()}, {n}, {{4}, {4}, {4}});
  kernel("atan2_dense_float32_float32")(args, 0, n);
  for (size_t i = 0; i < a.size(); ++i) {
    const float ref = static_cast<float>(std::atan2(static_cast<double>(a[i]), static_cast<double>(b[i])));
    EXPECT_LE(std::fabs(out[i] - ref), std::fabs(std::nextafter(ref, INFINITY) - ref)) << i;
  }
}

TEST(KernelsFlavors, ScalarFlavorLiftsTheValueAtOpmathPrecision) {
  // 1 + 2^-12 is not a float16, so rounding the scalar to float16 first would give a different sum.
  std::vector<Half> a = {Half(1.0f), Half(2.0f), Half(-3.0f)};
  std::vector<Half> out(3);
  auto args = make_args({out.data(), a.data(), nullptr}, {3}, {{2}, {2}, {0}});
  args.scalar_input = 1;
  const float s = 1.0f + 0x1p-12f + 0x1p-11f;
  args.scalar.set(s);
  args.alpha.set(1.0f);
  kernel("add_scalar_float16_float16_float32")(args, 0, 3);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(out[i].x, Half(static_cast<float>(a[i]) + s).x) << i;
  }
}

TEST(KernelsFlavors, ScalarFlavorCanLiftTheFirstInput) {
  std::vector<int32_t> b = {1, 2, 3, 4};
  std::vector<int32_t> out(4);
  auto args = make_args({out.data(), nullptr, b.data()}, {4}, {{4}, {0}, {4}});
  args.scalar_input = 0;
  args.scalar.set(int32_t{10});
  args.alpha.set(int32_t{1});
  kernel("sub_scalar_int32_int32_int32")(args, 0, 4);
  EXPECT_EQ(out, (std::vector<int32_t>{9, 8, 7, 6}));
}

TEST(KernelsFlavors, BroadcastFlavorRepeatsOneValuePerRow) {
  // out[r][c] = x[r][c] * col[r]: col has inner stride 0 and outer stride 8 bytes.
  const int64_t rows = 3, cols = 5;
  std::vector<double> x(rows * cols), col = {2.0, -1.0, 0.5}, out(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  auto args = make_args({out.data(), x.data(), col.data()}, {cols, rows}, {{8, 8 * cols}, {8, 8 * cols}, {0, 8}});
  args.scalar_input = 1;
  kernel("mul_broadcast_float64_float64")(args, 0, rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) EXPECT_EQ(out[r * cols + c], x[r * cols + c] * col[r]);
  }
}

TEST(KernelsFlavors, StridedFlavorHandlesTransposedAndNegativeStrides) {
  // a is a 4x3 row-major matrix read transposed; b is read back to front.
  std::vector<int64_t> a(12), b(12), out(12);
  for (int i = 0; i < 12; ++i) {
    a[i] = i;
    b[i] = 100 * i;
  }
  // iteration shape (4, 3): dim 0 walks a's rows (stride 3 elements), dim 1 its columns.
  auto args = make_args({out.data(), a.data(), b.data() + 11}, {4, 3}, {{8, 32}, {24, 8}, {-8, -32}});
  args.alpha.set(int64_t{2});
  kernel("add_strided_int64_int64_int64")(args, 0, 12);
  for (int64_t j = 0; j < 3; ++j) {
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out[j * 4 + i], a[i * 3 + j] + 2 * b[11 - (j * 4 + i)]);
  }
}

TEST(KernelsFlavors, CastFlavorReadsEachOperandInItsOwnDtype) {
  // int16 and float64 inputs, computed as float32 atan2, written as float64.
  std::vector<int16_t> a = {1, -2, 3};
  std::vector<double> b = {2.0, 0.25, -1.0};
  std::vector<double> out(3);
  auto args = make_args({out.data(), a.data(), b.data()}, {3}, {{8}, {2}, {8}}, {kFloat64, kInt16, kFloat64});
  kernel("atan2_cast_float32_float32")(args, 0, 3);
  for (int i = 0; i < 3; ++i) {
    const float expected = std::atan2(static_cast<float>(a[i]), static_cast<float>(b[i]));
    EXPECT_EQ(out[i], static_cast<double>(expected)) << i;
  }
}

TEST(KernelsFlavors, CastFlavorRoundsToTheComputeDtypeBeforeStoring) {
  // float16 + float16 written to float32 is the float16 sum, as if computed then cast.
  std::vector<Half> a = {Half(1.0f)}, b = {Half(0x1p-11f)};
  std::vector<float> out(1);
  auto args = make_args({out.data(), a.data(), b.data()}, {1}, {{4}, {2}, {2}}, {kFloat32, kFloat16, kFloat16});
  args.alpha.set(1.0f);
  kernel("add_cast_float16_float16_float32")(args, 0, 1);
  EXPECT_EQ(out[0], static_cast<float>(Half(1.0f + 0x1p-11f)));
}

TEST(KernelsFlavors, ChunkedRangesStartingMidRowCoverEveryElementOnce) {
  const int64_t d0 = 7, d1 = 5, n = d0 * d1;
  std::vector<float> a(n), out(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<float>(i);
  // a read transposed: element (i, j) of the iteration is a[i * d1 + j]
  auto args = make_args({out.data(), a.data()}, {d0, d1}, {{4, 4 * d0}, {4 * d1, 4}});
  for (int64_t begin = 0; begin < n; begin += 4) kernel("neg_strided_float32_float32")(args, begin, std::min(n, begin + 4));
  for (int64_t j = 0; j < d1; ++j) {
    for (int64_t i = 0; i < d0; ++i) EXPECT_EQ(out[j * d0 + i], -a[i * d1 + j]);
  }
}

TEST(KernelsFlavors, WhereSelectsWithABoolCondition) {
  std::vector<bool> cond_src = {true, false, true};
  bool cond[3] = {true, false, true};
  std::vector<BFloat16> a = {BFloat16(1.0f), BFloat16(2.0f), BFloat16(3.0f)};
  std::vector<BFloat16> b = {BFloat16(-1.0f), BFloat16(-2.0f), BFloat16(-3.0f)};
  std::vector<BFloat16> out(3);
  auto args = make_args({out.data(), cond, a.data(), b.data()}, {3}, {{2}, {1}, {2}, {2}});
  kernel("where_dense_bfloat16_bfloat16")(args, 0, 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i].x, (cond_src[i] ? a[i] : b[i]).x);
}

}  // namespace
}  // namespace ingot
