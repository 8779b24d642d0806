// Index ops (ops.yaml "Index ops"): argument checks and views; the element work is an index
// kernel (kernels/ops/index.h) run through src/native/index_iterator.h on the tensors' device.
#include <algorithm>
#include <vector>

#include "core/shape.h"
#include "dispatch_stubs.h"
#include "ingot/factories.h"
#include "ingot/generated/functions.h"
#include "native/index_iterator.h"

namespace ingot::native {

namespace {

void check_same_dtype(std::string_view op, const Tensor& self, const Tensor& other,
                      std::string_view name) {
  INGOT_CHECK(other.dtype() == self.dtype(), TypeError, op, ": ", name, " has dtype ",
              other.dtype(), " but self has dtype ", self.dtype());
}

void check_out(std::string_view op, const Tensor& out, const Tensor& self, ScalarType dtype) {
  INGOT_CHECK(out.defined(), ValueError, op, ": out must be a defined tensor");
  INGOT_CHECK(out.dtype() == dtype, TypeError, op, ": out has dtype ", out.dtype(),
              " but the result is ", dtype);
  INGOT_CHECK(out.device() == self.device(), ValueError, op, ": out is on ", out.device(),
              " but self is on ", self.device());
}

// out (given) must have `shape`, or be empty (then a fresh tensor is returned in its place is not
// possible: ingot has no resize), so an empty out of another shape is a ValueError too.
void check_out_shape(std::string_view op, const Tensor& out, IntArrayRef shape) {
  INGOT_CHECK(out.sizes() == shape, ValueError, op, ": out has shape ", out.sizes(),
              " but the result has shape ", shape);
}

// self and index with at least one dim (0-d tensors act as 1-element vectors, as in PyTorch).
Tensor at_least_1d(const Tensor& t) { return t.dim() == 0 ? t.reshape({1}) : t; }

// The gather/scatter rule: index has self's rank; index.size(d) <= self.size(d) off `dim`.
void check_gather_shapes(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index,
                         std::string_view name) {
  INGOT_CHECK(index.dim() == self.dim(), ValueError, op, ": index has ", index.dim(), " dims but ",
              name, " has ", self.dim());
  for (int64_t d = 0; d < self.dim(); ++d) {
    INGOT_CHECK(d == dim || index.size(d) <= self.size(d), ValueError, op, ": index has size ",
                index.size(d), " in dim ", d, " but ", name, " has only ", self.size(d));
  }
  INGOT_CHECK(self.size(dim) > 0 || index.numel() == 0, IndexError, op,
              ": index is out of bounds for dimension ", dim, " with size 0");
}

// Writes `src_view` (the iteration shape: index's) through index into out along dim.
void scatter_into(std::string_view op, std::string_view kernel, Tensor& out, const Tensor& self,
                  int64_t dim, const Tensor& index, const Tensor& src_view) {
  if (!out.is_same(self)) {
    check_out_shape(op, out, self.sizes());
    out.copy_(self);
  }
  if (index.numel() == 0) return;
  const Tensor o = at_least_1d(out);
  const Tensor ix = at_least_1d(index);
  run_scatter(op, kernel, restride_indexed_dim(o, dim, ix.sizes()), src_view, ix,
              indexed_dim(o, dim));
}

Tensor& scatter_value_impl(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                           const Scalar& value) {
  check_index_tensor("scatter", self, index);
  check_out("scatter", out, self, self.dtype());
  const Tensor s = at_least_1d(self), ix = at_least_1d(index);
  const int64_t d = wrap_dim("scatter", dim, s.dim());
  check_gather_shapes("scatter", s, d, ix, "self");
  const Tensor v =
      full({}, value, TensorOptions(self.dtype()).device(self.device())).expand(ix.sizes());
  scatter_into("scatter", "scatter", out, self, d, index, v);
  return out;
}

Tensor& scatter_tensor_out(std::string_view op, std::string_view kernel, Tensor& out,
                           const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& src) {
  if (src.defined() && src.is_wrapped_number() &&
      kernel == "scatter") {  // a Python number given as src
    return scatter_value_impl(out, self, dim, index, src.item());
  }
  check_index_tensor(op, self, index);
  check_same_dtype(op, self, src, "src");
  INGOT_CHECK(src.device() == self.device(), ValueError, op, ": src is on ", src.device(),
              " but self is on ", self.device());
  check_out(op, out, self, self.dtype());
  const Tensor s = at_least_1d(self), ix = at_least_1d(index), sv = at_least_1d(src);
  const int64_t d = wrap_dim(op, dim, s.dim());
  check_gather_shapes(op, s, d, ix, "self");
  check_gather_shapes(op, sv, -1, ix, "src");
  scatter_into(op, kernel, out, self, d, index,
               sv.as_strided(ix.sizes(), sv.strides(), sv.storage_offset()));
  return out;
}

bool mask_broadcasts_to(const Tensor& mask, const Tensor& self) {
  if (mask.dim() > self.dim()) return false;
  for (int64_t i = 1; i <= mask.dim(); ++i) {
    const int64_t m = mask.size(-i);
    if (m != 1 && m != self.size(-i)) return false;
  }
  return true;
}

Tensor& masked_fill_impl(Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& value) {
  INGOT_CHECK(mask.defined() && mask.dtype() == kBool, TypeError,
              "masked_fill: mask must be a bool tensor, got ",
              mask.defined() ? dtype_name(mask.dtype()) : "an undefined tensor");
  INGOT_CHECK(mask_broadcasts_to(mask, self), ValueError, "masked_fill: mask of shape ",
              mask.sizes(), " cannot be broadcast to self's shape ", self.sizes());
  check_out("masked_fill", out, self, self.dtype());
  if (!out.is_same(self)) check_out_shape("masked_fill", out, self.sizes());
  where_out(out, mask, value, self);
  return out;
}

Tensor value_tensor(const Tensor& self, const Tensor& value) {
  INGOT_CHECK(
      value.defined() && value.dim() == 0, ValueError,
      "masked_fill: value must be a 0-dimensional tensor or a number, got a tensor of shape ",
      value.defined() ? value.sizes() : IntArrayRef{});
  return value.to(self.dtype());
}

}  // namespace

// ---- gather, index_select, take, take_along_dim: out = self[index] along a dim

Tensor& gather_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                   bool sparse_grad) {
  check_index_tensor("gather", self, index);
  check_out("gather", out, self, self.dtype());
  const Tensor s = at_least_1d(self), ix = at_least_1d(index);
  const int64_t d = wrap_dim("gather", dim, s.dim());
  check_gather_shapes("gather", s, d, ix, "self");
  check_out_shape("gather", out, index.sizes());
  run_gather("gather", at_least_1d(out), restride_indexed_dim(s, d, ix.sizes()), ix,
             indexed_dim(s, d));
  return out;
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  Tensor out = empty(index.defined() ? index.sizes() : IntArrayRef{},
                     TensorOptions(self.dtype()).device(self.device()));
  return native::gather_out(out, self, dim, index, sparse_grad);
}

