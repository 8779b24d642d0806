"""Array creation with NumPy-style signatures: asarray and the factory functions."""
from __future__ import annotations

import builtins
import operator

import numpy as np

from ingot import _C
from ingot._device import device
from ingot._dtype import BY_NAME, check_int64, numpy_dtype, to_dtype

Tensor = _C.Tensor
_CPU = device("cpu")


def _device(d) -> device:
    return _CPU if d is None else device(d)


def _shape(shape) -> tuple:
    if isinstance(shape, (builtins.int, np.integer)):
        return (operator.index(shape),)
    return tuple(operator.index(s) for s in shape)


def _default_dtype_for(value):
    """The dtype PyTorch gives a Python number: bool, int64 or the default float32."""
    if isinstance(value, (builtins.bool, np.bool_)):
        return BY_NAME["bool"]
    if isinstance(value, (builtins.int, np.integer)):
        return BY_NAME["int64"]
    return BY_NAME["float32"]


def _from_numpy(arr: np.ndarray, copy) -> Tensor:
    """Shares the array's memory when DLPack allows (writable, native order), else copies."""
    if arr.dtype.name == "bfloat16":  # an ml_dtypes array: move the bits through int16
        return _from_numpy(arr.view(np.int16), copy)._bitcast(BY_NAME["bfloat16"])
    if arr.dtype.name not in BY_NAME:
        raise TypeError(f"asarray: NumPy dtype {arr.dtype} has no ingot equivalent")
    if not arr.flags.writeable or not arr.dtype.isnative:
        if copy is False:
            raise ValueError("asarray: copy=False, but the NumPy array is read-only or byte-swapped")
        arr, copy = np.array(arr, dtype=arr.dtype.newbyteorder("=")), None
    return _C.from_dlpack(arr, copy=True if copy else None)


def _from_python(obj, dtype) -> Tensor:
    """Scalars and (nested) sequences: bool -> bool, int -> int64, float -> float32. Python ints
    the dtype cannot hold (2**63 for int64, 300 for uint8) raise OverflowError, as in NumPy 2."""
    arr = np.asarray(obj)
    if arr.dtype.kind == "c" or (arr.dtype.kind == "O" and dtype is not None):
        raise TypeError(f"asarray: cannot convert {type(obj).__name__} of {arr.dtype} values to a tensor")
    if dtype is None:
        # NumPy holds ints in [2**63, 2**64) as uint64 and larger ones as objects: both overflow int64.
        dtype = BY_NAME["bool"] if arr.dtype.kind == "b" else BY_NAME["int64"] if arr.dtype.kind in "iuO" \
            else BY_NAME["float32"] if arr.dtype.kind == "f" and arr.dtype.itemsize == 8 else to_dtype(arr.dtype)
    if dtype.name == "bfloat16":
        return _from_numpy(np.array(arr, dtype=np.float32), None).astype(dtype)
    try:  # from the Python values, not `arr`: NumPy then range-checks every int
        values = np.array(obj, dtype=numpy_dtype(dtype))
    except OverflowError as e:
        raise OverflowError(f"asarray: {e}") from None
    except (TypeError, ValueError) as e:
        raise TypeError(f"asarray: cannot convert {type(obj).__name__} of {arr.dtype} values to a tensor") from e
    return _from_numpy(values, None)


