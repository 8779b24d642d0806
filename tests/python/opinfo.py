"""The OpInfo table (DESIGN.md §7): one entry per op in ops/ops.yaml, as data.

An entry says what the op computes (a NumPy or float64 reference), on which dtypes, with which
result dtype, within how many ULPs per dtype, on which inputs (domain), and which calls must fail.
tests/python/test_opinfo.py runs every entry on every available backend; gen_ops_doc.py writes
docs/ops.md from it. A declared op without an entry fails test_every_declared_op_has_an_entry.

How a reference is evaluated (opinfo_support.py has the helpers):
  * The inputs promote to a common dtype (PyTorch's rules); `result="float"` ops compute integer
    inputs in float32, `result="bool"` ops return bool.
  * Floating compute: the inputs, rounded to the compute dtype, are handed to `ref` as float64
    arrays (or, with ref_precision="opmath", as arrays of the compute dtype's opmath type, for ops
    whose exact algorithm is specified, like floor_divide; with "dtype", of the compute dtype
    itself, for nextafter); the result is rounded once.
  * Integer and bool compute: `ref` gets arrays of the compute dtype, so NumPy's wrapping applies.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

import opinfo_refs as refs
from opinfo_support import ALL, BOOL, FLOATS, INTS

EXACT = {d: 0 for d in FLOATS}


def ulps(f16=1, bf16=1, f32=2, f64=2):
    """Per-dtype bounds for float results. float16/bfloat16 compute in float32 and round once."""
    return {"float16": f16, "bfloat16": bf16, "float32": f32, "float64": f64}


@dataclass(frozen=True)
class ErrorCase:
    """call(fn, t) must raise `exc` with a message matching `match`; fn is the op's function and
    t(values, dtype) makes a tensor on the device under test."""
    what: str
    call: Callable
    exc: type
    match: str


@dataclass(frozen=True)
class OpInfo:
    name: str
    ref: Callable
    arity: int = 1
    dtypes: tuple = ALL                  # input dtypes the op takes; others must raise
    result: str = "same"                 # "same" | "float" (integers -> float32) | "bool"
    ulps: dict = field(default_factory=lambda: dict(EXACT))  # float results; ints/bool are exact
    atol: dict = field(default_factory=dict)  # per dtype: also accept |error| <= atol (near zeros)
    domain: Any = (-10.0, 10.0)          # float samples: (lo, hi) or one (lo, hi) per input
    int_domain: Any = (-50, 50)          # integer samples, clipped to the dtype
    ref_precision: str = "float64"       # or "opmath", or "dtype" (see the module docstring)
    variant: str = ""                    # tells apart entries of one op (overloads, keywords)
    kwargs: tuple = ({},)                # keyword sets every case runs with
    scalar_kwargs: tuple = ()            # keywords whose numbers promote like operands (min, weight)
    param_kwargs: tuple = ()             # keywords that reach the kernel in the compute type (eps)
    operator: str | None = None          # Python operator spelling ("+", "abs", "~")
    inplace: bool = True                 # has op_()
    has_out: bool = True                 # has an out= form
    any_out_dtype: bool = False          # out=/in-place accept every dtype (comparisons)
    fixed: dict = field(default_factory=dict)  # input index -> dtype that input always has
    self_index: int = 0                  # which input is `self` for the in-place method
    scalars: tuple = (2, 3.5, True)      # Python numbers tried as the last input
    zero_sign: bool = True               # the sign of a zero result must match
    bool_operands: bool = True           # False: any bool operand is a TypeError (sub)
    errors: tuple = ()
    notes: str = ""
    error_name: str = ""                 # the name errors carry, when not `name` (an alias)

    @property
    def named(self) -> str:
        """The op name error messages must contain."""
        return self.error_name or self.name

    @property
    def label(self) -> str:
        return f"{self.name}.{self.variant}" if self.variant else self.name

    def takes(self, common: str, operand_dtypes) -> bool:
        """Whether inputs of `operand_dtypes` (None: a Python number) promoting to `common` run."""
        return common in self.dtypes and (self.bool_operands or "bool" not in operand_dtypes)

    def domains(self, dtype: str) -> list:
        d = self.int_domain if dtype in INTS else self.domain
        return list(d) if isinstance(d[0], (tuple, list)) else [d] * self.arity


def binary(name, ref, **kw):
    return OpInfo(name, ref, arity=2, **kw)


# ---- references whose integer or bool semantics are not NumPy's
def floor_divide_ref(a, b):
    if a.dtype == bool:
        return a & b
    return np.floor_divide(a, b)


def remainder_ref(a, b):
    if a.dtype == bool:
        return np.zeros(np.broadcast(a, b).shape, bool)
    return np.remainder(a, b)


def pow_ref(a, b):
    """Floats: IEEE pow. Integers wrap; a negative exponent gives the truncated reciprocal
    (1, ±1 for base -1, else 0); bool: base or not exponent."""
    if a.dtype == bool:
        return a | ~b
    if a.dtype.kind == "f":
        return np.power(a, b)
    neg = b < 0
    out = np.power(a, np.where(neg, 0, b).astype(a.dtype))
    recip = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
    return np.where(neg, recip, out).astype(a.dtype)


def add_ref(a, b, alpha=1):
    return a + alpha * b


def sub_ref(a, b, alpha=1):
    return a - alpha * b


def _shift_counts():
    return (-50, 50), (0, 8)


COMPARISON_NOTE = "IEEE: NaN compares false except under ne; 0.0 == -0.0."

OPS = [
    binary("add", add_ref, operator="+", kwargs=({}, {"alpha": 2}), ref_precision="opmath",
           notes="Integers wrap; bool add is logical or; a + alpha * b with the product rounded first."),
    binary("sub", sub_ref, dtypes=INTS + FLOATS, bool_operands=False, operator="-", kwargs=({}, {"alpha": 2}), ref_precision="opmath",
           errors=(ErrorCase("bool inputs", lambda f, t: f(t([True], "bool"), t([False], "bool")), TypeError,
                             "sub: subtraction with a bool tensor"),)),
    binary("mul", np.multiply, operator="*", notes="Integers wrap; bool mul is logical and."),
    binary("div", np.true_divide, result="float", operator="/",
           notes="True division; integers compute in float32, so x / 0 is ±inf or NaN."),
    binary("floor_divide", floor_divide_ref, operator="//", ref_precision="opmath",
           notes="Python semantics (toward -inf); integer x // 0 == 0; INT_MIN // -1 wraps."),
    binary("remainder", remainder_ref, operator="%", ref_precision="opmath",
           notes="Python semantics: the divisor's sign; integer x % 0 == 0; a zero remainder takes "
                 "the divisor's sign."),
    binary("pow", pow_ref, operator="**", ulps=ulps(f32=4, f64=2), int_domain=((-6, 6), (0, 12)),
           domain=((0.0, 8.0), (-4.0, 4.0)), scalars=(2, 0.5, True),
           notes="Integers wrap; a negative integer exponent gives the truncated reciprocal."),
    binary("atan2", np.arctan2, result="float", ulps=ulps(f32=3, f64=2)),
    binary("eq", np.equal, result="bool", operator="==", any_out_dtype=True, notes=COMPARISON_NOTE),
    binary("ne", np.not_equal, result="bool", operator="!=", any_out_dtype=True, notes=COMPARISON_NOTE),
    binary("lt", np.less, result="bool", operator="<", any_out_dtype=True, notes=COMPARISON_NOTE),
    binary("le", np.less_equal, result="bool", operator="<=", any_out_dtype=True, notes=COMPARISON_NOTE),
    binary("gt", np.greater, result="bool", operator=">", any_out_dtype=True, notes=COMPARISON_NOTE),
    binary("ge", np.greater_equal, result="bool", operator=">=", any_out_dtype=True, notes=COMPARISON_NOTE),
    binary("bitwise_and", np.bitwise_and, dtypes=BOOL + INTS, operator="&", scalars=(6, True, 1.5)),
    binary("bitwise_or", np.bitwise_or, dtypes=BOOL + INTS, operator="|", scalars=(6, True, 1.5)),
    binary("bitwise_xor", np.bitwise_xor, dtypes=BOOL + INTS, operator="^", scalars=(6, True, 1.5)),
    binary("bitwise_left_shift", np.left_shift, dtypes=INTS, operator="<<", int_domain=_shift_counts(),
           scalars=(3,), notes="Counts < 0 or >= the bit width give 0."),
    binary("bitwise_right_shift", np.right_shift, dtypes=INTS, operator=">>", int_domain=_shift_counts(),
           scalars=(3,), notes="Arithmetic for signed types; counts < 0 or >= the width give the sign fill."),
    OpInfo("bitwise_not", np.invert, dtypes=BOOL + INTS, operator="~", notes="bool: logical not."),
    OpInfo("abs", np.abs, operator="abs", notes="abs(INT_MIN) wraps to INT_MIN; clears the sign of -0.0."),
    OpInfo("neg", np.negative, dtypes=INTS + FLOATS, operator="-",
           errors=(ErrorCase("bool input", lambda f, t: f(t([True], "bool")), TypeError, "neg: negation of a bool"),),
           notes="Integers wrap (-INT_MIN == INT_MIN)."),
    OpInfo("exp", np.exp, result="float", ulps=ulps(f32=2, f64=2)),
    OpInfo("where", np.where, arity=3, fixed={0: "bool"}, self_index=1,
           errors=(ErrorCase("non-bool condition", lambda f, t: f(t([1], "int32"), t([1.0], "float32"),
                                                               t([2.0], "float32")), TypeError, "where: condition"),),
           notes="The condition takes no part in type promotion."),
]


def float_math(name, ref, f32, f64, domain=(-10.0, 10.0), **kw):
    """One input, float result (integers and bool give float32)."""
    return OpInfo(name, ref, result="float", ulps=ulps(f32=f32, f64=f64), domain=domain, **kw)


POSITIVE = (1e-3, 100.0)
UNIT = (-1.0, 1.0)
OPS += [
    float_math("sqrt", np.sqrt, 0, 0, POSITIVE),
    float_math("rsqrt", refs.rsqrt, 2, 2, POSITIVE),
    float_math("cbrt", np.cbrt, 2, 2, (-100.0, 100.0)),
    float_math("exp2", np.exp2, 2, 2, (-20.0, 20.0)),
    float_math("expm1", np.expm1, 2, 2),
    float_math("log", np.log, 3, 2, POSITIVE,
               notes="float32: SLEEF's 3.5-ULP log on the CPU (2.85 ULP measured; NumPy's own errs up to 3.83)."),
    float_math("log2", np.log2, 2, 2, POSITIVE),
    float_math("log10", np.log10, 2, 2, POSITIVE),
    float_math("log1p", np.log1p, 2, 2, (-0.999, 100.0)),
    float_math("sin", np.sin, 2, 2),
    float_math("cos", np.cos, 2, 2),
    float_math("tan", np.tan, 4, 2),
    float_math("asin", np.arcsin, 2, 2, UNIT),
    float_math("acos", np.arccos, 2, 2, UNIT),
    float_math("atan", np.arctan, 2, 2),
    float_math("sinh", np.sinh, 3, 2),
    float_math("cosh", np.cosh, 2, 2),
    float_math("tanh", np.tanh, 2, 2),
    float_math("asinh", np.arcsinh, 3, 3),
    float_math("acosh", np.arccosh, 4, 3, (1.0, 100.0)),
    float_math("atanh", np.arctanh, 3, 2, UNIT),
    float_math("sigmoid", refs.sigmoid, 3, 3, (-30.0, 30.0)),
    float_math("erf", refs.erf, 2, 2, (-5.0, 5.0)),
    float_math("erfc", refs.erfc, 4, 5, (-5.0, 10.0)),
    float_math("erfinv", refs.erfinv, 4, 4, UNIT),
    float_math("lgamma", refs.lgamma, 6, 4, (0.05, 30.0), atol={"float32": 2e-7, "float64": 1e-15},
               notes="Absolute bound near the zeros at 1 and 2."),
    float_math("digamma", refs.digamma, 8, 8, (-10.0, 30.0), atol={"float32": 1e-6, "float64": 4e-15},
               notes="psi(+-0) = -+inf, NaN at the negative integers; absolute bound near the zero at 1.4616; "
                     "negative x by reflection (up to 8 ulp)."),
    float_math("reciprocal", np.reciprocal, 0, 0),
    float_math("deg2rad", np.deg2rad, 1, 1, (-720.0, 720.0)),
    float_math("rad2deg", np.rad2deg, 1, 1),
]


def predicate(name, ref, **kw):
    return OpInfo(name, ref, result="bool", any_out_dtype=True, **kw)


def no_bool_error(name, arity=1):
    return (ErrorCase("bool input", lambda f, t: f(*[t([True], "bool")] * arity), TypeError,
                      f"{name}: not supported for bool tensors"),)


FALSE = lambda x: np.zeros(x.shape, bool)  # noqa: E731
TRUE = lambda x: np.ones(x.shape, bool)  # noqa: E731
# max + log1p(...) cancels when the result is near 0: there the error is a few ulp of the inputs
# (|x| <= 10 here), not of the result.
CANCELLING_ATOL = {"float16": 2 ** -7, "bfloat16": 2 ** -4, "float32": 4e-6, "float64": 8e-15}
CANCELLING_NOTE = "Near a zero result the bound is absolute: a few ulp of the inputs."
SUBNORMAL_ATOL = {"float16": 2.0 ** -14, "bfloat16": 2.0 ** -126, "float32": 2.0 ** -126, "float64": 2.0 ** -1022}

OPS += [
    predicate("isnan", refs.float_only(np.isnan, FALSE)),
    predicate("isinf", refs.float_only(np.isinf, FALSE)),
    predicate("isfinite", refs.float_only(np.isfinite, TRUE)),
    predicate("isposinf", refs.float_only(np.isposinf, FALSE)),
    predicate("isneginf", refs.float_only(np.isneginf, FALSE)),
    predicate("signbit", refs.signbit, notes="True for -0.0; integers: x < 0."),
    predicate("logical_not", np.logical_not, notes="NaN is true, -0.0 false."),
    binary("logical_and", np.logical_and, result="bool", any_out_dtype=True),
    binary("logical_or", np.logical_or, result="bool", any_out_dtype=True),
    binary("logical_xor", np.logical_xor, result="bool", any_out_dtype=True),
    OpInfo("floor", refs.integral_identity(np.floor), dtypes=INTS + FLOATS, errors=no_bool_error("floor")),
    OpInfo("ceil", refs.integral_identity(np.ceil), dtypes=INTS + FLOATS, errors=no_bool_error("ceil")),
    OpInfo("trunc", refs.integral_identity(np.trunc), dtypes=INTS + FLOATS, errors=no_bool_error("trunc")),
    OpInfo("round", refs.integral_identity(np.rint), dtypes=INTS + FLOATS, errors=no_bool_error("round"),
           notes="Half to even."),
    OpInfo("frac", lambda x: x - np.trunc(x), dtypes=FLOATS, notes="x - trunc(x), signed like x."),
    OpInfo("sign", refs.sign, notes="±0 gives +0, NaN stays NaN (as NumPy)."),
    OpInfo("sgn", refs.sign, notes="sign, for real dtypes."),
    OpInfo("positive", lambda x: x, dtypes=INTS + FLOATS, operator="+", errors=no_bool_error("positive")),
    OpInfo("square", np.square, dtypes=INTS + FLOATS, errors=no_bool_error("square"), notes="Integers wrap."),
    OpInfo("relu", refs.relu, dtypes=INTS + FLOATS, errors=no_bool_error("relu"), notes="NaN propagates."),
    OpInfo("silu", refs.silu, dtypes=FLOATS, ulps=ulps(f32=3, f64=3), atol=SUBNORMAL_ATOL, domain=(-30.0, 30.0),
           notes="silu(-inf) = -0.0; subnormal results within the smallest normal."),
    OpInfo("mish", refs.mish, dtypes=FLOATS, ulps=ulps(f32=4, f64=4), atol=SUBNORMAL_ATOL, domain=(-30.0, 30.0),
           notes="mish(-inf) = -0.0; subnormal results within the smallest normal."),
    OpInfo("gelu", refs.gelu, dtypes=FLOATS, ulps=ulps(f32=4, f64=4), atol=SUBNORMAL_ATOL, domain=(-12.0, 12.0),
           notes="Exact form x/2 erfc(-x/sqrt 2), accurate in the negative tail; gelu(-inf) = -0.0."),
    binary("maximum", refs.minmax(np.maximum, True), notes="NaN propagates; -0.0 < +0.0."),
    binary("minimum", refs.minmax(np.minimum, False), notes="NaN propagates; -0.0 < +0.0."),
    binary("fmax", refs.minmax(np.fmax, True), notes="A NaN operand is ignored; -0.0 < +0.0."),
    binary("fmin", refs.minmax(np.fmin, False), notes="A NaN operand is ignored; -0.0 < +0.0."),
    binary("fmod", np.fmod, dtypes=INTS + FLOATS, scalars=(3, 2.5), errors=no_bool_error("fmod", 2),
           notes="C's truncated remainder (dividend's sign); integer x fmod 0 == 0."),
    binary("nextafter", refs.nextafter, dtypes=FLOATS, ref_precision="dtype", scalars=(2.5,),
           notes="Steps by the storage dtype's spacing (float16/bfloat16 included)."),
    binary("copysign", np.copysign, result="float"),
    binary("hypot", np.hypot, result="float", ulps=ulps(f32=2, f64=2)),
    binary("logaddexp", np.logaddexp, result="float", ulps=ulps(f32=3, f64=3), atol=CANCELLING_ATOL,
           notes=CANCELLING_NOTE),
    binary("logaddexp2", np.logaddexp2, result="float", ulps=ulps(f32=3, f64=3), atol=CANCELLING_ATOL,
           notes=CANCELLING_NOTE),
    binary("xlogy", refs.xlogy, result="float", ulps=ulps(f32=3, f64=3), domain=((-10.0, 10.0), (0.0, 20.0)),
           notes="0 where x == 0 (even for y == 0 or inf) unless y is NaN."),
]


def clamp_ref(x, lo, hi):
    return refs.minmax(np.minimum, False)(refs.minmax(np.maximum, True)(x, lo), hi)


def lerp_ref(a, b, w):
    return np.where(w < 0.5, a + w * (b - a), b - (b - a) * (1 - w))


def logit_ref(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    with np.errstate(all="ignore"):
        return np.where(x < 0.25, np.log(x / (1 - x)), 2 * np.arctanh(2 * x - 1))


def softplus_ref(x, beta=1, threshold=20):
    with np.errstate(over="ignore"):
        return np.where(x * beta > threshold, x, np.log1p(np.exp(x * beta)) / beta)


def round_decimals_ref(x, decimals):
    scale = x.dtype.type(10.0 ** abs(decimals))
    return np.rint(x * scale) / scale if decimals > 0 else np.rint(x / scale) * scale


CLAMP_NOTE = "min(max(x, min), max): NaN anywhere gives NaN; min > max gives max."
OPS += [
    OpInfo("clamp", clamp_ref, arity=3, notes=CLAMP_NOTE),
    OpInfo("clamp", lambda x, min, max: clamp_ref(x, min, max), variant="scalar_bounds",
           kwargs=({"min": 1, "max": 5}, {"min": -2.5, "max": 3.5}), scalar_kwargs=("min", "max")),
    OpInfo("clip", clamp_ref, arity=3, error_name="clamp", notes="clamp under its NumPy name."),
    binary("clamp_min", refs.minmax(np.maximum, True), notes="maximum(x, min)."),
    binary("clamp_max", refs.minmax(np.minimum, False), notes="minimum(x, max)."),
    OpInfo("lerp", lerp_ref, arity=3, dtypes=FLOATS, ref_precision="opmath",
           notes="self + weight * (end - self), from end when weight >= 0.5 (weight 1 gives end)."),
    binary("lerp", lambda a, b, weight: lerp_ref(a, b, weight), variant="scalar_weight", dtypes=FLOATS,
           ref_precision="opmath", kwargs=({"weight": 0.25}, {"weight": 0.75}), scalar_kwargs=("weight",),
           scalars=(2.5,)),
    OpInfo("addcmul", lambda s, a, b, value=1: s + value * a * b, arity=3, dtypes=INTS + FLOATS,
           ref_precision="opmath", kwargs=({}, {"value": 3}), notes="self + value * t1 * t2; integers wrap."),
    OpInfo("addcdiv", lambda s, a, b, value=1: s + value * (a / b), arity=3, dtypes=FLOATS,
           ref_precision="opmath", kwargs=({}, {"value": 3}),
           errors=(ErrorCase("integer inputs", lambda f, t: f(t([1], "int32"), t([1], "int32"), t([2], "int32")),
                             TypeError, "addcdiv: integer division is not supported"),)),
    float_math("logit", logit_ref, 4, 4, (0.0, 1.0), kwargs=({}, {"eps": 1e-3}), param_kwargs=("eps",),
               ref_precision="opmath",
               notes="eps clamps x to [eps, 1 - eps] first."),
    OpInfo("softplus", softplus_ref, dtypes=FLOATS, ulps=ulps(f32=2, f64=2), domain=(-30.0, 30.0),
           kwargs=({}, {"beta": 2, "threshold": 10.5}), param_kwargs=("beta", "threshold"), notes="x itself where beta * x > threshold."),
    OpInfo("round", round_decimals_ref, variant="decimals", dtypes=FLOATS, ref_precision="opmath",
           kwargs=({"decimals": 2}, {"decimals": -1}), domain=(-1000.0, 1000.0),
           errors=(ErrorCase("integer input", lambda f, t: f(t([1], "int32"), decimals=1), TypeError,
                             "round: decimals"),),
           notes="rint(x * 10^d) / 10^d in the compute type, as PyTorch."),
]

OPS += [
    binary("div", lambda a, b, rounding_mode: refs.div_trunc(a, b), variant="trunc", kwargs=({"rounding_mode": "trunc"},), ref_precision="opmath",
           errors=(ErrorCase("unknown rounding_mode", lambda f, t: f(t([1.0], "float32"), t([2.0], "float32"),
                                                                  rounding_mode="round"), ValueError,
                             "div: rounding_mode must be None, 'trunc' or 'floor', got 'round'"),),
           notes="Toward zero; integers stay integers (x / 0 == 0, INT_MIN / -1 wraps)."),
    binary("div", lambda a, b, rounding_mode: floor_divide_ref(a, b), variant="floor", kwargs=({"rounding_mode": "floor"},), ref_precision="opmath",
           notes="floor_divide."),
    OpInfo("gelu", lambda x, approximate: refs.gelu_tanh(x), variant="tanh", dtypes=FLOATS, ulps=ulps(f32=64, f64=64), atol=SUBNORMAL_ATOL,
           domain=(-6.0, 6.0), kwargs=({"approximate": "tanh"},),
           errors=(ErrorCase("unknown approximate", lambda f, t: f(t([1.0], "float32"), approximate="erf"),
                             ValueError, "gelu: approximate must be 'none' or 'tanh', got 'erf'"),),
           notes="x * sigmoid(2u), so the tail does not cancel to 0; there exp magnifies the few-ulp "
                 "rounding of u about 2|u| times (up to 64 ulp for x > -6; beyond, the approximation itself "
                 "is far from gelu)."),
]

OPS += [
    OpInfo("nan_to_num", refs.nan_to_num, kwargs=({}, {"nan": 1.5, "posinf": 100.0, "neginf": -7.0}),
           param_kwargs=("nan", "posinf", "neginf"), ref_precision="dtype", notes="Composite (three selects). Integers: a copy."),
    binary("isclose", refs.isclose, result="bool", inplace=False, has_out=False, ref_precision="dtype",
           kwargs=({}, {"rtol": 0.01, "atol": 0.5, "equal_nan": True}), scalars=(2, 3.5),
           notes="Composite. |a - b| <= atol + rtol |b| computed in the promoted dtype; integers in float64."),
]

BY_NAME = {op.label: op for op in OPS}

# Ops with a table of their own (and their own driver) count as having an entry here.
from opinfo_reductions import REDUCTIONS  # noqa: E402

TABLED_ELSEWHERE = {op.name for op in REDUCTIONS}
