"""The generated ops are installed as ingot._C._OpFunction (python/src/op_function.cpp): the same
signature, arguments and errors as the generated Python function they wrap, without its frame."""
import inspect

import numpy as np
import pytest

import ingot
from ingot import _generated_ops


def arr(t):
    return np.asarray(t.numpy())


def test_functions_and_methods_are_op_functions_with_the_generated_signature():
    assert type(ingot.add).__name__ == "_OpFunction"
    assert ingot.Tensor.add is ingot.add
    assert ingot.add.__name__ == "add"
    assert str(inspect.signature(ingot.add)) == "(self, other, *, alpha=1, out=None)"
    assert str(inspect.signature(ingot.ones(2).add)) == "(other, *, alpha=1, out=None)"


def test_positional_keyword_and_default_arguments_reach_the_op():
    a, b = ingot.asarray(np.array([1.0, 2.0], np.float32)), ingot.asarray(np.array([10.0, 20.0], np.float32))
    np.testing.assert_array_equal(arr(ingot.add(a, b)), [11, 22])
    np.testing.assert_array_equal(arr(ingot.add(a, other=b, alpha=2)), [21, 42])
    np.testing.assert_array_equal(arr(ingot.add(other=b, self=a)), [11, 22])
    np.testing.assert_array_equal(arr(a.add(b, alpha=3)), [31, 62])
    np.testing.assert_array_equal(arr(ingot.Tensor.add(a, b)), [11, 22])
    np.testing.assert_array_equal(arr(a + b), [11, 22])
    np.testing.assert_array_equal(arr(1 + a), [2, 3])
    np.testing.assert_array_equal(arr(a - 1), [0, 1])
    np.testing.assert_array_equal(arr(1 - a), [0, -1])


def test_out_keyword_writes_into_and_returns_the_given_tensor():
    a = ingot.ones(3)
    out = ingot.empty(3)
    assert ingot.add(a, a, out=out) is out
    np.testing.assert_array_equal(arr(out), [2, 2, 2])


def test_inplace_method_returns_self():
    a = ingot.ones(3)
    assert a.add_(a) is a
    np.testing.assert_array_equal(arr(a), [2, 2, 2])


def test_numbers_and_array_likes_take_the_generated_slow_path():
    a = ingot.ones(3)
    np.testing.assert_array_equal(arr(a + [1, 2, 3]), [2, 3, 4])
    np.testing.assert_array_equal(arr(ingot.add(np.ones(3, np.float32), 1)), [2, 2, 2])


@pytest.mark.parametrize("call", [
    lambda f, a: f(a),                      # missing argument
    lambda f, a: f(a, a, 1),                # alpha is keyword-only
    lambda f, a: f(a, a, beta=1),           # unknown keyword
    lambda f, a: f(a, a, self=a),           # given twice
    lambda f, a: f(a, object()),            # no overload takes it
])
def test_bad_calls_raise_what_the_generated_function_raises(call):
    a = ingot.ones(2)
    with pytest.raises(TypeError) as fast:
        call(ingot.add, a)
    with pytest.raises(TypeError) as slow:
        call(_generated_ops.add, a)
    assert str(fast.value) == str(slow.value)


def test_errors_from_the_op_keep_their_type_and_message():
    with pytest.raises(ValueError, match="add"):
        ingot.add(ingot.ones(2), ingot.ones(3))
    with pytest.raises(TypeError, match="add"):
        ingot.add(ingot.ones(2), ingot.ones(2), out=ingot.empty(2, dtype=ingot.int32))
