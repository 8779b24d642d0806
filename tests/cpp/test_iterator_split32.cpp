// 32-bit splitting on shapes of more than 2^31 elements, without allocating them: outputs are
// from_blob views over placeholder addresses that are never dereferenced, inputs are stride-0
// expansions. Each test checks that the pieces pass the predicate and tile the range exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ingot/ingot.h"
#include "iter/tensor_iterator.h"

namespace ingot {
namespace {

constexpr int64_t k2G = int64_t{1} << 31;

// Placeholder addresses far from any real allocation; only arithmetic is done on them.
void* placeholder(uintptr_t gib) { return reinterpret_cast<void*>(gib << 30); }

// An index box in the iteration space of the unsplit iterator.
struct Box {
  std::vector<int64_t> start, size;
};

// Recovers each piece's box from operand 0's data pointer, given the unsplit iterator whose
// operand 0 has positive, strictly increasing byte strides (a dense output).
std::vector<Box> boxes_of(const TensorIteratorBase& whole, const std::vector<TensorIteratorBase>& pieces) {
  std::vector<Box> boxes;
  for (const auto& p : pieces) {
    EXPECT_EQ(p.ndim(), whole.ndim());
    Box b{std::vector<int64_t>(whole.ndim()), p.shape().vec()};
    int64_t offset = p.data_ptr(0) - whole.data_ptr(0);
    for (int d = whole.ndim() - 1; d >= 0; --d) {
      b.start[d] = offset / whole.strides(0)[d];
      offset -= b.start[d] * whole.strides(0)[d];
    }
    EXPECT_EQ(offset, 0);
    boxes.push_back(b);
  }
  return boxes;
}

bool disjoint(const Box& a, const Box& b) {
  for (size_t d = 0; d < a.start.size(); ++d) {
    if (a.start[d] + a.size[d] <= b.start[d] || b.start[d] + b.size[d] <= a.start[d]) return true;
  }
  return false;
}

// The pieces satisfy the predicate, lie inside the whole, do not overlap, and add up to it.
void expect_exact_cover(const TensorIteratorBase& whole, const std::vector<TensorIteratorBase>& pieces) {
  const auto boxes = boxes_of(whole, pieces);
  int64_t total = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_TRUE(pieces[i].can_use_32bit_indexing()) << "piece " << i;
    total += pieces[i].numel();
    for (int d = 0; d < whole.ndim(); ++d) {
      EXPECT_GE(boxes[i].start[d], 0);
      EXPECT_LE(boxes[i].start[d] + boxes[i].size[d], whole.shape()[d]);
    }
    for (size_t j = 0; j < i; ++j) EXPECT_TRUE(disjoint(boxes[i], boxes[j])) << i << " vs " << j;
  }
  EXPECT_EQ(total, whole.numel());
}

// The byte offset of a piece's operand `arg`, predicted from its box and the whole's strides.
int64_t expected_offset(const TensorIteratorBase& whole, const Box& box, int arg) {
  int64_t off = 0;
  for (int d = 0; d < whole.ndim(); ++d) off += box.start[d] * whole.strides(arg)[d];
  return off;
}

TEST(Split32, SmallIteratorIsItsOwnSinglePiece) {
  auto iter = TensorIterator::unary_op(Tensor(), zeros({4, 5}));
  ASSERT_TRUE(iter.can_use_32bit_indexing());
  const auto pieces = iter.with_32bit_indexing();
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].data_ptr(0), iter.data_ptr(0));
  EXPECT_EQ(pieces[0].numel(), 20);
}

TEST(Split32, PredicateChecksEveryOperandsLargestOffset) {
  // 2^29 float32 elements: numel fits but the output's last byte offset is 2^31 - 4 ... just fits.
  Tensor out = from_blob(placeholder(4), {int64_t{1} << 29}, kFloat32);
  auto fits = TensorIteratorConfig().add_output(out).add_input(zeros({1}).expand({int64_t{1} << 29})).build();
  EXPECT_TRUE(fits.can_use_32bit_indexing());
  // The same count as float64 reaches 2^32 - 8 bytes.
  Tensor wide = from_blob(placeholder(4), {int64_t{1} << 29}, kFloat64);
  auto big = TensorIteratorConfig().add_output(wide).add_input(zeros({1}, kFloat64).expand({int64_t{1} << 29})).build();
  EXPECT_FALSE(big.can_use_32bit_indexing());
}

