"""PyTorch-style calling conventions for the generated reduction functions and methods.

* `dim` takes None, an int or a tuple/list of ints (the bindings take a list).
* max(t, dim) / min(t, dim) and cummax / cummin return a (values, indices) named tuple;
  var_mean/std_mean a tuple;
  max(a, b) / min(a, b) with a tensor b are maximum / minimum, as in PyTorch.
* The two-output forms take out=(first, second): the results are computed, then copied in.
* var/std/var_mean/std_mean take PyTorch's `unbiased` (True: correction=1, False: 0), also
  positionally after dim (var(t, 1, False, True) is dim=1, unbiased=False, keepdim=True).
* NumPy's axis=, keepdims= and ddof= are taken for dim=, keepdim= and correction=, so NumPy's
  functions work on tensors (np.sum(t), np.std(t), np.argmax(t, axis=1)); an op without dtype=
  (var, std, ...) takes it as NumPy does, converting the input first. max/min called with axis=
  return the values alone (amax/amin), as NumPy's do; with dim= they keep PyTorch's pair.
* norm takes PyTorch's string orders: p="fro" is the 2-norm over the given dims (at most two, as
  in PyTorch); p="nuc" needs singular values and raises NotImplementedError.
* cumsum/cumprod take NumPy's axis= (None: of the flattened tensor), so np.cumsum(t) gives a tensor.
"""
from __future__ import annotations

import functools
import inspect
from typing import NamedTuple

from ingot._C import Tensor
from ingot._dtype import to_dtype

# Reductions whose `dim` is a list of dims (argmax/argmin and max.dim take one int).
LIST_DIM_OPS = ("sum", "prod", "mean", "nansum", "nanmean", "amax", "amin", "any", "all", "logsumexp",
                "var", "std", "var_mean", "std_mean", "count_nonzero", "norm", "vector_norm")
VALUES_INDICES_OPS = ("max", "min")
TWO_OUTPUT_OPS = ("var_mean", "std_mean")
# Take PyTorch's older `unbiased` flag beside `correction`: unbiased=True is correction=1, False 0,
# as a keyword or as a bool in the place of dim (t.var(False)).
UNBIASED_OPS = ("var", "std", "var_mean", "std_mean")
# NumPy's keyword names, taken beside PyTorch's: NumPy's own functions call a tensor's methods
# with them (np.sum(t) calls t.sum(axis=None, out=None), np.std(t) passes ddof=0).
NUMPY_KEYWORDS = (("axis", "dim"), ("keepdims", "keepdim"), ("ddof", "correction"))
WRAPPED_OPS = LIST_DIM_OPS + VALUES_INDICES_OPS + ("argmax", "argmin")
SCAN_OPS = ("cumsum", "cumprod")
# Scans with a (values, indices) result.
INDEX_SCAN_OPS = ("cummax", "cummin")


class ValuesIndices(NamedTuple):
    """What max(t, dim), min(t, dim), cummax and cummin return, like torch.return_types.max."""
    values: object
    indices: object


def _dims(dim):
    if isinstance(dim, (list, tuple)):
        return [_dim(d) for d in dim]
    return [_dim(dim)]


def _dim(d):
    if isinstance(d, bool) or not hasattr(d, "__index__"):
        raise TypeError(f"dim must be None, an int or a tuple of ints, not {type(d).__name__}")
    return d.__index__()


