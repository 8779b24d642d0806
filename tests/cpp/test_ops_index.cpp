// Index ops through the C++ API on the CPU: results, every dtype through the element-size kernels,
// bad indices as IndexError naming the op, and the registry of index kernels. The Python tests
// (test_index_ops.py) compare every op and layout with NumPy on every device.
#include "backend/index_kernel_registry.h"
#include "ops_test_support.h"
#include "tensor_values.h"

namespace ingot {
namespace {

using namespace ingot::testing;

Tensor ix(const std::vector<double>& v, IntArrayRef sizes, ScalarType dtype = kInt64) {
  return tensor_of(v, sizes, dtype);
}

TEST(OpsIndex, GatherReadsAlongTheDimWithNegativeIndicesWrapped) {
  const Tensor a = tensor_of({0, 1, 2, 3, 4, 5}, {2, 3}, kFloat32);
  EXPECT_EQ(values_of(gather(a, 1, ix({2, -3, 1, 1}, {2, 2}))),
            (std::vector<long double>{2, 0, 4, 4}));
  EXPECT_EQ(values_of(gather(a, 0, ix({1, 0, 1}, {1, 3}, kInt32))),
            (std::vector<long double>{3, 1, 5}));
}

TEST(OpsIndex, EveryDtypeMovesThroughTheKernelOfItsSize) {
  for (ScalarType dtype :
       {kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    const Tensor a = tensor_of({1, 0, 1, 1}, {4}, dtype);
    EXPECT_EQ(values_of(index_select(a, 0, ix({1, 3, 0}, {3}))),
              (std::vector<long double>{0, 1, 1}))
        << dtype;
  }
}

TEST(OpsIndex, IndexSelectOfATransposedTensor) {
  const Tensor a = tensor_of({0, 1, 2, 3, 4, 5}, {2, 3}, kInt16).t();  // [[0, 3], [1, 4], [2, 5]]
  EXPECT_EQ(values_of(index_select(a, 0, ix({2, 0}, {2}))), (std::vector<long double>{2, 5, 0, 3}));
  EXPECT_EQ(values_of(index_select(a, 1, ix({1}, {1}))), (std::vector<long double>{3, 4, 5}));
}

// Rows contiguous in out and in move as 16- or 8-byte elements when addresses allow; misaligned
// and odd-sized rows take the element kernel. Every case must read the same values.
TEST(OpsIndex, RowsMovedAsWideElementsMatchElementByElement) {
  const Tensor base = iota_tensor({5, 12}, kFloat32);
  const Tensor rows = ix({4, 0, -1, 2}, {4});
  for (const Tensor& a :
       {base, base.slice(1, 0, 8), base.slice(1, 1, 9), base.slice(1, 0, 6), base.slice(1, 0, 2)}) {
    const Tensor got = index_select(a, 0, rows);
    for (int64_t r = 0; r < 4; ++r) {
      const int64_t src = std::vector<int64_t>{4, 0, 4, 2}[static_cast<size_t>(r)];
      EXPECT_EQ(values_of(got.select(0, r)), values_of(a.select(0, src))) << a.sizes();
    }
  }
  Tensor out = filled({5, 8}, 0);
  out.index_put_({rows}, iota_tensor({4, 8}, kFloat32), false);
  EXPECT_EQ(values_of(out.select(0, 4)), values_of(iota_tensor({4, 8}, kFloat32).select(0, 2)));
  EXPECT_NE(index_kernel_registry().find("gather_index_b16_int64"), nullptr);
}

TEST(OpsIndex, ScatterAddSumsDuplicateIndices) {
  const Tensor out =
      scatter_add(filled({3}, 0, kInt32), 0, ix({0, 2, 0, 0}, {4}), filled({4}, 5, kInt32));
  EXPECT_EQ(ints_of(out), (std::vector<int64_t>{15, 0, 5}));
}

TEST(OpsIndex, ScatterWithAScalarValueAndInPlace) {
  Tensor a = filled({2, 2}, 0, kFloat64);
  a.scatter_(1, ix({1, 0}, {2, 1}), Scalar(7.0));
  EXPECT_EQ(values_of(a), (std::vector<long double>{0, 7, 7, 0}));
}

TEST(OpsIndex, IndexPutAccumulatesAndBroadcastsValues) {
  Tensor a = filled({3, 2}, 1, kInt64);
  a.index_put_({ix({2, 2, 0}, {3})}, tensor_of({10, 20}, {2}, kInt64), true);
  EXPECT_EQ(ints_of(a), (std::vector<int64_t>{11, 21, 1, 1, 21, 41}));
}

TEST(OpsIndex, IndexWithSeveralIndicesAndAMask) {
  const Tensor a = tensor_of({0, 1, 2, 3, 4, 5}, {2, 3}, kFloat32);
  EXPECT_EQ(values_of(index(a, {ix({1, 0}, {2}), ix({-1, 1}, {2})})),
            (std::vector<long double>{5, 1}));
  EXPECT_EQ(values_of(index(a, {tensor_of({1, 0, 1, 0, 0, 1}, {2, 3}, kBool)})),
            (std::vector<long double>{0, 2, 5}));
}

TEST(OpsIndex, MaskedFillKeepsTheDtype) {
  const Tensor a = tensor_of({1, 2, 3}, {3}, kInt8);
  const Tensor r = masked_fill(a, tensor_of({0, 1, 0}, {3}, kBool), Scalar(-4));
  EXPECT_EQ(r.dtype(), kInt8);
  EXPECT_EQ(ints_of(r), (std::vector<int64_t>{1, -4, 3}));
}

TEST(OpsIndex, NonzeroListsCoordinatesInRowMajorOrder) {
  const Tensor r = nonzero(tensor_of({0, 3, 0, 0, 1, 2}, {2, 3}, kFloat32));
  EXPECT_EQ(r.sizes(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(ints_of(r), (std::vector<int64_t>{0, 1, 1, 1, 1, 2}));
}

TEST(OpsIndex, AnIndexOutOfRangeIsAnIndexErrorNamingTheOp) {
  const Tensor a = filled({4}, 1);
  EXPECT_EQ(error_message<IndexError>([&] {
              index_select(a, 0, ix({1, 4}, {2}));
            }),
            "index_select: index 4 is out of bounds for dimension 0 with size 4");
  EXPECT_EQ(error_message<IndexError>([&] {
              take(a, ix({-5, -6}, {2}));
            }),
            "take: index -5 is out of bounds for dimension 0 with size 4 [and 1 more error]");
  EXPECT_THROW(gather(a, 0, ix({9}, {1})), IndexError);
  Tensor b = filled({4}, 0);
  EXPECT_THROW(b.scatter_(0, ix({4}, {1}), Scalar(1.0)), IndexError);
  EXPECT_EQ(values_of(b), (std::vector<long double>{0, 0, 0, 0}));  // nothing written out of bounds
}

TEST(OpsIndex, ArgumentErrorsAreTyped) {
  const Tensor a = filled({2, 2}, 1);
  EXPECT_THROW(gather(a, 0, filled({2, 2}, 0)), TypeError);  // float index
  EXPECT_THROW(gather(a, 0, ix({0}, {1})), ValueError);      // rank
  EXPECT_THROW(gather(a, 2, ix({0}, {1, 1})), IndexError);   // dim
  EXPECT_THROW(scatter(a, 0, ix({0}, {1, 1}), filled({1, 1}, 1, kFloat64)),
               TypeError);                                                     // src dtype
  EXPECT_THROW(index_select(a, 0, ix({0, 0}, {1, 2})), ValueError);            // 2-d index
  EXPECT_THROW(masked_fill(a, filled({2}, 1, kInt32), Scalar(0)), TypeError);  // mask dtype
}

TEST(OpsIndex, EmptyIndicesGiveEmptyResults) {
  const Tensor a = filled({3, 2}, 1);
  EXPECT_EQ(index_select(a, 0, ix({}, {0})).sizes(), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(take(filled({0}, 1), ix({}, {0})).numel(), 0);
}

TEST(OpsIndex, KernelsAreRegisteredPerElementSizeAndIndexDtype) {
  const IndexKernelRegistry& r = index_kernel_registry();
  ASSERT_NE(r.find("gather_index_b4_int32"), nullptr);
  EXPECT_EQ(r.find("gather", kFloat32, kInt32)->name, "gather_index_b4_int32");
  EXPECT_EQ(r.find("gather", kBFloat16, kInt64)->name, "gather_index_b2_int64");
  EXPECT_EQ(r.find("scatter_add", kBFloat16, kInt64)->name, "scatter_add_index_bfloat16_int64");
  EXPECT_TRUE(r.find("scatter_add", kInt8, kInt32)->writes_through_index);
  EXPECT_EQ(r.find("gather", kFloat32, kInt16), nullptr);
}

}  // namespace
}  // namespace ingot
