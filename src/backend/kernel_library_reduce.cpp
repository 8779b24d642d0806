// The shared part of reductions: from a reduction iterator and an op name to a registered kernel
// and its ReduceArgs (DESIGN.md §3, §5). Backends only launch.
#include <string>

#include "backend/kernel_library.h"
#include "ingot/type_promotion.h"

namespace ingot {

namespace {

const ReduceSignature& find_reduce_kernel(const TensorIteratorBase& it, std::string_view op, DeviceType device) {
  const ScalarType in = it.input_dtype(0);
  if (const ReduceSignature* sig = reduce_registry().find(op, in)) return *sig;
  std::string have;
  for (const ReduceSignature* sig : reduce_registry().signatures(op)) {
    have += detail::concat(have.empty() ? "" : ", ", sig->in);
  }
  throw NotImplementedError(detail::concat(it.name(), ": no ", device, " reduction kernel ", op,
                                           "_reduce for input dtype ", in, "; ", it.name(),
                                           " takes input dtypes: ", have.empty() ? "none" : have));
}

// Output dims (some output steps along them) and reduced dims (every output stays), each list in
// iteration order; dims of size 1 are dropped.
ReduceArgs bind_reduce(const TensorIteratorBase& it) {
  ReduceArgs a{};
  const int nout = it.noutputs();
  a.out[0] = it.data_ptr(0);
  a.out[1] = nout > 1 ? it.data_ptr(1) : nullptr;
  a.in = it.data_ptr(nout);
  bool first = true;
  for (int d = 0; d < it.ndim(); ++d) {
    const int64_t size = it.shape()[d];
    if (size == 1) continue;
    const bool reduced = it.strides(0)[d] == 0 && (nout < 2 || it.strides(1)[d] == 0);
    if (first) a.red_inner = reduced ? 1 : 0;
    first = false;
    const int n = reduced ? a.nred_dims : a.nout_dims;
    INGOT_CHECK(n < kMaxReduceDims, NotImplementedError, it.name(), ": more than ", kMaxReduceDims,
                reduced ? " reduced" : " kept", " dims after coalescing");
    if (reduced) {
      a.red_sizes[n] = size;
      a.in_red_strides[n] = it.strides(nout)[d];
      ++a.nred_dims;
    } else {
      a.out_sizes[n] = size;
      a.out_strides[0][n] = it.strides(0)[d];
      a.out_strides[1][n] = nout > 1 ? it.strides(1)[d] : 0;
      a.in_out_strides[n] = it.strides(nout)[d];
      ++a.nout_dims;
    }
  }
  if (a.nred_dims == 0) {  // nothing to combine: one element per output
    a.red_sizes[0] = 1;
    a.in_red_strides[0] = 0;
    a.nred_dims = 1;
  }
  a.params.n = it.reduction_size();
  return a;
}

}  // namespace

void KernelLibrary::exec_reduce_kernel(TensorIteratorBase& iter, std::string_view op, double param) {
  INGOT_CHECK(iter.is_reduction(), ValueError, iter.name(), ": exec_reduce_kernel needs a reduction iterator");
  const ReduceSignature& sig = find_reduce_kernel(iter, op, device_type());
  const int nout = sig.out2 ? 2 : 1;
  INGOT_CHECK(iter.noutputs() == nout, ValueError, iter.name(), ": kernel ", sig.name, " writes ", nout,
              " output(s), the iterator has ", iter.noutputs());
  const Tensor& self = iter.input(0);
  // A reduced dim of size 0 is an error for an op without an identity even when the result has no
  // elements (amax of a [2, 0, 0] tensor over dim 2), as in PyTorch and NumPy.
  const bool empty = iter.reduction_size() == 0;
  INGOT_CHECK(sig.has_identity || !empty, IndexError, iter.name(), ": cannot reduce a tensor of shape ",
              self.sizes(), " over a dim of size 0: the operation has no identity");
  const ScalarType want[2] = {sig.out, sig.out2.value_or(sig.out)};
  bool buffered = false;
  for (int k = 0; k < nout; ++k) {
    if (iter.dtype(k) == want[k]) continue;
    INGOT_CHECK(can_cast(want[k], iter.dtype(k)), TypeError, iter.name(), ": result type ", want[k],
                " can't be cast to the desired output type ", iter.dtype(k));
    buffered = true;
  }
  if (buffered) {
    // The kernel writes its own dtype; a buffer of it takes the result, then one cast copy.
    std::vector<Tensor> buffers;
    for (int k = 0; k < nout; ++k) buffers.push_back(iter.dtype(k) == want[k] ? iter.output(k) : Tensor());
    TensorIterator sub;
    sub.set_name(iter.name());
    sub.build_reduction(buffers, {want, want + nout}, self, iter.reduction_dims_mask(), iter.reduction_keepdim());
    exec_reduce_kernel(sub, op, param);
    for (int k = 0; k < nout; ++k) {
      if (buffers[k].defined()) continue;
      Tensor out = iter.output(k);
      out.copy_(sub.output(k));
    }
    return;
  }
  if (iter.output(0).numel() == 0) return;
  ReduceArgs args = bind_reduce(iter);
  args.params.p = param;
  launch_reduce(sig, args, iter.device());
}

void KernelLibrary::launch_reduce(const ReduceSignature& sig, const ReduceArgs&, Device device) {
  throw NotImplementedError(detail::concat(sig.op, ": the ", device, " backend has no reduction kernels yet (",
                                           sig.name, ")"));
}

}  // namespace ingot
