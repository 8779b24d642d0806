// CPU registration of dim kernels (kernels/dim.h), included by kernel_registration.h: each
// instantiation of REGISTER_SOFTMAX_OP / REGISTER_SCAN_OP / REGISTER_INDEX_SCAN_OP becomes a
// signature in the dim kernel registry with its DimLoops<K>::run attached.
#pragma once

#include "backend/cpu/dim_loops.h"
#include "backend/cpu/kernel_fn.h"
#include "backend/cpu/kernel_shard.h"
#include "backend/dim_kernel_registry.h"

namespace ingot::cpu {

template <bool kInShard, typename K>
bool register_dim(const char* op, const char* header) {
  if constexpr (!kInShard) {
    return false;
  } else {
    DimKernelSignature sig;
    sig.op = op;
    sig.kind = K::kind;
    sig.out = dtype_v<typename K::Out>;
    sig.in = dtype_v<typename K::In>;
    const DimKernelSignature& added = dim_kernel_registry().add(std::move(sig), header);
    attach_dim_kernel(added.id, &DimLoops<K>::run);
    return true;
  }
}

}  // namespace ingot::cpu

// kernels/dim.h defines an empty default; this one registers.
#undef INGOT_DIM_KERNEL
#define INGOT_DIM_KERNEL(op, out_tok, in_tok, Kernel)                           \
  [[maybe_unused]] static const bool Kernel##_registered =                      \
      ::ingot::cpu::register_dim<::ingot::cpu::in_this_shard(#op), Kernel>(#op, \
                                                                           INGOT_KERNEL_HEADER)
