"""PyTorch-style calling conventions for the generated reduction functions and methods.

* `dim` takes None, an int or a tuple/list of ints (the bindings take a list).
* max(t, dim) / min(t, dim) return a (values, indices) named tuple; var_mean/std_mean a tuple;
  max(a, b) / min(a, b) with a tensor b are maximum / minimum, as in PyTorch.
* The two-output forms take out=(first, second): the results are computed, then copied in.
* var/std/var_mean/std_mean take PyTorch's `unbiased` (True: correction=1, False: 0).
* NumPy's axis=, keepdims= and ddof= are taken for dim=, keepdim= and correction=, so NumPy's
  functions work on tensors (np.sum(t), np.std(t), np.argmax(t, axis=1)); an op without dtype=
  (var, std, ...) takes it as NumPy does, converting the input first. max/min called with axis=
  return the values alone (amax/amin), as NumPy's do; with dim= they keep PyTorch's pair.
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


class ValuesIndices(NamedTuple):
    """What max(t, dim) and min(t, dim) return, like torch.return_types.max."""
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
    """PyTorch's `unbiased` flag (a keyword, or a bool where dim goes) as `correction`."""
    unbiased = kwargs.pop("unbiased", None)
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
