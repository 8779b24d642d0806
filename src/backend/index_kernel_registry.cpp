#include "backend/index_kernel_registry.h"

#include "ingot/error.h"

namespace ingot {

const IndexKernelSignature& IndexKernelRegistry::add(IndexKernelSignature sig,
                                                     std::string_view header) {
  INGOT_CHECK(find(sig.name) == nullptr, ValueError, "index kernel ", sig.name,
              " is registered twice");
  sig.header = std::string(header);
  sig.type_name = sig.name + "_kernel";
  sig.id = static_cast<int>(all_.size());
  all_.push_back(std::move(sig));
  return all_.back();
}

const IndexKernelSignature* IndexKernelRegistry::find(std::string_view op, ScalarType dtype,
                                                      ScalarType index_dtype) const {
  const IndexKernelSignature* by_size = nullptr;
  for (const IndexKernelSignature& s : all_) {
    if (s.op != op || s.index_dtype != index_dtype) continue;
    if (s.dtype == dtype) return &s;
    if (!s.dtype && s.element_bytes == static_cast<int>(element_size(dtype))) by_size = &s;
  }
  return by_size;
}

const IndexKernelSignature* IndexKernelRegistry::find_moving(std::string_view op, int bytes,
                                                             ScalarType index_dtype) const {
  for (const IndexKernelSignature& s : all_) {
    if (s.op == op && !s.dtype && s.element_bytes == bytes && s.index_dtype == index_dtype)
      return &s;
  }
  return nullptr;
}

const IndexKernelSignature* IndexKernelRegistry::find(std::string_view name) const {
  for (const IndexKernelSignature& s : all_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

IndexKernelRegistry& index_kernel_registry() {
  static IndexKernelRegistry* registry = new IndexKernelRegistry();  // outlives static users
  return *registry;
}

}  // namespace ingot
