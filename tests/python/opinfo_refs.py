"""float64 references the OpInfo table needs beyond NumPy: special functions (math and mpmath,
evaluated once per distinct input) and a few exact integer/bool semantics."""
from __future__ import annotations

import math

import mpmath
import numpy as np


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
