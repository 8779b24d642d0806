"""Tensor.__getitem__ / __setitem__ with NumPy semantics.

Basic indices (ints, slices with any step, Ellipsis, None) make views through Tensor.select,
slice and unsqueeze. Advanced indices (integer tensors, lists or arrays; boolean masks, which
stand for their nonzero() columns) run on the tensor's device through the index ops: the basic
part makes a view, the advanced dims are permuted to the front, and ingot.index / index_put_
read or write through them. Where the advanced dims land follows NumPy: in place when they are
adjacent in the key, first otherwise. Python ints beside advanced indices count as advanced, as
in NumPy. Out-of-range indices raise IndexError on the CPU and AcceleratorError (at the next
synchronization) on CUDA.
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
    consumed = _key_ndim(key)
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
            t = _select_int(t, dim, k)
    return t


def _select_int(t, dim: int, k):
    """t indexed by the integer k along dim (negative counts from the end), that dim removed."""
    i = operator.index(k)
    n = t.shape[dim]
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {n}")
    return t.select(dim, i + n if i < 0 else i)


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


def _ops():
    from ingot import _generated_ops
    return _generated_ops


def _index_tensor(k, device) -> Tensor:
    """An advanced index as an int64/int32/bool tensor on `device`."""
    if not isinstance(k, Tensor):
        arr = np.asarray(k)
        if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.integer):
            if arr.size == 0:
                arr = arr.astype(np.int64)
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and integer or "
                                 f"boolean arrays are valid indices, got an array of {arr.dtype}")
        if arr.dtype == np.uint64 or (np.issubdtype(arr.dtype, np.integer) and arr.dtype.itemsize < 4):
            arr = arr.astype(np.int64)
        from ingot._creation import asarray
        return asarray(np.ascontiguousarray(arr), device=device)
    if k.dtype not in (BY_NAME["int64"], BY_NAME["int32"], BY_NAME["bool"]):
        if k.dtype.is_floating_point:
            raise IndexError(f"tensors used as indices must be integer or bool tensors, got {k.dtype}")
        k = k.astype(BY_NAME["int64"])
    return k if k.device == device else k.to(device)


def _advanced(t: Tensor, key: tuple, consumed: int):
    """The view made by the basic indices of `key`, and [(dim of that view, index tensor)] for
    each advanced one (a mask already split into its nonzero() columns)."""
    has_advanced = any(_is_advanced(k) for k in key)
    entries = []
    dim = 0
    for k in key:
        if k is None or k is True or (isinstance(k, np.bool_) and k):
            t = t.unsqueeze(dim)
            dim += 1
        elif k is False or (isinstance(k, np.bool_) and not k):
            t = t.unsqueeze(dim).slice(dim, 0, 0)
            dim += 1
        elif k is Ellipsis:
            dim += t.ndim - dim - (consumed - _consumed_before(key, k)) - _extra_mask_dims(key, k)
        elif isinstance(k, slice):
            t = t.slice(dim, k.start, k.stop, 1 if k.step is None else k.step)
            dim += 1
        elif _is_advanced(k) or (has_advanced and not isinstance(k, Tensor)):
            ix = _index_tensor(k, t.device)
            if ix.dtype == BY_NAME["bool"]:
                if ix.ndim == 0:
                    raise IndexError("0-dimensional boolean tensor indices are not supported")
                for d in builtins.range(ix.ndim):
                    if ix.shape[d] != t.shape[dim + d]:
                        raise IndexError(f"boolean index did not match indexed tensor along dimension "
                                         f"{dim + d}; dimension is {t.shape[dim + d]} but corresponding "
                                         f"boolean dimension is {ix.shape[d]}")
                columns = _ops().nonzero(ix)
                for d in builtins.range(ix.ndim):
                    entries.append((dim + d, columns.select(1, d)))
                dim += ix.ndim
            else:
                entries.append((dim, ix))
                dim += 1
        else:
            t = _select_int(t, dim, k)
    return t, entries


def _extra_mask_dims(key: tuple, ellipsis) -> int:
    """Dims consumed beyond one by the masks after the ellipsis."""
    after = key[key.index(ellipsis) + 1:] if ellipsis in key else ()
    return sum(k.ndim - 1 for k in after if _is_mask(k))


def _is_mask(k) -> bool:
    if isinstance(k, Tensor):
        return k.dtype == BY_NAME["bool"] and k.ndim > 0
    return isinstance(k, np.ndarray) and k.dtype == np.bool_ and k.ndim > 0


def _front(v: Tensor, entries):
    """v with the advanced dims first (in key order), the index tensors, and where NumPy puts the
    broadcast index dims in the result (the first advanced dim when they are adjacent, else 0)."""
    dims = [d for d, _ in entries]
    rest = [d for d in builtins.range(v.ndim) if d not in dims]
    adjacent = dims == list(builtins.range(dims[0], dims[0] + len(dims)))
    return v.permute(dims + rest), [ix for _, ix in entries], (dims[0] if adjacent else 0)


def _move_dims(t: Tensor, start: int, count: int, to: int) -> Tensor:
    """t with dims [start, start + count) moved to position `to` (of the other dims' order)."""
    if start == to:
        return t
    moved = list(builtins.range(start, start + count))
    others = [d for d in builtins.range(t.ndim) if d not in moved]
    return t.permute(others[:to] + moved + others[to:])


def _key_ndim(key: tuple) -> int:
    return sum((k.ndim if _is_mask(k) else 1) for k in key
               if k is not None and k is not Ellipsis and not isinstance(k, (builtins.bool, np.bool_)))


def getitem(t: Tensor, key):
    key = key if isinstance(key, tuple) else (key,)
    key, consumed = _expand_key(t, key)
    if not any(_is_advanced(k) for k in key):
        return _basic(t, key, consumed)
    v, entries = _advanced(t, key, _key_ndim(key))
    if not entries:
        return v.clone()
    w, indices, position = _front(v, entries)
    r = _ops().index(w, indices)
    nb = r.ndim - (w.ndim - len(indices))
    return _move_dims(r, 0, nb, position)


def setitem(t: Tensor, key, value) -> None:
    from ingot._creation import asarray
    key = key if isinstance(key, tuple) else (key,)
    key, consumed = _expand_key(t, key)
    check_int64("__setitem__", "value", value)
    if any(_is_advanced(k) for k in key):
        v, entries = _advanced(t, key, _key_ndim(key))
        if isinstance(value, Tensor):
            source = value if value.dtype == t.dtype else value.astype(t.dtype)
            if source.device != t.device:
                source = source.to(t.device)
        else:
            source = asarray(value, dtype=t.dtype, device=t.device)
        if not entries:
            v.copy_(source)
            return
        w, indices, position = _front(v, entries)
        if source.ndim:
            try:
                bshape = tuple(np.broadcast_shapes(*(tuple(ix.shape) for ix in indices)))
            except ValueError:
                raise IndexError("shape mismatch: indexing tensors could not be broadcast together") from None
            rest = tuple(w.shape[len(indices):])
            nb = len(bshape)
            numpy_order = rest[:position] + bshape + rest[position:]
            source = _move_dims(source.broadcast_to(numpy_order), position, nb, 0)
        w.index_put_(indices, source)
        return
    view = _basic(t, key, consumed)
    if isinstance(value, (builtins.bool, builtins.int, builtins.float, np.generic)):
        view.fill_(value.item() if isinstance(value, np.generic) else value)
    else:
        view.copy_(value if isinstance(value, Tensor) else asarray(value))
