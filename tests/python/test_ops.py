"""Generated op bindings: every declared op is a function and a method with its schema's
signature; keywords, out=, in-place forms, reflected operators and number/array-like arguments
behave as in PyTorch. Op values and dtypes across every dtype are test_opinfo.py's job."""
import inspect
import json
import os

import numpy as np
import pytest

import ingot
from ingot_test_helpers import has_op, requires_op
from ingot import _generated_ops

OP_TABLE = os.path.join(os.path.dirname(ingot.__file__), "op_table.json")


def declared_ops():
    with open(OP_TABLE) as f:
        table = json.load(f)
    return table["ops"] if isinstance(table, dict) else table


def test_op_table_ships_with_the_package():
    assert os.path.exists(OP_TABLE)


@pytest.mark.parametrize("op", [o["name"] for o in declared_ops()])
def test_every_declared_op_is_a_function_or_method(op):
    overloads = next(o for o in declared_ops() if o["name"] == op)["overloads"]
    variants = {v for o in overloads for v in o["variants"]}
    names = {o["name"] for o in overloads}
    for name in names:
        if "function" in variants and not name.endswith("_"):
            assert callable(getattr(ingot, name))
        if "method" in variants:
            assert callable(getattr(ingot.Tensor, name))


@pytest.mark.parametrize("name", sorted(_generated_ops.FUNCTIONS))
def test_signature_follows_the_schema(name):
    overloads = next(o for o in declared_ops() if o["name"] == name)["overloads"]
    functional = next(o for o in overloads if o["kind"] == "functional")
    sig = inspect.signature(getattr(ingot, name))
    expected = [a["name"] for a in functional["arguments"]]
    assert list(sig.parameters)[:len(expected)] == expected
    for a in functional["arguments"]:
        p = sig.parameters[a["name"]]
        assert (p.kind == p.KEYWORD_ONLY) == a["kwarg_only"]
        if "default" in a:
            assert p.default == a["default"]
    assert sig.parameters["out"].default is None


@requires_op("add")
def test_add_signature_exactly():
    assert str(inspect.signature(ingot.add)) == "(self, other, *, alpha=1, out=None)"
    assert str(inspect.signature(ingot.Tensor.add)) == "(self, other, *, alpha=1, out=None)"


@requires_op("add")
def test_out_with_scalar_overload():
    out = ingot.empty((2,))
    ingot.add(ingot.asarray([1.0, 2.0]), 1, out=out)
    np.testing.assert_array_equal(out.numpy(), [2, 3])


@requires_op("add")
def test_out_of_wrong_type_raises_type_error():
    with pytest.raises(TypeError, match="out"):
        ingot.add(ingot.zeros((1,)), ingot.zeros((1,)), out=[0.0])


@requires_op("add_", "mul_")
def test_inplace_operators_return_self_and_write_through_views():
    base = ingot.zeros((2, 2))
    view = base[0]
    same = view
    view += ingot.asarray([1.0, 2.0])
    assert view is same
    view *= 3
    np.testing.assert_array_equal(base.numpy(), [[3, 6], [0, 0]])
    assert base.add_(1) is base


@requires_op("add_")
def test_inplace_float_into_int_raises_type_error():
    t = ingot.zeros((2,), dtype=ingot.int32)
    with pytest.raises(TypeError):
        t += 0.5


@requires_op("where")
def test_where_function_and_method():
    c = np.array([True, False, True])
    a, b = np.array([1.0, 2.0, 3.0], np.float32), np.array([9.0, 8.0, 7.0], np.float32)
    tc, ta, tb = ingot.asarray(c), ingot.asarray(a), ingot.asarray(b)
    np.testing.assert_array_equal(ingot.where(tc, ta, tb).numpy(), np.where(c, a, b))
    np.testing.assert_array_equal(ta.where(tc, tb).numpy(), np.where(c, a, b))


@requires_op("eq")
def test_eq_with_unrelated_object_is_false():
    assert (ingot.zeros((1,)) == None) is False  # noqa: E711
    assert (ingot.zeros((1,)) == "text") is False


@pytest.mark.parametrize("use", [lambda t: t @ t, lambda t: t.__rmatmul__(t), lambda t: t.__imatmul__(t)],
                         ids=["matmul", "rmatmul", "imatmul"])
def test_matmul_operator_is_a_type_error_saying_matmul_is_not_provided(use):
    if has_op("matmul"):
        pytest.skip("matmul is declared")
    with pytest.raises(TypeError, match=r"@.* matmul is not provided"):
        use(ingot.asarray([1, 2], dtype=ingot.int32))


