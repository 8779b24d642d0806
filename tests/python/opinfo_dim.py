"""The table of dim ops (softmax-likes and scans): ops that run along one dim, so their results are
not elementwise and the elementwise OpInfo table (opinfo.py) does not fit them. test_dim_ops.py runs
every entry on every backend; test_opinfo.py's completeness check counts these entries too.

Each reference takes a float64 (or int64) NumPy array and an axis; float references run in float64
on the inputs as stored, integer ones in int64 (wrapping, like the kernels)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opinfo_support import ALL, FLOATS


def softmax_ref(x, axis):
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.max(x, axis=axis, keepdims=True) if x.size else x
        e = np.exp(x - m)
        return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax_ref(x, axis):
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = np.max(x, axis=axis, keepdims=True) if x.size else x
        return (x - m) - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def _index_scan_ref(x, axis, later_wins):
    """PyTorch's cummax/cummin rule: a NaN replaces anything, nothing replaces a NaN, ties move to
    the later index."""
    x = np.moveaxis(np.asarray(x), axis, 0)
    values, indices = np.empty_like(x), np.zeros(x.shape, np.int64)
    if x.shape[0] == 0:
        return np.moveaxis(values, 0, axis), np.moveaxis(indices, 0, axis)
    best, where = x[0].copy(), np.zeros(x.shape[1:], np.int64)
    values[0], indices[0] = best, where
    for i in range(1, x.shape[0]):
        v = x[i]
        with np.errstate(invalid="ignore"):
            take = np.isnan(v) | (~np.isnan(best) & later_wins(v, best)) if v.dtype.kind == "f" else later_wins(v, best)
        best, where = np.where(take, v, best), np.where(take, i, where)
        values[i], indices[i] = best, where
    return np.moveaxis(values, 0, axis), np.moveaxis(indices, 0, axis)


def cummax_ref(x, axis):
    return _index_scan_ref(x, axis, np.greater_equal)


def cummin_ref(x, axis):
    return _index_scan_ref(x, axis, np.less_equal)


def cumsum_ref(x, axis):
    return np.cumsum(x, axis=axis)


def cumprod_ref(x, axis):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.cumprod(x, axis=axis)


@dataclass(frozen=True)
class DimOpInfo:
    name: str
    ref: object
    kind: str             # "softmax" | "scan" | "index_scan"
    dtypes: tuple = ALL   # input dtypes taken without dtype=; the rest are a TypeError
    notes: str = ""

    def result_dtype(self, dtype: str) -> str:
        if self.kind == "scan" and dtype not in FLOATS:
            return "int64"
        return dtype


DIM_OPS = [
    DimOpInfo("softmax", softmax_ref, "softmax", FLOATS,
              notes="exp(x - max) / sum; float16/bfloat16 compute in float32; an all -inf row is NaN."),
    DimOpInfo("log_softmax", log_softmax_ref, "softmax", FLOATS, notes="(x - max) - log(sum)."),
    DimOpInfo("cumsum", cumsum_ref, "scan", notes="bool and integers accumulate and return int64."),
    DimOpInfo("cumprod", cumprod_ref, "scan", notes="bool and integers accumulate and return int64."),
    DimOpInfo("cummax", cummax_ref, "index_scan", notes="(values, int64 indices); NaN sticks, ties take the later index."),
    DimOpInfo("cummin", cummin_ref, "index_scan", notes="(values, int64 indices); NaN sticks, ties take the later index."),
]

DIM_BY_NAME = {op.name: op for op in DIM_OPS}
