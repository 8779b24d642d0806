"""Python-level Tensor behaviour: NumPy conversion, repr, the number protocol, indexing, and the
operators, each routed by name to a generated op so it starts working when the op is declared."""
from __future__ import annotations

import numpy as np

from ingot import _C, _generated_ops
from ingot._convert import as_tensor
from ingot._device import device as _device
from ingot._dtype import BY_NAME, check_int64, ml_dtypes, to_dtype
from ingot._indexing import getitem, raw_numpy, setitem

Tensor = _C.Tensor
_BF16 = BY_NAME["bfloat16"]


def numpy(self) -> np.ndarray:
    """A NumPy array sharing this tensor's memory (bfloat16 needs ml_dtypes); a device tensor is
    copied to the host first (which waits for the device)."""
    if not self.device == "cpu":
        return numpy(self.to("cpu"))
    if self.dtype == _BF16:
        if ml_dtypes() is None:
            raise TypeError("numpy: bfloat16 tensors need the ml_dtypes package")
        return raw_numpy(self).view(ml_dtypes().bfloat16)
    return np.from_dlpack(self)


def _values(self) -> np.ndarray:
    """A NumPy array of the values, bfloat16 widened to float32 (for printing and tolist)."""
    if not self.device == "cpu":
        return _values(self.to("cpu"))
    if self.dtype == _BF16:
        return (raw_numpy(self).astype(np.int32) << 16).astype(np.uint32).view(np.float32)
    return np.from_dlpack(self)


def __array__(self, dtype=None, copy=None):
    """NumPy's array protocol: shares host memory; copy=False raises ValueError where a copy is
    needed (a device tensor, a dtype change), as NumPy's own copy=False does."""
    if copy is False and not self.device == "cpu":
        raise ValueError(f"__array__: copy=False, but the tensor is on {self.device}: reaching it from "
                         "NumPy copies it to the host")
    arr = numpy(self)
    if dtype is not None and np.dtype(dtype) != arr.dtype:
        if copy is False:
            raise ValueError(f"__array__: copy=False, but converting {arr.dtype} to {np.dtype(dtype)} copies")
        return arr.astype(dtype)
    return arr.copy() if copy else arr


def tolist(self):
    """The values as (nested) Python lists of numbers; a 0-dim tensor gives a number."""
    return _values(self).tolist()


# NumPy prints dtypes except its defaults; ingot's defaults are float32, int64 and bool.
_IMPLIED_DTYPES = ("float32", "int64", "bool")


def __repr__(self):
    prefix = "tensor("
    values = _values(self)
    if values.size == 0 and values.ndim > 1:
        text = f"[], shape={self.shape}"
    else:
        text = np.array2string(values, separator=", ", prefix=prefix, threshold=1000)
    if self.dtype.name not in _IMPLIED_DTYPES or values.size == 0:
        text += f", dtype={self.dtype}"
    if not self.device == "cpu":
        text += f", device='{self.device}'"
    return prefix + text + ")"


def __str__(self):
    return np.array2string(_values(self), threshold=1000)


def __format__(self, spec):
    """A 0-dim tensor formats as its value (f"{t:.3f}"); others only with an empty spec."""
    if self.ndim == 0:
        return format(self.item(), spec)
    if not spec:
        return str(self)
    raise TypeError(f"format: spec {spec!r} needs a 0-dim tensor, got {self.ndim} dims (shape {self.shape})")


def _rebuild(values: np.ndarray, dtype_name: str, device_name: str):
    """Unpickles a tensor (see __reduce__)."""
    from ingot._creation import asarray
    t = asarray(values)
    if dtype_name == "bfloat16":
        t = t._bitcast(_BF16)
    return t if device_name == "cpu" else t.to(device_name)


def __reduce__(self):
    """Pickles the values (a contiguous copy; bfloat16 as its bits), the dtype and the device:
    pickle, copy.copy and multiprocessing work, and the copy is a new tensor."""
    host = self if self.device == "cpu" else self.to("cpu")
    return (_rebuild, (np.array(raw_numpy(host), order="C"), self.dtype.name, str(self.device)))


def __deepcopy__(self, memo):
    return self.clone()


def _one_element(self, what: str):
    if self.size != 1:
        raise ValueError(f"{what}: only a one-element tensor converts to a Python scalar, "
                         f"got shape {self.shape}")
    return self.item()


def __bool__(self):
    if self.size != 1:
        raise ValueError(f"the truth value of a tensor with {self.size} elements is ambiguous; "
                         "use .any() or .all()")
    return bool(self.item())