def asarray(obj, dtype=None, device=None, copy=None) -> Tensor:
    """An ingot.Tensor from a tensor, NumPy array, DLPack producer, Python scalar or nested list.

    Memory is shared with tensors, NumPy arrays and DLPack producers unless a copy is needed
    (dtype change, read-only source) or asked for (copy=True); copy=False forbids copying.
    """
    dtype = to_dtype(dtype)
    if device is not None and _device(device) != _CPU:
        # Built on the host (sharing memory where it can), then copied once to the device.
        if isinstance(obj, Tensor) or hasattr(obj, "__dlpack_device__"):
            src = obj if isinstance(obj, Tensor) else _C.from_dlpack(obj, copy=None)
            if src.device == _device(device):
                return asarray(src, dtype, copy=copy)
        if copy is False:
            raise ValueError(f"asarray: moving the data to {device} needs a copy, but copy=False")
        return asarray(obj, dtype).to(_device(device))
    if isinstance(obj, Tensor):
        t = obj
    elif isinstance(obj, (np.ndarray, np.generic)):  # NumPy values keep their dtype
        t = _from_numpy(np.asarray(obj), copy)
        copy = None if copy else copy
    elif hasattr(obj, "__dlpack__"):
        t = _C.from_dlpack(obj, copy=copy)
        copy = None if copy else copy
    elif isinstance(obj, (builtins.bool, builtins.int, builtins.float, list, tuple)):
        return _from_python(obj, dtype)
    else:
        return _from_numpy(np.asarray(obj), copy) if dtype is None else asarray(np.asarray(obj), dtype, copy=copy)
    if dtype is not None and dtype != t.dtype:
        if copy is False:
            raise ValueError(f"asarray: converting {t.dtype} to {dtype} needs a copy, but copy=False")
        return t.astype(dtype)
    return t.clone() if copy else t


def tensor(data, dtype=None, device=None) -> Tensor:
    """PyTorch's constructor: always a copy of data (asarray with copy=True), with the same
    default dtypes (float32 for Python floats, int64 for ints)."""
    return asarray(data, dtype=dtype, device=device, copy=True)


def from_numpy(arr) -> Tensor:
    """A tensor sharing the NumPy array's memory (PyTorch's from_numpy); raises where sharing
    is impossible (a read-only or byte-swapped array, a dtype ingot lacks)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, got {type(arr).__name__}")
    return asarray(arr, copy=False)


def _is_size(x) -> bool:
    return isinstance(x, (builtins.int, np.integer)) and not isinstance(x, (builtins.bool, np.bool_))


def _factory(name, shape, rest, dtype, device):
    """(shape, dtype, device) of empty/zeros/ones: NumPy's zeros(shape, dtype, device) and
    PyTorch's zeros(2, 3) (sizes as separate ints)."""
    if rest and _is_size(shape) and all(_is_size(r) for r in rest):
        return (operator.index(shape), *(operator.index(r) for r in rest)), dtype, device
    if len(rest) > 2:
        raise TypeError(f"{name}: takes a shape, then at most dtype and device; got {1 + len(rest)} positional "
                        "arguments (sizes as separate arguments must all be ints)")
    if rest:
        if dtype is not None:
            raise TypeError(f"{name}: dtype given twice")
        dtype = rest[0]
    if len(rest) == 2:
        if device is not None:
            raise TypeError(f"{name}: device given twice")
        device = rest[1]
    return _shape(shape), dtype, device


def empty(shape, *rest, dtype=None, device=None) -> Tensor:
    """Uninitialized: empty((2, 3)), empty(2, 3) or empty((2, 3), dtype, device); float32 by default."""
    shape, dtype, device = _factory("empty", shape, rest, dtype, device)
    return _C.empty(shape, to_dtype(dtype) or BY_NAME["float32"], _device(device))


def zeros(shape, *rest, dtype=None, device=None) -> Tensor:
    """zeros((2, 3)), zeros(2, 3) or zeros((2, 3), dtype, device); float32 by default."""
    shape, dtype, device = _factory("zeros", shape, rest, dtype, device)
    return _C.zeros(shape, to_dtype(dtype) or BY_NAME["float32"], _device(device))


def ones(shape, *rest, dtype=None, device=None) -> Tensor:
    """ones((2, 3)), ones(2, 3) or ones((2, 3), dtype, device); float32 by default."""
    shape, dtype, device = _factory("ones", shape, rest, dtype, device)
    return _C.ones(shape, to_dtype(dtype) or BY_NAME["float32"], _device(device))


def full(shape, fill_value, dtype=None, device=None) -> Tensor:
    """A tensor of shape filled with fill_value; the dtype defaults to the value's (bool, int64 or float32)."""
    check_int64("full", "fill_value", fill_value)
    return _C.full(_shape(shape), fill_value, to_dtype(dtype) or _default_dtype_for(fill_value), _device(device))


