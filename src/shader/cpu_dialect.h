// The CUDA dialect of compile_shader sources for the host C++ compiler: threadIdx/blockIdx/...,
// __shared__ (one copy per block: blocks run one at a time per OS thread), barriers and warp
// exchanges through the runtime's fiber scheduler, real atomics. Included before the user's
// source in the generated translation unit (src/shader/cpu_compiler.cpp); host-only.
#pragma once

#include <math.h>
#include <stdio.h>

#include <atomic>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "ingot/half.h"
#include "shader/cpu_abi.h"

namespace ingot_cpu_dialect {
using ::ingot::shader_abi::Runtime;
using ::ingot::shader_abi::Thread;
inline thread_local Thread* self = nullptr;
inline thread_local const Runtime* runtime = nullptr;

// Runs a runtime call that may switch fibers, then restores this fiber's view of the thread.
template <typename F>
inline void switching(F f) {
  Thread* s = self;
  const Runtime* r = runtime;
  f(r, s);
  self = s;
  runtime = r;
}

template <typename T>
inline T exchange(T v, int src) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp exchanges take up to 8 bytes");
  Thread* s = self;
  unsigned long long bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  s->warp_slots[s->lane] = bits;
  switching([](const Runtime* r, Thread* t) { r->sync_warp(t); });
  T out = v;
  if (src >= 0 && static_cast<unsigned>(src) < s->warp_lanes) std::memcpy(&out, &s->warp_slots[src], sizeof(T));
  switching([](const Runtime* r, Thread* t) { r->sync_warp(t); });
  return out;
}

template <typename... P, std::size_t... I>
inline void call(void (*f)(P...), void* const* a, std::index_sequence<I...>) {
  f(*static_cast<std::remove_reference_t<P>*>(a[I])...);
}
template <typename... P>
constexpr std::size_t arity(void (*)(P...)) {
  return sizeof...(P);
}
template <typename... P>
inline void invoke(void (*f)(P...), void* const* a) {
  call(f, a, std::index_sequence_for<P...>{});
}
}  // namespace ingot_cpu_dialect

