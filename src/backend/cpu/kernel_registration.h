// Included (before a kernels/ops/*.h header) by the translation units cmake/IngotKernels.cmake
// generates: each instantiation of the registration macros becomes a signature in the shared
// registry plus the CPU loop driver's flavors attached to it. INGOT_KERNEL_HEADER names the header.
#pragma once

#include "backend/cpu/elementwise_loops.h"
#include "backend/cpu/index_loops.h"
#include "backend/cpu/kernel_fn.h"
#include "backend/cpu/kernel_shard.h"
#include "backend/cpu/reduce_registration.h"
#include "backend/index_kernel_registry.h"

namespace ingot::cpu {

// kInShard: whether this translation unit instantiates the op's kernels
// (backend/cpu/kernel_shard.h).
template <bool kInShard, typename F, typename Out, typename Alpha, typename... Ins>
bool register_elementwise(const char* op, const char* header,
                          ElementwiseKernel<F, Out, Alpha, Ins...>*) {
  if constexpr (!kInShard) {
    return false;
  } else {
    using Loops = ElementwiseLoops<ElementwiseKernel<F, Out, Alpha, Ins...>>;
    KernelSignature sig;
    sig.op = op;
    sig.out = dtype_v<Out>;
    sig.ninputs = static_cast<int>(sizeof...(Ins));
    sig.inputs = {dtype_v<typename Ins::stored>...};
    sig.args = {dtype_v<typename Ins::arg>...};
    if constexpr (!is_same_v<Alpha, NoAlpha>) sig.alpha = dtype_v<Alpha>;
    const KernelSignature& added = kernel_registry().add(std::move(sig), header);
    attach_kernels(added.id, {&Loops::dense, &Loops::scalar, &Loops::broadcast, &Loops::strided,
                              &Loops::cast, &Loops::tiled});
    return true;
  }
}

template <bool kInShard, typename K>
bool register_index(const char* op, const char* name, const char* header, K*) {
  if constexpr (!kInShard) {
    return false;
  } else {
    IndexKernelSignature sig;
    sig.op = op;
    sig.name = name;
    sig.element_bytes = static_cast<int>(sizeof(typename K::data_t));
    if constexpr (K::kTyped) sig.dtype = dtype_v<typename K::data_t>;
    sig.index_dtype = dtype_v<typename K::index_t>;
    sig.writes_through_index = K::kWritesThroughIndex;
    const IndexKernelSignature& added = index_kernel_registry().add(std::move(sig), header);
    attach_index_kernel(added.id, &index_loop<K>);
    return true;
  }
}

}  // namespace ingot::cpu

#define INGOT_ELEMENTWISE_KERNEL(op, out_tok, in_tok, alpha_tok, Kernel)    \
  [[maybe_unused]] static const bool Kernel##_registered =                  \
      ::ingot::cpu::register_elementwise<::ingot::cpu::in_this_shard(#op)>( \
          #op, INGOT_KERNEL_HEADER, static_cast<Kernel*>(nullptr))

// Dim kernels (kernels/dim.h) register the same way.
#include "backend/cpu/dim_registration.h"

// Index kernels (kernels/index.h).
#define INGOT_INDEX_KERNEL(op, data_tok, index_tok, Kernel)                 \
  [[maybe_unused]] static const bool Kernel##_registered =                  \
      ::ingot::cpu::register_index<::ingot::cpu::in_this_shard(#op)>(       \
          #op, #op "_index_" #data_tok "_" #index_tok, INGOT_KERNEL_HEADER, \
          static_cast<Kernel*>(nullptr))
