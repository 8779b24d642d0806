"""PyTorch's calling conventions where they go beyond one generated op, layered on the generated
functions and methods:

* clamp/clip with one bound: clamp(t, min=0) is clamp_min, clamp(t, max=1) clamp_max (also the
  in-place methods); neither bound is an error, as in PyTorch.
* where(condition) alone: the indices of the nonzero elements, one tensor per dim (NumPy's and
  PyTorch's one-argument form).
* Tensor methods: dim(), ndimension(), nelement(), element_size(), is_floating_point(),
  flatten(start_dim=0, end_dim=-1), unflatten(dim, sizes), squeeze of a tuple of dims, mT, and
  the number protocol's round() and divmod().
* allclose(a, b) and equal(a, b), answered as Python bools.
* Function forms of the view and copy methods, as in PyTorch and NumPy: reshape, permute,
  transpose (swapaxes), flatten, unflatten, squeeze, unsqueeze, flip, diagonal, broadcast_to,
  clone, numel; the first argument may be an array-like.
* tril/triu (also as methods and in place): composites of where over an index comparison, so
  they run on every backend.
* The other-tensor helpers: new_empty/new_zeros/new_ones/new_full/new_tensor (self's dtype and
  device unless given), type_as, view_as, reshape_as, expand_as; zero_(); repeat(*sizes).
"""
from __future__ import annotations

import math
import operator

from ingot._creation import _sizes, arange, asarray, empty, full, ones, zeros
from ingot._join import _normalize_dim

_BOUNDS_NEEDED = "at least one of min and max must be given (not None)"


def _clamp_function(name, both, low, high):
    def clamp(self, min=None, max=None, *, out=None):
        if min is None and max is None:
            raise TypeError(f"{name}: {_BOUNDS_NEEDED}")
        if max is None:
            return low(self, min, out=out)
        if min is None:
            return high(self, max, out=out)
        return both(self, min, max, out=out)

    clamp.__name__ = clamp.__qualname__ = name
    clamp.__doc__ = (f"{name}(self, min=None, max=None, *, out=None): elements limited to [min, max]; "
                     "either bound may be None (then it is clamp_min or clamp_max).")
    return clamp


def _clamp_inplace(name, both, low, high):
    def clamp_(self, min=None, max=None):
        if min is None and max is None:
            raise TypeError(f"{name}: {_BOUNDS_NEEDED}")
        if max is None:
            return low(self, min)
        if min is None:
            return high(self, max)
        return both(self, min, max)

    clamp_.__name__ = clamp_.__qualname__ = name
    clamp_.__doc__ = f"{name}(min=None, max=None): in place; either bound may be None."
    return clamp_


def _where_function(where, nonzero):
    _missing = object()

    def where_(condition, self=_missing, other=_missing, *, out=None):
        if self is _missing and other is _missing:
            if out is not None:
                raise TypeError("where: where(condition) takes no out=")
            nz = nonzero(condition)
            return tuple(nz.select(1, d) for d in range(nz.shape[1]))
        if self is _missing or other is _missing:
            raise TypeError("where: takes condition alone, or condition, self and other")
        return where(condition, self, other, out=out)

    where_.__name__ = where_.__qualname__ = "where"
    where_.__doc__ = ("where(condition, self, other, *, out=None): self where condition is true, else other; "
                      "where(condition): the indices of condition's nonzero elements, one tensor per dim.")
    return where_


def _dim(self):
    """self.ndim: the number of dims (PyTorch's dim() and ndimension())."""
    return self.ndim


def _nelement(self):
    """self.size: the number of elements."""
    return self.size


def _element_size(self):
    """self.itemsize: the bytes of one element."""
    return self.itemsize


def _is_floating_point(self):
    """True for float16, bfloat16, float32 and float64."""
    return self.dtype.is_floating_point


def _flatten(self, start_dim=0, end_dim=-1):
    """Dims start_dim..end_dim merged into one (a view when the memory allows, as reshape)."""
    shape = tuple(self.shape)
    n = max(len(shape), 1)  # a 0-dim tensor takes dim 0 or -1
    s0, e0 = _normalize_dim("flatten", start_dim, n), _normalize_dim("flatten", end_dim, n)
    if s0 > e0:
        raise ValueError(f"flatten: start_dim ({start_dim}) comes after end_dim ({end_dim})")
    if not shape:
        return self.reshape((1,))
    return self.reshape(shape[:s0] + (math.prod(shape[s0:e0 + 1]),) + shape[e0 + 1:])


