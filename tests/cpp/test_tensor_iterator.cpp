#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ingot/ingot.h"
#include "iter/tensor_iterator.h"
#include "iterator_test_util.h"
#include "tensor_values.h"

namespace ingot {
namespace {

using testing::expect_error;
using testing::iota_tensor;

std::vector<int64_t> vec(IntArrayRef a) { return a.vec(); }

TensorIterator binary(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIterator iter;
  iter.set_name("add");
  iter.build_binary_op(out, a, b);
  return iter;
}

// A CUDA tensor that is never dereferenced: the iterator only reads metadata and addresses.
Tensor cuda_placeholder(IntArrayRef sizes, ScalarType dtype = kFloat32) {
  alignas(16) static char memory[64];
  return from_blob(memory, sizes, TensorOptions(dtype).device(Device(kCUDA)));
}

TEST(TensorIterator, BroadcastsInputsToOutputShape) {
  auto iter = binary(Tensor(), zeros({2, 1, 3}), zeros({4, 1}));
  EXPECT_EQ(vec(iter.output().sizes()), (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(iter.numel(), 24);
}

TEST(TensorIterator, BroadcastFailureNamesOpAndBothShapes) {
  expect_error<ValueError>([] { binary(Tensor(), zeros({2, 3}), zeros({4})); },
                           {"add", "[2, 3]", "[4]", "cannot be broadcast"});
}

TEST(TensorIterator, BroadcastDimsGetZeroStride) {
  auto iter = binary(Tensor(), zeros({3, 1}, kInt64), zeros({1, 4}, kInt64));
  ASSERT_EQ(iter.ndim(), 2);
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{4, 3}));  // dim 0 moves fastest
  EXPECT_EQ(vec(iter.strides(0)), (std::vector<int64_t>{8, 32}));
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{0, 8}));
  EXPECT_EQ(vec(iter.strides(2)), (std::vector<int64_t>{8, 0}));
}

TEST(TensorIterator, CoalescesContiguousOperandsIntoOneDim) {
  auto iter = binary(Tensor(), zeros({2, 3, 4}), zeros({2, 3, 4}));
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{24}));
  EXPECT_TRUE(iter.is_contiguous());
}

// The one-step set-up (every given operand contiguous with the iteration shape) must give what
// reordering and coalescing would: one dim, itemsize strides, a contiguous output of that shape.
TEST(TensorIterator, ContiguousOperandsOfOneShapeGiveOneDimAndAContiguousOutput) {
  auto iter = binary(Tensor(), zeros({2, 3}, kInt32), zeros({2, 3}, kFloat32));
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{6}));
  EXPECT_EQ(vec(iter.output().sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(vec(iter.output().strides()), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(iter.output().dtype(), kFloat32);
  EXPECT_EQ(vec(iter.strides(0)), (std::vector<int64_t>{4}));
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{4}));
  EXPECT_EQ(iter.data_ptr(0), iter.output().data_ptr());
}

// Operands of one shape, dtype and device take a one-pass set-up (uniform_set_up); what it
// decides must equal the general steps' answer, and anything else must still reach those steps.
TEST(TensorIterator, UniformOperandsGiveOneDimTheirDtypeAndAContiguousOutput) {
  auto iter = binary(Tensor(), zeros({2, 3}, kInt16), zeros({2, 3}, kInt16));
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{6}));
  EXPECT_EQ(iter.common_dtype(), kInt16);
  EXPECT_EQ(iter.output().dtype(), kInt16);
  EXPECT_EQ(vec(iter.output().strides()), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(vec(iter.strides(0)), (std::vector<int64_t>{2}));
  EXPECT_EQ(iter.device(), Device(kCPU));
}

TEST(TensorIterator, UniformInputsWithAWiderOutKeepTheOutAndTheirCommonDtype) {
  Tensor out = empty({2, 3}, kFloat64);
  auto iter = binary(out, zeros({2, 3}), zeros({2, 3}));
  EXPECT_TRUE(iter.output().is_same(out));
  EXPECT_EQ(iter.common_dtype(), kFloat32);
  EXPECT_EQ(iter.dtype(0), kFloat64);
}

