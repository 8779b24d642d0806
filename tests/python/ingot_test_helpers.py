"""Shared helpers for the ingot Python tests (NumPy is the reference throughout). Not named
conftest.py: tests/codegen has one, and `from conftest import` would be ambiguous."""
import numpy as np
import pytest

import ingot
from ingot import _generated_ops
from opinfo_support import from_numpy, numpy_array

ALL_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]
NUMPY_DTYPES = [d for d in ALL_DTYPES if d != "bfloat16"]


def has_op(name: str) -> bool:
    return name in _generated_ops.FUNCTIONS or name in _generated_ops.METHODS


def requires_op(*names):
    missing = [n for n in names if not has_op(n)]
    return pytest.mark.skipif(bool(missing), reason=f"op(s) {missing} not declared in ops.yaml yet")


def sample(shape, dtype, seed=0):
    """Deterministic NumPy data of a dtype: small integers, or floats including negatives."""
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype in ("uint8",):
        return rng.integers(0, 50, shape).astype(dtype)
    if dtype.startswith("int"):
        return rng.integers(-50, 50, shape).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def devices() -> list[str]:
    """cpu, plus cuda when the build has a CUDA backend and a GPU is present."""
    found = ["cpu"]
    cuda = getattr(ingot, "cuda", None)
    if cuda is not None and cuda.is_available():
        found.append("cuda")
    return found


DEVICES = devices()


def make(c: np.ndarray, dtype: str, device: str) -> ingot.Tensor:
    """A tensor of `dtype` on `device` from a container (opinfo_support)."""
    t = ingot.asarray(numpy_array(c, dtype))
    return t if device == "cpu" else t.to(device)


def host(t: ingot.Tensor) -> np.ndarray:
    """A tensor's values as a container, copied to the host first when needed."""
    if t.device != "cpu":
        t = t.to("cpu")
    return from_numpy(t.numpy())


__all__ = ["ingot", "has_op", "requires_op", "sample", "devices", "DEVICES", "make", "host"]