def _unflatten(self, dim, sizes):
    """Dim `dim` split into `sizes` (one of them may be -1), as a view when the memory allows."""
    shape = tuple(self.shape)
    d0 = _normalize_dim("unflatten", dim, len(shape))
    sizes = tuple(operator.index(k) for k in sizes)
    if not sizes:
        raise ValueError("unflatten: sizes must not be empty")
    if sizes.count(-1) > 1:
        raise ValueError(f"unflatten: at most one size may be -1, got {sizes}")
    known = math.prod(k for k in sizes if k != -1)
    if -1 in sizes:
        if known == 0 or shape[d0] % known:
            raise ValueError(f"unflatten: sizes {sizes} cannot split dim {dim} of size {shape[d0]}")
        sizes = tuple(shape[d0] // known if k == -1 else k for k in sizes)
    elif known != shape[d0]:
        raise ValueError(f"unflatten: sizes {sizes} multiply to {known}, not dim {dim}'s size {shape[d0]}")
    return self.reshape(shape[:d0] + sizes + shape[d0 + 1:])


def _squeeze_dims(squeeze):
    def squeeze_(self, dim=None):
        if not isinstance(dim, (tuple, list)):
            return squeeze(self, dim)
        n = max(self.ndim, 1)  # a 0-dim tensor takes dim 0 or -1
        dims = set()
        for d in dim:
            k = _normalize_dim("squeeze", d, n)
            if k in dims:
                raise ValueError(f"squeeze: dim {d} appears twice in {tuple(dim)}")
            dims.add(k)
        t = self
        for k in sorted(dims, reverse=True):  # from the last, so the others keep their places
            t = squeeze(t, k)
        return t

    squeeze_.__name__ = squeeze_.__qualname__ = "squeeze"
    squeeze_.__doc__ = ("squeeze(dim=None): without the size-1 dims (all of them, one, or a tuple); "
                        "a named dim of another size stays, as in PyTorch.")
    return squeeze_


def _mT(self):
    """The last two dims swapped (a view)."""
    if self.ndim < 2:
        raise ValueError(f"mT: needs at least 2 dims, got {self.ndim}")
    return self.transpose(-2, -1)


def _closeness(isclose):
    def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
        """Whether every element of a is close to b's (isclose broadcast, then all): a Python bool."""
        return bool(isclose(a, b, rtol, atol, equal_nan).all().item())

    def equal(a, b):
        """Whether a and b have the same shape and equal elements (NaN is unequal): a Python bool."""
        if tuple(a.shape) != tuple(b.shape):
            return False
        return bool((a == b).all().item())

    return allclose, equal


def _new_factories():
    def make(name, fn):
        def new(self, *size, dtype=None, device=None):
            return fn(_sizes(size), dtype=self.dtype if dtype is None else dtype,
                      device=self.device if device is None else device)

        new.__name__ = new.__qualname__ = name
        new.__doc__ = f"{fn.__name__}(size) with self's dtype and device unless given."
        return new

    def new_full(self, size, fill_value, *, dtype=None, device=None):
        """full(size, fill_value) with self's dtype and device unless given."""
        return full(_sizes((size,)), fill_value, dtype=self.dtype if dtype is None else dtype,
                    device=self.device if device is None else device)

    def new_tensor(self, data, *, dtype=None, device=None):
        """A copy of data with self's dtype and device unless given."""
        return asarray(data, dtype=self.dtype if dtype is None else dtype,
                       device=self.device if device is None else device, copy=True)

    return [make("new_empty", empty), make("new_zeros", zeros), make("new_ones", ones), new_full, new_tensor]


def _zero_(self):
    """Fills self with zeros; returns self."""
    return self.fill_(0)


def _type_as(self, other):
    """self converted to other's dtype (self when it already has it)."""
    return self.to(other.dtype)


def _view_as(self, other):
    """A view of self with other's shape (view's rules)."""
    return self.view(tuple(other.shape))


def _reshape_as(self, other):
    """self reshaped to other's shape (a view when the memory allows)."""
    return self.reshape(tuple(other.shape))


def _expand_as(self, other):
    """self broadcast to other's shape, as a view (expand)."""
    return self.expand(*other.shape)


def _repeat(self, *sizes):
    """self tiled sizes[i] times along each dim (leading sizes add dims), as PyTorch's repeat."""
    reps = _sizes(sizes)
    if len(reps) < self.ndim:
        raise ValueError(f"repeat: {len(reps)} repeat counts for a tensor of {self.ndim} dims; give at least "
                         f"{self.ndim}")
    if any(r < 0 for r in reps):
        raise ValueError(f"repeat: repeat counts must not be negative, got {reps}")
    shape = (1,) * (len(reps) - self.ndim) + tuple(self.shape)
    interleaved = tuple(x for p in shape for x in (1, p))
    expanded = tuple(x for r, p in zip(reps, shape) for x in (r, p))
    return self.reshape(interleaved).expand(*expanded).reshape(tuple(r * p for r, p in zip(reps, shape))).clone()


def _triangle(name, where, lower):
    def triangle(self, diagonal=0):
        if self.ndim < 2:
            raise ValueError(f"{name}: needs at least 2 dims, got {self.ndim}")
        k = operator.index(diagonal)
        rows, cols = self.shape[-2], self.shape[-1]
        i = arange(rows, device=self.device).reshape((rows, 1))
        j = arange(cols, device=self.device).reshape((1, cols))
        keep = (j - i <= k) if lower else (j - i >= k)
        return where(keep, self, False if self.dtype == "bool" else 0)

    def triangle_(self, diagonal=0):
        return self.copy_(triangle(self, diagonal))

    triangle.__name__ = triangle.__qualname__ = name
    triangle.__doc__ = (f"{name}(self, diagonal=0): the {'lower' if lower else 'upper'} triangle of the last two "
                        f"dims (elements with col - row {'<=' if lower else '>='} diagonal), the rest zero.")
    triangle_.__name__ = triangle_.__qualname__ = name + "_"
    triangle_.__doc__ = f"{name} in place; returns self."
    return triangle, triangle_


_METHOD_FUNCTIONS = ("reshape", "permute", "transpose", "flatten", "unflatten", "squeeze", "unsqueeze", "flip",
                     "diagonal", "broadcast_to", "clone", "numel")


def _function_of(name, tensor_type, attr=None):
    attr = attr or name

    def fn(input, *args, **kwargs):
        if not isinstance(input, tensor_type):
            input = asarray(input)
        return getattr(input, attr)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name}(input, ...): input.{attr}(...) (input may be an array-like)."
    return fn