Tensor& index_select_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index) {
  check_index_tensor("index_select", self, index);
  INGOT_CHECK(index.dim() <= 1, ValueError,
              "index_select: index must be 0- or 1-dimensional, got shape ", index.sizes());
  check_out("index_select", out, self, self.dtype());
  const Tensor s = at_least_1d(self), ix = at_least_1d(index);
  const int64_t d = wrap_dim("index_select", dim, s.dim());
  INGOT_CHECK(s.size(d) > 0 || ix.numel() == 0, IndexError,
              "index_select: index is out of bounds for dimension ", d, " with size 0");
  std::vector<int64_t> shape = s.sizes().vec();
  shape[static_cast<size_t>(d)] = ix.numel();
  check_out_shape("index_select", out,
                  self.dim() == 0 ? IntArrayRef(index.sizes()) : IntArrayRef(shape));
  std::vector<int64_t> ix_strides(shape.size(), 0);
  ix_strides[static_cast<size_t>(d)] = ix.stride(0);
  run_gather("index_select", at_least_1d(out).reshape(shape), restride_indexed_dim(s, d, shape),
             ix.as_strided(shape, ix_strides, ix.storage_offset()), indexed_dim(s, d));
  return out;
}

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  std::vector<int64_t> shape = self.sizes().vec();
  if (self.dim() == 0) {
    shape = index.sizes().vec();
  } else {
    shape[static_cast<size_t>(wrap_dim("index_select", dim, self.dim()))] =
        index.defined() ? index.numel() : 0;
  }
  Tensor out = empty(shape, TensorOptions(self.dtype()).device(self.device()));
  return native::index_select_out(out, self, dim, index);
}

Tensor& take_out(Tensor& out, const Tensor& self, const Tensor& index) {
  check_index_tensor("take", self, index);
  check_out("take", out, self, self.dtype());
  check_out_shape("take", out, index.sizes());
  INGOT_CHECK(self.numel() > 0 || index.numel() == 0, IndexError,
              "take: index is out of bounds for an empty tensor");
  if (index.numel() == 0) return out;
  const Tensor flat = self.reshape({-1});
  const Tensor in =
      flat.as_strided(index.sizes(), std::vector<int64_t>(static_cast<size_t>(index.dim()), 0),
                      flat.storage_offset());
  run_gather("take", out, in, index, indexed_dim(flat, 0));
  return out;
}