TEST(Split32, PredicateFailsWhenNumelExceedsInt32EvenWithZeroStrides) {
  Tensor in = zeros({1}, kUInt8).expand({k2G + 1});
  auto iter = TensorIteratorConfig().add_output(from_blob(placeholder(4), {k2G + 1}, kUInt8)).add_input(in).build();
  EXPECT_FALSE(iter.can_use_32bit_indexing());
}

TEST(Split32, ContiguousOutputWithBroadcastInputCoversRangeOnce) {
  const int64_t n = k2G + 1000;
  Tensor out = from_blob(placeholder(4), {n}, kFloat32);
  Tensor in = zeros({1}).expand({n});
  auto iter = TensorIteratorConfig().add_output(out).add_input(in).build();
  ASSERT_EQ(iter.ndim(), 1);
  const auto pieces = iter.with_32bit_indexing();
  EXPECT_GE(pieces.size(), 5u);  // 8 GiB of output in pieces of at most 2 GiB
  expect_exact_cover(iter, pieces);
  for (const auto& p : pieces) EXPECT_EQ(p.data_ptr(1), in.data_ptr());  // the broadcast input never moves
}

TEST(Split32, EveryOperandPointerMovesByItsOwnStride) {
  const int64_t n = int64_t{3} << 30;
  Tensor out = from_blob(placeholder(4), {n}, kInt16);
  Tensor in = from_blob(placeholder(64), {n}, kFloat64).flip({0});  // negative stride, 8x wider
  auto iter = TensorIteratorConfig().add_output(out).add_input(in).check_all_same_dtype(false).build();
  const auto pieces = iter.with_32bit_indexing();
  expect_exact_cover(iter, pieces);
  const auto boxes = boxes_of(iter, pieces);
  for (size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_EQ(pieces[i].data_ptr(1) - iter.data_ptr(1), expected_offset(iter, boxes[i], 1));
    EXPECT_EQ(pieces[i].strides(1)[0], -8);
  }
}

TEST(Split32, TwoDimsWhereEveryRowIsTooLargeSplitsBoth) {
  // Three rows 8 GiB apart, each of 2^30 float32 (4 GiB): the outer dim has the largest extent
  // but a single row still does not fit, so rows are split as well.
  const int64_t row = int64_t{1} << 30;
  Tensor out = from_blob(placeholder(4), {3, row}, {2 * row, 1}, kFloat32);
  Tensor in = zeros({1, 1}).expand({3, row});
  auto iter = TensorIteratorConfig().add_output(out).add_input(in).build();
  ASSERT_EQ(iter.ndim(), 2);
  const auto pieces = iter.with_32bit_indexing();
  expect_exact_cover(iter, pieces);
  for (const auto& p : pieces) EXPECT_EQ(p.shape()[1], 1);
}

TEST(Split32, ManyShortRowsSplitAlongTheOuterDim) {
  // 2^23 rows of 2^9 int32: the outer dim has the largest extent and rows are small, so one
  // level of splitting along it suffices and every piece keeps whole rows.
  Tensor out = from_blob(placeholder(4), {int64_t{1} << 23, 512}, kInt32);
  Tensor in = zeros({1, 512}, kInt32).expand({int64_t{1} << 23, 512});
  auto iter = TensorIteratorConfig().add_output(out).add_input(in).build();
  ASSERT_EQ(iter.ndim(), 2);
  const auto pieces = iter.with_32bit_indexing();
  expect_exact_cover(iter, pieces);
  for (const auto& p : pieces) EXPECT_EQ(p.shape()[0], 512);
}

TEST(Split32, OverFourBillionBroadcastElementsStayWithinInt32Counts) {
  const int64_t n = int64_t{1} << 33;
  Tensor out = from_blob(placeholder(4), {n}, kBool);
  auto iter = TensorIteratorConfig().add_output(out).add_input(zeros({}, kBool)).resize_outputs(false).build();
  const auto pieces = iter.with_32bit_indexing();
  expect_exact_cover(iter, pieces);
  for (const auto& p : pieces) EXPECT_LE(checked_int32(p.numel(), "numel"), INT32_MAX);
}

}  // namespace
}  // namespace ingot