def install(namespace: dict, tensor_type, functions: dict, methods: dict) -> None:
    clamp_min, clamp_max = functions["clamp_min"], functions["clamp_max"]
    for name in ("clamp", "clip"):
        fn = _clamp_function(name, functions[name], clamp_min, clamp_max)
        namespace[name] = fn
        setattr(tensor_type, name, fn)
        setattr(tensor_type, name + "_",
                _clamp_inplace(name + "_", methods[name + "_"], methods["clamp_min_"], methods["clamp_max_"]))
    namespace["where"] = _where_function(functions["where"], functions["nonzero"])
    for attr, fn in (("dim", _dim), ("ndimension", _dim), ("nelement", _nelement),
                     ("element_size", _element_size), ("is_floating_point", _is_floating_point),
                     ("flatten", _flatten), ("unflatten", _unflatten),
                     ("squeeze", _squeeze_dims(tensor_type.squeeze))):
        setattr(tensor_type, attr, fn)
    for fn in _new_factories():
        setattr(tensor_type, fn.__name__, fn)
    for attr, fn in (("zero_", _zero_), ("type_as", _type_as), ("view_as", _view_as), ("reshape_as", _reshape_as),
                     ("expand_as", _expand_as), ("repeat", _repeat)):
        setattr(tensor_type, attr, fn)
    for name in _METHOD_FUNCTIONS:
        namespace.setdefault(name, _function_of(name, tensor_type))
    namespace.setdefault("swapaxes", _function_of("swapaxes", tensor_type, "transpose"))
    for name, lower in (("tril", True), ("triu", False)):
        fn, fn_ = _triangle(name, functions["where"], lower)
        namespace[name] = fn
        setattr(tensor_type, name, fn)
        setattr(tensor_type, name + "_", fn_)
    tensor_type.mT = property(_mT)
    allclose, equal = _closeness(functions["isclose"])
    namespace["allclose"], namespace["equal"] = allclose, equal
    tensor_type.allclose = allclose
    tensor_type.equal = equal
    round_fn = functions["round"]

    def __round__(self, ndigits=None):
        return round_fn(self) if ndigits is None else round_fn(self, decimals=ndigits)

    def __divmod__(self, other):
        return self // other, self % other

    def __rdivmod__(self, other):
        return other // self, other % self

    for fn in (__round__, __divmod__, __rdivmod__):
        setattr(tensor_type, fn.__name__, fn)
