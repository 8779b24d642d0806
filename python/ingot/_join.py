"""Joining tensors: cat (also concat and NumPy's concatenate) and stack. Composites of empty and
copy_ into slices of the result, so they run on every backend and every dtype; the result's dtype
is the promotion of the inputs' (PyTorch's promote_types), and every input must be on one device
(array-likes are converted onto the first tensor's)."""
from __future__ import annotations

import operator

from ingot import _C
from ingot._creation import asarray, empty

Tensor = _C.Tensor


def _check_tensors(name: str, tensors) -> list:
    if isinstance(tensors, Tensor) or not hasattr(tensors, "__iter__"):
        raise TypeError(f"{name}: expected a sequence of tensors, got {type(tensors).__name__}")
    ts = list(tensors)
    if not ts:
        raise ValueError(f"{name}: expected a non-empty sequence of tensors")
    # Array-likes (NumPy arrays, lists, numbers) are converted with asarray, as the generated ops
    # do, onto the device of the first tensor among the inputs.
    first = next((t for t in ts if isinstance(t, Tensor)), None)
    for i, t in enumerate(ts):
        if not isinstance(t, Tensor):
            try:
                ts[i] = asarray(t, device=None if first is None else first.device)
            except (TypeError, ValueError) as e:
                raise TypeError(f"{name}: tensors[{i}] ({type(t).__name__}) is not a tensor and does not "
                                f"convert to one: {e}") from None
    dev = ts[0].device
    for i, t in enumerate(ts[1:], 1):
        if t.device != dev:
            raise ValueError(f"{name}: tensors[{i}] is on {t.device}, tensors[0] on {dev}: every input must be "
                             "on one device")
    return ts


def _normalize_dim(name: str, dim, ndim: int) -> int:
    d = operator.index(dim)
    if not -ndim <= d < ndim:
        raise IndexError(f"{name}: dim {dim} is out of range for tensors of {ndim} dims")
    return d % ndim


def _result_dtype(ts):
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = _C.promote_types(dt, t.dtype)
    return dt


def _write(name: str, out, shape: tuple, dtype, device):
    """The result tensor: out (checked) or a new one."""
    if out is None:
        return empty(shape, dtype=dtype, device=device)
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}: out must be a Tensor, got {type(out).__name__}")
    if tuple(out.shape) != shape:
        raise ValueError(f"{name}: out has shape {tuple(out.shape)} but the result has shape {shape}")
    if out.device != device:
        raise ValueError(f"{name}: out is on {out.device}, the inputs on {device}")
    if not _C.can_cast(dtype, out.dtype):
        raise TypeError(f"{name}: result type {dtype} can't be cast to the desired output type {out.dtype}")
    return out


def cat(tensors, dim=0, *, out=None):
    """The tensors joined along an existing dim. Shapes must match except along dim; a 1-dim
    tensor of size 0 is skipped beside tensors of more dims (as PyTorch does)."""
    ts = _check_tensors("cat", tensors)
    legacy_empty = [t.ndim == 1 and t.shape[0] == 0 for t in ts]
    full = [t for t, skip in zip(ts, legacy_empty) if not skip] or ts[:1]
    ref = full[0]
    for i, t in enumerate(ts):
        if t.ndim == 0:
            raise ValueError(f"cat: tensors[{i}] is zero-dimensional and cannot be concatenated (use stack)")
    d = _normalize_dim("cat", dim, ref.ndim)
    for i, t in enumerate(ts):
        if not legacy_empty[i] and t.ndim != ref.ndim:
            raise ValueError(f"cat: tensors[{i}] has {t.ndim} dims, another has {ref.ndim}")
    for t in full:
        for k in range(ref.ndim):
            if k != d and t.shape[k] != ref.shape[k]:
                raise ValueError(f"cat: sizes must match except in dim {d}: got {t.shape[k]} and {ref.shape[k]} in "
                                 f"dim {k} (shapes {tuple(t.shape)} and {tuple(ref.shape)})")
    shape = tuple(ref.shape[:d]) + (sum(t.shape[d] for t in full),) + tuple(ref.shape[d + 1:])
    result = _write("cat", out, shape, _result_dtype(ts), ref.device)
    for t in full:
        if result._is_view_of(t):
            raise ValueError("cat: out overlaps an input in memory; pass a separate out")
    at = 0
    for t in full:
        n = t.shape[d]
        if n:
            result.slice(d, at, at + n).copy_(t)
        at += n
    return result


def stack(tensors, dim=0, *, out=None):
    """The tensors (all of one shape) joined along a new dim."""
    ts = _check_tensors("stack", tensors)
    shape0 = tuple(ts[0].shape)
    for i, t in enumerate(ts[1:], 1):
        if tuple(t.shape) != shape0:
            raise ValueError(f"stack: every tensor must have one shape: tensors[{i}] is {tuple(t.shape)}, "
                             f"tensors[0] {shape0}")
    d = _normalize_dim("stack", dim, len(shape0) + 1)
    shape = shape0[:d] + (len(ts),) + shape0[d:]
    result = _write("stack", out, shape, _result_dtype(ts), ts[0].device)
    for t in ts:
        if result._is_view_of(t):
            raise ValueError("stack: out overlaps an input in memory; pass a separate out")
    for i, t in enumerate(ts):
        result.select(d, i).copy_(t)
    return result


def concatenate(arrays, axis=0, *, out=None):
    """NumPy's name for cat (axis=None joins the flattened inputs)."""
    if axis is None:
        return cat([a.reshape(-1) for a in _check_tensors("concatenate", arrays)], 0, out=out)
    return cat(arrays, axis, out=out)


concat = cat
