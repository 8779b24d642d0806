"""dtype helpers: normalizing user dtype arguments, NumPy equivalents, finfo and iinfo."""
from __future__ import annotations

import builtins
import functools

import numpy as np

from ingot import _C



class dtype:
    """An ingot dtype (ingot.float32, ...): one instance per type, equal to itself and its name.

    Plain Python objects, owned by the extension for the life of the process: another library
    holding one at interpreter exit is not a leak (nanobind would report its own instances)."""

    __slots__ = ("_name", "_itemsize", "_kind", "_is_floating_point")

    def __init__(self, name: str, itemsize: int, kind: str, is_floating_point: bool):
        self._name, self._itemsize, self._kind, self._is_floating_point = name, itemsize, kind, is_floating_point

    name = property(lambda self: self._name)
    itemsize = property(lambda self: self._itemsize)
    kind = property(lambda self: self._kind, doc="'b', 'u', 'i' or 'f', as numpy.dtype.kind")
    is_floating_point = property(lambda self: self._is_floating_point)

    def __repr__(self):
        return f"ingot.{self._name}"

    def __str__(self):
        return self._name

    def __eq__(self, other):
        if isinstance(other, str):
            return self._name == other
        return self is other

    def __hash__(self):  # equal to its name, so hashes like it (NumPy dtypes do the same)
        return hash(self._name)


_ALL = tuple(dtype(*row) for row in _C._dtype_table())
_C._register_dtypes(_ALL)
BY_NAME = {d.name: d for d in _ALL}
NAMES = tuple(BY_NAME)
_PYTHON_TYPES = {builtins.bool: "bool", builtins.int: "int64", builtins.float: "float64"}


@functools.cache
def ml_dtypes():
    """The optional ml_dtypes package (NumPy's bfloat16 dtype), or None without it: imported on
    first use (a bfloat16 tensor converted to NumPy), since its import takes most of a second
    (registering its types with NumPy) and most programs never need it. A user's own
    `import ml_dtypes`, before or after ingot's, needs nothing from ingot: arrays of its bfloat16 are
    recognized by dtype name."""
    try:
        import ml_dtypes as module
    except ImportError:  # pragma: no cover - exercised only without ml_dtypes
        return None
    return module


_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1


def check_int64(op, name, value):
    """A Python int beyond int64, ingot's widest integer, is an OverflowError naming the op and the
    argument (NumPy 2 and PyTorch refuse it too), never a silent wrap or an unrelated TypeError."""
    if isinstance(value, int) and not isinstance(value, bool) and not _INT64_MIN <= value <= _INT64_MAX:
        raise OverflowError(f"{op}: Python int {value} (argument '{name}') is out of range for int64, "
                            "ingot's widest integer type")


def to_dtype(x) -> dtype | None:
    """An ingot.dtype from an ingot.dtype, a name, a NumPy dtype/type or bool/int/float."""
    if x is None or isinstance(x, dtype):
        return x
    if isinstance(x, str) and x in BY_NAME:
        return BY_NAME[x]
    if x in _PYTHON_TYPES:
        return BY_NAME[_PYTHON_TYPES[x]]
    try:
        name = np.dtype(x).name
    except TypeError:
        name = None
    if name in BY_NAME:
        return BY_NAME[name]
    raise TypeError(f"ingot: cannot interpret {x!r} as an ingot dtype (one of {', '.join(NAMES)})")


def numpy_dtype(t: dtype) -> np.dtype:
    """The NumPy dtype holding the same values; bfloat16 needs ml_dtypes."""
    if t.name == "bfloat16":
        if ml_dtypes() is None:
            raise TypeError("ingot: bfloat16 tensors need the ml_dtypes package to convert to NumPy")
        return np.dtype(ml_dtypes().bfloat16)
    return np.dtype(t.name)


class finfo:
    """Machine limits of a floating dtype, as numpy.finfo."""

    # bfloat16: 8 exponent bits like float32, 7 stored mantissa bits.
    _BFLOAT16 = dict(bits=16, eps=2.0 ** -7, max=3.3895313892515355e38, smallest_normal=2.0 ** -126,
                     smallest_subnormal=2.0 ** -133, resolution=0.01)

    def __init__(self, dtype):
        self.dtype = to_dtype(dtype)
        if self.dtype is None or not self.dtype.is_floating_point:
            raise TypeError(f"finfo: {dtype!r} is not a floating dtype")
        if self.dtype.name == "bfloat16":
            v = self._BFLOAT16
        else:
            f = np.finfo(self.dtype.name)
            v = dict(bits=f.bits, eps=float(f.eps), max=float(f.max), smallest_normal=float(f.smallest_normal),
                     smallest_subnormal=float(f.smallest_subnormal), resolution=float(f.resolution))
        self.bits = v["bits"]
        self.eps = v["eps"]
        self.max = v["max"]
        self.min = -v["max"]
        self.smallest_normal = self.tiny = v["smallest_normal"]
        self.smallest_subnormal = v["smallest_subnormal"]
        self.resolution = v["resolution"]

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, eps={self.eps}, "
                f"smallest_normal={self.smallest_normal}, bits={self.bits}, dtype={self.dtype})")


class iinfo:
    """Limits of an integer dtype, as numpy.iinfo."""

    def __init__(self, dtype):
        self.dtype = to_dtype(dtype)
        if self.dtype is None or self.dtype.kind not in "iu":
            raise TypeError(f"iinfo: {dtype!r} is not an integer dtype")
        i = np.iinfo(self.dtype.name)
        self.bits, self.min, self.max = i.bits, int(i.min), int(i.max)

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"
