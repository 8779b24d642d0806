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
