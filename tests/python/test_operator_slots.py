"""ingot.Tensor's binary and in-place operators are C number slots (python/src/operators.cpp)
that call the dunders ingot/_tensor.py sets on the type: same results and errors as those, and
Python's own slots again wherever a dunder is reassigned."""
import numpy as np
import pytest

import ingot


def arr(t):
    return np.asarray(t.numpy())


def test_operators_with_tensors_and_numbers_on_either_side():
    a = ingot.asarray(np.array([6, 7], np.int64))
    np.testing.assert_array_equal(arr(a + a), [12, 14])
    np.testing.assert_array_equal(arr(a - 1), [5, 6])
    np.testing.assert_array_equal(arr(20 - a), [14, 13])
    np.testing.assert_array_equal(arr(a * 2), [12, 14])
    np.testing.assert_array_equal(arr(42 // a), [7, 6])
    np.testing.assert_array_equal(arr(15 % a), [3, 1])
    np.testing.assert_array_equal(arr(3 & a), [2, 3])
    np.testing.assert_array_equal(arr(1 << a), [64, 128])
    np.testing.assert_array_equal(arr(a / 2), [3, 3.5])
    np.testing.assert_array_equal(arr(2 ** a), [64, 128])


def test_inplace_operators_write_into_the_left_tensor_and_return_it():
    a = ingot.asarray(np.array([1, 2], np.int64))
    b = a
    b += 3
    b *= a
    b <<= 1
    assert b is a
    np.testing.assert_array_equal(arr(a), [32, 50])


def test_array_likes_convert_and_other_objects_raise_the_ops_type_error():
    a = ingot.ones(2)
    np.testing.assert_array_equal(arr([1, 2] + a), [2, 3])
    np.testing.assert_array_equal(arr(a - [1, 2]), [0, -1])
    with pytest.raises(TypeError, match="add: argument 'other'"):
        a + object()
    with pytest.raises(TypeError, match="add: argument 'other'"):
        object() + a
    with pytest.raises(TypeError, match="asarray"):  # __rsub__ converts its left operand first
        object() - a


def test_a_reassigned_dunder_is_called_by_the_operator(monkeypatch):
    monkeypatch.setattr(ingot.Tensor, "__add__", lambda self, other: "patched")
    monkeypatch.setattr(ingot.Tensor, "__rsub__", lambda self, other: "patched r")
    a = ingot.ones(2)
    assert a + a == "patched"
    assert 1 - a == "patched r"
    np.testing.assert_array_equal(arr(a - 1), [0, 0])


class _Reflecting:
    """An operand ingot cannot take that defines the reflected operators."""

    def __radd__(self, other):
        return ("radd", other)

    def __rsub__(self, other):
        return ("rsub", other)

    def __rmul__(self, other):
        return ("rmul", other)

    def __rtruediv__(self, other):
        return ("rtruediv", other)

    def __rpow__(self, other):
        return ("rpow", other)


def test_an_operand_with_the_reflected_dunder_is_asked_in_turn():
    # Python's protocol, as for NumPy arrays and PyTorch tensors: Tensor.__add__ returns
    # NotImplemented for an operand it cannot take, and Python calls that operand's __radd__.
    a = ingot.ones(2)
    x = _Reflecting()
    for result, name in [(a + x, "radd"), (a - x, "rsub"), (a * x, "rmul"), (a / x, "rtruediv"), (a ** x, "rpow")]:
        assert result[0] == name and result[1] is a
    assert a.__add__(x) is NotImplemented
    b = a
    b += x  # __iadd__ defers too; Python falls back to x.__radd__(a) and rebinds b
    assert b == ("radd", a)
    assert isinstance(a, ingot.Tensor)


def test_operands_without_a_reflected_dunder_and_tensor_errors_still_raise():
    a = ingot.ones(2)
    with pytest.raises(TypeError, match="bitwise_and: argument 'other'"):
        a & _Reflecting()  # no __rand__: ingot's own error
    with pytest.raises(TypeError, match="add: argument 'other'"):
        a + "text"
    # An error between tensors is ingot's to raise, never a fallback to another operator.
    i = ingot.ones(2, dtype=ingot.int64)
    with pytest.raises(TypeError):
        i += ingot.ones(2) * 0.5
    np.testing.assert_array_equal(arr(i), [1, 1])