def test_unary_plus_is_identity_without_positive_op():
    if has_op("positive"):
        pytest.skip("positive is declared")
    t = ingot.zeros((2,))
    assert +t is t


def test_python_numbers_fill_tensor_parameters_as_wrapped_numbers():
    x = ingot.asarray(np.array([1, -2, 3], np.int8))
    got = ingot.where(x > 0, x, 0)              # no where(Tensor, Tensor, Scalar) overload needed
    assert got.dtype == ingot.int8              # a number ranks below the tensor, as in PyTorch
    np.testing.assert_array_equal(got.numpy(), [1, 0, 3])
    np.testing.assert_array_equal(ingot.where(x > 0, 1.5, x).numpy(), [1.5, -2.0, 1.5])


def test_array_likes_fill_tensor_parameters():
    t = ingot.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal((t + [10, 20, 30]).numpy(), np.arange(6).reshape(2, 3) + [10, 20, 30])
    out = ingot.empty((2, 3))
    assert ingot.mul(t, [[2], [3]], out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.arange(6).reshape(2, 3) * [[2], [3]])


def test_unconvertible_argument_is_a_type_error_naming_op_and_argument():
    t = ingot.ones((2,))
    with pytest.raises(TypeError, match=r"add: argument 'other' must be an ingot.Tensor, a number or an array-like, not str"):
        t + "a"


def test_dtype_errors_are_not_swallowed_by_the_conversion_retry():
    t = ingot.arange(3)
    with pytest.raises(TypeError, match="can't be cast"):
        t.div_(ingot.asarray([2, 2, 2]))


def test_in_place_with_a_python_float_into_an_integer_tensor_is_a_type_error():
    t = ingot.asarray(np.array([1, 2], np.int32))
    for bad in (lambda: t.__ifloordiv__(0.5), lambda: t.__imod__(1.5), lambda: t.__ipow__(0.5),
                lambda: t.__iadd__(0.5)):
        with pytest.raises(TypeError):
            bad()


def test_pow_with_a_number_base_is_a_function_overload():
    e = np.array([0, 1, 3, 7], np.int32)
    got = ingot.pow(2, ingot.asarray(e))
    assert got.dtype == ingot.int32
    np.testing.assert_array_equal(got.numpy(), np.power(2, e))
    out = ingot.empty((4,), dtype=ingot.float32)
    assert ingot.pow(0.5, ingot.asarray(e), out=out) is out
    np.testing.assert_allclose(out.numpy(), np.power(np.float32(0.5), e.astype(np.float32)))


def test_in_place_bitwise_operator_on_a_view_writes_through():
    base = ingot.asarray(np.array([[1, 2], [3, 4]], np.int32))
    row = base[1]
    row ^= 1
    np.testing.assert_array_equal(base.numpy(), [[1, 2], [2, 5]])


def test_in_place_bitwise_that_cannot_cast_into_bool_is_a_type_error():
    t = ingot.asarray(np.array([True, False]))
    with pytest.raises(TypeError):
        t |= ingot.asarray(np.array([2, 3], np.int32))


def test_out_of_a_wider_dtype_receives_the_result():
    a, b = np.array([6, 5], np.int32), np.array([3, 1], np.int32)
    out = ingot.empty((2,), dtype=ingot.int64)
    assert ingot.bitwise_and(ingot.asarray(a), ingot.asarray(b), out=out) is out
    np.testing.assert_array_equal(out.numpy(), a & b)
    flags = ingot.empty((2,), dtype=ingot.float32)
    ingot.ge(ingot.asarray(a), ingot.asarray(b), out=flags)
    np.testing.assert_array_equal(flags.numpy(), (a >= b).astype(np.float32))


