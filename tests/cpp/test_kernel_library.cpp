// How the kernel library turns an iterator into a kernel name: flavor choice, dtype signature,
// alpha suffix, missing kernels. A recording library sees the shared registry and logs launches.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backend/cpu/kernel_library.h"
#include "ingot/ingot.h"

namespace ingot {
namespace {

class RecordingLibrary final : public KernelLibrary {
 public:
  DeviceType device_type() const override { return kCPU; }
  std::vector<std::string> launched;
  std::vector<ElementwiseArgs> args;

  void launch(const KernelSignature& sig, KernelFlavor flavor, const ElementwiseArgs& a, int64_t,
              Device) override {
    launched.push_back(sig.names[static_cast<size_t>(flavor)]);
    args.push_back(a);
  }
  void copy_bytes(void*, Device, const void*, Device, size_t) override {}
};

std::string binary_kernel_for(const char* op, const Tensor& a, const Tensor& b) {
  RecordingLibrary lib;
  TensorIterator iter;
  iter.build_binary_op(Tensor(), a, b);
  lib.exec_binary_kernel(iter, op);
  return lib.launched.empty() ? "(none)" : lib.launched.front();
}

TEST(KernelLibrary, ContiguousSameDtypeUsesDense) {
  EXPECT_EQ(binary_kernel_for("mul", zeros({4, 5}), zeros({4, 5})), "mul_dense_float32_float32");
}

TEST(KernelLibrary, WrappedNumberIsLiftedIntoTheScalarFlavor) {
  EXPECT_EQ(binary_kernel_for("mul", zeros({8}, kFloat16), scalar_to_tensor(2.5)), "mul_scalar_float16_float16");
  EXPECT_EQ(binary_kernel_for("mul", scalar_to_tensor(2), zeros({8}, kInt16)), "mul_scalar_int16_int16");
}

TEST(KernelLibrary, ScalarFlavorCarriesTheValueInTheComputeType) {
  RecordingLibrary lib;
  TensorIterator iter;
  iter.build_binary_op(Tensor(), zeros({8}, kBFloat16), scalar_to_tensor(0.1));
  lib.exec_binary_kernel(iter, "mul");
  ASSERT_EQ(lib.args.size(), 1u);
  EXPECT_EQ(lib.args[0].scalar_input, 1);
  EXPECT_EQ(lib.args[0].scalar.get<float>(), 0.1f);
}

TEST(KernelLibrary, ScalarOfAHigherCategoryIsNotLiftedIntoALowerComputeType) {
  // int32 == 2.5 compares in float32: lifting 2.5 into the int32 kernel would truncate it.
  RecordingLibrary lib;
  TensorIterator iter;
  iter.build_comparison_op(Tensor(), zeros({8}, kInt32), scalar_to_tensor(2.5));
  lib.exec_binary_kernel(iter, "eq");
  EXPECT_EQ(lib.launched, std::vector<std::string>{"eq_cast_bool_float32"});
}

TEST(KernelLibrary, RowAndColumnBroadcastUseTheBroadcastFlavor) {
  EXPECT_EQ(binary_kernel_for("mul", zeros({6, 5}), zeros({5})), "mul_broadcast_float32_float32");
  EXPECT_EQ(binary_kernel_for("mul", zeros({6, 5}), zeros({6, 1})), "mul_broadcast_float32_float32");
}

TEST(KernelLibrary, TransposedOperandUsesStrided) {
  EXPECT_EQ(binary_kernel_for("mul", zeros({6, 5}), zeros({5, 6}).t()), "mul_strided_float32_float32");
}

TEST(KernelLibrary, MixedInputDtypesUseCastInTheCommonDtype) {
  EXPECT_EQ(binary_kernel_for("mul", zeros({4}, kInt32), zeros({4})), "mul_cast_float32_float32");
  EXPECT_EQ(binary_kernel_for("mul", zeros({4}, kUInt8), zeros({4}, kInt8)), "mul_cast_int16_int16");
}

TEST(KernelLibrary, IntegerInputsOfAFloatOpUseTheInt2FloatKernel) {
  RecordingLibrary lib;
  TensorIterator iter;
  iter.build_binary_float_op(Tensor(), zeros({4}, kInt32), zeros({4}, kInt32));
  lib.exec_binary_kernel(iter, "atan2");
  EXPECT_EQ(lib.launched, std::vector<std::string>{"atan2_dense_float32_int32"});
}

TEST(KernelLibrary, AlphaAppendsItsComputeDtypeToTheName) {
  RecordingLibrary lib;
  TensorIterator iter;
  iter.build_binary_op(Tensor(), zeros({4}, kFloat16), zeros({4}, kFloat16));
  lib.exec_binary_kernel(iter, "add", Scalar(3));
  ASSERT_EQ(lib.launched, std::vector<std::string>{"add_dense_float16_float16_float32"});
  EXPECT_EQ(lib.args[0].alpha.get<float>(), 3.0f);
}

TEST(KernelLibrary, EmptyIterationLaunchesNothing) {
  EXPECT_EQ(binary_kernel_for("mul", zeros({0, 3}), zeros({0, 3})), "(none)");
}

TEST(KernelLibrary, MissingKernelNamesKernelBackendAndAvailableDtypes) {
  TensorIterator iter;
  iter.build_unary_op(Tensor(), zeros({3}, kBool));
  try {
    kernel_library(kCPU).exec_unary_kernel(iter, "neg");
    FAIL() << "expected NotImplementedError";
  } catch (const NotImplementedError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("neg_cast_bool_bool"), std::string::npos) << msg;
    EXPECT_NE(msg.find("cpu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("float16, bfloat16, float32, float64"), std::string::npos) << msg;
    EXPECT_NE(msg.find("int8"), std::string::npos) << msg;
  }
}

TEST(KernelLibrary, UnknownOpIsNotImplemented) {
  TensorIterator iter;
  iter.build_unary_op(Tensor(), zeros({3}));
  EXPECT_THROW(kernel_library(kCPU).exec_unary_kernel(iter, "no_such_op"), NotImplementedError);
}

TEST(KernelLibrary, WrongArityIsAValueError) {
  TensorIterator iter;
  iter.build_unary_op(Tensor(), zeros({3}));
  EXPECT_THROW(kernel_library(kCPU).exec_binary_kernel(iter, "mul"), ValueError);
}

#if !defined(INGOT_HAS_CUDA)
TEST(KernelLibrary, NoCudaLibraryInACpuOnlyBuild) {
  EXPECT_THROW(kernel_library(kCUDA), NotImplementedError);
}
#endif

TEST(KernelLibrary, LargeIterationsRunInParallelChunksAndCoverEveryElement) {
  const int64_t n = 5 * cpu::kCpuGrainSize + 7;
  std::vector<int64_t> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = i;
  const Tensor a = from_blob(values.data(), {n}, kInt64);
  TensorIterator iter;
  iter.build_binary_op(Tensor(), a, a);
  kernel_library(kCPU).exec_binary_kernel(iter, "mul");
  const Tensor out = iter.output();
  const int64_t* p = out.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; i += 997) EXPECT_EQ(p[i], i * i);
  EXPECT_EQ(p[n - 1], (n - 1) * (n - 1));
}

}  // namespace
}  // namespace ingot
