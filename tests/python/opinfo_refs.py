"""float64 references the OpInfo table needs beyond NumPy: special functions (math and mpmath,
evaluated once per distinct input) and a few exact integer/bool semantics."""
from __future__ import annotations

import math

import mpmath
import numpy as np

from opinfo_support import float_max, round_to


def per_value(fn):
    """Vectorizes a scalar float64 function, calling it once per distinct input value."""
    def apply(x):
        x = np.asarray(x, np.float64)
        bits, inverse = np.unique(x.view(np.int64), return_inverse=True)  # by bits: keeps -0.0 apart
        return np.array([fn(float(v)) for v in bits.view(np.float64)], np.float64)[inverse].reshape(x.shape)
    apply.__name__ = fn.__name__
    return apply


def _exact(fn, x: float) -> float:
    """fn evaluated with 40 significant digits, then rounded once to float64."""
    with mpmath.workdps(40):
        return float(fn(mpmath.mpf(x)))


def _lgamma(x: float) -> float:
    if math.isnan(x):
        return x
    if math.isinf(x) or x == math.floor(x) and x <= 0:  # the poles: 0 and the negative integers
        return math.inf
    return _exact(lambda v: mpmath.log(abs(mpmath.gamma(v))), x)


def _erfinv(y: float) -> float:
    if math.isnan(y) or abs(y) > 1:
        return math.nan
    if y == 0:
        return y
    return _exact(mpmath.erfinv, y)


def _digamma(x: float) -> float:
    if x == 0:
        return math.copysign(math.inf, -x)
    if math.isnan(x) or x == -math.inf or (x < 0 and x == math.floor(x)):
        return math.nan
    if x == math.inf:
        return x
    return _exact(mpmath.digamma, x)


erf = per_value(math.erf)
erfc = per_value(math.erfc)
lgamma = per_value(_lgamma)
erfinv = per_value(_erfinv)
digamma = per_value(_digamma)


def sigmoid(x):
    with np.errstate(over="ignore"):
        return np.where(x >= 0, 1 / (1 + np.exp(-x)), np.exp(x) / (1 + np.exp(x)))


def rsqrt(x):
    return 1 / np.sqrt(x)


def _activation(fn, at_minus_inf=-0.0):
    """fn at 40 digits; ±0, inf and NaN map to themselves, -inf to the limit (mpmath has no -0.0)."""
    def scalar(x: float) -> float:
        if math.isnan(x) or x == math.inf or x == 0:
            return x
        if x < -1e4:  # every activation here is below the smallest subnormal already
            return at_minus_inf
        if x > 1e4:
            return x
        return _exact(fn, x)
    scalar.__name__ = fn.__name__
    return per_value(scalar)


gelu = _activation(lambda x: x / 2 * mpmath.erfc(-x / mpmath.sqrt(2)))
silu = _activation(lambda x: x / (1 + mpmath.exp(-x)))
mish = _activation(lambda x: x * mpmath.tanh(mpmath.log1p(mpmath.exp(x))))


def is_float_array(x) -> bool:
    return x.dtype.kind == "f" or x.dtype.name == "bfloat16"


def float_only(fn, default):
    """fn on floating arrays; `default(x)` (a bool array) for integer and bool ones."""
    return lambda x: fn(x) if is_float_array(x) else default(x)


def integral_identity(fn):
    """fn on floats; integers are returned as they are (floor of an int64 must not go through float)."""
    return lambda x: fn(x) if is_float_array(x) else x


def minmax(np_fn, is_max):
    """NumPy's maximum/minimum/fmax/fmin with -0.0 < +0.0 (IEEE 754-2019), as ingot defines them."""
    def ref(a, b):
        r = np_fn(a, b)
        if not is_float_array(np.asarray(r)):
            return r
        zeros = (a == 0) & (b == 0)
        neg = np.signbit(a) & np.signbit(b) if is_max else np.signbit(a) | np.signbit(b)
        return np.where(zeros, np.where(neg, -0.0, 0.0), r)
    return ref


def nextafter(a, b):
    """C's nextafter: b when a == b (NumPy's float16 loop returns a)."""
    return np.where(a == b, b, np.nextafter(a, b))


def xlogy(x, y):
    with np.errstate(all="ignore"):
        return np.where(np.isnan(y), y, np.where(x == 0, 0.0, x * np.log(y)))


def relu(x):
    if not is_float_array(x):
        return np.where(x > 0, x, 0).astype(x.dtype)
    return np.where(x > 0, x, np.where(np.isnan(x), x, 0.0))


def sign(x):
    return x if x.dtype == bool else np.sign(x)


def signbit(x):
    if is_float_array(x):
        return np.signbit(x)
    return x < 0 if x.dtype != bool else np.zeros(x.shape, bool)


def div_trunc(a, b):
    """Quotient toward zero: floats trunc(a / b); integers C division, x / 0 == 0; bool a and b."""
    if a.dtype == bool:
        return a & b
    if is_float_array(a):
        return np.trunc(a / b)
    with np.errstate(all="ignore"):
        q = a // b
        return np.where((a % b != 0) & ((a < 0) != (b < 0)), q + 1, q).astype(a.dtype)


def gelu_tanh(x):
    with np.errstate(over="ignore", invalid="ignore"):
        u2 = 2 * np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
        return np.where(x == -np.inf, -0.0, x * sigmoid(u2))


def nan_to_num(x, nan=None, posinf=None, neginf=None):
    if not is_float_array(x):
        return x
    big = float_max(x.dtype.name if x.dtype.name != "float64" else "float64")
    return np.nan_to_num(x.astype(np.float64), nan=0.0 if nan is None else nan,
                         posinf=big if posinf is None else posinf, neginf=-big if neginf is None else neginf)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """ingot's composite step by step in the compute dtype (each op rounds to it; the numbers rtol
    and atol enter in float32 for float16/bfloat16), so the boundary cases agree."""
    close = a == b
    if equal_nan and is_float_array(a):
        close |= np.isnan(a) & np.isnan(b)
    if a.dtype == bool:
        return close
    dtype = a.dtype.name if is_float_array(a) else "float64"
    opm = "float32" if dtype in ("float16", "bfloat16") else dtype
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(all="ignore"):
        diff = round_to(np.abs(round_to(fa - fb, dtype)), dtype)
        allowed = round_to(np.abs(round_to(fb * round_to(rtol, opm), dtype)) + round_to(atol, opm), dtype)
        return close | (np.isfinite(diff) & (diff <= allowed))