def _np(t):
    return np.asarray(t.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_maximum_minimum_fmax_fmin_rules_hold_in_long_arrays(dtype):
    # Long enough for the vector loop and a tail: NaN propagates (maximum/minimum) or is skipped
    # (fmax/fmin); +0.0 is above -0.0 whichever side it is on.
    nan, inf = np.nan, np.inf
    x = np.array([nan, 1.0, nan, -0.0, 0.0, -0.0, 0.0, 2.0, -inf, 3.0, 5.0], np.float64)
    y = np.array([2.0, nan, nan, 0.0, -0.0, -0.0, 0.0, 2.0, inf, -3.0, 7.0], np.float64)
    reps = 37  # 407 elements
    xs, ys = np.tile(x, reps), np.tile(y, reps)
    tx = ingot.asarray(xs).astype(getattr(ingot, dtype))
    ty = ingot.asarray(ys).astype(getattr(ingot, dtype))
    want = {
        "maximum": np.tile([nan, nan, nan, 0.0, 0.0, -0.0, 0.0, 2.0, inf, 3.0, 7.0], reps),
        "minimum": np.tile([nan, nan, nan, -0.0, -0.0, -0.0, 0.0, 2.0, -inf, -3.0, 5.0], reps),
        "fmax": np.tile([2.0, 1.0, nan, 0.0, 0.0, -0.0, 0.0, 2.0, inf, 3.0, 7.0], reps),
        "fmin": np.tile([2.0, 1.0, nan, -0.0, -0.0, -0.0, 0.0, 2.0, -inf, -3.0, 5.0], reps),
    }
    for name, w in want.items():
        got = _np(getattr(ingot, name)(tx, ty).astype(ingot.float64))
        np.testing.assert_array_equal(got, w, err_msg=name)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(w), err_msg=name + " zero signs")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
def test_ops_with_several_python_numbers_match_numpy(dtype):
    # clamp(x, lo, hi) and where(c, a, b) with number operands: the numbers are converted once to
    # the kernel's dtype; results equal NumPy's on long, strided and 2-d inputs.
    rng = np.random.default_rng(5)
    host = (rng.standard_normal((67, 130)) * 4).astype(np.float64)
    if dtype == "int32":
        host = np.round(host)
    t = ingot.asarray(host).astype(getattr(ingot, dtype))
    ref = _np(t.astype(ingot.float64))
    lo, hi = (-1.5, 2.25) if dtype != "int32" else (-1, 2)
    for tt, rr in [(t, ref), (t[:, ::3], ref[:, ::3]), (t.T, ref.T)]:
        got = ingot.clamp(tt, lo, hi)
        assert got.dtype == tt.dtype
        np.testing.assert_array_equal(_np(got.astype(ingot.float64)), np.clip(rr, lo, hi))
        w = ingot.where(tt > 0, 1.5, -0.5)
        np.testing.assert_array_equal(_np(w), np.where(rr > 0, 1.5, -0.5).astype(np.float32))
    # A number beyond the float32 range converts as the cast path does: to inf.
    big = ingot.clamp(ingot.asarray(np.array([1.0, 3e38], np.float32)), -1e300, 1e300)
    np.testing.assert_array_equal(_np(big), np.array([1.0, 3e38], np.float32))


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_several_numbers_with_reduced_floats_compute_with_the_numbers_own_values(dtype):
    # float16/bfloat16 kernels compute in float32. Numbers that the dtype holds exactly (0.5, 0.25,
    # -1.5) are converted once and read in place; any other (0.1) keeps its float32 value, not a
    # rounded one: lerp(x, 0.1, 0.3) equals float32 math on float32(0.1) and float32(0.3), rounded
    # once at the end (PyTorch's rule for numbers beside reduced-float tensors).
    ml_dtypes = pytest.importorskip("ml_dtypes")
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float16
    rng = np.random.default_rng(11)
    host = (rng.standard_normal((33, 70)) * 3).astype(np_dtype)
    t = ingot.asarray(host.astype(np.float32)).astype(getattr(ingot, dtype))
    x = host.astype(np.float32)

    def lerp32(a, end, weight):
        end, weight = np.float32(end), np.float32(weight)
        if weight < 0.5:
            return a + weight * (end - a)
        return end - (end - a) * (np.float32(1) - weight)

    for tt, xx in [(t, x), (t[:, ::3], x[:, ::3]), (t.T, x.T)]:
        for end, weight in [(0.5, 0.25), (0.1, 0.3), (-1.5, 0.7)]:
            got = ingot.lerp(tt, end, weight)
            assert got.dtype == tt.dtype
            want = lerp32(xx, end, weight).astype(np_dtype).astype(np.float32)
            np.testing.assert_array_equal(_np(got.astype(ingot.float32)), want,
                                          err_msg=f"lerp(x, {end}, {weight})")
        got = ingot.clamp(tt, -1.5, 0.1)
        want = np.minimum(np.maximum(xx, np.float32(-1.5)), np.float32(0.1)).astype(np_dtype)
        np.testing.assert_array_equal(_np(got.astype(ingot.float32)), want.astype(np.float32))
