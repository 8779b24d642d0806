"""Property tests (hypothesis): random shapes (0-d to 20-d, sizes 0 and 1 included), views with
random strides (steps, negative steps, transposes, broadcasts) and storage offsets, random dtype
pairs, random out= tensors and overlaps; binary ops, unary ops and copy_ against NumPy.

CI runs a bounded number of examples; INGOT_HYPOTHESIS_EXAMPLES=100000 runs a long search."""
import os
import warnings

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

import ingot  # noqa: E402
from ingot_test_helpers import NUMPY_DTYPES  # noqa: E402

settings.register_profile("ingot", max_examples=int(os.environ.get("INGOT_HYPOTHESIS_EXAMPLES", "60")),
                          deadline=None, suppress_health_check=list(HealthCheck), derandomize="CI" in os.environ)
settings.load_profile("ingot")

MAX_ELEMENTS = 512
BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "eq": np.equal, "lt": np.less}
UNARY = {"neg": np.negative, "abs": np.absolute}


@st.composite
def shapes(draw, max_dims=20):
    """Up to 20 dims; sizes 0..3 with the element count kept small (most dims are then 1)."""
    ndim = draw(st.integers(0, max_dims))
    shape, budget = [], MAX_ELEMENTS
    for _ in range(ndim):
        size = draw(st.integers(0, min(3, budget)))
        shape.append(size)
        budget = max(budget // max(size, 1), 1)
    return tuple(shape)


def values(draw, dtype, n):
    """Values every dtype holds exactly and every pair of dtypes converts alike in ingot and NumPy
    (no NaN or out-of-range float -> int: that conversion is documented, not NumPy's)."""
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    ints = rng.integers(0 if dtype == "uint8" else -100, 101, n)
    if dtype.startswith("int") or dtype == "uint8":
        return ints.astype(dtype)
    return (ints / 4).astype(dtype)


@st.composite
def views(draw, dtype, shape):
    """A NumPy array of `shape` and the same view of an ingot tensor: a random storage offset,
    step, reversal and dim order over a larger base, or a broadcast of a smaller one."""
    kind = draw(st.sampled_from(["dense", "strided", "broadcast"]))
    if kind == "broadcast" and shape:
        small = tuple(1 if draw(st.booleans()) else s for s in shape)
        base, t = draw(views(dtype, small))
        return np.broadcast_to(base, shape), t.broadcast_to(shape)
    perm = draw(st.permutations(range(len(shape)))) if kind == "strided" else list(range(len(shape)))
    permuted = tuple(shape[p] for p in perm)
    steps = [draw(st.sampled_from([1, 2, -1, -2])) if kind == "strided" else 1 for _ in permuted]
    offset = draw(st.integers(0, 3))
    base_shape = tuple(s * abs(k) for s, k in zip(permuted, steps))
    n = int(np.prod(base_shape, dtype=np.int64)) + offset
    flat = values(draw, dtype, n)
    a, t = flat[offset:].reshape(base_shape), ingot.asarray(flat.copy())[offset:].reshape(base_shape)
    key = tuple(slice(None, None, k) for k in steps)
    a, t = a[key], t[key]
    inverse = list(np.argsort(perm))
    return a.transpose(inverse), t.permute(*inverse) if inverse else t


def numpy_result(fn, dtype, *arrays):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*[a.astype(dtype) for a in arrays])


def assert_matches(t, expected):
    got = t.numpy()
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected.astype(got.dtype))


dtypes = st.sampled_from(NUMPY_DTYPES)


@given(st.sampled_from(sorted(BINARY)), dtypes, dtypes, shapes(), st.data())
def test_binary_op_matches_numpy(op, da, db, shape, data):
    shape_b = data.draw(st.sampled_from([shape, shape[1:], ()]))
    a, ta = data.draw(views(da, shape))
    b, tb = data.draw(views(db, shape_b))
    try:
        got = getattr(ingot, op)(ta, tb)
    except TypeError:  # subtracting bools: refused, as by PyTorch
        assert op == "sub" and "bool" in (da, db)
        return
    compute = ingot._C.result_type(ta, tb).name  # 0-d tensors rank below dimensioned ones (PyTorch)
    assert_matches(got, numpy_result(BINARY[op], compute, a, b))


@given(st.sampled_from(sorted(UNARY)), dtypes, shapes(), st.data())
def test_unary_op_matches_numpy(op, dtype, shape, data):
    a, t = data.draw(views(dtype, shape))
    try:
        got = getattr(ingot, op)(t)
    except TypeError:  # neg of bool
        assert dtype == "bool"
        return
    assert_matches(got, numpy_result(UNARY[op], dtype, a))


@given(dtypes, dtypes, shapes(max_dims=8), st.data())
def test_copy_matches_numpy_copyto(dst_dtype, src_dtype, shape, data):
    dst, tdst = data.draw(views(dst_dtype, shape))
    if dst.size and dst.strides and 0 in dst.strides and any(s > 1 for s in dst.shape):
        return  # a broadcast destination is refused (internal overlap); checked elsewhere
    src_shape = data.draw(st.sampled_from([shape, shape[1:], ()]))
    src, tsrc = data.draw(views(src_dtype, src_shape))
    tdst.copy_(tsrc)
    expected = np.array(dst)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        np.copyto(expected, src, casting="unsafe")
    assert_matches(tdst, expected)


@given(st.sampled_from(["add", "mul"]), dtypes, shapes(max_dims=6), st.data())
def test_out_shapes_and_overlaps_never_give_a_silent_wrong_result(op, dtype, shape, data):
    """out= is a fresh tensor, a wrong shape, an input itself, or a view of an input's memory: the
    op either raises (ValueError/TypeError) or writes exactly what NumPy computes from the inputs'
    values before the call."""
    a, ta = data.draw(views(dtype, shape))
    b, tb = data.draw(views(dtype, shape))
    choice = data.draw(st.sampled_from(["fresh", "empty", "wrong", "self", "other_view"]))
    if choice == "fresh":
        out = ingot.empty(shape, dtype=dtype)
    elif choice == "empty":
        out = ingot.empty(0, dtype=dtype)
    elif choice == "wrong":
        out = ingot.empty(tuple(s + 1 for s in shape) or (2,), dtype=dtype)
    elif choice == "self":
        out = ta
    else:  # the same memory as `a`, reversed: a partial overlap unless it is a palindrome layout
        out = ta.flip(list(range(ta.ndim))) if ta.ndim else ta
    expected = numpy_result(BINARY[op], dtype, a.copy(), b.copy())
    try:
        result = getattr(ingot, op)(ta, tb, out=out)
    except (ValueError, TypeError):
        assert choice in ("wrong", "self", "other_view"), choice
        return
    assert result is out
    if choice == "empty":
        expected = expected.reshape(out.shape)
    assert_matches(result, expected)
