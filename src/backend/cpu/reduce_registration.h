// Included by src/backend/cpu/kernel_registration.h: each instantiation of the reduction macros
// (kernels/reduce.h) becomes a signature in the shared reduce registry with the CPU driver attached.
#pragma once

#include "backend/cpu/kernel_fn.h"
#include "backend/cpu/kernel_shard.h"
#include "backend/reduce_registry.h"
#include "kernels/reduce.h"

namespace ingot::cpu {

// Defined in backend/cpu/reduce_loops.h, which cmake/IngotKernels.cmake includes first in the
// translation units of headers that register reductions (and only there: it is heavy).
template <typename K>
struct ReduceLoops;

template <bool kInShard, typename K>
bool register_reduction(const char* op, const char* header, K*) {
  if constexpr (!kInShard) {
    return false;
  } else {
    ReduceSignature sig;
    sig.op = op;
    sig.in = dtype_v<typename K::In>;
    sig.out = dtype_v<typename K::out_t>;
    if constexpr (K::noutputs == 2) sig.out2 = dtype_v<typename K::out2_t>;
    sig.has_identity = K::Ops::has_identity;
    sig.block_hook = has_reduce_block<typename K::Ops, typename K::In>::value;
    const ReduceSignature& added = reduce_registry().add(std::move(sig), header);
    attach_reduce_kernel(added.id, &ReduceLoops<K>::run);
    return true;
  }
}

}  // namespace ingot::cpu

#define INGOT_REDUCE_KERNEL(op, in_tok, Kernel)                           \
  [[maybe_unused]] static const bool Kernel##_registered =                \
      ::ingot::cpu::register_reduction<::ingot::cpu::in_this_shard(#op)>( \
          #op, INGOT_KERNEL_HEADER, static_cast<Kernel*>(nullptr))
