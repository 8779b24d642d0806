"""The reduction table (issue #12): one entry per reduction op in ops/ops.yaml, as data.

An entry gives a NumPy reference evaluated on the inputs' containers (float64 for floats, int64
for integers, bool for bool, opinfo_support), the dtypes the op takes, the result dtype rule, how
`dim` is given, whether an empty reduction has an identity, and the tolerance kind. The driver is
tests/python/test_reductions.py; opinfo.py counts these entries as the ops' table entries.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from opinfo_support import ALL, FLOATS


@dataclass(frozen=True)
class ReductionInfo:
    name: str
    ref: Callable                  # ref(container, axis: tuple, **kwargs) -> array without the axes
    dtypes: tuple = ALL            # input dtypes the op takes; the others are a TypeError
    result: str = "same"           # same | sum (ints/bool -> int64) | int64 | bool | float (ints -> float32)
    dim: str = "list"              # list (None/int/tuple) | one (None/int) | required (int) | none
    keepdim: bool = True
    identity: bool = True          # False: reducing zero elements is an IndexError
    tolerance: str = "rel"         # rel | sum (error scales with the sum of |x|) | exact
    kwargs: tuple = ({},)
    domain: Any = (-10.0, 10.0)
    second: Callable | None = None  # reference of a second output (max.dim's indices, var_mean's mean)
    second_result: str = "same"
    variant: str = ""
    notes: str = ""

    @property
    def label(self) -> str:
        return f"{self.name}.{self.variant}" if self.variant else self.name


def quiet(fn):
    """NumPy references warn on empty or all-NaN slices; the values are what we compare."""
    def wrapped(*args, **kwargs):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs)
    return wrapped


@quiet
def sum_ref(x, axis):
    return np.sum(x, axis=axis)


@quiet
def prod_ref(x, axis):
    return np.prod(x, axis=axis)


@quiet
def mean_ref(x, axis):
    return np.mean(x, axis=axis)


@quiet
def nansum_ref(x, axis):
    return np.nansum(x, axis=axis) if x.dtype.kind == "f" else np.sum(x, axis=axis)


@quiet
def nanmean_ref(x, axis):
    return np.nanmean(x, axis=axis)


@quiet
def amax_ref(x, axis):
    return np.max(x, axis=axis)


@quiet
def amin_ref(x, axis):
    return np.min(x, axis=axis)


def _index_ref(fn):
    @quiet
    def ref(x, axis):
        if len(axis) == x.ndim and x.ndim > 1:
            return fn(x.reshape(-1), axis=0)
        return fn(x, axis=axis[0]) if axis else fn(x.reshape(-1), axis=0)
    return ref


@quiet
def var_ref(x, axis, correction=1):
    return np.var(x, axis=axis, ddof=correction)


@quiet
def std_ref(x, axis, correction=1):
    return np.std(x, axis=axis, ddof=correction)


@quiet
def any_ref(x, axis):
    return np.any(x, axis=axis)


@quiet
def all_ref(x, axis):
    return np.all(x, axis=axis)


@quiet
def count_nonzero_ref(x, axis):
    return np.asarray(np.count_nonzero(x, axis=axis), dtype=np.int64)


@quiet
def logsumexp_ref(x, axis):
    x = x.astype(np.float64)
    m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0.0)
    r = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return np.squeeze(r, axis=axis)


@quiet
def norm_ref(x, axis, ord=2, p=None):
    ord = p if p is not None else ord
    a = np.abs(x.astype(np.float64))
    if ord == np.inf:
        return np.max(a, axis=axis)
    if ord == -np.inf:
        return np.min(a, axis=axis)
    if ord == 0:
        return np.sum(a != 0, axis=axis).astype(np.float64)
    return np.sum(a ** ord, axis=axis) ** (1.0 / ord)


def vector_norm_ref(x, axis, ord=2):
    return norm_ref(x, axis, ord=ord)


def norm_p_ref(x, axis, p=2):
    return norm_ref(x, axis, ord=p)


R = ReductionInfo
REDUCTIONS = [
    R("sum", sum_ref, result="sum", tolerance="sum"),
    R("nansum", nansum_ref, result="sum", tolerance="sum"),
    R("prod", prod_ref, result="sum", domain=(0.5, 1.5), notes="integers wrap modulo 2^64 like NumPy"),
    R("mean", mean_ref, dtypes=FLOATS, tolerance="sum", notes="integers need dtype= (as PyTorch)"),
    R("nanmean", nanmean_ref, dtypes=FLOATS, tolerance="sum"),
    R("amax", amax_ref, identity=False, tolerance="exact"),
    R("amin", amin_ref, identity=False, tolerance="exact"),
    R("max", amax_ref, dim="none", keepdim=False, identity=False, tolerance="exact", variant="all"),
    R("min", amin_ref, dim="none", keepdim=False, identity=False, tolerance="exact", variant="all"),
    R("max", amax_ref, dim="required", identity=False, tolerance="exact", variant="dim",
      second=_index_ref(np.argmax), second_result="int64"),
    R("min", amin_ref, dim="required", identity=False, tolerance="exact", variant="dim",
      second=_index_ref(np.argmin), second_result="int64"),
    R("argmax", _index_ref(np.argmax), result="int64", dim="one", identity=False, tolerance="exact"),
    R("argmin", _index_ref(np.argmin), result="int64", dim="one", identity=False, tolerance="exact"),
    R("var", var_ref, dtypes=FLOATS, kwargs=({}, {"correction": 0}, {"correction": 2})),
    R("std", std_ref, dtypes=FLOATS, kwargs=({}, {"correction": 0})),
    R("var_mean", var_ref, dtypes=FLOATS, kwargs=({}, {"correction": 0}), second=quiet(
        lambda x, axis, correction=1: np.mean(x, axis=axis))),
    R("std_mean", std_ref, dtypes=FLOATS, kwargs=({}, {"correction": 0}), second=quiet(
        lambda x, axis, correction=1: np.mean(x, axis=axis))),
    R("any", any_ref, result="bool", tolerance="exact"),
    R("all", all_ref, result="bool", tolerance="exact"),
    R("count_nonzero", count_nonzero_ref, result="int64", keepdim=False, tolerance="exact"),
    R("logsumexp", logsumexp_ref, result="float"),
    R("norm", norm_p_ref, dtypes=FLOATS, kwargs=({}, {"p": 1}, {"p": 3})),
    R("vector_norm", vector_norm_ref, dtypes=FLOATS, kwargs=({}, {"ord": 1}, {"ord": 0}, {"ord": 3.5})),
    R("vector_norm", vector_norm_ref, dtypes=FLOATS, kwargs=({"ord": float("inf")}, {"ord": float("-inf")}),
      identity=False, variant="inf"),
]

BY_LABEL = {op.label: op for op in REDUCTIONS}
