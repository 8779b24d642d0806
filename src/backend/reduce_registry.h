// The registry of reduction kernels every backend shares: one ReduceSignature per instantiation of
// the REGISTER_*_REDUCE_OP macros (kernels/reduce.h). The CPU backend attaches a driver function
// to a signature's id; the CUDA backend compiles the signature's header with NVRTC on first use.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/kernel_registry.h"
#include "ingot/dtype.h"

namespace ingot {

struct ReduceSignature {
  std::string op;  // the kernel's op name ("sum", "max_index", "vector_norm_l2")
  ScalarType in = kFloat32;
  ScalarType out = kFloat32;
  std::optional<ScalarType> out2;  // the second output (max_index's indices, var_mean's mean)
  bool has_identity = true;        // false: reducing zero elements is an error
  bool block_hook = false;  // the functor has a reduce_block hook for this input (kernels/reduce.h)
  // Filled in by the registry:
  int id = -1;
  std::string header;     // the kernels/ header that registers it
  std::string type_name;  // the macros' alias of its ReduceKernel type: <op>_reduce_<in>_kernel
  std::string name;       // <op>_reduce_<out>_<in>
};

class ReduceRegistry {
 public:
  // Registers one instantiation; ValueError when its name is taken.
  const ReduceSignature& add(ReduceSignature sig, std::string_view header);
  // The kernel of `op` for input dtype `in`, or nullptr.
  const ReduceSignature* find(std::string_view op, ScalarType in) const;
  // Every instantiation of `op` (empty when none).
  const std::vector<const ReduceSignature*>& signatures(std::string_view op) const;
  const std::deque<ReduceSignature>& all() const { return all_; }
  const ReduceSignature* find_by_name(std::string_view name) const;

 private:
  std::deque<ReduceSignature> all_;
  StringMap<std::vector<const ReduceSignature*>> by_op_;
  StringMap<int> by_name_;
};

ReduceRegistry& reduce_registry();

}  // namespace ingot
