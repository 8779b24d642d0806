// The CPU loop driver: cpu_kernel(iter, [](float a, float b) -> float { ... }) runs a per-element
// callable over every element of an iterator. The callable's argument and return types must be
// the operands' dtypes (checked at run time against the iterator); rows with unit strides take a
// plain indexed loop over typed pointers that the compiler vectorizes, other rows a strided loop.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "iter/tensor_iterator.h"

namespace ingot {

// Threads a parallel loop may use (1 without OpenMP).
int cpu_num_threads();

template <typename R, typename... Args>
struct callable_traits {
  using result_type = R;
  using args = std::tuple<std::decay_t<Args>...>;
  static constexpr int arity = static_cast<int>(sizeof...(Args));
};
template <typename F>
struct function_traits : function_traits<decltype(&F::operator())> {};
template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...) const> : callable_traits<R, Args...> {};
template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...)> : callable_traits<R, Args...> {};
template <typename R, typename... Args>
struct function_traits<R (*)(Args...)> : callable_traits<R, Args...> {};

namespace detail {

template <typename T>
INGOT_INLINE T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
INGOT_INLINE void store(char* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

template <typename F, typename R, typename Args, size_t... I>
void basic_loop(const F& op, char** data, const int64_t* strides, int64_t n,
                std::index_sequence<I...>) {
  const bool unit = strides[0] == static_cast<int64_t>(sizeof(R)) &&
                    ((strides[I + 1] == static_cast<int64_t>(sizeof(std::tuple_element_t<I, Args>))) && ...);
  if (unit) {
    R* out = reinterpret_cast<R*>(data[0]);
    const std::tuple<const std::tuple_element_t<I, Args>*...> in{
        reinterpret_cast<const std::tuple_element_t<I, Args>*>(data[I + 1])...};
    for (int64_t i = 0; i < n; ++i) out[i] = op(std::get<I>(in)[i]...);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    store<R>(data[0] + i * strides[0],
             op(load<std::tuple_element_t<I, Args>>(data[I + 1] + i * strides[I + 1])...));
  }
}

// Throws TypeError naming the op when the callable's signature does not match the operands.
void check_kernel_signature(const TensorIteratorBase& iter, int arity, ScalarType result,
                            const ScalarType* args);

}  // namespace detail

template <typename F>
void cpu_kernel(const TensorIteratorBase& iter, const F& op, int64_t grain_size = kCpuGrainSize) {
  using traits = function_traits<F>;
  using R = typename traits::result_type;
  using Args = typename traits::args;
  constexpr int arity = traits::arity;
  const auto arg_dtypes = []<size_t... I>(std::index_sequence<I...>) {
    return std::array<ScalarType, arity + 1>{dtype_v<std::tuple_element_t<I, Args>>..., kBool};
  }(std::make_index_sequence<arity>{});
  detail::check_kernel_signature(iter, arity, dtype_v<R>, arg_dtypes.data());
  iter.for_each(
      [&op](char** data, const int64_t* strides, int64_t n) {
        detail::basic_loop<F, R, Args>(op, data, strides, n, std::make_index_sequence<arity>{});
      },
      grain_size);
}

}  // namespace ingot
