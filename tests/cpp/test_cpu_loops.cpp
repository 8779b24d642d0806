#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "backend/cpu/loops.h"
#include "ingot/ingot.h"
#include "iterator_test_util.h"
#include "tensor_values.h"

namespace ingot {
namespace {

using testing::expect_error;
using testing::iota_tensor;
using testing::values;

TensorIterator same_dtype_iter(const Tensor& out, const Tensor& a, const Tensor& b) {
  return TensorIteratorConfig().name("add").add_output(out).add_input(a).add_input(b).build();
}

TEST(CpuKernel, BinaryContiguous) {
  auto iter = same_dtype_iter(Tensor(), iota_tensor({5}), iota_tensor({5}));
  cpu_kernel(iter, [](float a, float b) -> float { return a * 10 + b; });
  EXPECT_EQ(values<float>(iter.output()), (std::vector<float>{0, 11, 22, 33, 44}));
}

TEST(CpuKernel, StridedAndBroadcastOperands) {
  Tensor a = iota_tensor({3, 2}, kInt32).t();  // [[0, 2, 4], [1, 3, 5]]
  Tensor b = iota_tensor({3}, kInt32).flip({0});  // [2, 1, 0]
  Tensor out = empty({2, 3}, kInt32);
  auto iter = same_dtype_iter(out, a, b);
  cpu_kernel(iter, [](int32_t x, int32_t y) { return x * 10 + y; });
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{2, 21, 40, 12, 31, 50}));
}

TEST(CpuKernel, MixedOperandDtypes) {
  Tensor out = empty({3}, kFloat64);
  auto iter = TensorIteratorConfig().add_output(out).add_input(iota_tensor({3}, kInt8)).add_input(iota_tensor({3}, kFloat16)).check_all_same_dtype(false).build();
  cpu_kernel(iter, [](int8_t a, Half b) -> double { return a + 0.5 * static_cast<float>(b); });
  EXPECT_EQ(values<double>(out), (std::vector<double>{0, 1.5, 3}));
}

TEST(CpuKernel, NullaryWritesEveryElement) {
  Tensor out = zeros({4, 4}, kInt64).slice(1, 0, std::nullopt, 2);
  auto iter = TensorIteratorConfig().add_output(out).build();
  cpu_kernel(iter, []() -> int64_t { return 7; });
  EXPECT_EQ(values<int64_t>(out), std::vector<int64_t>(8, 7));
}

TEST(CpuKernel, ZeroDimIteration) {
  auto iter = same_dtype_iter(Tensor(), iota_tensor({}) , iota_tensor({}));
  cpu_kernel(iter, [](float a, float b) { return a + b + 1; });
  EXPECT_EQ(values<float>(iter.output()), (std::vector<float>{1}));
}

TEST(CpuKernel, WrongArgumentDtypeIsTypeError) {
  auto iter = same_dtype_iter(Tensor(), zeros({2}, kInt32), zeros({2}, kInt32));
  expect_error<TypeError>([&] { cpu_kernel(iter, [](int32_t a, float b) -> int32_t { return a + static_cast<int32_t>(b); }); },
                          {"add", "argument 1", "float32", "int32"});
}

TEST(CpuKernel, WrongReturnDtypeIsTypeError) {
  auto iter = same_dtype_iter(Tensor(), zeros({2}), zeros({2}));
  expect_error<TypeError>([&] { cpu_kernel(iter, [](float a, float b) -> double { return a + b; }); },
                          {"add", "returns float64", "float32"});
}

TEST(CpuKernel, WrongArityIsValueError) {
  auto iter = same_dtype_iter(Tensor(), zeros({2}), zeros({2}));
  expect_error<ValueError>([&] { cpu_kernel(iter, [](float a) { return a; }); }, {"add", "1 arguments", "2 inputs"});
}

TEST(CpuKernel, NarrowedIteratorWritesOnlyItsRange) {
  Tensor out = zeros({2, 5}, kInt32);
  auto iter = TensorIteratorConfig().add_output(out).add_input(iota_tensor({2, 5}, kInt32)).build();
  iter.narrow(0, 1, 3);  // one flat dim after coalescing: elements 1, 2, 3
  cpu_kernel(iter, [](int32_t v) { return v + 100; });
  EXPECT_EQ(values<int32_t>(out), (std::vector<int32_t>{0, 101, 102, 103, 0, 0, 0, 0, 0, 0}));
}

TEST(CpuKernel, LargeStridedInputMatchesElementwise) {
  Tensor a = iota_tensor({400, 300}, kInt64).t();
  auto iter = TensorIteratorConfig().add_output(Tensor()).add_input(a).build();
  cpu_kernel(iter, [](int64_t v) { return v * 3; });
  const auto got = values<int64_t>(iter.output());
  const auto want = values<int64_t>(a);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i] * 3) << i;
}

// Every element is visited exactly once whether the loop runs serially or in parallel chunks.
TEST(ForEach, VisitsEveryElementOnce) {
  for (int64_t n : {int64_t{1}, int64_t{1000}, int64_t{32768}, int64_t{32769}, int64_t{200003}}) {
    Tensor counts = zeros({n}, kInt32);
    auto iter = TensorIteratorConfig().add_output(counts).build();
    iter.for_each([](char** data, const int64_t* strides, int64_t k) {
      for (int64_t i = 0; i < k; ++i) ++*reinterpret_cast<int32_t*>(data[0] + i * strides[0]);
    });
    for (int32_t c : values<int32_t>(counts)) ASSERT_EQ(c, 1) << n;
  }
}

std::set<std::thread::id> threads_used(int64_t n) {
  Tensor t = zeros({n});
  auto iter = TensorIteratorConfig().add_output(t).build();
  std::set<std::thread::id> ids;
  std::mutex m;
  iter.for_each([&](char**, const int64_t*, int64_t) {
    std::lock_guard<std::mutex> lock(m);
    ids.insert(std::this_thread::get_id());
  });
  return ids;
}

TEST(ForEach, SmallLoopsStayOnTheCallingThread) {
  const auto ids = threads_used(kCpuGrainSize);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(*ids.begin(), std::this_thread::get_id());
}

TEST(ForEach, LargeLoopsRunInParallelWhenThreadsExist) {
  if (cpu_num_threads() < 2) GTEST_SKIP() << "one thread available";
  EXPECT_GE(threads_used(kCpuGrainSize * 8).size(), 2u);
}

TEST(ForEach, ExceptionInParallelLoopReachesCaller) {
  Tensor t = zeros({kCpuGrainSize * 4});
  auto iter = TensorIteratorConfig().add_output(t).build();
  EXPECT_THROW(iter.for_each([](char**, const int64_t*, int64_t) { throw ValueError("boom"); }), ValueError);
}

TEST(SerialForEach, RunsExactlyTheLinearRange) {
  Tensor t = zeros({3, 4}, kInt32);
  auto iter = TensorIteratorConfig().add_output(t).add_input(zeros({3, 4}, kInt32).t().t()).build();
  iter.serial_for_each(
      [](char** data, const int64_t* strides, int64_t k) {
        for (int64_t i = 0; i < k; ++i) *reinterpret_cast<int32_t*>(data[0] + i * strides[0]) = 1;
      },
      5, 9);
  EXPECT_EQ(values<int32_t>(t), (std::vector<int32_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0}));
}

}  // namespace
}  // namespace ingot