TEST(TensorIterator, UniformIntegerInputsOfAFloatOpComputeInFloat32) {
  TensorIterator iter;
  iter.build_binary_float_op(Tensor(), zeros({2, 2}, kInt32), zeros({2, 2}, kInt32));
  EXPECT_EQ(iter.common_dtype(), kFloat32);
  EXPECT_EQ(iter.output().dtype(), kFloat32);
}

TEST(TensorIterator, UniformOperandsOnOneOtherDeviceIterateThere) {
  Tensor out = cuda_placeholder({4});
  auto iter = binary(out, out, out);
  EXPECT_EQ(iter.device(), Device(kCUDA));
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{4}));
}

TEST(TensorIterator, OneElementWithDimsStepsZeroBytesAndZeroDimHasNoDims) {
  auto one = binary(Tensor(), zeros({1, 1}), zeros({1, 1}));
  EXPECT_EQ(vec(one.shape()), (std::vector<int64_t>{1}));
  EXPECT_EQ(vec(one.strides(1)), (std::vector<int64_t>{0}));
  EXPECT_TRUE(one.is_scalar(1));
  auto scalar = binary(Tensor(), zeros({}), zeros({}));
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.output().dim(), 0);
}

TEST(TensorIterator, GivenContiguousOutputIsWrittenInPlace) {
  Tensor out = empty({2, 3});
  auto iter = binary(out, zeros({2, 3}), zeros({2, 3}));
  EXPECT_TRUE(iter.output().is_same(out));
  EXPECT_EQ(iter.data_ptr(0), out.data_ptr());
}

TEST(TensorIterator, BorrowedOperandsAreTheCallersTensors) {
  Tensor a = zeros({4}), b = zeros({4}), out = empty({4});
  TensorIterator iter;
  iter.set_name("add");
  iter.borrow_operands();
  iter.build_binary_op(out, a, b);
  EXPECT_TRUE(iter.input(0).is_same(a));
  EXPECT_TRUE(iter.input(1).is_same(b));
  EXPECT_TRUE(iter.output().is_same(out));
  // An output the iterator allocates is owned: it outlives the iterator.
  TensorIterator fresh;
  fresh.borrow_operands();
  fresh.build_binary_op(Tensor(), a, b);
  const Tensor result = fresh.take_output();
  fresh = TensorIterator();
  EXPECT_EQ(vec(result.sizes()), (std::vector<int64_t>{4}));
  // The iterator only allocated it (no kernel ran): write and read it back, which AddressSanitizer
  // would flag if the storage had gone with the iterator.
  float* data = result.data_ptr<float>();
  for (int i = 0; i < 4; ++i) data[i] = 0.5f * static_cast<float>(i);
  EXPECT_EQ(result.data_ptr<float>()[3], 1.5f);
}

TEST(TensorIterator, CoalescesOnlyDimsThatLineUp) {
  Tensor a = zeros({2, 3, 4}).slice(2, 0, 2);
  auto iter = binary(empty({2, 3, 2}), a, a);
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{4, 16}));
  EXPECT_FALSE(iter.is_contiguous());
}

TEST(TensorIterator, ReordersSoDimZeroIsFastestForEveryOperand) {
  Tensor out = empty({3, 4});
  Tensor in = empty({4, 3}).t();
  auto iter = TensorIteratorConfig().add_output(out).add_input(in).build();
  EXPECT_EQ(vec(iter.shape()), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(vec(iter.strides(0)), (std::vector<int64_t>{4, 16}));
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{12, 4}));
}

TEST(TensorIterator, AllocatedOutputFollowsTransposedInputs) {
  Tensor a = empty({4, 3}).t(), b = empty({4, 3}).t();
  auto iter = binary(Tensor(), a, b);
  EXPECT_EQ(vec(iter.output().strides()), vec(a.strides()));
  EXPECT_TRUE(iter.is_contiguous());
}

TEST(TensorIterator, AllocatedOutputFollowsPermutedInput) {
  Tensor a = empty({2, 3, 4}).permute({1, 2, 0});
  auto iter = TensorIterator::unary_op(Tensor(), a);
  EXPECT_EQ(vec(iter.output().strides()), vec(a.strides()));
}

