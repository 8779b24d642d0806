"""dtype helpers: normalizing user dtype arguments, NumPy equivalents, finfo and iinfo."""
from __future__ import annotations

import builtins

import numpy as np

from ingot import _C

NAMES = ("bool", "uint8", "int8", "int16", "int32", "int64",
         "float16", "bfloat16", "float32", "float64")
BY_NAME = {n: getattr(_C, n) for n in NAMES}
_PYTHON_TYPES = {builtins.bool: "bool", builtins.int: "int64", builtins.float: "float64"}

try:  # optional: gives NumPy a real bfloat16 dtype
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - exercised only without ml_dtypes
    _ml_dtypes = None


def to_dtype(x) -> _C.dtype | None:
    """An ingot.dtype from an ingot.dtype, a name, a NumPy dtype/type or bool/int/float."""
    if x is None or isinstance(x, _C.dtype):
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


def numpy_dtype(dtype: _C.dtype) -> np.dtype:
    """The NumPy dtype holding the same values; bfloat16 needs ml_dtypes."""
    if dtype.name == "bfloat16":
        if _ml_dtypes is None:
            raise TypeError("ingot: bfloat16 tensors need the ml_dtypes package to convert to NumPy")
        return np.dtype(_ml_dtypes.bfloat16)
    return np.dtype(dtype.name)


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
