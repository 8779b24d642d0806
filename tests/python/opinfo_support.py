"""What the OpInfo table (opinfo.py) and its driver share: dtype names and PyTorch's promotion
rules, rounding float64 to a dtype, sample and special values, and comparison in ULPs.

Values travel in "containers": float64 arrays for floating dtypes (every float16/bfloat16/float32
value is exact in float64), int64 for integers and bool for bool, so a reference never rounds
twice and int64 extremes survive. Nothing here imports ingot: tools/ and docs can use it without a
build."""
from __future__ import annotations

import numpy as np

try:
    import ml_dtypes
except ImportError:  # pragma: no cover - bfloat16 cases are skipped without it
    ml_dtypes = None

BOOL = ("bool",)
INTS = ("uint8", "int8", "int16", "int32", "int64")
FLOATS = ("float16", "bfloat16", "float32", "float64")
ALL = BOOL + INTS + FLOATS

# (significand bits with the implicit one, minimum normal exponent, maximum exponent)
_FLOAT_FORMAT = {"float16": (11, -14, 15), "bfloat16": (8, -126, 127), "float32": (24, -126, 127),
                 "float64": (53, -1022, 1023)}
_INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-2**15, 2**15 - 1),
              "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}


def is_float(dtype: str) -> bool:
    return dtype in FLOATS


def int_range(dtype: str) -> tuple[int, int]:
    return _INT_RANGE[dtype]


def float_max(dtype: str) -> float:
    bits, _, emax = _FLOAT_FORMAT[dtype]
    return (2.0 - 2.0 ** (1 - bits)) * 2.0 ** emax


def float_tiny(dtype: str) -> float:
    return 2.0 ** _FLOAT_FORMAT[dtype][1]


def float_subnormal(dtype: str) -> float:
    bits, emin, _ = _FLOAT_FORMAT[dtype]
    return 2.0 ** (emin - bits + 1)


# ---- PyTorch's promotion lattice, written out independently of ingot's implementation
def _category(dtype: str) -> int:
    return 0 if dtype == "bool" else 1 if dtype in INTS else 2


def promote(a: str, b: str) -> str:
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {"float16", "bfloat16"}:
            return "float32"
        return max(a, b, key=FLOATS.index)
    if "uint8" in (a, b):
        other = b if a == "uint8" else a
        return "int16" if other == "int8" else other
    return max(a, b, key=INTS.index)


def promote_all(dtypes) -> str:
    out = dtypes[0]
    for d in dtypes[1:]:
        out = promote(out, d)
    return out


def promote_with_scalar(dtype: str, scalar) -> str:
    """A tensor with a Python number: the number only lifts the category (float -> float32)."""
    kind = 0 if isinstance(scalar, bool) else 1 if isinstance(scalar, int) else 2
    if kind <= _category(dtype):
        return dtype
    return "int64" if kind == 1 else "float32"


def can_cast(src: str, dst: str) -> bool:
    """PyTorch's can_cast for out= and in-place results: no float -> integer, no non-bool -> bool."""
    return _category(src) <= _category(dst)


def opmath(dtype: str) -> str:
    return "float32" if dtype in ("float16", "bfloat16") else dtype


# ---- rounding and containers
def round_to(x: np.ndarray, dtype: str) -> np.ndarray:
    """float64 values rounded once (to nearest, ties to even) to `dtype`, returned as float64."""
    x = np.asarray(x, np.float64)
    if dtype in ("float64",):
        return x.copy()
    if dtype in ("float32", "float16"):
        with np.errstate(over="ignore"):
            return x.astype(dtype).astype(np.float64)
    bits, emin, _ = _FLOAT_FORMAT[dtype]
    with np.errstate(over="ignore", invalid="ignore"):
        _, e = np.frexp(x)
        scale = np.ldexp(1.0, bits - np.maximum(e, emin + 1))
        r = np.where(np.isfinite(x), np.rint(x * scale) / scale, x)
        return np.where(np.abs(r) > float_max(dtype), np.copysign(np.inf, x), r)


