// CPU elementwise throughput. Every case reports bytes moved (reads + writes) per second;
// bench/run_cpu.py turns them into fractions of the `copy` case measured in the same run
// (DESIGN.md §8: elementwise ops are memory-bound, the floor is bytes moved / bandwidth).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>

#include "ingot/ingot.h"

namespace {

using ingot::Tensor;

constexpr int64_t kRows = 4096;
constexpr int64_t kCols = 4096;  // 16M elements: far beyond the last-level cache

Tensor input(ingot::ScalarType dtype, uint64_t seed) {
  ingot::Generator gen(seed);
  return ingot::rand({kRows, kCols}, ingot::TensorOptions(ingot::kFloat32), &gen).to(dtype);
}

// Runs `op` once per iteration and counts `bytes` moved by one call.
void run(benchmark::State& state, int64_t bytes, const std::function<void()>& op) {
  op();  // warm-up: page in the output
  for (auto _ : state) {
    op();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

int64_t nbytes(const Tensor& t) { return static_cast<int64_t>(t.nbytes()); }

void BM_copy_float32(benchmark::State& state) {
  Tensor a = input(ingot::kFloat32, 1);
  Tensor out = ingot::empty_like(a);
  run(state, 2 * nbytes(a), [&] { out.copy_(a); });
}

void binary_case(benchmark::State& state, ingot::ScalarType da, ingot::ScalarType db,
                 ingot::ScalarType dout, bool transpose_b,
                 const std::function<void(Tensor&, const Tensor&, const Tensor&)>& op) {
  Tensor a = input(da, 1);
  Tensor b = input(db, 2);
  if (transpose_b) b = b.t();
  Tensor out = ingot::empty({kRows, kCols}, dout);
  run(state, nbytes(a) + nbytes(b) + nbytes(out), [&] { op(out, a, b); });
}

void add(Tensor& out, const Tensor& a, const Tensor& b) { ingot::add_out(out, a, b); }
void atan2(Tensor& out, const Tensor& a, const Tensor& b) { ingot::atan2_out(out, a, b); }

void BM_add_float32(benchmark::State& s) { binary_case(s, ingot::kFloat32, ingot::kFloat32, ingot::kFloat32, false, add); }
void BM_add_bfloat16(benchmark::State& s) { binary_case(s, ingot::kBFloat16, ingot::kBFloat16, ingot::kBFloat16, false, add); }
void BM_add_int32_float32(benchmark::State& s) { binary_case(s, ingot::kInt32, ingot::kFloat32, ingot::kFloat32, false, add); }
void BM_add_transposed_float32(benchmark::State& s) { binary_case(s, ingot::kFloat32, ingot::kFloat32, ingot::kFloat32, true, add); }
void BM_atan2_float32(benchmark::State& s) { binary_case(s, ingot::kFloat32, ingot::kFloat32, ingot::kFloat32, false, atan2); }
void BM_atan2_bfloat16(benchmark::State& s) { binary_case(s, ingot::kBFloat16, ingot::kBFloat16, ingot::kBFloat16, false, atan2); }

void BM_add_row_broadcast_float32(benchmark::State& state) {
  Tensor a = input(ingot::kFloat32, 1);
  Tensor row = input(ingot::kFloat32, 2).select(0, 0);  // [kCols], repeats along rows
  Tensor out = ingot::empty_like(a);
  run(state, nbytes(a) + nbytes(out), [&] { ingot::add_out(out, a, row); });
}

void BM_add_scalar_float32(benchmark::State& state) {
  Tensor a = input(ingot::kFloat32, 1);
  Tensor out = ingot::empty_like(a);
  run(state, nbytes(a) + nbytes(out), [&] { ingot::add_out(out, a, ingot::scalar_to_tensor(2.5)); });
}

void BM_exp_float32(benchmark::State& state) {
  Tensor a = input(ingot::kFloat32, 1);
  Tensor out = ingot::empty_like(a);
  run(state, nbytes(a) + nbytes(out), [&] { ingot::exp_out(out, a); });
}

}  // namespace

BENCHMARK(BM_copy_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_bfloat16)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_int32_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_transposed_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_row_broadcast_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_add_scalar_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_atan2_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_atan2_bfloat16)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_exp_float32)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
