// Included (before a kernels/ops/*.h header) by the translation units cmake/IngotKernels.cmake
// generates: turns each instantiation of the registration macros into CPU registrations.
#pragma once

#include "backend/cpu/kernel_library.h"

namespace ingot::cpu {

template <typename F, typename Out, typename Alpha, typename... Ins>
bool register_elementwise(const char* op, ElementwiseKernel<F, Out, Alpha, Ins...>*) {
  using Kernel = ElementwiseKernel<F, Out, Alpha, Ins...>;
  KernelSignature sig;
  sig.op = op;
  sig.out = dtype_v<Out>;
  sig.ninputs = static_cast<int>(sizeof...(Ins));
  sig.inputs = {dtype_v<typename Ins::stored>...};
  sig.args = {dtype_v<typename Ins::arg>...};
  if constexpr (!is_same_v<Alpha, NoAlpha>) sig.alpha = dtype_v<Alpha>;
  CpuKernelLibrary& lib = cpu_kernel_library();
  lib.add_signature(sig);
  lib.register_kernel(kernel_name(sig, KernelFlavor::Dense), &Kernel::dense);
  lib.register_kernel(kernel_name(sig, KernelFlavor::Scalar), &Kernel::scalar);
  lib.register_kernel(kernel_name(sig, KernelFlavor::Broadcast), &Kernel::broadcast);
  lib.register_kernel(kernel_name(sig, KernelFlavor::Strided), &Kernel::strided);
  lib.register_kernel(kernel_name(sig, KernelFlavor::Cast), &Kernel::cast);
  return true;
}

}  // namespace ingot::cpu

#define INGOT_ELEMENTWISE_KERNEL(op, out_tok, in_tok, alpha_tok, Kernel)       \
  [[maybe_unused]] static const bool Kernel##_registered =                    \
      ::ingot::cpu::register_elementwise(#op, static_cast<Kernel*>(nullptr))