def container(x, dtype: str) -> np.ndarray:
    """Values of `dtype` as a container array (values are converted as a cast would)."""
    if dtype == "bool":
        return np.asarray(x).astype(bool)
    if dtype in INTS:
        a = np.asarray(x)
        if a.dtype.kind == "f":
            a = np.nan_to_num(a, nan=0, posinf=0, neginf=0)
        return a.astype(np.int64).astype(dtype).astype(np.int64)
    return round_to(np.asarray(x, np.float64), dtype)


def numpy_array(c: np.ndarray, dtype: str) -> np.ndarray:
    """A container as a NumPy array of `dtype` (bfloat16 through ml_dtypes)."""
    if dtype == "bfloat16":
        return np.asarray(c, np.float64).astype(np.float32).astype(ml_dtypes.bfloat16)
    return np.asarray(c).astype(dtype)


def from_numpy(a: np.ndarray) -> np.ndarray:
    """A NumPy result array (any dtype, bfloat16 included) as a container."""
    if a.dtype.kind == "b":
        return a.astype(bool)
    if a.dtype.kind in "iu":
        return a.astype(np.int64)
    with np.errstate(invalid="ignore"):  # bfloat16 NaN -> float32 warns
        return a.astype(np.float32 if a.dtype.name == "bfloat16" else a.dtype).astype(np.float64)


# ---- sample and special values
def specials(dtype: str) -> np.ndarray:
    """±0, ±inf, NaN, subnormals, the smallest normal and the largest finite values, and a few
    ordinary ones; integer and bool dtypes get their extremes."""
    if dtype == "bool":
        return np.array([False, True])
    if dtype in INTS:
        lo, hi = int_range(dtype)
        vals = [0, 1, 2, 3, 7, lo, hi, lo + 1, hi - 1] + ([-1, -2, -3, -7] if lo < 0 else [])
        return np.array(sorted(set(vals)), np.int64)
    sub, tiny, big = float_subnormal(dtype), float_tiny(dtype), float_max(dtype)
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, sub, -sub, tiny, -tiny, big, -big, 1.0, -1.0, 0.5, -0.5,
            2.0, -3.0, 0.75, 1e-3, 100.0]
    return container(np.array(vals), dtype)


def samples(dtype: str, shape, rng: np.random.Generator, domain=(-10.0, 10.0)) -> np.ndarray:
    """Random values of `dtype` in `domain` (integers clipped to the dtype's range)."""
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    lo, hi = domain
    if dtype in INTS:
        tlo, thi = int_range(dtype)
        lo, hi = max(int(np.ceil(lo)), tlo), min(int(np.floor(hi)), thi)
        return rng.integers(lo, hi + 1, shape, dtype=np.int64)
    return container(rng.uniform(lo, hi, shape), dtype)


# ---- comparison
def ulp_distance(got: np.ndarray, want: np.ndarray, dtype: str) -> np.ndarray:
    """|got - want| in units of the last place of `dtype` at `want` (float64 arrays, finite)."""
    bits, emin, _ = _FLOAT_FORMAT[dtype]
    _, e = np.frexp(want)
    spacing = np.ldexp(1.0, np.maximum(e - 1, emin) - bits + 1)
    return np.abs(got - want) / spacing


def mismatches(got: np.ndarray, want: np.ndarray, dtype: str, ulps: float, zero_sign: bool = True,
               atol: float = 0.0) -> np.ndarray:
    """Boolean mask of elements where container `got` is not `want` within `ulps` or `atol` (floats;
    NaN-ness, infinities and, with zero_sign, the sign of zero must match) or not equal (integers,
    bool)."""
    if not is_float(dtype):
        return got != want
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    gnan, wnan = np.isnan(got), np.isnan(want)
    bad = gnan != wnan
    finite = np.isfinite(got) & np.isfinite(want)
    inf = ~gnan & ~wnan & ~finite
    bad |= inf & (got != want)
    with np.errstate(invalid="ignore", over="ignore"):
        g, w = np.where(finite, got, 0), np.where(finite, want, 0)
        bad |= finite & (ulp_distance(g, w, dtype) > ulps) & (np.abs(g - w) > atol)
    if zero_sign:
        bad |= (want == 0) & (got == 0) & (np.signbit(got) != np.signbit(want))
    return bad
