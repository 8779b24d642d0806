#include "backend/dim_kernel_registry.h"

#include "ingot/error.h"

namespace ingot {

const DimKernelSignature& DimKernelRegistry::add(DimKernelSignature sig, std::string_view header) {
  sig.id = static_cast<int>(all_.size());
  sig.header = std::string(header);
  sig.type_name =
      detail::concat(sig.op, '_', dtype_name(sig.out), '_', dtype_name(sig.in), "_dim_kernel");
  sig.name = detail::concat(sig.op, "_dim_", dtype_name(sig.out), '_', dtype_name(sig.in));
  INGOT_CHECK(find(sig.op, sig.out, sig.in) == nullptr, ValueError, "dim kernel registry: kernel ",
              sig.name, " is registered twice");
  const DimKernelSignature& stored = all_.emplace_back(std::move(sig));
  by_op_[stored.op].push_back(&stored);
  return stored;
}

const DimKernelSignature* DimKernelRegistry::find(std::string_view op, ScalarType out,
                                                  ScalarType in) const {
  for (const DimKernelSignature* sig : signatures(op)) {
    if (sig->out == out && sig->in == in) return sig;
  }
  return nullptr;
}

const std::vector<const DimKernelSignature*>& DimKernelRegistry::signatures(
    std::string_view op) const {
  static const std::vector<const DimKernelSignature*> kNone;
  const auto it = by_op_.find(op);
  return it == by_op_.end() ? kNone : it->second;
}

DimKernelRegistry& dim_kernel_registry() {
  static auto* registry = new DimKernelRegistry();  // never destroyed, like kernel_registry()
  return *registry;
}

}  // namespace ingot

#include "backend/kernel_library.h"

namespace ingot {

void KernelLibrary::launch_dim(const DimKernelSignature& sig, const DimArgs&, Device device) {
  INGOT_CHECK(false, NotImplementedError, device.type, " kernel library: no dim kernels (",
              sig.name, ")");
}

}  // namespace ingot