def arange(start, stop=None, step=1, *, dtype=None, device=None) -> Tensor:
    """Values from start (default 0) up to, not including, stop: int64 for integer bounds, else float32."""
    if stop is None:
        start, stop = 0, start
    for name, value in (("start", start), ("end", stop), ("step", step)):
        check_int64("arange", name, value)
    return _C.arange(start, stop, step, to_dtype(dtype), _device(device))


def linspace(start, stop, num=50, *, endpoint=True, dtype=None, device=None) -> Tensor:
    """num evenly spaced values from start to stop (stop included unless endpoint=False); float32 by default."""
    dtype = to_dtype(dtype) or BY_NAME["float32"]
    if endpoint:
        return _C.linspace(start, stop, num, dtype, _device(device))
    return _C.linspace(start, stop, num + 1, dtype, _device(device))[:num]


def eye(N, M=None, k=0, *, dtype=None, device=None) -> Tensor:
    """An N x M (M defaults to N) tensor with ones on diagonal k (0 the main one, > 0 above it) and zeros elsewhere."""
    dtype = to_dtype(dtype) or BY_NAME["float32"]
    if k == 0:
        return _C.eye(N, M, dtype, _device(device))
    t = _C.zeros((N, N if M is None else M), dtype, _device(device))
    t.diagonal(k).fill_(1)
    return t


def _like(a) -> Tensor:
    return a if isinstance(a, Tensor) else asarray(a)


def empty_like(a, dtype=None, device=None) -> Tensor:
    """Uninitialized, with a's shape, and its dtype and device unless given."""
    return _C.empty_like(_like(a), to_dtype(dtype), None if device is None else _device(device))


def zeros_like(a, dtype=None, device=None) -> Tensor:
    """Zeros with a's shape, and its dtype and device unless given."""
    return _C.zeros_like(_like(a), to_dtype(dtype), None if device is None else _device(device))


def ones_like(a, dtype=None, device=None) -> Tensor:
    """Ones with a's shape, and its dtype and device unless given."""
    return _C.ones_like(_like(a), to_dtype(dtype), None if device is None else _device(device))


def full_like(a, fill_value, dtype=None, device=None) -> Tensor:
    """fill_value with a's shape, and its dtype and device unless given."""
    check_int64("full_like", "fill_value", fill_value)
    return _C.full_like(_like(a), fill_value, to_dtype(dtype), None if device is None else _device(device))


def _sizes(shape) -> tuple:
    """rand(2, 3) and rand((2, 3)) both work, as in PyTorch."""
    return _shape(shape[0]) if len(shape) == 1 and not isinstance(shape[0], builtins.int) else _shape(shape)


def rand(*shape, dtype=None, device=None) -> Tensor:
    """Uniform [0, 1) samples from the default Philox generator."""
    return _C.rand(_sizes(shape), to_dtype(dtype) or BY_NAME["float32"], _device(device))


def randn(*shape, dtype=None, device=None) -> Tensor:
    """Standard normal samples from the default Philox generator."""
    return _C.randn(_sizes(shape), to_dtype(dtype) or BY_NAME["float32"], _device(device))


def randint(low, high=None, size=(), *, dtype=None, device=None) -> Tensor:
    """Integers in [low, high) (in [0, low) when high is None), as numpy.random.randint."""
    if high is None:
        low, high = 0, low
    check_int64("randint", "low", low)
    check_int64("randint", "high", high)
    return _C.randint(low, high, _shape(size), to_dtype(dtype) or BY_NAME["int64"], _device(device))


def manual_seed(seed: int) -> None:
    """Resets the default generator: the same seed gives the same numbers on every backend."""
    _C.manual_seed(seed)


def from_dlpack(x, *, device=None, copy=None) -> Tensor:
    """Wraps any DLPack producer (or capsule) without copying, unless copy=True."""
    if device is not None and _device(device) != _CPU:
        raise NotImplementedError(f"from_dlpack: device={device} is not available yet")
    return _C.from_dlpack(x, copy=copy)


__all__ = ["asarray", "empty", "zeros", "ones", "full", "arange", "linspace", "eye", "empty_like",
           "zeros_like", "ones_like", "full_like", "rand", "randn", "randint", "manual_seed", "from_dlpack"]
