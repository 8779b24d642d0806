// The registry of dim kernels (kernels/dim.h), shared by the backends like kernel_registry.h: one
// DimKernelSignature per instantiation of REGISTER_SOFTMAX_OP / REGISTER_SCAN_OP /
// REGISTER_INDEX_SCAN_OP. The CPU attaches a function pointer to a signature's id; the CUDA
// backend compiles the signature's header with NVRTC into one module per signature.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "backend/kernel_registry.h"
#include "kernels/dim.h"

namespace ingot {

struct DimKernelSignature {
  std::string op;
  DimKind kind = DimKind::Scan;
  ScalarType out = kFloat32;
  ScalarType in = kFloat32;
  // Filled in by the registry:
  int id = -1;
  std::string header;     // "kernels/ops/scan.h"
  std::string type_name;  // the macros' alias, <op>_<out>_<in>_dim_kernel
  std::string name;       // <op>_dim_<out>_<in>
};

class DimKernelRegistry {
 public:
  const DimKernelSignature& add(DimKernelSignature sig, std::string_view header);
  // The signature computing `op` from `in` into `out`, or nullptr.
  const DimKernelSignature* find(std::string_view op, ScalarType out, ScalarType in) const;
  const std::vector<const DimKernelSignature*>& signatures(std::string_view op) const;
  const std::deque<DimKernelSignature>& all() const { return all_; }

 private:
  std::deque<DimKernelSignature> all_;
  StringMap<std::vector<const DimKernelSignature*>> by_op_;
};

DimKernelRegistry& dim_kernel_registry();

}  // namespace ingot