def __int__(self):
    return int(_one_element(self, "int()"))


def __float__(self):
    return float(_one_element(self, "float()"))


def __index__(self):
    if self.dtype.kind not in "iu":
        raise TypeError(f"only integer tensors of one element can be used as an index, got {self.dtype}")
    return int(_one_element(self, "__index__"))


def __len__(self):
    if self.ndim == 0:
        raise TypeError("len() of a 0-d tensor")
    return self.shape[0]


def __iter__(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self.select(0, i) for i in range(self.shape[0]))


# Operator -> (op name, symbol). Reflected and in-place forms use the same op.
_BINARY = {
    "add": ("add", "+"), "sub": ("sub", "-"), "mul": ("mul", "*"), "truediv": ("div", "/"),
    "floordiv": ("floor_divide", "//"), "mod": ("remainder", "%"), "pow": ("pow", "**"),
    "matmul": ("matmul", "@"), "and": ("bitwise_and", "&"), "or": ("bitwise_or", "|"),
    "xor": ("bitwise_xor", "^"), "lshift": ("bitwise_left_shift", "<<"),
    "rshift": ("bitwise_right_shift", ">>"),
}
_COMMUTATIVE = {"add", "mul", "and", "or", "xor"}
_COMPARISON = {"eq": ("eq", "=="), "ne": ("ne", "!="), "lt": ("lt", "<"), "le": ("le", "<="),
               "gt": ("gt", ">"), "ge": ("ge", ">=")}
_UNARY = {"neg": ("neg", "-"), "pos": ("positive", "+"), "abs": ("abs", "abs()"), "invert": ("bitwise_not", "~")}


def _missing(op: str, symbol: str):
    # TypeError, as Python raises for operand types an operator does not support.
    def raise_missing(*args, **kwargs):
        raise TypeError(f"ingot.Tensor: operator {symbol} is not supported: {op} is not provided by ingot "
                        f"yet (no op '{op}' in ops/ops.yaml)")
    raise_missing.__name__ = f"missing_{op}"
    return raise_missing


def _op(name: str):
    return _generated_ops.METHODS.get(name) or _generated_ops.FUNCTIONS.get(name)


def _reflected(fn):
    def method(self, other):
        return fn(as_tensor(other, self.device, op=fn.__name__), self)
    return method


def _comparison(fn):
    # Comparing with an unrelated object is False/True, as for any Python object, not an error.
    def method(self, other):
        try:
            return fn(self, other)
        except TypeError:
            if isinstance(other, (Tensor, bool, int, float)):
                raise
            return NotImplemented
    return method


def _deferring(fn, reflected: str):
    """fn as an operator dunder: an operand ingot cannot take whose type defines `reflected` gets
    NotImplemented, so Python calls that operand's reflected dunder (t + x -> x.__radd__(t)), as
    NumPy arrays and PyTorch tensors do. Only the generated ops' fast callables know how."""
    return _C._operator_function(fn, reflected) if isinstance(fn, _C._OpFunction) else fn


def _install_operators() -> None:
    for dunder, (op, symbol) in _BINARY.items():
        fn, inplace = _op(op), _op(op + "_")
        missing = _missing(op, symbol)
        forward = _deferring(fn, f"__r{dunder}__") if fn else missing
        setattr(Tensor, f"__{dunder}__", forward)
        setattr(Tensor, f"__r{dunder}__", (forward if dunder in _COMMUTATIVE else _reflected(fn)) if fn else missing)
        setattr(Tensor, f"__i{dunder}__", _deferring(inplace, f"__r{dunder}__") if inplace else _missing(op, symbol + "="))
    for dunder, (op, symbol) in _COMPARISON.items():
        fn = _op(op)
        setattr(Tensor, f"__{dunder}__", _comparison(fn) if fn else _missing(op, symbol))
    for dunder, (op, symbol) in _UNARY.items():
        fn = _op(op)
        if dunder == "pos" and fn is None:
            fn = _identity  # unary + needs no op: it returns the tensor itself, as in PyTorch
        setattr(Tensor, f"__{dunder}__", fn or _missing(op, symbol))
    # Last: the binary operators' C slots call the dunders set above (python/src/operators.cpp).
    _C._install_operator_slots(Tensor)


def _identity(self):
    return self


_fill = Tensor.fill_


def fill_(self, value):
    """Every element set to value (cast to self's dtype); returns self."""
    check_int64("fill_", "value", value)
    return _fill(self, value)


