// Regression tests for issue 9 (robustness): size arithmetic, rounding, conversions, resizing,
// overlap and alignment. Each failed before its fix.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ingot/ingot.h"
#include "iter/memory_overlap.h"
#include "iter/tensor_iterator.h"
#include "iterator_test_util.h"
#include "kernels/cast.h"
#include "ops_test_support.h"

namespace ingot {
namespace {

using testing::expect_error;
using testing::values_of;

constexpr int64_t k2To40 = int64_t{1} << 40;

Tensor tensor_of_f64(const std::vector<double>& values) {
  return testing::tensor_of(values, {static_cast<int64_t>(values.size())}, kFloat64);
}

// Item 1: a broadcast whose element count overflows int64 is a ValueError naming the op and shapes.
TEST(Robustness, BroadcastNumelOverflowWithOutIsValueErrorNamingOp) {
  const Tensor a = zeros({1, 1}).expand({k2To40, 1}), b = zeros({1, 1}).expand({1, k2To40});
  Tensor out = empty({0});
  expect_error<ValueError>([&] { add_out(out, a, b); }, {"add", "[1099511627776, 1]", "[1, 1099511627776]", "int64"});
  EXPECT_EQ(out.sizes().vec(), std::vector<int64_t>{0});  // left untouched
}

TEST(Robustness, BroadcastNumelOverflowWithoutOutNamesOpNotFactory) {
  const Tensor a = zeros({1, 1}).expand({k2To40, 1}), b = zeros({1, 1}).expand({1, k2To40});
  expect_error<ValueError>([&] { add(a, b); }, {"add:", "broadcast shape"});
}

// Criterion 2: byte counts, strides and offsets are checked too.
TEST(Robustness, OutputByteCountOverflowIsValueErrorNamingOp) {
  const Tensor a = zeros({1}, kFloat64).expand({int64_t{1} << 61});  // 2^61 elements fit, 2^64 bytes do not
  expect_error<ValueError>([&] { add(a, a); }, {"add", "overflows int64"});
}

TEST(Robustness, ExpandBeyondInt64ElementsIsValueError) {
  expect_error<ValueError>([] { zeros({1, 1}).expand({k2To40, k2To40}); }, {"expand", "int64"});
}

TEST(Robustness, NbytesOfHugeExpandedViewIsValueError) {
  const Tensor t = zeros({1}, kFloat64).expand({int64_t{1} << 62});
  expect_error<ValueError>([&] { (void)t.nbytes(); }, {"nbytes", "overflows int64"});
}

TEST(Robustness, SliceStepOverflowingStrideIsValueError) {
  expect_error<ValueError>([] { zeros({4, 4}).slice(0, std::nullopt, std::nullopt, int64_t{1} << 62); },
                           {"slice", "overflows int64"});
}

TEST(Robustness, FromBlobStridesOverflowingByteOffsetsIsValueError) {
  alignas(8) static double memory[4];
  expect_error<ValueError>([] { from_blob(memory, {3, 2}, {int64_t{1} << 62, 1}, kFloat64); },
                           {"from_blob", "overflows int64"});
}

TEST(Robustness, FromBlobReachingBelowAddressZeroIsValueError) {  // found by fuzz_dlpack_import
  alignas(8) static double memory[4];
  expect_error<ValueError>([] { from_blob(memory, {2}, {-(int64_t{1} << 59)}, kFloat64); },
                           {"from_blob", "address space"});
}

TEST(Robustness, EmptyStridedExtentOverflowIsValueError) {
  expect_error<ValueError>([] { empty_strided({3, 3}, {int64_t{1} << 62, 1}); }, {"empty_strided", "int64"});
}

// Item 3: float64 -> float16/bfloat16 rounds once, directly from the double.
TEST(Robustness, Float64ToFloat16RoundsOnceNearOverflow) {
  EXPECT_EQ(Half(65519.99999999).x, 0x7bff);  // 65504, not inf (through float: 65520 -> inf)
  EXPECT_EQ(Half(65520.0).x, 0x7c00);
}

TEST(Robustness, Float64ToFloat16RoundsOnceAtTheSubnormalHalfway) {
  EXPECT_EQ(Half(0x1p-25 + 0x1p-50).x, 0x0001);  // 2^-24, not 0
  EXPECT_EQ(Half(-(0x1p-25 + 0x1p-50)).x, 0x8001);
  EXPECT_EQ(Half(0x1p-25).x, 0x0000);  // the exact tie still goes to even
}

TEST(Robustness, Float64ToBFloat16RoundsOnce) {
  // 1 + 2^-8 + 2^-40: just above the bfloat16 tie between 1 and 1 + 2^-7; float rounds it onto the tie.
  EXPECT_EQ(BFloat16(1.0 + 0x1p-8 + 0x1p-40).x, 0x3f81);
  EXPECT_EQ(BFloat16(1.0 + 0x1p-8).x, 0x3f80);
}

TEST(Robustness, CastKernelAndScalarRoundFloat64ToFloat16Once) {
  const Tensor t = tensor_of_f64({65519.99999999, 0x1p-25 + 0x1p-50});
  EXPECT_EQ(values_of(t.to(kFloat16)), (std::vector<long double>{65504, 0x1p-24}));
  EXPECT_EQ(Scalar(65519.99999999).to<Half>().x, 0x7bff);
}

// Item 4: float -> integer is defined for NaN, infinities and out-of-range values.
TEST(Robustness, FloatToIntegerConversionIsDefinedForEveryValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (double v : {nan, inf, -inf, 1e300, -1e19}) {
    EXPECT_EQ(convert<int64_t>(v), std::numeric_limits<int64_t>::min()) << v;
    EXPECT_EQ(convert<int32_t>(v), 0) << v;
    EXPECT_EQ(convert<uint8_t>(static_cast<float>(v)), 0) << v;
  }
  EXPECT_EQ(convert<int64_t>(-9.2233720368547758e18), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(convert<uint8_t>(300.7), 44);  // in int64's range: truncate, then wrap (as NumPy)
  EXPECT_EQ(convert<int8_t>(-1.5), -1);
  EXPECT_EQ(Scalar(nan).to<int64_t>(), std::numeric_limits<int64_t>::min());
}

TEST(Robustness, CopyOfNanToIntegerTensorIsDefined) {
  Tensor out = empty({3}, kInt64);
  out.copy_(tensor_of_f64({std::nan(""), 2.9, -2.9}));
  EXPECT_EQ(values_of(out), (std::vector<long double>{static_cast<long double>(INT64_MIN), 2, -2}));
}

// Item 5: in-place ops never resize self; an empty out= view is not detached from its base.
TEST(Robustness, InPlaceOpDoesNotResizeEmptySelf) {
  Tensor a = empty({1, 0});
  expect_error<ValueError>([&] { a.add_(ones({2, 0})); }, {"add", "[1, 0]", "[2, 0]", "in-place"});
  EXPECT_EQ(a.sizes().vec(), (std::vector<int64_t>{1, 0}));
}

TEST(Robustness, EmptyOutViewIsNotResizedAwayFromItsBase) {
  const Tensor base = zeros({6});
  Tensor view = base.slice(0, 2, 2);
  expect_error<ValueError>([&] { add_out(view, ones({2}), ones({2})); }, {"add", "view"});
  EXPECT_TRUE(view.storage().is_same(base.storage()));
}

TEST(Robustness, EmptyOutOwningItsStorageIsStillResized) {
  Tensor out = empty({0});
  add_out(out, ones({2}), ones({2}));
  EXPECT_EQ(values_of(out), (std::vector<long double>{2, 2}));
}

// Item 6: overlap means a shared element, not intersecting address ranges.
TEST(Robustness, InterleavedViewsDoNotOverlap) {
  const Tensor x = zeros({8});
  EXPECT_EQ(get_overlap(x.slice(0, 1, std::nullopt, 2), x.slice(0, 0, std::nullopt, 2)), MemOverlap::None);
}

TEST(Robustness, DisjointBlocksOfAMatrixDoNotOverlap) {
  const Tensor x = zeros({4, 4});
  EXPECT_EQ(get_overlap(x.slice(1, 0, 2), x.slice(1, 2, 4)), MemOverlap::None);
  EXPECT_EQ(get_overlap(x.slice(1, 0, 3), x.slice(1, 2, 4)), MemOverlap::Partial);
}

TEST(Robustness, OutputInterleavedWithInputIsAccepted) {
  const Tensor x = tensor_of_f64({0, 1, 2, 3, 4, 5});
  Tensor even = x.slice(0, 0, std::nullopt, 2);
  add_out(even, x.slice(0, 1, std::nullopt, 2), Scalar(10));
  EXPECT_EQ(values_of(x), (std::vector<long double>{11, 1, 13, 3, 15, 5}));
}

// Item 8: more iteration dims than a kernel takes are walked on the host.
TEST(Robustness, SeventeenDimTensorPlusItsTransposeMatchesReference) {
  std::vector<int64_t> shape(17, 2);
  const Tensor a = arange(0, int64_t{1} << 17, 1, kFloat64).reshape(shape);
  std::vector<int64_t> reversed(17);
  for (int64_t d = 0; d < 17; ++d) reversed[static_cast<size_t>(d)] = 16 - d;
  const Tensor at = a.permute(reversed);
  const Tensor sum = add(a, at);
  // Element (1, 0, ..., 0) of a is 2^16; of at it is a[0, ..., 0, 1] = 1.
  Tensor e = sum;
  e = e.select(0, 1);
  for (int d = 1; d < 17; ++d) e = e.select(0, 0);
  EXPECT_EQ(e.item<double>(), 65536 + 1);
  EXPECT_EQ(sum.numel(), int64_t{1} << 17);
}

TEST(Robustness, IteratorSplitsDimsBeyondTheLimitIntoSubIterators) {
  std::vector<int64_t> shape(5, 3);
  const Tensor a = zeros(shape), at = a.permute({4, 3, 2, 1, 0});
  TensorIterator iter;
  iter.build_binary_op(Tensor(), a, at);
  ASSERT_EQ(iter.ndim(), 5);
  int64_t calls = 0, covered = 0;
  iter.for_each_within_dims(3, [&](const TensorIteratorBase& sub) {
    EXPECT_EQ(sub.ndim(), 3);
    ++calls;
    covered += sub.numel();
  });
  EXPECT_EQ(calls, 9);
  EXPECT_EQ(covered, iter.numel());
}

// Item 10: memory that is not aligned to the element size never reaches a typed load.
TEST(Robustness, FromBlobOfUnalignedDataIsValueError) {
  alignas(8) static char memory[16];
  expect_error<ValueError>([] { from_blob(memory + 1, {2}, kFloat32); }, {"from_blob", "aligned", "float32"});
}

TEST(Robustness, IteratorReportsAlignment) {
  TensorIterator iter;
  iter.build_binary_op(Tensor(), zeros({4}), zeros({4}));
  EXPECT_TRUE(iter.is_aligned(0) && iter.is_aligned(1) && iter.is_aligned(2));
}

}  // namespace
}  // namespace ingot
