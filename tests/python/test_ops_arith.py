"""The // % ** operators and floor_divide / remainder / pow against NumPy: Python semantics
(quotient rounds toward -inf, remainder takes the divisor's sign), integer division by zero
giving 0, integer powers wrapping, float special values."""
import numpy as np
import pytest

import ingot
from ingot_test_helpers import requires_op, sample

pytestmark = requires_op("floor_divide", "remainder", "pow")

INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64"]
FLOAT_DTYPES = ["float16", "float32", "float64"]
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, 1e-3]


def operands(dtype, seed=0):
    """Operands with every sign combination; integer divisors include 0."""
    a, b = sample((6, 7), dtype, seed), sample((6, 7), dtype, seed + 1)
    if dtype.startswith("float"):
        grid = np.array(SPECIALS, dtype)
        a, b = np.repeat(grid, len(grid)), np.tile(grid, len(grid))
    return a, b


def assert_same(got, want):
    """Same dtype and values; NaN equals NaN and the sign of zero counts."""
    got = got.numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    zero = want == 0
    np.testing.assert_array_equal(np.signbit(got[zero]), np.signbit(want[zero]))


def numpy_int_pow(a, b):
    """NumPy's wrapping integer power for b >= 0; PyTorch's truncated reciprocal for b < 0."""
    b = b.astype(a.dtype)
    out = np.power(a, np.where(b < 0, 0, b))
    neg = b < 0
    recip = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0)).astype(a.dtype)
    return np.where(neg, recip, out).astype(a.dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES)
def test_floor_divide_operator_matches_numpy(dtype):
    a, b = operands(dtype)
    with np.errstate(all="ignore"):
        want = a // b
    assert_same(ingot.asarray(a) // ingot.asarray(b), want)
    assert_same(ingot.floor_divide(ingot.asarray(a), ingot.asarray(b)), want)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES)
def test_remainder_operator_matches_numpy(dtype):
    a, b = operands(dtype)
    with np.errstate(all="ignore"):
        want = a % b
    assert_same(ingot.asarray(a) % ingot.asarray(b), want)
    assert_same(ingot.asarray(a).remainder(ingot.asarray(b)), want)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_pow_wraps_like_numpy(dtype):
    a = sample((40,), dtype, 3)
    b = np.abs(sample((40,), dtype, 4)) % 40
    with np.errstate(all="ignore"):
        want = np.power(a, b)
    assert_same(ingot.asarray(a) ** ingot.asarray(b), want)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64"])
def test_negative_integer_exponent_gives_truncated_reciprocal(dtype):
    a = np.array([1, -1, -1, 2, 0, -5, 3], dtype)
    b = np.array([-3, -3, -4, -1, -2, -1, 2], dtype)
    assert_same(ingot.asarray(a) ** ingot.asarray(b), numpy_int_pow(a, b))


@pytest.mark.parametrize("dtype, rtol", [("float16", 1e-3), ("float32", 3e-7), ("float64", 1e-15)])
def test_float_pow_matches_numpy(dtype, rtol):
    a, b = operands(dtype)
    with np.errstate(all="ignore"):
        want = np.power(a, b)
    got = (ingot.asarray(a) ** ingot.asarray(b)).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


# Integer tensors with float scalars: test_int_tensor_with_float_scalar_is_float32.
SCALAR_CASES = [(d, k) for d in ["int8", "int32", "float32", "float64"] for k in [3, -3, 2.5, -0.5]
                if d.startswith("float") or isinstance(k, int)]


