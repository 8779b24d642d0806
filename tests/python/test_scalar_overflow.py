"""A Python int that does not fit the integer dtype an op computes in raises OverflowError naming
the op, the number and the dtype (NumPy 2 and PyTorch refuse too) instead of wrapping."""
import operator

import numpy as np
import pytest

import ingot


def tensor(values, dtype):
    return ingot.asarray(np.array(values, dtype))


@pytest.mark.parametrize("use, op, number, dtype", [
    (lambda t: t + 1000, "add", 1000, "int8"),
    (lambda t: 1000 + t, "add", 1000, "int8"),
    (lambda t: t - 40000, "sub", 40000, "int16"),
    (lambda t: 300 - t, "sub", 300, "uint8"),
    (lambda t: t << 300, "bitwise_left_shift", 300, "uint8"),
    (lambda t: t * -1, "mul", -1, "uint8"),
    (lambda t: t & 2**40, "bitwise_and", 2**40, "int32"),
    (lambda t: t == 128, "eq", 128, "int8"),
    (lambda t: ingot.where(t > 0, t, 1000), "where", 1000, "int8"),
    (lambda t: ingot.floor_divide(t, -129), "floor_divide", -129, "int8"),
])
def test_number_outside_the_integer_dtype_is_an_overflow_error(use, op, number, dtype):
    t = tensor([1, 2, 3], dtype)
    with pytest.raises(OverflowError, match=rf"{op}: the number {number} does not fit in {dtype}"):
        use(t)


@pytest.mark.parametrize("iop, number", [(operator.iadd, 200), (operator.isub, -200), (operator.ilshift, 256)])
def test_in_place_forms_check_the_number_too(iop, number):
    t = tensor([1, 2], "int8")
    with pytest.raises(OverflowError, match="int8"):
        iop(t, number)
    np.testing.assert_array_equal(t.numpy(), [1, 2])  # nothing was written


def test_numbers_at_the_dtype_limits_still_work():
    t = tensor([0, 1], "int8")
    np.testing.assert_array_equal((t + 127).numpy(), np.array([127, -128], np.int8))  # the sum wraps
    np.testing.assert_array_equal((t + -128).numpy(), np.array([-128, -127], np.int8))
    np.testing.assert_array_equal((t - 127).numpy(), np.array([-127, -126], np.int8))
    np.testing.assert_array_equal((tensor([1], "uint8") * 255).numpy(), [255])


def test_wider_results_take_the_number():
    assert (tensor([1], "int8") + 1000.5).dtype == ingot.float32  # float category: computed in float32
    assert (tensor([True], "bool") + 1000).dtype == ingot.int64    # bool + int is int64
    np.testing.assert_array_equal((tensor([1], "int8") + tensor([1000], "int16")).numpy(), [1001])
    assert np.isinf((tensor([1], "float16") + 100000).numpy()[0])  # floats round, as in NumPy


def test_number_beyond_int64_is_an_overflow_error_naming_the_op():
    with pytest.raises(OverflowError, match=r"add: Python int 9223372036854775808 .* out of range for int64"):
        tensor([1], "int64") + 2**63