Tensor take(const Tensor& self, const Tensor& index) {
  Tensor out = empty(index.defined() ? index.sizes() : IntArrayRef{},
                     TensorOptions(self.dtype()).device(self.device()));
  return native::take_out(out, self, index);
}

Tensor& take_along_dim_out(Tensor& out, const Tensor& self, const Tensor& indices,
                           std::optional<int64_t> dim) {
  check_index_tensor("take_along_dim", self, indices, "indices");
  if (!dim) return native::take_out(out, self.reshape({-1}), indices.reshape({-1}));
  INGOT_CHECK(self.dim() == indices.dim(), ValueError, "take_along_dim: indices has ",
              indices.dim(), " dims but self has ", self.dim());
  const Tensor s = at_least_1d(self), ix = at_least_1d(indices);
  const int64_t d = wrap_dim("take_along_dim", *dim, s.dim());
  std::vector<int64_t> shape(static_cast<size_t>(s.dim()));
  for (int64_t k = 0; k < s.dim(); ++k) {
    const int64_t a = k == d ? ix.size(k) : s.size(k), b = ix.size(k);
    INGOT_CHECK(a == b || a == 1 || b == 1, ValueError, "take_along_dim: self of shape ",
                self.sizes(), " and indices of shape ", indices.sizes(),
                " cannot be broadcast outside dim ", d);
    shape[static_cast<size_t>(k)] = a == 1 ? b : a;
  }
  std::vector<int64_t> self_shape = shape;
  self_shape[static_cast<size_t>(d)] = s.size(d);
  const Tensor expanded = s.expand(self_shape);
  if (self.dim() == 0) return native::gather_out(out, self, 0, indices, false);
  return native::gather_out(out, expanded, d, ix.expand(shape), false);
}

Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  std::vector<int64_t> shape;
  if (!dim) {
    shape = {indices.numel()};
  } else {
    const int64_t d = wrap_dim("take_along_dim", *dim, std::max<int64_t>(self.dim(), 1));
    shape = indices.sizes().vec();
    for (int64_t k = 0; k < std::min(self.dim(), indices.dim()); ++k) {
      if (k != d && indices.size(k) == 1) shape[static_cast<size_t>(k)] = self.size(k);
    }
  }
  Tensor out = empty(shape, TensorOptions(self.dtype()).device(self.device()));
  return native::take_along_dim_out(out, self, indices, dim);
}

// ---- scatter, scatter_add: out[index] = src (or +=) along a dim

Tensor& scatter_src_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src) {
  return scatter_tensor_out("scatter", "scatter", out, self, dim, index, src);
}
Tensor scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  Tensor out = self.clone();
  return scatter_tensor_out("scatter", "scatter", out, out, dim, index, src);
}
Tensor& scatter__src(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_tensor_out("scatter_", "scatter", self, self, dim, index, src);
}
Tensor& scatter_value_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                          const Scalar& value) {
  return scatter_value_impl(out, self, dim, index, value);
}
Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  Tensor out = self.clone();
  return scatter_value_impl(out, out, dim, index, value);
}
Tensor& scatter__value(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter_value_impl(self, self, dim, index, value);
}

Tensor& scatter_add_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src) {
  return scatter_tensor_out("scatter_add", "scatter_add", out, self, dim, index, src);
}
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  Tensor out = self.clone();
  return scatter_tensor_out("scatter_add", "scatter_add", out, out, dim, index, src);
}
Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_tensor_out("scatter_add_", "scatter_add", self, self, dim, index, src);
}

// ---- index, index_put: advanced indexing of the leading dims

Tensor& index_out(Tensor& out, const Tensor& self, std::vector<Tensor> indices) {
  const AdvancedIndex ai = make_advanced_index("index", self, indices);
  check_out("index", out, self, self.dtype());
  check_out_shape("index", out, ai.shape);
  if (out.numel() > 0) run_gather("index", out, ai.view, ai.offsets, ai.params);
  return out;
}

Tensor index(const Tensor& self, std::vector<Tensor> indices) {
  const AdvancedIndex ai = make_advanced_index("index", self, indices);
  Tensor out = empty(ai.shape, TensorOptions(self.dtype()).device(self.device()));
  if (out.numel() > 0) run_gather("index", out, ai.view, ai.offsets, ai.params);
  return out;
}

