// The TensorIterator's reduction mode (iterator_reduce.cpp) and the kernel library's reduction
// entry point: shapes, strides, dim handling, output checks, and the CPU driver's strategies.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "backend/kernel_library.h"
#include "ingot/ingot.h"
#include "iter/tensor_iterator.h"
#include "iterator_test_util.h"
#include "tensor_values.h"

namespace ingot {
namespace {

using testing::expect_error;
using testing::iota_tensor;

TensorIterator reduction(const Tensor& out, const Tensor& self, std::vector<int64_t> dims, bool keepdim,
                         ScalarType dtype = kFloat32) {
  TensorIterator iter;
  iter.set_name("sum");
  iter.build_reduction({out}, {dtype}, self, reduction_dims_mask("sum", self.dim(), IntArrayRef(dims)), keepdim);
  return iter;
}

TEST(IteratorReduce, OutputShapeDropsOrKeepsReducedDims) {
  const Tensor x = zeros({2, 3, 4});
  EXPECT_EQ(reduction(Tensor(), x, {1}, false).output().sizes().vec(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(reduction(Tensor(), x, {1}, true).output().sizes().vec(), (std::vector<int64_t>{2, 1, 4}));
  EXPECT_EQ(reduction(Tensor(), x, {}, false).output().dim(), 0);
  EXPECT_EQ(reduction(Tensor(), x, {0, -1}, true).output().sizes().vec(), (std::vector<int64_t>{1, 3, 1}));
}

TEST(IteratorReduce, IteratesOverTheInputShapeWithZeroOutputStridesOnReducedDims) {
  const auto iter = reduction(Tensor(), zeros({5, 7}), {1}, false);
  // Dim 0 is the fastest: the reduced, contiguous dim of the input.
  ASSERT_EQ(iter.ndim(), 2);
  EXPECT_EQ(iter.shape()[0], 7);
  EXPECT_EQ(iter.strides(0)[0], 0);
  EXPECT_EQ(iter.strides(1)[0], 4);
  EXPECT_EQ(iter.strides(0)[1], 4);
  EXPECT_TRUE(iter.is_reduction());
  EXPECT_EQ(iter.reduction_size(), 7);
}

TEST(IteratorReduce, CoalescesAdjacentReducedDims) {
  const auto iter = reduction(Tensor(), zeros({2, 3, 4, 5}), {2, 3}, false);
  EXPECT_EQ(iter.ndim(), 2);
  EXPECT_EQ(iter.shape()[0], 20);
  EXPECT_EQ(iter.reduction_size(), 20);
}

TEST(IteratorReduce, OuterReductionKeepsTheOutputDimFastest) {
  const auto iter = reduction(Tensor(), zeros({6, 8}), {0}, false);
  ASSERT_EQ(iter.ndim(), 2);
  EXPECT_EQ(iter.shape()[0], 8);
  EXPECT_EQ(iter.strides(0)[0], 4);
  EXPECT_EQ(iter.strides(0)[1], 0);
}

TEST(IteratorReduce, DimErrorsNameTheOpAndTheDim) {
  expect_error<IndexError>([] { reduction_dims_mask("sum", 2, std::vector<int64_t>{2}); }, {"sum", "dim 2", "2 dims"});
  expect_error<ValueError>([] { reduction_dims_mask("sum", 3, std::vector<int64_t>{1, -2}); }, {"sum", "more than once"});
  EXPECT_EQ(reduction_dims_mask("sum", 0, std::vector<int64_t>{-1}), 0u);
  EXPECT_EQ(reduction_dims_mask("sum", 3, std::nullopt), 7u);
}

TEST(IteratorReduce, RejectsAnOutOfTheWrongShapeAndResizesAnEmptyOne) {
  expect_error<ValueError>([] { reduction(zeros({3}), zeros({2, 3, 4}), {1}, false); },
                           {"sum", "[3]", "[2, 4]"});
  Tensor out = empty({0});
  reduction(out, zeros({2, 3, 4}), {1}, false);
  EXPECT_EQ(out.sizes().vec(), (std::vector<int64_t>{2, 4}));
}

TEST(IteratorReduce, RejectsAnOutWithInternalOverlap) {
  const Tensor overlapping = zeros({1}).expand({4});
  expect_error<ValueError>([&] { reduction(overlapping, zeros({4, 3}), {1}, false); }, {"sum", "overlapping"});
}

TEST(IteratorReduce, OutputIsTheCallersTensor) {
  Tensor out = zeros({2});
  const auto iter = reduction(out, ones({2, 3}), {1}, false);
  EXPECT_TRUE(iter.output().is_same(out));
}

TEST(IteratorReduce, CpuKernelSumsInnerAndOuterDims) {
  const Tensor x = iota_tensor({4, 6}, kFloat32);  // 0..23
  Tensor rows = zeros({4}), cols = zeros({6});
  auto a = reduction(rows, x, {1}, false);
  kernel_library(kCPU).exec_reduce_kernel(a, "sum");
  auto b = reduction(cols, x, {0}, false);
  kernel_library(kCPU).exec_reduce_kernel(b, "sum");
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(rows.select(0, i).item<float>(), 6 * (6 * i) + 15);
  for (int64_t j = 0; j < 6; ++j) EXPECT_EQ(cols.select(0, j).item<float>(), 4 * j + 36);
}

TEST(IteratorReduce, OutputOfAnotherDtypeGoesThroughABuffer) {
  Tensor out = zeros({2}, kFloat64);
  auto iter = reduction(out, ones({2, 5}), {1}, false);
  kernel_library(kCPU).exec_reduce_kernel(iter, "sum");
  EXPECT_EQ(out.select(0, 1).item<double>(), 5.0);
}

TEST(IteratorReduce, EmptyReductionWithoutIdentityIsAnIndexError) {
  auto iter = reduction(Tensor(), zeros({3, 0}), {1}, false);
  expect_error<IndexError>([&] { kernel_library(kCPU).exec_reduce_kernel(iter, "amax"); }, {"sum", "size 0", "identity"});
}

TEST(IteratorReduce, UnknownKernelNamesTheInputDtype) {
  auto iter = reduction(Tensor(), zeros({3}, kInt32), {0}, false, kInt32);
  expect_error<NotImplementedError>([&] { kernel_library(kCPU).exec_reduce_kernel(iter, "mean"); },
                                    {"mean_reduce", "int32", "float32"});
}

// dtype= names the result's dtype (PyTorch's rule): the input is converted, the kernel writes its own
// dtype (int64 for integer sums) and the result is cast, integer results wrapping.
TEST(IteratorReduce, DtypeArgumentIsTheResultDtype) {
  const Tensor x = iota_tensor({2, 3}, kInt32);  // 0..5
  const Tensor s = ingot::sum(x, std::nullopt, false, kInt32);
  EXPECT_EQ(s.dtype(), kInt32);
  EXPECT_EQ(s.item<int32_t>(), 15);
  const Tensor p = ingot::prod(iota_tensor({6}, kInt32).add(ones({6}, kInt32)), std::nullopt, false, kInt8);
  // 1 * 2 * ... * 6 = 720 wraps to -48 in int8
  EXPECT_EQ(p.dtype(), kInt8);
  EXPECT_EQ(p.item<int8_t>(), -48);
  const std::vector<int64_t> dim = {1};
  const Tensor rows = ingot::sum(x, IntArrayRef(dim), true, kInt16);
  EXPECT_EQ(rows.dtype(), kInt16);
  EXPECT_EQ(rows.sizes().vec(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(rows.select(0, 1).item<int16_t>(), 12);
  EXPECT_EQ(ingot::sum(x).dtype(), kInt64);  // without dtype=, the kernel's dtype
  expect_error<TypeError>([&] { (void)ingot::sum(x, std::nullopt, false, kBool); }, {"sum", "dtype=bool", "int64"});
}

}  // namespace
}  // namespace ingot