def _unbiased(name, dim_at, args, kwargs):
    """PyTorch's `unbiased` flag (a keyword, a bool where dim goes, or the positional argument after
    dim, as in var(t, dim, unbiased, keepdim)) as `correction`."""
    unbiased = kwargs.pop("unbiased", None)
    if dim_at is not None and len(args) > dim_at + 1:  # var(t, dim, unbiased[, keepdim])
        if len(args) > dim_at + 3 or not all(isinstance(a, bool) for a in args[dim_at + 1:]):
            raise TypeError(f"{name}: after dim, the positional arguments are unbiased and keepdim (bools); "
                            "pass correction= as a keyword")
        if unbiased is not None:
            raise TypeError(f"{name}: unbiased given twice")
        unbiased = args[dim_at + 1]
        if len(args) > dim_at + 2:
            if "keepdim" in kwargs:
                raise TypeError(f"{name}: keepdim given twice")
            kwargs["keepdim"] = args[dim_at + 2]
        args = args[:dim_at + 1]
    if dim_at is not None and len(args) > dim_at and isinstance(args[dim_at], bool):
        if unbiased is not None:
            raise TypeError(f"{name}: unbiased given twice")
        unbiased = args[dim_at]
        args = (*args[:dim_at], None, *args[dim_at + 1:])
    if unbiased is None:
        return args, kwargs
    if not isinstance(unbiased, bool):
        raise TypeError(f"{name}: unbiased must be a bool, not {type(unbiased).__name__}")
    if kwargs.get("correction") is not None:
        raise TypeError(f"{name}: pass either unbiased or correction, not both")
    kwargs["correction"] = 1 if unbiased else 0
    return args, kwargs


def _norm_order(args, kwargs, dim_at):
    """norm's p given as PyTorch's strings: "fro" is the 2-norm over at most two dims."""
    in_args = len(args) > 1
    p = args[1] if in_args else kwargs.get("p")
    if not isinstance(p, str):
        return args, kwargs
    if p == "nuc":
        raise NotImplementedError("norm: p='nuc' (the nuclear norm) needs singular values, which ingot does not "
                                  "compute; p='fro' and numeric orders are supported")
    if p != "fro":
        raise ValueError(f"norm: p={p!r} is not a norm order; pass a number, 'fro' or 'nuc'")
    dim = args[dim_at] if len(args) > dim_at else kwargs.get("dim")
    if isinstance(dim, (list, tuple)) and len(dim) > 2:
        raise ValueError(f"norm: p='fro' takes at most two dims, got dim={tuple(dim)}")
    if in_args:
        return (args[0], 2, *args[2:]), kwargs
    kwargs["p"] = 2
    return args, kwargs


def _copy_into(name, out, results):
    if not isinstance(out, (tuple, list)) or len(out) != len(results):
        raise TypeError(f"{name}: out= takes a tuple of {len(results)} tensors for this form")
    for o, r in zip(out, results):
        if tuple(o.shape) != tuple(r.shape):
            raise ValueError(f"{name}: out tensor has shape {tuple(o.shape)} but the result has shape "
                             f"{tuple(r.shape)}")
        o.copy_(r)
    return type(results)(*out) if isinstance(results, ValuesIndices) else tuple(out)


def _wrap(name, fn, numpy_fn=None, binary_fn=None):
    """fn with the conventions above. Arguments are matched by position once, here, not per call:
    a reduction of a small tensor costs about a microsecond, and inspect.Signature.bind five."""
    names = list(inspect.signature(fn).parameters)
    dim_at = names.index("dim") if "dim" in names else None
    list_dim = name in LIST_DIM_OPS and dim_at is not None
    values_indices = name in VALUES_INDICES_OPS
    two_outputs = name in TWO_OUTPUT_OPS
    dtype_at = names.index("dtype") if "dtype" in names else None
    takes_unbiased = name in UNBIASED_OPS and "correction" in names
    string_orders = name == "norm" and dim_at is not None

    aliases = tuple((theirs, ours, names.index(ours)) for theirs, ours in NUMPY_KEYWORDS if ours in names)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if binary_fn is not None and (len(args) > 1 and isinstance(args[1], Tensor) or "other" in kwargs):
            return binary_fn(*args, **kwargs)  # max(a, b): PyTorch's elementwise form (maximum)
        if kwargs:
            if numpy_fn is not None and "axis" in kwargs:  # np.max(t, axis=1): NumPy's meaning
                return numpy_fn(*args, **kwargs)
            for theirs, ours, at in aliases:
                if theirs in kwargs:
                    if ours in kwargs or len(args) > at:
                        raise TypeError(f"{name}: {ours} given twice (as {ours} and as {theirs})")
                    kwargs[ours] = kwargs.pop(theirs)
            if dtype_at is None and "dtype" in kwargs:  # np.std(t) passes dtype=None
                want = kwargs.pop("dtype")
                if want is not None:
                    if args:
                        args = (args[0].astype(to_dtype(want)), *args[1:])
                    elif "self" in kwargs:
                        kwargs["self"] = kwargs["self"].astype(to_dtype(want))
        if takes_unbiased:
            args, kwargs = _unbiased(name, dim_at, args, kwargs)
        if string_orders:
            args, kwargs = _norm_order(args, kwargs, dim_at)
        dim = None
        if dim_at is not None:
            if len(args) > dim_at:
                dim = args[dim_at]
                if list_dim and dim is not None:
                    args = (*args[:dim_at], _dims(dim), *args[dim_at + 1:])
            else:
                dim = kwargs.get("dim")
                if list_dim and dim is not None:
                    kwargs["dim"] = _dims(dim)
        if dtype_at is not None:
            if len(args) > dtype_at:
                if args[dtype_at] is not None:
                    args = (*args[:dtype_at], to_dtype(args[dtype_at]), *args[dtype_at + 1:])
            elif kwargs.get("dtype") is not None:
                kwargs["dtype"] = to_dtype(kwargs["dtype"])
        if two_outputs or (values_indices and dim is not None):
            out = kwargs.pop("out", None)
            result = fn(*args, **kwargs)
            result = ValuesIndices(*result) if values_indices else tuple(result)
            return result if out is None else _copy_into(name, out, result)
        return fn(*args, **kwargs)

    return wrapper


