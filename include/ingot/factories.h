// Tensor factories (PyTorch defaults: float32 on the CPU).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "ingot/tensor.h"

namespace ingot {

Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor ones(IntArrayRef sizes, TensorOptions options = {});
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options = {});
// Values start, start+step, ... below end. The dtype defaults to int64 when every argument is an
// integer and float32 otherwise.
Tensor arange(const Scalar& end, std::optional<TensorOptions> options = std::nullopt);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1,
              std::optional<TensorOptions> options = std::nullopt);
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options = {});
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, TensorOptions options = {});

// *_like keep the dtype and device of `t` unless options say otherwise, and its dim order.
Tensor empty_like(const Tensor& t, std::optional<TensorOptions> options = std::nullopt);
Tensor zeros_like(const Tensor& t, std::optional<TensorOptions> options = std::nullopt);
Tensor ones_like(const Tensor& t, std::optional<TensorOptions> options = std::nullopt);
Tensor full_like(const Tensor& t, const Scalar& value, std::optional<TensorOptions> options = std::nullopt);

// Wraps caller-owned memory without copying; the caller keeps ownership (deleter optional).
Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {},
                 std::function<void(void*)> deleter = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {},
                 std::function<void(void*)> deleter = {});

// Counter-based random numbers (Philox4x32-10): a (seed, offset) pair fixes every value, on
// every backend. Each call advances the default generator's offset.
class Generator {
 public:
  explicit Generator(uint64_t seed = 0) : seed_(seed) {}
  uint64_t seed() const { return seed_; }
  uint64_t offset() const { return offset_; }
  void manual_seed(uint64_t seed) {
    seed_ = seed;
    offset_ = 0;
  }
  // Reserves `n` counters and returns the first.
  uint64_t advance(uint64_t n) {
    const uint64_t start = offset_;
    offset_ += n;
    return start;
  }

 private:
  uint64_t seed_;
  uint64_t offset_ = 0;
};

Generator& default_generator();
void manual_seed(uint64_t seed);

Tensor rand(IntArrayRef sizes, TensorOptions options = {}, Generator* gen = nullptr);   // [0, 1)
Tensor randn(IntArrayRef sizes, TensorOptions options = {}, Generator* gen = nullptr);  // N(0, 1)
// Integers in [low, high); dtype defaults to int64.
Tensor randint(int64_t low, int64_t high, IntArrayRef sizes, TensorOptions options = TensorOptions(kInt64),
               Generator* gen = nullptr);

}  // namespace ingot
