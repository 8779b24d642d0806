"""Accuracy (issue criterion 3): float32 and float64 results against NumPy's correctly rounded
validation sets (tests/python/data/umath-validation) within the sets' ULP bounds; float16 and
bfloat16 results of every one-input float op equal the float32 result rounded once, over all
65,536 inputs of each. Runs on every available backend."""
from __future__ import annotations

import gzip
import os

import ml_dtypes
import numpy as np
import pytest

import ingot
from ingot_test_helpers import DEVICES, host
from opinfo import OPS
from opinfo_support import mismatches

DATA = os.path.join(os.path.dirname(__file__), "data", "umath-validation")
# NumPy ufunc name -> ingot op name, where they differ.
NAMES = {"arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh", "arctan": "atan",
         "arctanh": "atanh"}
BITS = {"np.float32": (np.uint32, np.float32, "float32"), "np.float64": (np.uint64, np.float64, "float64")}
# On CUDA the functions come from NVIDIA's math library (precise versions, no fast math), whose
# documented float64 bounds are wider than some sets' (CUDA Programming Guide, "Mathematical
# Functions": asinh 3 ulp, asin acos atan atanh sinh 2, ...); a result must stay within the larger.
CUDA_FLOAT64_ULPS = {"asin": 2, "acos": 2, "atan": 2, "asinh": 3, "acosh": 3, "atanh": 2, "sinh": 2,
                     "cosh": 2, "tanh": 2, "sin": 2, "cos": 2, "tan": 2}


def validation_sets():
    """(ingot op, dtype name, inputs, expected outputs, ulp bound) per file and dtype."""
    sets = []
    for name in sorted(os.listdir(DATA)):
        if not name.endswith(".csv.gz"):
            continue
        ufunc = name[len("umath-validation-set-"):-len(".csv.gz")]
        rows = {}
        with gzip.open(os.path.join(DATA, name), "rt") as f:
            for line in f:
                if line.startswith(("#", "dtype")) or not line.strip():
                    continue
                dtype, x, y, ulp = line.strip().split(",")
                rows.setdefault(dtype, []).append((int(x, 16), int(y, 16), int(ulp)))
        for dtype, entries in rows.items():
            uint, flt, dname = BITS[dtype]
            x = np.array([e[0] for e in entries], uint).view(flt)
            y = np.array([e[1] for e in entries], uint).view(flt)
            sets.append(pytest.param(NAMES.get(ufunc, ufunc), dname, x, y, max(e[2] for e in entries),
                                     id=f"{NAMES.get(ufunc, ufunc)}-{dname}"))
    return sets


def test_validation_sets_are_vendored():
    assert len(validation_sets()) >= 40


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("op, dtype, x, want, bound", validation_sets())
def test_matches_correctly_rounded_results_within_the_sets_bound(op, dtype, x, want, bound, device):
    t = ingot.asarray(x)
    t = t if device == "cpu" else t.to(device)
    got = host(getattr(ingot, op)(t))
    if device != "cpu" and dtype == "float64":
        bound = max(bound, CUDA_FLOAT64_ULPS.get(op, 0))
    bad = mismatches(got, want.astype(np.float64), dtype, bound)
    assert not bad.any(), (f"{op} {dtype}: {int(bad.sum())} of {bad.size} beyond {bound} ulp, e.g. "
                           f"x={x[bad][:4]} got {got[bad][:4]} want {want[bad][:4]}")


ALL_F16 = np.arange(65536, dtype=np.uint32).astype(np.uint16)
UNARY_FLOAT_OPS = [op for op in OPS if op.arity == 1 and "float16" in op.dtypes and op.result != "bool"]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", UNARY_FLOAT_OPS, ids=lambda o: o.label)
def test_16_bit_results_are_the_float32_result_rounded_once(op, dtype, device):
    np_dtype = np.float16 if dtype == "float16" else ml_dtypes.bfloat16
    x = ALL_F16.view(np_dtype)
    t = ingot.asarray(x)
    t32 = t.astype(ingot.float32)
    if device != "cpu":
        t, t32 = t.to(device), t32.to(device)
    def fn(x):
        return getattr(ingot, op.name)(x, **op.kwargs[-1])
    got = fn(t)
    with np.errstate(over="ignore"):  # one rounding, float32 -> dtype (large values become inf)
        want = host(fn(t32)).astype(np.float32).astype(np_dtype)
    got, want = host(got).astype(np.float32), want.astype(np.float32)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), (f"{op.name} {dtype}: {int((~same).sum())} inputs differ from the float32 result "
                        f"rounded once, e.g. x={x[~same][:4]} got {got[~same][:4]} want {want[~same][:4]}")
