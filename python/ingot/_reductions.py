"""PyTorch-style calling conventions for the generated reduction functions and methods.

* `dim` takes None, an int or a tuple/list of ints (the bindings take a list).
* max(t, dim) / min(t, dim) return a (values, indices) named tuple; var_mean/std_mean a tuple.
* The two-output forms take out=(first, second): the results are computed, then copied in.
"""
from __future__ import annotations

import functools
import inspect
from typing import NamedTuple

from ingot._dtype import to_dtype

# Reductions whose `dim` is a list of dims (argmax/argmin and max.dim take one int).
LIST_DIM_OPS = ("sum", "prod", "mean", "nansum", "nanmean", "amax", "amin", "any", "all", "logsumexp",
                "var", "std", "var_mean", "std_mean", "count_nonzero", "norm", "vector_norm")
VALUES_INDICES_OPS = ("max", "min")
TWO_OUTPUT_OPS = ("var_mean", "std_mean")


class ValuesIndices(NamedTuple):
    """What max(t, dim) and min(t, dim) return, like torch.return_types.max."""
    values: object
    indices: object


def _dims(dim):
    if dim is None or isinstance(dim, (list, tuple)):
        return None if dim is None else [int(d) for d in dim]
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(f"dim must be None, an int or a tuple of ints, not {type(dim).__name__}")
    return [dim.__index__()]


def _copy_into(name, out, results):
    if not isinstance(out, (tuple, list)) or len(out) != len(results):
        raise TypeError(f"{name}: out= takes a tuple of {len(results)} tensors for this form")
    for o, r in zip(out, results):
        if tuple(o.shape) != tuple(r.shape):
            raise ValueError(f"{name}: out tensor has shape {tuple(o.shape)} but the result has shape "
                             f"{tuple(r.shape)}")
        o.copy_(r)
    return type(results)(*out) if isinstance(results, ValuesIndices) else tuple(out)


def _wrap(name, fn):
    sig = inspect.signature(fn)
    list_dim = name in LIST_DIM_OPS

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        a = bound.arguments
        if list_dim and "dim" in a:
            a["dim"] = _dims(a["dim"])
        if a.get("dtype") is not None:
            a["dtype"] = to_dtype(a["dtype"])
        if name in VALUES_INDICES_OPS and a.get("dim") is not None:
            out = a.pop("out", None)
            result = ValuesIndices(*fn(*bound.args, **bound.kwargs))
            return result if out is None else _copy_into(name, out, result)
        if name in TWO_OUTPUT_OPS:
            out = a.pop("out", None)
            result = tuple(fn(*bound.args, **bound.kwargs))
            return result if out is None else _copy_into(name, out, result)
        return fn(*bound.args, **bound.kwargs)

    return wrapper


def install(namespace: dict, tensor_type, functions: dict, methods: dict) -> None:
    """Replaces the generated functions in `namespace` and the methods of `tensor_type`."""
    for name in LIST_DIM_OPS + VALUES_INDICES_OPS:
        if name in functions and namespace.get(name) is functions[name]:
            namespace[name] = _wrap(name, functions[name])
        if name in methods:
            setattr(tensor_type, name, _wrap(name, methods[name]))
