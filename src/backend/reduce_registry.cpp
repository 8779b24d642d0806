#include "backend/reduce_registry.h"

#include "ingot/error.h"

namespace ingot {

const ReduceSignature& ReduceRegistry::add(ReduceSignature sig, std::string_view header) {
  sig.id = static_cast<int>(all_.size());
  sig.header = std::string(header);
  sig.type_name = detail::concat(sig.op, "_reduce_", dtype_name(sig.in), "_kernel");
  sig.name = detail::concat(sig.op, "_reduce_", dtype_name(sig.out), '_', dtype_name(sig.in));
  INGOT_CHECK(by_name_.emplace(sig.name, sig.id).second, ValueError, "reduce registry: kernel ", sig.name,
              " is registered twice");
  const ReduceSignature& stored = all_.emplace_back(std::move(sig));
  by_op_[stored.op].push_back(&stored);
  return stored;
}

const ReduceSignature* ReduceRegistry::find(std::string_view op, ScalarType in) const {
  for (const ReduceSignature* sig : signatures(op)) {
    if (sig->in == in) return sig;
  }
  return nullptr;
}

const std::vector<const ReduceSignature*>& ReduceRegistry::signatures(std::string_view op) const {
  static const std::vector<const ReduceSignature*> kNone;
  const auto it = by_op_.find(op);
  return it == by_op_.end() ? kNone : it->second;
}

const ReduceSignature* ReduceRegistry::find_by_name(std::string_view name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &all_[static_cast<size_t>(it->second)];
}

ReduceRegistry& reduce_registry() {
  static auto* registry = new ReduceRegistry();  // never destroyed: kernels may run during teardown
  return *registry;
}

}  // namespace ingot