TEST(TensorIterator, AllocatedOutputOfReversedInputHasPositiveStrides) {
  Tensor a = empty({2, 3}).flip({1});
  auto iter = TensorIterator::unary_op(Tensor(), a);
  EXPECT_EQ(vec(iter.output().strides()), (std::vector<int64_t>{3, 1}));
}

TEST(TensorIterator, ExposesDataPointersAndByteStrides) {
  Tensor a = zeros({5}, kInt16), b = zeros({5}, kInt16);
  auto iter = binary(Tensor(), a, b);
  EXPECT_EQ(iter.data_ptr(1), static_cast<char*>(a.data_ptr()));
  EXPECT_EQ(iter.data_ptr(2), static_cast<char*>(b.data_ptr()));
  EXPECT_EQ(vec(iter.strides(1)), (std::vector<int64_t>{2}));
  EXPECT_EQ(iter.ntensors(), 3);
  EXPECT_EQ(iter.noutputs(), 1);
  EXPECT_EQ(iter.ninputs(), 2);
}

TEST(TensorIterator, ZeroDimOperandsGiveZeroDimIteration) {
  auto iter = binary(Tensor(), zeros({}), zeros({}));
  EXPECT_EQ(iter.ndim(), 0);
  EXPECT_EQ(iter.numel(), 1);
  EXPECT_TRUE(iter.is_scalar(1));
  EXPECT_EQ(iter.output().dim(), 0);
}

TEST(TensorIterator, IsScalarForBroadcastSingleElement) {
  auto iter = binary(Tensor(), zeros({3, 4}), zeros({}));
  EXPECT_TRUE(iter.is_scalar(2));
  EXPECT_FALSE(iter.is_scalar(1));
}

TEST(TensorIterator, CommonDtypePromotesAndSetsAllocatedOutput) {
  auto iter = binary(Tensor(), zeros({2}, kInt32), zeros({2}, kFloat16));
  EXPECT_EQ(iter.common_dtype(), kFloat16);
  EXPECT_EQ(iter.output().dtype(), kFloat16);
  EXPECT_EQ(iter.input_dtype(0), kInt32);  // inputs keep their stored dtype; kernels cast
}

TEST(TensorIterator, WrappedScalarDoesNotWidenTensor) {
  auto iter = binary(Tensor(), zeros({2}, kUInt8), scalar_to_tensor(Scalar(1000)));
  EXPECT_EQ(iter.output().dtype(), kUInt8);
}

TEST(TensorIterator, UnsafeCastToOutIsTypeError) {
  Tensor out = empty({2}, kInt64);
  expect_error<TypeError>([&] { binary(out, zeros({2}, kInt64), zeros({2}, kFloat32)); },
                          {"add", "float32", "int64", "can't be cast"});
}

TEST(TensorIterator, SafeCastToWiderOutIsAllowed) {
  Tensor out = empty({2}, kFloat64);
  auto iter = binary(out, zeros({2}, kInt32), zeros({2}, kInt32));
  EXPECT_EQ(iter.common_dtype(), kInt32);
  EXPECT_EQ(iter.dtype(0), kFloat64);
  EXPECT_TRUE(iter.output().is_same(out));
}

TEST(TensorIterator, MixedDtypesWithoutPromotionIsTypeError) {
  expect_error<TypeError>(
      [] {
        TensorIteratorConfig().name("mul").add_output(Tensor()).add_input(zeros({2}, kInt32)).add_input(zeros({2})).build();
      },
      {"mul", "int32", "float32", "input 1"});
}

TEST(TensorIterator, OutOfRightShapeIsUsedInPlace) {
  Tensor out = empty({2, 3});
  auto iter = binary(out, zeros({2, 3}), zeros({3}));
  EXPECT_TRUE(iter.output().is_same(out));
  EXPECT_EQ(iter.data_ptr(0), static_cast<char*>(out.data_ptr()));
}

