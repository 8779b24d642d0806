// The interface every backend's kernel library implements (DESIGN.md §3). The shared part here
// turns an iterator and an op name into a registered kernel and its arguments: it picks the
// flavor, splits for 32-bit indexing and binds each operand from the (sub-)iterator. A backend only
// launches one flavor of a signature from the shared registry.
#pragma once

#include <string_view>

#include "backend/index_kernel_registry.h"
#include "backend/kernel_registry.h"
#include "backend/reduce_registry.h"
#include "iter/tensor_iterator.h"
#include "kernels/elementwise.h"
#include "kernels/index.h"
#include "kernels/reduce.h"

namespace ingot {

struct DimArgs;
struct DimKernelSignature;

class KernelLibrary {
 public:
  virtual ~KernelLibrary() = default;
  virtual DeviceType device_type() const = 0;

  void exec_unary_kernel(TensorIteratorBase& iter, std::string_view op);
  void exec_binary_kernel(TensorIteratorBase& iter, std::string_view op);
  void exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op);
  // With a scalar parameter passed to the functor last (add's alpha, round's decimals, addcmul's
  // value), in the compute type of the kernel the signature names.
  void exec_unary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha);
  void exec_binary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha);
  void exec_ternary_kernel(TensorIteratorBase& iter, std::string_view op, const Scalar& alpha);

  // Runs one flavor of `sig` on `device` over elements [0, numel) of `args`; numel and every byte
  // offset fit in int32. A kernel the backend cannot provide is a NotImplementedError naming it.
  virtual void launch(const KernelSignature& sig, KernelFlavor flavor, const ElementwiseArgs& args,
                      int64_t numel, Device device) = 0;

  // Index ops (kernels/index.h): runs index kernel `op` over an iterator of (out, in, index), in
  // which the operand the functor addresses through the index has stride 0 along the indexed
  // dimension that `params` describes. The kernel is picked by out's dtype and the index dtype.
  // A bad index raises IndexError naming `what` at once on the CPU, and AcceleratorError at the
  // next synchronization on a GPU (its error buffer). src/backend/index_kernel_library.cpp.
  void exec_index_kernel(TensorIteratorBase& iter, std::string_view op, const IndexParams& params,
                         std::string_view what);
  // Runs one index kernel over elements [0, numel) of `args` (32-bit offsets, as launch()). The
  // default is a NotImplementedError naming the kernel (a backend without index kernels).
  virtual void launch_index(const IndexKernelSignature& sig, const ElementwiseArgs& args, int64_t numel,
                            const IndexParams& params, Device device, std::string_view what);

  // Copies `nbytes` between two contiguous regions, at least one of them in this backend's memory
  // (the other may be host memory). Returns once the host may read or reuse its side.
  virtual void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device,
                          size_t nbytes) = 0;

  // Dim ops (kernels/dim.h): runs `sig` over the contiguous [outer, n, inner] operands of `args`
  // (n >= 1, no empty operand). A backend without dim kernels raises NotImplementedError.
  virtual void launch_dim(const DimKernelSignature& sig, const DimArgs& args, Device device);
  // Reductions (DESIGN.md §5): runs reduction kernel `op` for the input's dtype over a reduction
  // iterator (build_reduction), binding ReduceArgs from it. `param` reaches the functor as prm.p
  // (var's correction, a norm's order). Outputs stored in another dtype than the kernel's get the
  // result through a buffer of the kernel's dtype; reducing zero elements with a kernel that has
  // no identity is an IndexError naming the op.
  void exec_reduce_kernel(TensorIteratorBase& iter, std::string_view op, double param = 0.0);
  // Runs reduction kernel `sig` on `device` over `args`. The default raises NotImplementedError.
  virtual void launch_reduce(const ReduceSignature& sig, const ReduceArgs& args, Device device);

 private:
  void exec(TensorIteratorBase& iter, std::string_view op, int ninputs, const Scalar* alpha);
  void exec_32bit(const TensorIteratorBase& iter, std::string_view op, const Scalar* alpha);
  [[noreturn]] void throw_missing(const TensorIteratorBase& iter, std::string_view op) const;
};

// The library serving `device`: NotImplementedError naming `op` when that backend is not built in
// or cannot run here.
KernelLibrary& kernel_library(DeviceType device, std::string_view op = "kernel_library");
// Backends call this from a static initializer.
void register_kernel_library(DeviceType device, KernelLibrary* library);

}  // namespace ingot
