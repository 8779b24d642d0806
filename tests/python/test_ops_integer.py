"""Comparison, bitwise, shift and abs operators against NumPy: == != < <= > >= & | ^ ~ << >> abs(),
their reflected forms with Python scalars and the in-place forms &= |= ^= <<= >>=."""
import operator

import numpy as np
import pytest

import ingot
from ingot_test_helpers import NUMPY_DTYPES, requires_op, sample

INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64"]
BITWISE_DTYPES = ["bool"] + INT_DTYPES
FLOAT_DTYPES = ["float16", "float32", "float64"]

COMPARISONS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
BITWISE = [operator.and_, operator.or_, operator.xor]
SHIFTS = [operator.lshift, operator.rshift]

pytestmark = requires_op("ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
                         "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "abs")


def with_ties(a, b):
    """b with a third of its elements equal to a's, so every comparison outcome occurs."""
    b = b.copy()
    b.flat[::3] = a.flat[::3]
    return b


def check(got, want):
    assert got.dtype == getattr(ingot, str(want.dtype)), (got.dtype, want.dtype)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("op", COMPARISONS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_comparison_matches_numpy(op, dtype):
    a = sample((3, 5), dtype, 1)
    b = with_ties(a, sample((3, 5), dtype, 2))
    check(op(ingot.asarray(a), ingot.asarray(b)), op(a, b))


@pytest.mark.parametrize("op", COMPARISONS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_comparison_with_nan_and_signed_zero_matches_numpy(op, dtype):
    a = np.array([np.nan, np.nan, 1.0, -0.0, np.inf, -np.inf], dtype)
    b = np.array([np.nan, 1.0, np.nan, 0.0, np.inf, 0.0], dtype)
    check(op(ingot.asarray(a), ingot.asarray(b)), op(a, b))


@pytest.mark.parametrize("op", COMPARISONS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dta, dtb", [("uint8", "int8"), ("int32", "float16"), ("int64", "float64"), ("bool", "int16")])
def test_comparison_of_mixed_dtypes_broadcasts_and_matches_numpy(op, dta, dtb):
    a, b = sample((4, 1), dta, 1), sample((3,), dtb, 2)
    check(op(ingot.asarray(a), ingot.asarray(b)), op(a, b))


@pytest.mark.parametrize("op", COMPARISONS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("scalar", [2, -3, 2.5, True])
def test_comparison_with_python_scalar_on_either_side(op, scalar):
    a = sample((6,), "int32", 3)
    t = ingot.asarray(a)
    check(op(t, scalar), op(a, scalar))
    check(op(scalar, t), op(scalar, a))  # Python reflects: 2 < t is t > 2


def test_comparison_results_are_bool_even_for_float16_inputs():
    assert (ingot.asarray(np.ones(2, np.float16)) < 2).dtype == ingot.bool


@pytest.mark.parametrize("op", BITWISE, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", BITWISE_DTYPES)
def test_bitwise_matches_numpy(op, dtype):
    a, b = sample((3, 5), dtype, 1), sample((3, 5), dtype, 2)
    check(op(ingot.asarray(a), ingot.asarray(b)), op(a, b))


@pytest.mark.parametrize("op", BITWISE, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dta, dtb", [("uint8", "int8"), ("bool", "int32"), ("int16", "int64"), ("uint8", "int64")])
def test_bitwise_of_mixed_dtypes_promotes_like_numpy(op, dta, dtb):
    a, b = sample((2, 3), dta, 1), sample((3,), dtb, 2)
    check(op(ingot.asarray(a), ingot.asarray(b)), op(a, b))


@pytest.mark.parametrize("op", BITWISE, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_bitwise_with_python_int_on_either_side_keeps_the_tensor_dtype(op, dtype):
    a = sample((7,), dtype, 4)
    t = ingot.asarray(a)
    check(op(t, 6), op(a, a.dtype.type(6)))
    check(op(6, t), op(a.dtype.type(6), a))


@pytest.mark.parametrize("op", BITWISE, ids=lambda o: o.__name__)
def test_bitwise_of_bool_with_python_bool(op):
    a = np.array([True, False, True])
    check(op(ingot.asarray(a), True), op(a, True))
    check(op(False, ingot.asarray(a)), op(False, a))


@pytest.mark.parametrize("dtype", BITWISE_DTYPES)
def test_invert_matches_numpy(dtype):
    a = sample((9,), dtype, 5)
    check(~ingot.asarray(a), ~a)


@pytest.mark.parametrize("op", SHIFTS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_shift_by_counts_within_the_width_matches_numpy(op, dtype):
    width = np.dtype(dtype).itemsize * 8
    a = sample((4, 6), dtype, 1)
    counts = (np.arange(24).reshape(4, 6) % width).astype(dtype)
    check(op(ingot.asarray(a), ingot.asarray(counts)), op(a, counts))


@pytest.mark.parametrize("op", SHIFTS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_shift_by_negative_or_too_large_counts_gives_zero_or_the_sign_fill(op, dtype):
    width = np.dtype(dtype).itemsize * 8
    a = np.array([5, -5, 0, 1, -1, 7], dtype)
    counts = np.array([width, width, -1, width + 3, -2, 100], dtype)
    # NumPy: << gives 0; >> gives 0 for a >= 0 and -1 for a < 0 (the sign fill).
    if op is operator.lshift:
        want = np.zeros_like(a)
    else:
        want = np.where(a < 0, -1, 0).astype(dtype)
    check(op(ingot.asarray(a), ingot.asarray(counts)), want)
    check(op(ingot.asarray(a), ingot.asarray(counts)), op(a, counts))


def test_left_shift_wraps_modulo_the_width():
    a = np.array([1, 3, -1, 127], np.int8)
    check(ingot.asarray(a) << 7, a << np.int8(7))
    u = np.array([255, 129], np.uint8)
    check(ingot.asarray(u) << 1, u << np.uint8(1))


@pytest.mark.parametrize("op", SHIFTS, ids=lambda o: o.__name__)
def test_shift_with_python_int_on_either_side(op):
    a = np.array([1, 2, 3, 12], np.int32)
    t = ingot.asarray(a)
    check(op(t, 2), op(a, np.int32(2)))
    check(op(64, t), op(np.int32(64), a))


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_abs_matches_numpy(dtype):
    a = sample((11,), dtype, 6)
    check(abs(ingot.asarray(a)), np.abs(a))


def test_abs_clears_the_sign_of_negative_zero_and_keeps_nan():
    a = np.array([-0.0, np.nan, -np.inf], np.float32)
    got = abs(ingot.asarray(a)).numpy()
    np.testing.assert_array_equal(got, np.abs(a))
    assert not np.signbit(got[0])


def test_abs_of_the_most_negative_integer_wraps_like_numpy():
    for dtype in ["int8", "int16", "int32", "int64"]:
        a = np.array([np.iinfo(dtype).min, -3], dtype)
        check(abs(ingot.asarray(a)), np.abs(a))


@pytest.mark.parametrize("iop, op", [(operator.iand, operator.and_), (operator.ior, operator.or_),
                                     (operator.ixor, operator.xor), (operator.ilshift, operator.lshift),
                                     (operator.irshift, operator.rshift)], ids=lambda o: o.__name__)
@pytest.mark.parametrize("other", ["tensor", "scalar"])
def test_inplace_operators_update_self_and_keep_its_dtype(iop, op, other):
    a = np.array([12, -7, 5, 64], np.int16)
    b = np.array([3, 2, 1, 4], np.int16) if other == "tensor" else 3
    t = ingot.asarray(a.copy())  # asarray shares a's memory; keep a for the reference
    same = t
    t = iop(t, ingot.asarray(b) if other == "tensor" else b)
    assert t is same
    check(t, op(a, np.int16(b) if other == "scalar" else b))


def test_inplace_operator_on_a_view_writes_through():
    base = ingot.asarray(np.array([[1, 2], [3, 4]], np.int32))
    row = base[1]
    row ^= 1
    np.testing.assert_array_equal(base.numpy(), [[1, 2], [2, 5]])


def test_inplace_bitwise_that_cannot_cast_into_bool_is_a_type_error():
    t = ingot.asarray(np.array([True, False]))
    with pytest.raises(TypeError):
        t |= ingot.asarray(np.array([2, 3], np.int32))


@pytest.mark.parametrize("use, name", [(lambda t: t & t, "bitwise_and"), (lambda t: t | 1, "bitwise_or"),
                                       (lambda t: 1 ^ t, "bitwise_xor"), (lambda t: ~t, "bitwise_not"),
                                       (lambda t: t << 1, "bitwise_left_shift"),
                                       (lambda t: t >> 1, "bitwise_right_shift")])
def test_bitwise_of_floats_is_a_type_error_naming_the_op(use, name):
    with pytest.raises(TypeError, match=name):
        use(ingot.asarray(np.ones(2, np.float32)))


def test_bitwise_of_int_and_python_float_is_a_type_error():
    with pytest.raises(TypeError, match="bitwise_and"):
        ingot.asarray(np.ones(2, np.int32)) & 1.5


def test_shift_of_bool_is_a_type_error():
    t = ingot.asarray(np.array([True]))
    with pytest.raises(TypeError, match="bitwise_left_shift"):
        t << t


def test_functions_out_and_methods():
    a, b = np.array([6, 5], np.int32), np.array([3, 1], np.int32)
    ta, tb = ingot.asarray(a), ingot.asarray(b)
    out = ingot.empty((2,), dtype=ingot.int64)
    assert ingot.bitwise_and(ta, tb, out=out) is out
    np.testing.assert_array_equal(out.numpy(), a & b)
    check(ta.bitwise_left_shift(1), a << np.int32(1))
    check(ingot.lt(ta, 6), a < 6)
    flags = ingot.empty((2,), dtype=ingot.float32)
    ingot.ge(ta, tb, out=flags)
    np.testing.assert_array_equal(flags.numpy(), (a >= b).astype(np.float32))
    check(ta.abs(), np.abs(a))