TEST(TensorIterator, EmptyOutIsResizedInPlace) {
  Tensor out = empty({0});
  binary(out, zeros({2, 3}), zeros({3}));
  EXPECT_EQ(vec(out.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(out.numel(), 6);
}

TEST(TensorIterator, NonEmptyOutOfWrongShapeIsValueError) {
  Tensor out = empty({3});
  expect_error<ValueError>([&] { binary(out, zeros({2, 3}), zeros({3})); },
                           {"add", "[3]", "[2, 3]", "doesn't match"});
}

TEST(TensorIterator, InPlaceOutputThatWouldGrowIsValueError) {
  Tensor self = zeros({3});
  expect_error<ValueError>([&] { binary(self, self, zeros({2, 3})); }, {"add", "[3]", "[2, 3]"});
}

TEST(TensorIterator, InPlaceOnSameViewIsAllowed) {
  Tensor self = zeros({2, 3}).t();
  auto iter = binary(self, self, zeros({3, 2}));
  EXPECT_TRUE(iter.output().is_same(self));
}

TEST(TensorIterator, ExpandedOutputIsValueError) {
  Tensor out = zeros({3}).expand({2, 3});
  expect_error<ValueError>([&] { binary(out, zeros({2, 3}), zeros({2, 3})); }, {"add", "internal overlap"});
}

TEST(TensorIterator, InputPartiallyOverlappingOutputIsValueError) {
  Tensor x = zeros({6});
  expect_error<ValueError>([&] { binary(x.slice(0, 1), x.slice(0, 0, 5), zeros({5})); },
                           {"add", "input 0", "partially overlaps output 0"});
}

TEST(TensorIterator, UndefinedInputIsValueError) {
  expect_error<ValueError>([] { binary(Tensor(), zeros({2}), Tensor()); }, {"add", "input 1", "undefined"});
}

TEST(TensorIterator, OperandsOnDifferentDevicesIsValueError) {
  expect_error<ValueError>([] { binary(Tensor(), zeros({3}), cuda_placeholder({3})); },
                           {"add", "cpu", "cuda:0", "one device"});
}

TEST(TensorIterator, ZeroDimCpuInputJoinsAnyDevice) {
  Tensor out = cuda_placeholder({3});
  auto iter = binary(out, cuda_placeholder({3}), scalar_to_tensor(Scalar(2.0)));
  EXPECT_EQ(iter.device(), Device(kCUDA));
  EXPECT_TRUE(iter.is_cpu_scalar(2));
  EXPECT_FALSE(iter.is_cpu_scalar(1));
}

TEST(TensorIterator, ZeroDimCpuOutputDoesNotJoinOtherDevices) {
  expect_error<ValueError>([] { binary(zeros({}), cuda_placeholder({}), cuda_placeholder({})); },
                           {"add", "output 0"});
}

TEST(BuildBinaryFloatOp, IntegerInputsComputeInFloat32) {
  TensorIterator iter;
  iter.build_binary_float_op(Tensor(), zeros({2}, kInt64), zeros({2}, kBool));
  EXPECT_EQ(iter.common_dtype(), kFloat32);
  EXPECT_EQ(iter.output().dtype(), kFloat32);
}

TEST(BuildBinaryFloatOp, FloatInputsKeepTheirPromotedDtype) {
  TensorIterator iter;
  iter.build_binary_float_op(Tensor(), zeros({2}, kFloat16), zeros({2}, kFloat64));
  EXPECT_EQ(iter.common_dtype(), kFloat64);
}

TEST(BuildBinaryFloatOp, IntegerOutIsTypeError) {
  TensorIterator iter;
  iter.set_name("atan2");
  expect_error<TypeError>([&] { iter.build_binary_float_op(empty({2}, kInt32), zeros({2}, kInt32), zeros({2}, kInt32)); },
                          {"atan2", "float32", "int32"});
}

TEST(BuildComparisonOp, AllocatesBoolAndPromotesInputs) {
  TensorIterator iter;
  iter.build_comparison_op(Tensor(), zeros({2}, kInt8), zeros({2}, kUInt8));
  EXPECT_EQ(iter.output().dtype(), kBool);
  EXPECT_EQ(iter.common_dtype(), kInt16);
}

TEST(BuildComparisonOp, GivenOutOfAnyDtypeIsAccepted) {
  TensorIterator iter;
  Tensor out = empty({2}, kFloat32);
  iter.build_comparison_op(out, zeros({2}, kInt64), zeros({2}, kInt64));
  EXPECT_TRUE(iter.output().is_same(out));
}

TEST(BuildUnaryOp, KeepsDtypeAndShape) {
  TensorIterator iter;
  iter.build_unary_op(Tensor(), zeros({2, 2}, kInt16));
  EXPECT_EQ(iter.output().dtype(), kInt16);
  EXPECT_EQ(vec(iter.output().sizes()), (std::vector<int64_t>{2, 2}));
}

TEST(BuildUnaryFloatOp, IntegerAndBoolInputsGiveFloat32) {
  for (ScalarType t : {kBool, kUInt8, kInt64}) {
    TensorIterator iter;
    iter.build_unary_float_op(Tensor(), zeros({2}, t));
    EXPECT_EQ(iter.output().dtype(), kFloat32) << t;
  }
  TensorIterator iter;
  iter.build_unary_float_op(Tensor(), zeros({2}, kBFloat16));
  EXPECT_EQ(iter.output().dtype(), kBFloat16);
}

TEST(BuildTernaryOp, PromotesAllThreeAndBroadcasts) {
  TensorIterator iter;
  iter.build_ternary_op(Tensor(), zeros({3, 1}, kInt8), zeros({4}, kUInt8), zeros({1}, kFloat16));
  EXPECT_EQ(iter.output().dtype(), kFloat16);
  EXPECT_EQ(vec(iter.output().sizes()), (std::vector<int64_t>{3, 4}));
}

TEST(BuildWhereOp, ConditionTakesNoPartInPromotion) {
  TensorIterator iter;
  iter.build_where_op(Tensor(), zeros({2}, kBool), zeros({2}, kInt32), zeros({2}, kInt8));
  EXPECT_EQ(iter.common_dtype(), kInt32);
  EXPECT_EQ(iter.output().dtype(), kInt32);
  EXPECT_EQ(iter.input_dtype(0), kBool);
}

TEST(BuildWhereOp, NonBoolConditionIsTypeError) {
  TensorIterator iter;
  expect_error<TypeError>([&] { iter.build_where_op(Tensor(), zeros({2}, kUInt8), zeros({2}), zeros({2})); },
                          {"where", "condition", "bool", "uint8"});
}

TEST(Narrow, OutOfRangeIsIndexError) {
  auto iter = binary(Tensor(), zeros({4}), zeros({4}));
  expect_error<IndexError>([&] { iter.narrow(0, 2, 3); }, {"add", "narrow", "[2, 5)", "4"});
  expect_error<IndexError>([&] { iter.narrow(1, 0, 1); }, {"add", "narrow", "dim 1"});
}

TEST(Narrow, MovesDataPointersAndShrinksTheDim) {
  Tensor a = zeros({10}, kInt32);
  auto iter = binary(Tensor(), a, zeros({1}, kInt32));
  iter.narrow(0, 3, 4);
  EXPECT_EQ(iter.numel(), 4);
  EXPECT_EQ(iter.data_ptr(1), static_cast<char*>(a.data_ptr()) + 12);
  EXPECT_EQ(iter.data_ptr(2), static_cast<char*>(iter.input(1).data_ptr()));  // stride 0 stays put
}

TEST(CheckedInt32, OutOfRangeIsValueError) {
  EXPECT_EQ(checked_int32(INT32_MAX, "numel"), INT32_MAX);
  expect_error<ValueError>([] { checked_int32(int64_t{1} << 31, "numel"); }, {"numel", "2147483648"});
}

}  // namespace
}  // namespace ingot

namespace ingot {
namespace {

TEST(TensorIteratorConfig, OutputAfterInputIsValueError) {
  TensorIteratorConfig config;
  config.name("mul").add_input(zeros({2}));
  testing::expect_error<ValueError>([&] { config.add_output(Tensor()); }, {"mul", "add_output"});
}

TEST(TensorIteratorConfig, NoOperandsIsValueError) {
  testing::expect_error<ValueError>([] { TensorIteratorConfig().name("mul").build(); }, {"mul", "at least one"});
}

TEST(TensorIteratorConfig, OverlapCheckCanBeTurnedOff) {
  Tensor x = zeros({6});
  auto iter = TensorIteratorConfig().add_output(x.slice(0, 1)).add_input(x.slice(0, 0, 5)).check_mem_overlap(false).build();
  EXPECT_EQ(iter.numel(), 5);
}

}  // namespace
}  // namespace ingot