_to_device = Tensor.to  # the binding: to(device, copy=False)
_astype = Tensor.astype  # the binding: astype(dtype: ingot.dtype, copy=True)


def astype(self, dtype, copy=True):
    """self converted to dtype (any dtype spelling: ingot.int8, "int8", np.int8); a copy even
    when the dtype is the same, unless copy=False."""
    return _astype(self, to_dtype(dtype), copy)


def _as_device(x):
    """x as an ingot.device when it names one (a device, or a string such as "cuda:1"), else None."""
    if isinstance(x, _device):
        return x
    if isinstance(x, str) and x not in BY_NAME:
        try:
            return _device(x)
        except ValueError:
            try:
                to_dtype(x)  # a NumPy dtype name ("f4", "double")
            except TypeError:
                raise TypeError(f"to: {x!r} names neither a device (such as 'cpu' or 'cuda:0') nor a "
                                "dtype") from None
    return None


def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
    """PyTorch's forms: to(dtype), to(device), to(device, dtype), to(other) (other's dtype and
    device), with dtype=, device= and copy= as keywords. Returns self when nothing changes and
    copy is false. non_blocking is accepted for PyTorch's signature; copies between the host and a
    device are ordered on ingot's stream either way."""
    del non_blocking
    if len(args) > 2:
        raise TypeError(f"to: takes at most 2 positional arguments (device, dtype), got {len(args)}")
    if len(args) == 1 and isinstance(args[0], Tensor):
        if dtype is not None or device is not None:
            raise TypeError("to: to(other) takes its dtype and device from other; pass no dtype= or device=")
        dtype, device = args[0].dtype, args[0].device
        args = ()
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            raise TypeError("to: a tensor argument must be the only positional one: to(other)")
        dev = _as_device(a) if i == 0 else None
        if dev is not None:
            if device is not None:
                raise TypeError("to: device given twice")
            device = dev
        else:
            if dtype is not None:
                raise TypeError("to: dtype given twice")
            if a is None:
                raise TypeError("to: expected a dtype, a device or a tensor, got None")
            dtype = a
    dt = to_dtype(dtype)
    dev = _device(device) if device is not None else None
    cast = dt is not None and dt != self.dtype
    move = dev is not None and dev != self.device
    if not cast and not move:
        return self.clone() if copy else self
    t = self
    if cast and move and dt.itemsize < self.dtype.itemsize:
        t, cast = _astype(t, dt, True), False  # narrow first: fewer bytes cross to the other device
    if move:
        t = _to_device(t, dev)
    return _astype(t, dt, True) if cast else t


def _cast_method(name: str, dtype_name: str):
    def method(self):
        return to(self, BY_NAME[dtype_name])

    method.__name__ = name
    method.__doc__ = f"self.to(ingot.{dtype_name}): self when it already is {dtype_name}."
    return method


_CAST_METHODS = [_cast_method(n, d) for n, d in (
    ("bool", "bool"), ("byte", "uint8"), ("char", "int8"), ("short", "int16"), ("int", "int32"),
    ("long", "int64"), ("half", "float16"), ("bfloat16", "bfloat16"), ("float", "float32"),
    ("double", "float64"))]


def cpu(self):
    """self.to("cpu")."""
    return to(self, "cpu")


def cuda(self, device=None):
    """self.to(device), "cuda" (device 0) by default; an int means "cuda:<int>"."""
    if device is None:
        device = "cuda"
    elif isinstance(device, int) and not isinstance(device, bool):
        device = f"cuda:{device}"
    dev = _device(device)
    if dev.type != "cuda":
        raise ValueError(f"cuda: expected a CUDA device, got {dev}")
    return to(self, dev)


def install() -> None:
    for name, fn in _generated_ops.METHODS.items():
        setattr(Tensor, name, fn)
    for fn in (numpy, __array__, tolist, __repr__, __str__, __format__, __reduce__, __deepcopy__, __bool__,
               __int__, __float__, __index__, __len__, __iter__, fill_, astype, to, cpu, cuda, *_CAST_METHODS):
        setattr(Tensor, fn.__name__, fn)
    Tensor.__getitem__ = getitem
    Tensor.__setitem__ = setitem
    # NumPy's operators defer to ours when the other operand is a tensor (np.float32(2) * t and
    # ndarray + t give tensors, as with PyTorch); NumPy's functions (np.exp(t)) still take the
    # tensor through __array__ and return arrays.
    Tensor.__array_priority__ = 1000
    _install_operators()
