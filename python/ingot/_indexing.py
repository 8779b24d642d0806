"""Tensor.__getitem__ / __setitem__ with NumPy semantics.

Basic indices (ints, slices with any step, Ellipsis, None) make views through Tensor.select,
slice and unsqueeze. Advanced indices (boolean masks, integer arrays) have no gather op yet, so
they run through NumPy on a zero-copy view of the tensor's memory (CPU only).
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from ingot import _C
from ingot._dtype import BY_NAME, check_int64

Tensor = _C.Tensor


def _is_advanced(k) -> bool:
    if isinstance(k, Tensor):
        return k.ndim > 0 or k.dtype == BY_NAME["bool"]
    return isinstance(k, (list, np.ndarray, builtins.bool, np.bool_))


def _expand_key(t: Tensor, key) -> tuple:
    key = key if isinstance(key, tuple) else (key,)
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if consumed > t.ndim:
        raise IndexError(f"too many indices for tensor: tensor is {t.ndim}-dimensional, "
                         f"but {consumed} were indexed")
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    return key, consumed


def _basic(t: Tensor, key: tuple, consumed: int) -> Tensor:
    dim = 0
    for k in key:
        if k is None:
            t = t.unsqueeze(dim)
            dim += 1
        elif k is Ellipsis:
            dim += t.ndim - dim - (consumed - _consumed_before(key, k))
        elif isinstance(k, slice):
            t = t.slice(dim, k.start, k.stop, 1 if k.step is None else k.step)
            dim += 1
        else:
            i = operator.index(k)
            n = t.shape[dim]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {n}")
            t = t.select(dim, i + n if i < 0 else i)
    return t


def _consumed_before(key: tuple, ellipsis) -> int:
    count = 0
    for k in key:
        if k is ellipsis:
            return count
        if k is not None:
            count += 1
    return count


def raw_numpy(t: Tensor) -> np.ndarray:
    """A NumPy view of the tensor's memory with a dtype of the same size (bfloat16 as int16)."""
    if t.dtype == BY_NAME["bfloat16"]:
        t = t._bitcast(BY_NAME["int16"])
    return np.from_dlpack(t)


def _numpy_key(key: tuple) -> tuple:
    return tuple(raw_numpy(k) if isinstance(k, Tensor) else k for k in key)


def getitem(t: Tensor, key):
    key, consumed = _expand_key(t, key)
    if not any(_is_advanced(k) for k in key):
        return _basic(t, key, consumed)
    result = np.ascontiguousarray(raw_numpy(t)[_numpy_key(key)])
    out = _C.from_dlpack(result)
    return out._bitcast(t.dtype) if out.dtype != t.dtype else out


def setitem(t: Tensor, key, value) -> None:
    from ingot._creation import asarray
    key, consumed = _expand_key(t, key)
    if any(_is_advanced(k) for k in key):
        source = asarray(value, dtype=t.dtype)
        raw_numpy(t)[_numpy_key(key)] = raw_numpy(source)
        return
    view = _basic(t, key, consumed)
    check_int64("__setitem__", "value", value)
    if isinstance(value, (builtins.bool, builtins.int, builtins.float, np.generic)):
        view.fill_(value.item() if isinstance(value, np.generic) else value)
    else:
        view.copy_(value if isinstance(value, Tensor) else asarray(value))