@pytest.mark.parametrize("dtype, k", SCALAR_CASES)
def test_python_scalar_operands_and_reflected_forms(dtype, k):
    a = sample((5, 4), dtype, 7)
    if dtype.startswith("int"):
        a = np.where(a == 0, 1, a).astype(dtype)  # reflected k // a divides by a
    t = ingot.asarray(a)
    with np.errstate(all="ignore"):
        assert_same(t // k, a // np.asarray(k, dtype))
        assert_same(t % k, a % np.asarray(k, dtype))
        assert_same(k // t, np.asarray(k, dtype) // a)
        assert_same(k % t, np.asarray(k, dtype) % a)
    if dtype.startswith("float"):
        rtol = 3e-7 if dtype == "float32" else 1e-15
        with np.errstate(all="ignore"):
            np.testing.assert_allclose((t ** k).numpy(), a ** np.asarray(k, dtype), rtol=rtol, equal_nan=True)
            np.testing.assert_allclose((k ** t).numpy(), np.asarray(k, dtype) ** a, rtol=rtol, equal_nan=True)
    elif k > 0:
        assert_same(t ** k, numpy_int_pow(a, np.full_like(a, k)))
        assert_same(k ** t, numpy_int_pow(np.full_like(a, k), a))


def test_int_tensor_with_float_scalar_is_float32():
    a = np.array([-7, -1, 4, 9], np.int32)
    t = ingot.asarray(a)
    with np.errstate(all="ignore"):
        cases = [(t ** 0.5, np.float32(a) ** np.float32(0.5)), (t // 2.5, np.float32(a) // np.float32(2.5)),
                 (t % -2.5, np.float32(a) % np.float32(-2.5)), (2.0 ** t, np.float32(2.0) ** np.float32(a))]
    for got, want in cases:
        assert got.dtype == ingot.float32
        np.testing.assert_allclose(got.numpy(), want, rtol=3e-7, equal_nan=True)


def test_integer_division_and_modulo_by_zero_give_zero():
    t = ingot.asarray(np.array([5, -5, 0], np.int32))
    np.testing.assert_array_equal((t // 0).numpy(), [0, 0, 0])
    np.testing.assert_array_equal((t % 0).numpy(), [0, 0, 0])


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_most_negative_integer_floor_divide_minus_one_wraps(dtype):
    lo = np.iinfo(dtype).min
    t = ingot.asarray(np.array([lo], dtype))
    assert (t // -1).numpy()[0] == lo
    assert (t % -1).numpy()[0] == 0


def test_in_place_operators_update_the_tensor():
    a = np.array([-7, -1, 0, 5, 9], np.int64)
    t = ingot.asarray(a.copy())
    same = t
    t //= 2
    t %= -3
    t **= 2
    assert t is same
    np.testing.assert_array_equal(t.numpy(), ((a // 2) % -3) ** 2)
    f = ingot.asarray(np.array([-2.5, 3.0, -0.0], np.float32))
    f //= -2
    assert_same(f, np.array([-2.5, 3.0, -0.0], np.float32) // np.float32(-2))


def test_in_place_that_cannot_cast_is_a_type_error():
    t = ingot.asarray(np.array([1, 2], np.int32))
    for bad in (lambda: t.__ifloordiv__(0.5), lambda: t.__imod__(1.5), lambda: t.__ipow__(0.5)):
        with pytest.raises(TypeError):
            bad()


def test_out_keyword_and_broadcasting():
    a = sample((3, 1), "float64", 1)
    b = sample((1, 4), "float64", 2)
    out = ingot.zeros((3, 4), dtype=ingot.float64)
    r = ingot.remainder(ingot.asarray(a), ingot.asarray(b), out=out)
    assert r is out or r.data_ptr() == out.data_ptr()
    np.testing.assert_array_equal(out.numpy(), a % b)
    np.testing.assert_array_equal(ingot.floor_divide(ingot.asarray(a), ingot.asarray(b)).numpy(), a // b)


def test_non_contiguous_operands():
    a = sample((6, 8), "int32", 1)
    b = np.where(sample((6, 4), "int32", 2) == 0, 3, sample((6, 4), "int32", 2)).astype(np.int32)
    ta, tb = ingot.asarray(a)[:, ::2], ingot.asarray(b)[::-1]
    np.testing.assert_array_equal((ta // tb).numpy(), a[:, ::2] // b[::-1])
    np.testing.assert_array_equal((ta % tb).numpy(), a[:, ::2] % b[::-1])
    np.testing.assert_array_equal((tb ** 2).numpy(), b[::-1] ** 2)


def test_pow_with_a_number_base_is_a_function_overload():
    e = np.array([0, 1, 3, 7], np.int32)
    got = ingot.pow(2, ingot.asarray(e))
    assert got.dtype == ingot.int32
    np.testing.assert_array_equal(got.numpy(), np.power(2, e))
    out = ingot.empty((4,), dtype=ingot.float32)
    assert ingot.pow(0.5, ingot.asarray(e), out=out) is out
    np.testing.assert_allclose(out.numpy(), np.power(np.float32(0.5), e.astype(np.float32)))
