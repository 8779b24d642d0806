// The host side of dim ops (dim_ops.h): dtype rules, dim wrapping, out= checks, then one launch of
// the backend's dim kernel over contiguous [outer, n, inner] operands (kernels/dim.h).
#include "native/dim_ops.h"

#include <string>

#include "backend/dim_kernel_registry.h"
#include "backend/kernel_library.h"
#include "core/shape.h"
#include "ingot/factories.h"
#include "ingot/type_promotion.h"

namespace ingot::native {

namespace {

// The kernel for (op, result, self's dtype), or for (op, result, result) after converting self.
const DimKernelSignature& find_kernel(std::string_view op, ScalarType result, Tensor& src) {
  const DimKernelRegistry& registry = dim_kernel_registry();
  if (const DimKernelSignature* sig = registry.find(op, result, src.dtype())) return *sig;
  if (const DimKernelSignature* sig = registry.find(op, result, result)) {
    src = src.to(result);
    return *sig;
  }
  std::string have;
  for (const DimKernelSignature* sig : registry.signatures(op)) {
    if (sig->out == sig->in) (have += have.empty() ? "" : ", ") += dtype_name(sig->in);
  }
  INGOT_CHECK(false, NotImplementedError, op, ": no kernel for dtype ", dtype_name(result), " (",
              op, " has kernels for: ", have, ")");
  throw;  // unreachable
}

// An out= operand: same device and shape as self, and `result` must cast to it (`exact`: equal).
void check_out(std::string_view op, const char* name, const Tensor& out, const Tensor& self,
               ScalarType result, bool exact) {
  INGOT_CHECK(out.device() == self.device(), ValueError, op, ": ", name, " is on ", out.device(),
              " but self is on ", self.device());
  INGOT_CHECK(out.sizes() == self.sizes(), ValueError, op, ": ", name, " has shape ", out.sizes(),
              ", expected ", self.sizes());
  INGOT_CHECK(exact ? out.dtype() == result : can_cast(result, out.dtype()), TypeError, op, ": ",
              name, " has dtype ", dtype_name(out.dtype()), ", expected ",
              exact ? "" : "one the result dtype ", dtype_name(result), exact ? "" : " casts to");
}

// Where a kernel may write directly: out itself when contiguous, of the result dtype and not
// sharing memory with self; else a fresh tensor that is copied into out afterwards.
Tensor destination(const Tensor& out, const Tensor& self, ScalarType dtype) {
  if (out.defined() && out.is_contiguous() && out.dtype() == dtype &&
      out.storage().data() != self.storage().data()) {
    return out;
  }
  return empty(self.sizes(), TensorOptions(dtype).device(self.device()));
}

// Runs `op` along `dim` of self into result (and indices), both contiguous with self's shape.
void run(std::string_view op, const Tensor& self, int64_t dim, const DimKernelSignature& sig,
         const Tensor& src, const Tensor& result, const Tensor* indices) {
  if (self.numel() == 0) return;
  const int64_t d = self.dim() == 0 ? 0 : wrap_dim(op, dim, self.dim());
  DimArgs args{};
  args.outer = args.inner = 1;
  args.n = self.dim() == 0 ? 1 : self.size(d);
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k < d) args.outer *= self.size(k);
    if (k > d) args.inner *= self.size(k);
  }
  args.in = static_cast<const char*>(src.data_ptr());
  args.out = static_cast<char*>(result.data_ptr());
  args.indices = indices ? static_cast<char*>(indices->data_ptr()) : nullptr;
  kernel_library(self.device().type, op).launch_dim(sig, args, self.device());
}

Tensor& run_into(std::string_view op, Tensor& out, const Tensor& self, int64_t dim,
                 ScalarType result) {
  if (self.dim() > 0)
    wrap_dim(op, dim, self.dim());
  else
    wrap_dim(op, dim, 0, /*scalar_as_1d=*/true);
  Tensor src = self;
  const DimKernelSignature& sig = find_kernel(op, result, src);
  src = src.contiguous();
  Tensor dst = destination(out, self, result);
  run(op, self, dim, sig, src, dst, nullptr);
  if (!out.defined()) return out = dst;
  if (!dst.is_same(out)) out.copy_(dst);
  return out;
}

ScalarType softmax_dtype(std::string_view op, const Tensor& self, std::optional<ScalarType> dtype) {
  const ScalarType result = dtype.value_or(self.dtype());
  INGOT_CHECK(is_floating_type(result), TypeError, op, ": expected a floating-point ",
              dtype ? "dtype" : "input (or pass dtype=)", ", got ", dtype_name(result));
  return result;
}

ScalarType scan_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral_type(self.dtype(), /*include_bool=*/true) ? kInt64 : self.dtype();
}

}  // namespace

Tensor softmax_like(std::string_view op, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype) {
  Tensor out;
  return run_into(op, out, self, dim, softmax_dtype(op, self, dtype));
}

Tensor& softmax_like_out(std::string_view op, Tensor& out, const Tensor& self, int64_t dim,
                         std::optional<ScalarType> dtype) {
  const ScalarType result = softmax_dtype(op, self, dtype);
  check_out(op, "out", out, self, result, false);
  return run_into(op, out, self, dim, result);
}

Tensor scan(std::string_view op, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor out;
  return run_into(op, out, self, dim, scan_dtype(self, dtype));
}

Tensor& scan_out(std::string_view op, Tensor& out, const Tensor& self, int64_t dim,
                 std::optional<ScalarType> dtype) {
  const ScalarType result = scan_dtype(self, dtype);
  check_out(op, "out", out, self, result, false);
  return run_into(op, out, self, dim, result);
}

std::tuple<Tensor, Tensor> index_scan(std::string_view op, const Tensor& self, int64_t dim) {
  Tensor values, indices;
  index_scan_out(op, values, indices, self, dim);
  return {values, indices};
}

std::tuple<Tensor&, Tensor&> index_scan_out(std::string_view op, Tensor& values, Tensor& indices,
                                            const Tensor& self, int64_t dim) {
  if (values.defined()) check_out(op, "values", values, self, self.dtype(), true);
  if (indices.defined()) check_out(op, "indices", indices, self, kInt64, true);
  if (self.dim() > 0)
    wrap_dim(op, dim, self.dim());
  else
    wrap_dim(op, dim, 0, /*scalar_as_1d=*/true);
  Tensor src = self;
  const DimKernelSignature& sig = find_kernel(op, self.dtype(), src);
  src = src.contiguous();
  Tensor v = destination(values, self, self.dtype());
  Tensor i = destination(indices, self, kInt64);
  run(op, self, dim, sig, src, v, &i);
  if (!values.defined())
    values = v;
  else if (!v.is_same(values))
    values.copy_(v);
  if (!indices.defined())
    indices = i;
  else if (!i.is_same(indices))
    indices.copy_(i);
  return {values, indices};
}

}  // namespace ingot::native