def _wrap_scan(name, fn):
    """cumsum/cumprod with NumPy's calling convention as well: np.cumsum(t) calls
    t.cumsum(axis=None, dtype=None, out=None), and axis=None scans the flattened tensor."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if "axis" not in kwargs:
            return fn(*args, **kwargs)
        if "dim" in kwargs or len(args) > 1:
            raise TypeError(f"{name}: dim given twice (as dim and as axis)")
        axis = kwargs.pop("axis")
        self = args[0] if args else kwargs.pop("self")
        if axis is None:
            self, axis = self.reshape(-1), 0
        if kwargs.get("dtype") is None:
            kwargs.pop("dtype", None)
        else:
            kwargs["dtype"] = to_dtype(kwargs["dtype"])
        if "out" in kwargs and kwargs["out"] is None:
            del kwargs["out"]
        return fn(self, _dim(axis), **kwargs)

    return wrapper


def _wrap_index_scan(fn):
    """cummax/cummin: the generated pair as a (values, indices) named tuple (out= too)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return ValuesIndices(*fn(*args, **kwargs))

    return wrapper


def install(namespace: dict, tensor_type, functions: dict, methods: dict) -> None:
    """Replaces the generated functions in `namespace` and the methods of `tensor_type`."""
    for name in WRAPPED_OPS:
        # max/min with NumPy's axis= give the values alone, as amax/amin (and as NumPy does);
        # max(a, b) with a tensor b is maximum(a, b), as in PyTorch.
        amax = "a" + name if name in VALUES_INDICES_OPS else None
        binary = {"max": "maximum", "min": "minimum"}.get(name)
        if name in functions and namespace.get(name) is functions[name]:
            numpy_fn = _wrap(amax, functions[amax]) if amax else None
            namespace[name] = _wrap(name, functions[name], numpy_fn, functions.get(binary))
        if name in methods:
            numpy_fn = _wrap(amax, methods[amax]) if amax else None
            setattr(tensor_type, name, _wrap(name, methods[name], numpy_fn, methods.get(binary)))
    for name in SCAN_OPS:
        if name in functions and namespace.get(name) is functions[name]:
            namespace[name] = _wrap_scan(name, functions[name])
        if name in methods:
            setattr(tensor_type, name, _wrap_scan(name, methods[name]))
    for name in INDEX_SCAN_OPS:
        if name in functions and namespace.get(name) is functions[name]:
            namespace[name] = _wrap_index_scan(functions[name])
        if name in methods:
            setattr(tensor_type, name, _wrap_index_scan(methods[name]))
