#include "backend/kernel_registry.h"

#include "ingot/error.h"

namespace ingot {

std::string_view flavor_name(KernelFlavor flavor) {
  switch (flavor) {
    case KernelFlavor::Dense:
      return "dense";
    case KernelFlavor::Scalar:
      return "scalar";
    case KernelFlavor::Broadcast:
      return "broadcast";
    case KernelFlavor::Strided:
      return "strided";
    case KernelFlavor::Cast:
      return "cast";
    case KernelFlavor::Tiled:
      return "tiled";
  }
  return "unknown";
}

std::string kernel_name(const KernelSignature& sig, KernelFlavor flavor) {
  std::string name = sig.op;
  for (std::string_view part :
       {flavor_name(flavor), dtype_name(sig.out), dtype_name(sig.inputs[sig.ninputs - 1])}) {
    name += '_';
    name += part;
  }
  if (sig.alpha) {
    name += '_';
    name += dtype_name(*sig.alpha);
  }
  return name;
}

const KernelSignature& KernelRegistry::add(KernelSignature sig, std::string_view header) {
  sig.id = static_cast<int>(all_.size());
  sig.header = std::string(header);
  // The registration macros' alias: <op>_<out>_<last input>_<alpha or none>_kernel.
  sig.type_name =
      detail::concat(sig.op, '_', dtype_name(sig.out), '_', dtype_name(sig.inputs[sig.ninputs - 1]),
                     '_', sig.alpha ? dtype_name(*sig.alpha) : std::string_view("none"), "_kernel");
  for (KernelFlavor flavor : kAllFlavors) {
    std::string& name = sig.names[static_cast<size_t>(flavor)] = kernel_name(sig, flavor);
    INGOT_CHECK(by_name_.emplace(name, std::make_pair(sig.id, flavor)).second, ValueError,
                "kernel registry: kernel ", name, " is registered twice");
  }
  const KernelSignature& stored = all_.emplace_back(std::move(sig));
  by_op_[stored.op].push_back(&stored);
  return stored;
}

const std::vector<const KernelSignature*>& KernelRegistry::signatures(std::string_view op) const {
  static const std::vector<const KernelSignature*> kNone;
  const auto it = by_op_.find(op);
  return it == by_op_.end() ? kNone : it->second;
}

const KernelSignature* KernelRegistry::find(std::string_view kernel_name,
                                            KernelFlavor* flavor) const {
  const auto it = by_name_.find(kernel_name);
  if (it == by_name_.end()) return nullptr;
  if (flavor) *flavor = it->second.second;
  return &all_[static_cast<size_t>(it->second.first)];
}

KernelRegistry& kernel_registry() {
  static auto* registry = new KernelRegistry();  // never destroyed: kernels may run during teardown
  return *registry;
}

}  // namespace ingot