// One exported entry per kernel (instantiation): runs one thread.
#define INGOT_SHADER_ENTRY(symbol, nparams, ...)                                                  \
  static_assert(::ingot_cpu_dialect::arity(&__VA_ARGS__) == nparams,                              \
                "compile_shader: the parsed parameter list of " #__VA_ARGS__ " does not match");   \
  extern "C" __attribute__((visibility("default"))) void symbol(                                  \
      const ::ingot::shader_abi::Runtime* r, ::ingot::shader_abi::Thread* t, void* const* a) {    \
    ::ingot_cpu_dialect::runtime = r;                                                             \
    ::ingot_cpu_dialect::self = t;                                                                \
    ::ingot_cpu_dialect::invoke(&__VA_ARGS__, a);                                                 \
  }

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

#define threadIdx (::ingot_cpu_dialect::self->thread_idx)
#define blockIdx (::ingot_cpu_dialect::self->block_idx)
#define blockDim (::ingot_cpu_dialect::self->block_dim)
#define gridDim (::ingot_cpu_dialect::self->grid_dim)
#define warpSize 32
#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n)

using half = ::ingot::Half;
using __half = ::ingot::Half;
using __nv_bfloat16 = ::ingot::BFloat16;
inline float __half2float(half h) { return static_cast<float>(h); }
inline half __float2half(float f) { return half(f); }

inline void __syncthreads() {
  ::ingot_cpu_dialect::switching([](const ::ingot::shader_abi::Runtime* r, ::ingot::shader_abi::Thread* t) {
    r->sync_block(t);
  });
}
inline void __syncwarp(unsigned = 0xffffffffu) {
  ::ingot_cpu_dialect::switching([](const ::ingot::shader_abi::Runtime* r, ::ingot::shader_abi::Thread* t) {
    r->sync_warp(t);
  });
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

template <typename T>
inline T __shfl_sync(unsigned, T v, int src, int width = warpSize) {
  const int lane = static_cast<int>(::ingot_cpu_dialect::self->lane);
  return ::ingot_cpu_dialect::exchange(v, lane - lane % width + ((src % width) + width) % width);
}
template <typename T>
inline T __shfl_down_sync(unsigned, T v, unsigned delta, int width = warpSize) {
  const int lane = static_cast<int>(::ingot_cpu_dialect::self->lane);
  const int src = lane % width + static_cast<int>(delta) < width ? lane + static_cast<int>(delta) : -1;
  return ::ingot_cpu_dialect::exchange(v, src);
}
template <typename T>
inline T __shfl_up_sync(unsigned, T v, unsigned delta, int width = warpSize) {
  const int lane = static_cast<int>(::ingot_cpu_dialect::self->lane);
  const int src = lane % width >= static_cast<int>(delta) ? lane - static_cast<int>(delta) : -1;
  return ::ingot_cpu_dialect::exchange(v, src);
}
template <typename T>
inline T __shfl_xor_sync(unsigned, T v, int mask, int width = warpSize) {
  const int lane = static_cast<int>(::ingot_cpu_dialect::self->lane);
  const int src = lane ^ mask;
  return ::ingot_cpu_dialect::exchange(v, src / width == lane / width ? src : -1);
}
inline unsigned __ballot_sync(unsigned, int pred) {
  ::ingot::shader_abi::Thread* s = ::ingot_cpu_dialect::self;
  s->warp_slots[s->lane] = pred != 0;
  __syncwarp();
  unsigned bits = 0;
  for (unsigned l = 0; l < s->warp_lanes; ++l) bits |= (s->warp_slots[l] != 0 ? 1u : 0u) << l;
  __syncwarp();
  return bits;
}
inline unsigned __activemask() {
  const unsigned n = ::ingot_cpu_dialect::self->warp_lanes;
  return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}
inline int __any_sync(unsigned m, int pred) { return __ballot_sync(m, pred) != 0; }
inline int __all_sync(unsigned m, int pred) { return __ballot_sync(m, pred) == __activemask(); }

// Atomics on real memory: blocks run in parallel on OpenMP threads.
template <typename T>
inline T atomicAdd(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <typename T>
inline T atomicSub(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).fetch_sub(v); }
template <typename T>
inline T atomicExch(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).exchange(v); }
template <typename T>
inline T atomicCAS(T* p, std::type_identity_t<T> expected, std::type_identity_t<T> v) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, v);
  return expected;  // the old value either way
}
template <typename T, typename F>
inline T atomic_update(T* p, F f) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (!a.compare_exchange_weak(old, f(old))) {
  }
  return old;
}
template <typename T>
inline T atomicMax(T* p, std::type_identity_t<T> v) { return atomic_update(p, [v](T o) { return o < v ? v : o; }); }
template <typename T>
inline T atomicMin(T* p, std::type_identity_t<T> v) { return atomic_update(p, [v](T o) { return v < o ? v : o; }); }
template <typename T>
inline T atomicAnd(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).fetch_and(v); }
template <typename T>
inline T atomicOr(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).fetch_or(v); }
template <typename T>
inline T atomicXor(T* p, std::type_identity_t<T> v) { return std::atomic_ref<T>(*p).fetch_xor(v); }
inline unsigned atomicInc(unsigned* p, unsigned limit) {
  return atomic_update(p, [limit](unsigned o) { return o >= limit ? 0u : o + 1u; });
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  return atomic_update(p, [limit](unsigned o) { return (o == 0u || o > limit) ? limit : o - 1u; });
}

// CUDA's global min/max overloads and fast-math intrinsics (here: the precise functions).
template <typename A, typename B>
inline std::common_type_t<A, B> min(A a, B b) { return b < a ? b : a; }
template <typename A, typename B>
inline std::common_type_t<A, B> max(A a, B b) { return a < b ? b : a; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
template <typename T>
inline T __ldg(const T* p) { return *p; }
