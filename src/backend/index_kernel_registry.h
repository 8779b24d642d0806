// The registry of index kernels (kernels/index.h), shared by the backends like the elementwise
// registry: one IndexKernelSignature per instantiation of REGISTER_INDEX_*_OP in kernels/ops/*.h.
// The CPU backend attaches a loop to a signature's id; the CUDA backend compiles the signature's
// header with NVRTC on first use (and ingot-precompile compiles every one).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "ingot/dtype.h"

namespace ingot {

struct IndexKernelSignature {
  std::string op;                     // "gather"
  std::string name;                   // "gather_index_b4_int64", "scatter_add_index_float32_int32"
  std::string type_name;              // the macros' IndexKernel alias: name + "_kernel"
  std::string header;                 // "kernels/ops/index.h"
  int element_bytes = 0;              // the element size the kernel moves
  std::optional<ScalarType> dtype;    // accumulating kernels: the dtype they compute in
  ScalarType index_dtype = kInt64;    // int32 or int64
  bool writes_through_index = false;  // scatter-like: the CPU runs it serially
  int id = -1;
};

class IndexKernelRegistry {
 public:
  // ValueError when the name is taken (a macro misuse).
  const IndexKernelSignature& add(IndexKernelSignature sig, std::string_view header);
  // The kernel of `op` for data of `dtype` and indices of `index_dtype`: the dtype's own
  // instantiation, else the one moving elements of its size; nullptr when there is none.
  const IndexKernelSignature* find(std::string_view op, ScalarType dtype,
                                   ScalarType index_dtype) const;
  const IndexKernelSignature* find(std::string_view name) const;
  // The kernel of `op` that moves elements of `bytes` bytes (16 included: rows moved as vectors).
  const IndexKernelSignature* find_moving(std::string_view op, int bytes,
                                          ScalarType index_dtype) const;
  const std::deque<IndexKernelSignature>& all() const { return all_; }

 private:
  std::deque<IndexKernelSignature> all_;
};

IndexKernelRegistry& index_kernel_registry();

}  // namespace ingot