Tensor& index_put_(Tensor& self, std::vector<Tensor> indices, const Tensor& values,
                   bool accumulate) {
  INGOT_CHECK(values.defined(), ValueError, "index_put_: values must be a defined tensor");
  INGOT_CHECK(values.device() == self.device() || (values.dim() == 0 && values.device().is_cpu()),
              ValueError, "index_put_: values is on ", values.device(), " but self is on ",
              self.device());
  const AdvancedIndex ai = make_advanced_index("index_put_", self, indices);
  if (ai.view.numel() == 0) return self;
  // values broadcast to the indexed shape, in self's dtype and on its device (a copy only then).
  Tensor v = values.dtype() == self.dtype() && values.device() == self.device()
                 ? values
                 : values.to(self.dtype()).to(self.device());
  INGOT_CHECK(v.dim() <= static_cast<int64_t>(ai.shape.size()), ValueError,
              "index_put_: values of shape ", values.sizes(),
              " cannot be broadcast to the indexed shape ", IntArrayRef(ai.shape));
  run_scatter("index_put_", accumulate ? "scatter_add" : "scatter", ai.view,
              v.broadcast_to(ai.shape), ai.offsets, ai.params);
  return self;
}

Tensor index_put(const Tensor& self, std::vector<Tensor> indices, const Tensor& values,
                 bool accumulate) {
  Tensor out = self.clone();
  return native::index_put_(out, std::move(indices), values, accumulate);
}

Tensor& index_put_out(Tensor& out, const Tensor& self, std::vector<Tensor> indices,
                      const Tensor& values, bool accumulate) {
  check_out("index_put", out, self, self.dtype());
  if (!out.is_same(self)) {
    check_out_shape("index_put", out, self.sizes());
    out.copy_(self);
  }
  return native::index_put_(out, std::move(indices), values, accumulate);
}

// ---- masked_fill: where(mask, value, self) in self's dtype

Tensor& masked_fill_scalar_out(Tensor& out, const Tensor& self, const Tensor& mask,
                               const Scalar& value) {
  return masked_fill_impl(out, self, mask, full({}, value, self.dtype()));
}
Tensor masked_fill_scalar(const Tensor& self, const Tensor& mask, const Scalar& value) {
  Tensor out = empty_like(self);
  return native::masked_fill_scalar_out(out, self, mask, value);
}
Tensor& masked_fill__scalar(Tensor& self, const Tensor& mask, const Scalar& value) {
  return native::masked_fill_scalar_out(self, self, mask, value);
}
Tensor& masked_fill_tensor_out(Tensor& out, const Tensor& self, const Tensor& mask,
                               const Tensor& value) {
  return masked_fill_impl(out, self, mask, value_tensor(self, value));
}
Tensor masked_fill_tensor(const Tensor& self, const Tensor& mask, const Tensor& value) {
  Tensor out = empty_like(self);
  return native::masked_fill_tensor_out(out, self, mask, value);
}
Tensor& masked_fill__tensor(Tensor& self, const Tensor& mask, const Tensor& value) {
  return native::masked_fill_tensor_out(self, self, mask, value);
}

// ---- nonzero: counted on the host (on CUDA after one device->host copy: the count decides the
// result's shape, so the host must wait for it whatever the implementation).

Tensor nonzero(const Tensor& self) {
  INGOT_CHECK(self.defined(), ValueError, "nonzero: self must be a defined tensor");
  const Tensor flags = self.to(Device(kCPU)).to(kBool).contiguous();
  const bool* f = flags.data_ptr<bool>();
  const int64_t n = flags.numel(), nd = self.dim();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += f[i] ? 1 : 0;
  Tensor result = empty({count, nd}, TensorOptions(kInt64));
  int64_t* r = result.data_ptr<int64_t>();
  std::vector<int64_t> pos(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < n; ++i) {
    if (f[i]) {
      std::copy(pos.begin(), pos.end(), r);
      r += nd;
    }
    for (int64_t d = nd - 1; d >= 0; --d) {  // row-major increment
      if (++pos[static_cast<size_t>(d)] < self.size(d)) break;
      pos[static_cast<size_t>(d)] = 0;
    }
  }
  return self.device().is_cpu() ? result : result.to(self.device());
}

Tensor& nonzero_out(Tensor& out, const Tensor& self) {
  const Tensor r = native::nonzero(self);
  check_out("nonzero", out, self, kInt64);
  check_out_shape("nonzero", out, r.sizes());
  out.copy_(r);
  return out;
}

}  // namespace ingot::native
