"""Reductions (issue #12) on every available backend, driven by the table in opinfo_reductions.py:
every dim combination of 3-d and 4-d inputs with and without keepdim, non-contiguous layouts,
empty dims, out=, dtype=, refused dtypes; then the semantics and numerics the issue specifies."""
import itertools
import warnings

import numpy as np
import pytest

from ingot_test_helpers import DEVICES, host, ingot, make
from opinfo_reductions import REDUCTIONS, ReductionInfo
from opinfo_support import ALL, FLOATS, INTS, is_float, round_to, samples

EPS = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8, "float32": 2.0 ** -24, "float64": 2.0 ** -53}


def cases(ops=REDUCTIONS, dtypes=None):
    return [pytest.param(op, d, dev, id=f"{op.label}-{d}-{dev}")
            for op in ops for d in (dtypes or op.dtypes) if d in op.dtypes for dev in DEVICES]


def result_dtype(rule: str, dtype: str) -> str:
    if rule == "sum":
        return "int64" if dtype in INTS or dtype == "bool" else dtype
    if rule == "float":
        return dtype if is_float(dtype) else "float32"
    return {"same": dtype, "int64": "int64", "bool": "bool"}[rule]


def call(op: ReductionInfo, t, dims, keepdim, kwargs, **extra):
    fn = getattr(ingot, op.name)
    if op.dim == "none":
        return fn(t, **extra)
    args = dict(kwargs)
    if dims is not None or op.dim == "required":
        args["dim"] = dims
    if op.keepdim:
        args["keepdim"] = keepdim
    return fn(t, **args, **extra)


def axes_of(dims, ndim):
    if dims is None or dims == ():
        return tuple(range(ndim))
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    return tuple(sorted(d % max(ndim, 1) for d in dims)) if ndim else ()


def dim_choices(op: ReductionInfo, ndim: int):
    """(dims, keepdim) pairs: None, every non-empty subset (some written with negative dims), ints."""
    keeps = (False, True) if op.keepdim else (False,)
    if op.dim == "none":
        return [(None, False)]
    if op.dim in ("one", "required"):
        dims = [d for d in range(-ndim, ndim)] + ([None] if op.dim == "one" else [])
        return [(d, k) for d in dims for k in keeps]
    subsets = [None, ndim - 1, -1]
    for r in range(1, ndim + 1):
        for i, s in enumerate(itertools.combinations(range(ndim), r)):
            subsets.append(tuple(d - ndim if (i + r) % 2 else d for d in s))
    return [(s, k) for s in subsets for k in keeps]


def expected(op: ReductionInfo, ref, c, axes, keepdim, kwargs, rule, dtype):
    want = np.asarray(ref(c, axes, **kwargs))
    if keepdim:
        if op.dim == "one" and len(axes) == c.ndim and c.ndim > 1:
            want = want.reshape((1,) * c.ndim)
        else:
            want = np.expand_dims(want, axes) if c.ndim else want
    out_dtype = result_dtype(rule, dtype)
    if is_float(out_dtype):
        want = round_to(want.astype(np.float64), out_dtype)
    return want, out_dtype


def scale_of(op: ReductionInfo, c, axes, kwargs):
    """What a sum's rounding error scales with: the same reduction of |x|."""
    a = np.abs(c.astype(np.float64))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(np.nansum(a, axis=axes) if op.name in ("nansum", "nanmean") else np.sum(a, axis=axes))


def assert_matches(op, got, want, out_dtype, in_dtype, scale, context):
    assert str(got.dtype) == out_dtype, f"{context}: dtype {got.dtype}, expected {out_dtype}"
    g = host(got)
    assert g.shape == want.shape, f"{context}: shape {g.shape}, expected {want.shape}"
    if not is_float(out_dtype) or op.tolerance == "exact":
        same = (g == want) | (np.isnan(g) & np.isnan(want)) if is_float(out_dtype) else g == want
        assert np.all(same), f"{context}: got {g}, expected {want}"
        return
    acc = "float32" if out_dtype in ("float16", "bfloat16") or in_dtype in ("float16", "bfloat16") else out_dtype
    tol = 4 * EPS[out_dtype] * np.abs(want)
    if op.tolerance == "sum":
        tol = tol + 16 * EPS[acc] * scale
    else:
        tol = tol + 64 * EPS[acc] * (1 + np.abs(want))
    with np.errstate(invalid="ignore"):
        bad = ~((np.abs(g - want) <= tol) | (np.isnan(g) & np.isnan(want)) | (g == want))
    assert not np.any(bad), f"{context}: got {g[bad]}, expected {want[bad]} (tolerance {np.broadcast_to(tol, bad.shape)[bad]})"


def check(op, t, c, dtype, dims, keepdim, kwargs, context):
    axes = axes_of(dims, c.ndim)
    res = call(op, t, dims, keepdim, kwargs)
    first = res[0] if op.second else res
    want, out_dtype = expected(op, op.ref, c, axes, keepdim, kwargs, op.result, dtype)
    scale = scale_of(op, c, axes, {})
    if op.name in ("mean", "nanmean"):
        scale = scale / max(1, int(np.prod([c.shape[a] for a in axes])))
    scale = scale.reshape(want.shape) if scale.size == want.size else scale
    assert_matches(op, first, want, out_dtype, dtype, scale, context)
    if op.second:
        want2, out2 = expected(op, op.second, c, axes, keepdim, kwargs, op.second_result, dtype)
        assert_matches(op, res[1], want2, out2, dtype, scale, context + " (second output)")


def sample_container(dtype, shape, seed, domain):
    return samples(dtype, shape, np.random.default_rng(seed), domain)


@pytest.mark.parametrize("op, dtype, device", cases())
def test_every_dim_combination_of_3d_and_4d_inputs(op, dtype, device):
    for shape in [(3, 4, 5), (2, 3, 4, 5)]:
        c = sample_container(dtype, shape, 1, op.domain)
        t = make(c, dtype, device)
        for dims, keepdim in dim_choices(op, len(shape)):
            for kwargs in op.kwargs:
                check(op, t, c, dtype, dims, keepdim, kwargs, f"{op.label} {shape} dim={dims} keepdim={keepdim} {kwargs}")


def _np_or(np_fn, ingot_fn):
    return lambda x: np_fn(x) if isinstance(x, np.ndarray) else ingot_fn(x)


LAYOUTS = {
    "transposed": ((6, 5, 4), _np_or(lambda x: np.transpose(x, (2, 0, 1)), lambda x: x.permute((2, 0, 1)))),
    "stepped": ((10, 21), lambda x: x[::2, ::3]),
    "negative_steps": ((5, 14), lambda x: x[::-1, ::-2]),
    "unaligned_offset": ((40,), lambda x: x[3:36]),
    "broadcast": ((5, 1), _np_or(lambda x: np.broadcast_to(x, (5, 6)), lambda x: x.broadcast_to((5, 6)))),
    "zero_dim": ((), lambda x: x),
    "long_rows": ((3, 5000), lambda x: x),
    "long_columns": ((5000, 3), lambda x: x),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("op, dtype, device", cases(dtypes=("bool", "int32", "float16", "float32", "float64")))
def test_non_contiguous_and_special_layouts(op, dtype, device, layout):
    shape, view = LAYOUTS[layout]
    c = sample_container(dtype, shape, 2, op.domain)
    t = view(make(c, dtype, device))
    cv = np.array(view(c), order="C")  # ascontiguousarray would make 0-d 1-d
    for dims, keepdim in dim_choices(op, cv.ndim):
        for kwargs in op.kwargs[:1]:
            check(op, t, cv, dtype, dims, keepdim, kwargs, f"{op.label} {layout} dim={dims} keepdim={keepdim}")


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4, 2), (2, 0, 0)])
@pytest.mark.parametrize("op, dtype, device", cases(dtypes=("int32", "float32")))
def test_empty_dims(op, dtype, device, shape):
    c = sample_container(dtype, shape, 3, op.domain)
    t = make(c, dtype, device)
    for dims, keepdim in dim_choices(op, len(shape)):
        axes = axes_of(dims, len(shape))
        # Reducing a dim of size 0 without an identity raises even when the result is empty
        # ((2, 0, 0) over dim 2), as PyTorch and NumPy do.
        empty_reduction = any(shape[a] == 0 for a in axes)
        if op.dim == "one" and dims is None:
            empty_reduction = True  # the flattened tensor has no elements
        if empty_reduction and not op.identity:
            with pytest.raises(IndexError, match=op.name):
                call(op, t, dims, keepdim, op.kwargs[0])
            continue
        check(op, t, c, dtype, dims, keepdim, op.kwargs[0], f"{op.label} {shape} dim={dims} keepdim={keepdim}")


@pytest.mark.parametrize("op, dtype, device", cases(dtypes=("int16", "float32")))
def test_out_forms(op, dtype, device):
    if op.second or op.dim == "none":
        pytest.skip("covered by test_two_output_forms_take_an_out_tuple / test_full_max_and_min_take_out")
    c = sample_container(dtype, (4, 5, 6), 4, op.domain)
    t = make(c, dtype, device)
    dims = 1
    res = call(op, t, dims, False, op.kwargs[0])
    out = ingot.empty(res.shape, dtype=res.dtype, device=device)
    got = call(op, t, dims, False, op.kwargs[0], out=out)
    assert got is out
    np.testing.assert_array_equal(host(out), host(res))
    # An empty out= is resized; a non-empty one of another shape is refused.
    empty = ingot.empty((0,), dtype=res.dtype, device=device)
    call(op, t, dims, False, op.kwargs[0], out=empty)
    assert tuple(empty.shape) == tuple(res.shape)
    with pytest.raises(ValueError, match=op.name):
        call(op, t, dims, False, op.kwargs[0], out=ingot.empty((3,), dtype=res.dtype, device=device))
    # A wider dtype takes the result; bool cannot take a number.
    if str(res.dtype) != "bool":
        wide = ingot.empty(res.shape, dtype="float64", device=device)
        call(op, t, dims, False, op.kwargs[0], out=wide)
        np.testing.assert_allclose(host(wide), host(res).astype(np.float64), rtol=1e-6)
        with pytest.raises(TypeError, match=op.name):
            call(op, t, dims, False, op.kwargs[0], out=ingot.empty(res.shape, dtype="bool", device=device))


@pytest.mark.parametrize("op, device", [(op, d) for op in REDUCTIONS if op.dtypes != ALL for d in DEVICES])
def test_refused_dtypes_are_type_errors_naming_the_op(op, device):
    for dtype in sorted(set(ALL) - set(op.dtypes)):
        t = make(sample_container(dtype, (3, 4), 5, op.domain), dtype, device)
        with pytest.raises(TypeError, match=op.name):
            call(op, t, 1 if op.dim != "none" else None, False, op.kwargs[0])


# ---- semantics


@pytest.mark.parametrize("device", DEVICES)
def test_dim_errors_name_the_op(device):
    t = ingot.zeros((2, 3), device=device)
    with pytest.raises(IndexError, match="sum.*dim 2"):
        ingot.sum(t, 2)
    with pytest.raises(ValueError, match="sum.*more than once"):
        ingot.sum(t, (1, -1))
    with pytest.raises(IndexError, match="argmax"):
        ingot.argmax(t, -3)
    # A dim that is not an integer is refused, alone or in a tuple, never truncated to one.
    for bad in (1.5, (0, 1.5), [1.0], True, (True,), "1"):
        with pytest.raises(TypeError, match="dim"):
            ingot.sum(t, bad)
        with pytest.raises(TypeError, match="dim"):
            t.amax(dim=bad)


@pytest.mark.parametrize("device", DEVICES)
def test_pytorch_style_calls(device):
    c = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = make(c, "float32", device)
    np.testing.assert_array_equal(host(ingot.sum(t, dim=(0, 2), keepdim=True)), c.sum(axis=(0, 2), keepdims=True))
    assert t.sum().item() == c.sum()
    r = t.max(dim=1)
    assert set(r._fields) == {"values", "indices"}
    values, indices = r
    np.testing.assert_array_equal(host(values), c.max(axis=1))
    np.testing.assert_array_equal(host(indices), c.argmax(axis=1))
    assert t.max().item() == 23 and t.min().item() == 0
    np.testing.assert_array_equal(host(t.mean([0, 1])), c.mean(axis=(0, 1)))
    np.testing.assert_array_equal(host(t.argmax(2, keepdim=True)), c.argmax(axis=2)[..., None])
    v, m = ingot.var_mean(t, 1, correction=0)
    np.testing.assert_allclose(host(v), c.var(axis=1), rtol=1e-6)
    np.testing.assert_allclose(host(m), c.mean(axis=1), rtol=1e-6)


@pytest.mark.parametrize("device", DEVICES)
def test_var_and_std_take_pytorchs_unbiased_flag(device):
    c = np.random.default_rng(3).standard_normal((4, 6)).astype(np.float64)
    t = make(c, "float64", device)
    for ddof, unbiased in ((1, True), (0, False)):
        np.testing.assert_allclose(host(ingot.var(t, unbiased=unbiased)), c.var(ddof=ddof), rtol=1e-12)
        np.testing.assert_allclose(host(t.std(1, unbiased=unbiased)), c.std(axis=1, ddof=ddof), rtol=1e-12)
        np.testing.assert_allclose(host(t.var(unbiased)), c.var(ddof=ddof), rtol=1e-12)
        s, m = ingot.std_mean(t, 0, unbiased=unbiased, keepdim=True)
        np.testing.assert_allclose(host(s), c.std(axis=0, ddof=ddof, keepdims=True), rtol=1e-12)
        np.testing.assert_allclose(host(m), c.mean(axis=0, keepdims=True), rtol=1e-12)
    with pytest.raises(TypeError, match="either unbiased or correction"):
        ingot.var(t, unbiased=True, correction=0)
    with pytest.raises(TypeError, match="unbiased must be a bool"):
        ingot.std(t, unbiased=1)
    with pytest.raises(TypeError, match="unbiased given twice"):
        t.var(True, unbiased=True)
    # PyTorch's var(t, dim, unbiased, keepdim) overload.
    np.testing.assert_allclose(host(ingot.var(t, 1, False)), c.var(axis=1), rtol=1e-12)
    np.testing.assert_allclose(host(t.std(0, True, True)), c.std(axis=0, ddof=1, keepdims=True), rtol=1e-12)
    s, m = ingot.std_mean(t, (0, 1), False, True)
    np.testing.assert_allclose(host(s), c.std(keepdims=True), rtol=1e-12)
    with pytest.raises(TypeError, match="var: after dim, the positional arguments are unbiased and keepdim"):
        ingot.var(t, 1, 0)
    with pytest.raises(TypeError, match="keepdim given twice"):
        ingot.var(t, 1, True, True, keepdim=False)


@pytest.mark.parametrize("device", DEVICES)
def test_numpy_functions_reduce_tensors_through_their_methods(device):
    c = np.random.default_rng(5).standard_normal((3, 5, 4)).astype(np.float64)
    t = make(c, "float64", device)
    for f in (np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.argmax, np.argmin, np.std,
              np.var, np.any, np.all):
        got = f(t)
        assert isinstance(got, ingot.Tensor), f.__name__
        np.testing.assert_allclose(host(got), f(c), rtol=1e-12, err_msg=f.__name__)
        if f not in (np.argmax, np.argmin):
            got = f(t, axis=(0, 2), keepdims=True)
            np.testing.assert_allclose(host(got), f(c, axis=(0, 2), keepdims=True), rtol=1e-12,
                                       err_msg=f.__name__)
        got = f(t, axis=1)
        np.testing.assert_allclose(host(got), f(c, axis=1), rtol=1e-12, err_msg=f.__name__)
    np.testing.assert_allclose(host(np.std(t, axis=0, ddof=1)), c.std(axis=0, ddof=1), rtol=1e-12)
    assert np.var(make(c, "float32", device), dtype=np.float64).dtype == ingot.float64
    assert host(t.max(dim=1).indices).tolist() == c.argmax(axis=1).tolist()  # dim=: PyTorch's pair
    with pytest.raises(TypeError, match="dim given twice"):
        t.sum(1, axis=0)
    with pytest.raises(TypeError, match="correction given twice"):
        t.var(correction=0, ddof=1)


@pytest.mark.parametrize("device", DEVICES)
def test_max_and_min_of_two_tensors_are_maximum_and_minimum(device):
    c = np.array([[1.0, np.nan, -3.0], [4.0, 0.5, 2.0]], np.float32)
    d = np.array([2.0, 1.0, -4.0], np.float32)
    a, b = make(c, "float32", device), make(d, "float32", device)
    np.testing.assert_array_equal(host(ingot.max(a, b)), np.maximum(c, d))
    np.testing.assert_array_equal(host(a.min(b)), np.minimum(c, d))
    np.testing.assert_array_equal(host(ingot.min(a, other=b)), np.minimum(c, d))
    out = ingot.empty((2, 3), device=device)
    assert ingot.max(a, b, out=out) is out
    assert ingot.max(a, 1).indices.shape == (2,)  # an int is still a dim


@pytest.mark.parametrize("device", DEVICES)
def test_two_output_forms_take_an_out_tuple(device):
    c = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    t = make(c, "float32", device)
    values = ingot.empty((3,), device=device)
    indices = ingot.empty((3,), dtype="int64", device=device)
    r = ingot.max(t, 1, out=(values, indices))
    assert r.values is values and r.indices is indices
    np.testing.assert_array_equal(host(indices), c.argmax(axis=1))
    a, b = ingot.empty((4,), device=device), ingot.empty((4,), device=device)
    ingot.std_mean(t, 0, out=(a, b))
    np.testing.assert_allclose(host(a), c.std(axis=0, ddof=1), rtol=1e-5)
    with pytest.raises(ValueError, match="max"):
        ingot.max(t, 1, out=(ingot.empty((2,), device=device), indices))


@pytest.mark.parametrize("device", DEVICES)
def test_full_max_and_min_take_out(device):
    t = make(np.array([3.0, -1.0, 7.0]), "float32", device)
    out = ingot.empty((), device=device)
    assert ingot.max(t, out=out) is out and out.item() == 7.0
    ingot.min(t, out=out)
    assert out.item() == -1.0


@pytest.mark.parametrize("dtype", INTS + ("bool",))
@pytest.mark.parametrize("device", DEVICES)
def test_integer_and_bool_sums_and_products_return_int64(dtype, device):
    c = np.ones((70000,), dtype=np.int64) * (1 if dtype in ("bool", "uint8", "int8") else 30000)
    t = make(c.astype(dtype) if dtype != "bool" else c.astype(bool), dtype, device)
    s = ingot.sum(t)
    assert str(s.dtype) == "int64"
    assert s.item() == int(c.astype(dtype).astype(np.int64).sum())
    assert str(ingot.prod(t[:3]).dtype) == "int64"
    assert str(ingot.nansum(t).dtype) == "int64"


@pytest.mark.parametrize("dtype, n", [("float16", 4096), ("bfloat16", 1024)])
@pytest.mark.parametrize("device", DEVICES)
def test_float16_and_bfloat16_accumulate_in_float32(dtype, n, device):
    # Accumulating in the storage type would stop at 2048 (float16) or 256 (bfloat16).
    t = ingot.ones((n,), dtype=dtype, device=device)
    assert ingot.sum(t).item() == n
    assert ingot.mean(ingot.full((n,), 3.0, dtype=dtype, device=device)).item() == 3.0
    assert ingot.sum(ingot.ones((n, 3), dtype=dtype, device=device), 0)[0].item() == n


@pytest.mark.parametrize("device", DEVICES)
def test_float32_sum_of_1e8_ones_is_exact(device):
    t = ingot.ones((10 ** 8,), dtype="float32", device=device)
    assert ingot.sum(t).item() == 1e8
    assert ingot.mean(t).item() == 1.0


@pytest.mark.parametrize("device", DEVICES)
def test_float32_sum_error_is_within_the_condition_bound(device):
    rng = np.random.default_rng(7)
    few_eps = 2 if device == "cpu" else 8
    for n in (1000, 10 ** 6, 3 * 10 ** 6 + 17):
        x = rng.standard_normal(n).astype(np.float32) + np.float32(0.25)
        t = make(x.astype(np.float64), "float32", device)
        exact = np.sum(x.astype(np.float64))
        err = abs(ingot.sum(t).item() - exact)
        # Pairwise/tree summation: error <~ log2(n) eps sum|x|, far below the naive n eps sum|x|.
        # The CPU's cascade stays within 2 eps sum|x| on this data; CUDA threads first add their
        # strided elements in order, then combine in a tree: 5.5 eps sum|x| at n = 3e6 on an H200.
        assert err <= few_eps * EPS["float32"] * np.sum(np.abs(x.astype(np.float64))), (n, err)
        rows = x[: n // 1000 * 1000].reshape(1000, -1)
        got = host(ingot.sum(make(rows.astype(np.float64), "float32", device), 0))
        bound = few_eps * EPS["float32"] * np.sum(np.abs(rows.astype(np.float64)), axis=0)
        assert np.all(np.abs(got - rows.astype(np.float64).sum(axis=0)) <= bound + 1e-30)


@pytest.mark.parametrize("dtype, rtol", [("float64", 1e-9), ("float32", 1e-6)])
@pytest.mark.parametrize("device", DEVICES)
def test_var_and_std_are_stable_for_data_with_a_large_mean(dtype, rtol, device):
    x = 1e8 + np.random.default_rng(3).standard_normal(10 ** 6)
    x = round_to(x, dtype)
    t = make(x, dtype, device)
    want = np.var(x, ddof=1)  # two-pass in float64 on the stored values
    assert abs(ingot.var(t).item() - want) <= rtol * want
    assert abs(ingot.std(t).item() - np.sqrt(want)) <= rtol * np.sqrt(want)
    v, m = ingot.var_mean(t)
    assert abs(m.item() - np.mean(x)) <= 1e-7 * 1e8


@pytest.mark.parametrize("dtype, rtol", [("float64", 1e-10), ("float32", 4e-7)])
@pytest.mark.parametrize("device", DEVICES)
def test_var_is_accurate_when_the_first_values_are_far_from_the_mean(dtype, rtol, device):
    """var/std accumulate moments about a shift taken from the data (kernels/reduce.h): an outlier
    ahead of the rest, data that drifts, and two far-apart clusters keep full precision, over all
    elements, along rows (inner) and down columns (outer)."""
    rng = np.random.default_rng(11)
    cases = {
        "outlier first": np.r_[1e8, rng.standard_normal(200_000)],
        "drift": np.arange(300_000, dtype=np.float64) * 7.0,
        "two clusters": np.r_[rng.standard_normal(100_000) + 1e6, rng.standard_normal(100_000) - 1e6],
    }
    for name, x in cases.items():
        x = round_to(x, dtype)
        want = np.var(x, ddof=1)
        assert abs(ingot.var(make(x, dtype, device)).item() - want) <= rtol * want, name
        rows = x[: x.size // 64 * 64].reshape(64, -1)
        for dim in (0, 1):
            got = host(ingot.var(make(rows, dtype, device), dim)).astype(np.float64)
            ref = np.var(rows, axis=dim, ddof=1)
            np.testing.assert_allclose(got, ref, rtol=rtol, atol=0, err_msg=f"{name} dim={dim}")


@pytest.mark.parametrize("device", DEVICES)
def test_var_with_too_few_elements_is_nan_without_a_warning(device):
    t = ingot.ones((1,), device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(ingot.var(t).item())
        assert np.isnan(ingot.std(ingot.ones((0,), device=device)).item())
        assert ingot.var(t, correction=0).item() == 0.0
        two = make(np.array([1.0, 2.0]), "float64", device)  # N - correction <= 0: divided by 0
        assert ingot.var(two, correction=2).item() == np.inf and ingot.std(two, correction=3).item() == np.inf
        v, m = ingot.var_mean(ingot.ones((0, 3), device=device), 0)
        assert np.isnan(host(v)).all() and np.isnan(host(m)).all()


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("device", DEVICES)
def test_max_min_and_argmax_propagate_nan_first_nan_wins(dtype, device):
    c = np.array([1.0, np.nan, 5.0, np.nan, -2.0] * 3000)
    t = make(c, dtype, device)
    assert np.isnan(ingot.amax(t).item()) and np.isnan(ingot.amin(t).item())
    assert np.isnan(ingot.max(t).item())
    assert ingot.argmax(t).item() == 1 and ingot.argmin(t).item() == 1
    rows = make(c.reshape(3, -1), dtype, device)
    np.testing.assert_array_equal(host(ingot.max(rows, 1).indices), [1, 1, 1])
    cols = make(c.reshape(-1, 3), dtype, device)
    assert np.all(np.isnan(host(ingot.amax(cols, 0))))


@pytest.mark.parametrize("dtype", ("bool", "int8", "int64", "float16", "float32"))
@pytest.mark.parametrize("device", DEVICES)
def test_ties_pick_the_first_index(dtype, device):
    c = np.zeros(100000)
    c[[77, 500, 99999]] = 1
    t = make(c, dtype, device)
    assert ingot.argmax(t).item() == 77
    assert ingot.argmin(t).item() == 0
    m = make(np.tile(c[:1000], (3, 1)).T.copy(), dtype, device)  # ties along a non-contiguous dim
    np.testing.assert_array_equal(host(ingot.argmax(m, 0)), [77, 77, 77])
    np.testing.assert_array_equal(host(ingot.max(m, 0).indices), [77, 77, 77])


@pytest.mark.parametrize("device", DEVICES)
def test_empty_reductions_give_the_identity_or_raise(device):
    e = ingot.ones((0, 3), device=device)
    assert host(ingot.sum(e, 0)).tolist() == [0, 0, 0]
    assert host(ingot.prod(e, 0)).tolist() == [1, 1, 1]
    assert host(ingot.all(e, 0)).tolist() == [True] * 3
    assert host(ingot.any(e, 0)).tolist() == [False] * 3
    assert host(ingot.logsumexp(e, 0)).tolist() == [-np.inf] * 3
    assert np.isnan(host(ingot.mean(e, 0))).all()
    for name in ("amax", "amin", "argmax", "argmin"):
        with pytest.raises(IndexError, match=name):
            getattr(ingot, name)(e, 0)
    for name in ("max", "min"):
        with pytest.raises(IndexError, match=name):
            getattr(ingot, name)(e)
        with pytest.raises(IndexError, match=name):
            getattr(ingot, name)(e, 0)
    assert tuple(ingot.amax(e, 1).shape) == (0,)  # reduced dim of size 3, no output element
    for name in ("amax", "argmax", "max"):  # a reduced dim of size 0, the result empty all the same
        with pytest.raises(IndexError, match=name):
            getattr(ingot, name)(ingot.ones((0, 0), device=device), 1)


@pytest.mark.parametrize("device", DEVICES)
def test_logsumexp_special_values(device):
    c = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 1.0], [1000.0, 1000.0], [-1000.0, -1000.0]])
    got = host(ingot.logsumexp(make(c, "float64", device), 1))
    want = [-np.inf, np.inf, np.nan, 1000.0 + np.log(2), -1000.0 + np.log(2)]
    np.testing.assert_allclose(got, want, rtol=1e-15)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("device", DEVICES)
def test_logsumexp_over_an_outer_dim_special_columns(device, dtype):
    # Columns of 200 rows (several of the CPU's 64-row groups), 700 of them (past a 512-column
    # sub-block): a column of -inf, one with a +inf, one with a NaN, one of huge values, the rest
    # random; the NumPy reference in float64 about each column's max.
    rng = np.random.default_rng(11)
    c = rng.standard_normal((200, 700)) * 10
    c[:, 3] = -np.inf
    c[77, 600] = np.inf
    c[150, 601] = np.nan
    c[:, 602] = 1e30 + rng.standard_normal(200) * 1e24
    c[:, 650] = -np.inf
    c[5, 650] = -3.0  # one finite element among -inf
    got = host(ingot.logsumexp(make(c, dtype, device), 0))
    x = c.astype(dtype).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        m = np.nanmax(np.where(np.isnan(x), -np.inf, x), axis=0)
        want = np.log(np.sum(np.exp(x - np.where(np.isfinite(m), m, 0)), axis=0)) + np.where(np.isfinite(m), m, 0)
    want[3], want[600], want[601], want[650] = -np.inf, np.inf, np.nan, -3.0
    np.testing.assert_allclose(got, want, rtol=8 * np.finfo(dtype).eps)


@pytest.mark.parametrize("device", DEVICES)
def test_dtype_argument_converts_before_reducing(device):
    c = np.full((1000,), 100, dtype=np.int64)
    t = make(c, "int8", device)
    s = ingot.sum(t, dtype="float32")
    assert str(s.dtype) == "float32" and s.item() == 100000.0
    assert ingot.mean(t, dtype="float64").item() == 100.0
    assert str(ingot.norm(make(c, "float32", device), dtype="float64").dtype) == "float64"


@pytest.mark.parametrize("want", ["int8", "uint8", "int16", "int32", "float16", "float64"])
@pytest.mark.parametrize("name", ["sum", "prod", "nansum"])
@pytest.mark.parametrize("device", DEVICES)
def test_dtype_argument_is_the_result_dtype(name, want, device):
    # As in PyTorch and NumPy: dtype= names the result, integer results wrapping (prod of 1..6 in
    # int8 is 720 mod 256 = -48), with dim, keepdim and out= alike.
    c = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    t = make(c, "int32", device)
    fn, ref = getattr(ingot, name), {"sum": np.sum, "prod": np.prod, "nansum": np.nansum}[name]
    for dims, keepdim in ((None, False), (1, False), ((0, 1), True)):
        axis = None if dims is None else dims
        got = fn(t, dims, keepdim, dtype=want) if dims is not None else fn(t, dtype=want)
        expect = ref(c.astype(np.int64), axis=axis, keepdims=keepdim).astype(want)
        assert str(got.dtype) == want, (name, dims)
        np.testing.assert_array_equal(host(got), expect, err_msg=f"{name} dim={dims}")
    x = c.astype(np.float32) + 0.75  # converted to dtype first: 1.75 is 1 in an integer dtype
    got = fn(make(x, "float32", device), dtype=want)
    wide = np.float64 if want.startswith("float") else np.int64
    assert str(got.dtype) == want
    np.testing.assert_allclose(host(got).astype(np.float64),
                               ref(x.astype(want).astype(wide)).astype(want).astype(np.float64), rtol=2e-3)
    out = ingot.empty((3,), dtype="float64" if want.startswith("float") else "int64", device=device)
    assert fn(t, 0, dtype=want, out=out) is out  # out= decides the dtype, as without dtype=
    np.testing.assert_array_equal(host(out), ref(c.astype(np.int64), axis=0).astype(want))


@pytest.mark.parametrize("device", DEVICES)
def test_dtype_argument_that_the_result_cannot_cast_to_is_a_type_error(device):
    t = make(np.array([True, False, True]), "bool", device)
    with pytest.raises(TypeError, match="sum: dtype=bool is not supported"):
        ingot.sum(t, dtype="bool")
    assert str(ingot.mean(make(np.ones(3), "float32", device), dtype="float64").dtype) == "float64"
    assert str(ingot.vector_norm(make(np.ones(3), "float32", device), dtype="float64").dtype) == "float64"


@pytest.mark.parametrize("device", DEVICES)
def test_norm_takes_pytorchs_string_orders(device):
    c = np.random.default_rng(8).standard_normal((3, 4, 5)).astype(np.float64)
    t = make(c, "float64", device)
    np.testing.assert_allclose(host(ingot.norm(t, "fro")), np.sqrt((c * c).sum()), rtol=1e-12)
    np.testing.assert_allclose(host(t.norm(p="fro", dim=(0, 2), keepdim=True)),
                               np.sqrt((c * c).sum(axis=(0, 2), keepdims=True)), rtol=1e-12)
    np.testing.assert_allclose(host(ingot.norm(t, "fro", 1)), np.sqrt((c * c).sum(axis=1)), rtol=1e-12)
    with pytest.raises(ValueError, match="norm: p='fro' takes at most two dims"):
        ingot.norm(t, "fro", (0, 1, 2))
    with pytest.raises(NotImplementedError, match="norm: p='nuc'"):
        ingot.norm(t, "nuc")
    with pytest.raises(ValueError, match="norm: p='max' is not a norm order"):
        t.norm("max")


@pytest.mark.parametrize("device", DEVICES)
def test_numpy_scans_of_tensors_give_tensors(device):
    c = np.random.default_rng(9).standard_normal((3, 4)).astype(np.float64)
    t = make(c, "float64", device)
    for f in (np.cumsum, np.cumprod):
        got = f(t)
        assert isinstance(got, ingot.Tensor) and tuple(got.shape) == (12,), f.__name__
        np.testing.assert_allclose(host(got), f(c), rtol=1e-12, err_msg=f.__name__)
        np.testing.assert_allclose(host(f(t, axis=-1)), f(c, axis=-1), rtol=1e-12, err_msg=f.__name__)
        assert str(f(t, axis=0, dtype=np.float32).dtype) == "float32"
    np.testing.assert_allclose(host(t.cumsum(axis=0)), np.cumsum(c, axis=0), rtol=1e-12)
    np.testing.assert_allclose(host(t.cumsum(1)), np.cumsum(c, axis=1), rtol=1e-12)  # PyTorch's form kept
    with pytest.raises(TypeError, match="cumsum: dim given twice"):
        t.cumsum(0, axis=1)


@pytest.mark.parametrize("device", DEVICES)
def test_zero_dim_inputs(device):
    t = make(np.array(2.5), "float32", device)
    for d in (None, 0, -1):
        assert ingot.sum(t, d).item() == 2.5
    assert ingot.argmax(t).item() == 0 and ingot.max(t, 0).indices.item() == 0
    assert tuple(ingot.sum(t, 0, keepdim=True).shape) == ()


@pytest.mark.parametrize("device", DEVICES)
def test_results_are_deterministic(device):
    x = np.random.default_rng(11).standard_normal((3, 1 << 20))
    t = make(x, "float32", device)
    for fn in (lambda: ingot.sum(t), lambda: ingot.sum(t, 1), lambda: ingot.var(t, 0), lambda: ingot.sum(t, 0)):
        first = host(fn())
        for _ in range(3):
            np.testing.assert_array_equal(host(fn()), first)


# Reductions over an outer dim (CUDA: a thread per output, rows split across blocks; CPU: blocks of
# columns row by row) of views whose base, row stride and width differ, with rows enough to split.
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "int32", "bool", "float64"])
def test_outer_reductions_of_offset_and_narrowed_views(dtype, device):
    rng = np.random.default_rng(5)
    c = rng.standard_normal((4099, 72)) * (3 if dtype in INTS else 1)
    c = c.astype(dtype) if dtype != "bool" else c > 0
    t = make(c, dtype, device)
    views = {"aligned": (t, c), "offset 4": (t[:, 4:], c[:, 4:]), "offset 1": (t[:, 1:], c[:, 1:]),
             "70 columns": (t[:, :70], c[:, :70]), "3-d": (t[:4096].view((64, 64, 72)), c[:4096].reshape(64, 64, 72))}
    for label, (v, cv) in views.items():
        ref64 = cv.astype(np.float64)
        for name, dims in (("sum", 0), ("amax", 0), ("count_nonzero", 0), ("mean", 0), ("sum", (0, 1))):
            if name == "mean" and dtype not in FLOATS:
                continue
            if v.ndim == 2 and dims == (0, 1):
                dims = 0
            got = host(getattr(ingot, name)(v, dim=dims)).astype(np.float64)
            ax = dims if isinstance(dims, tuple) else (dims,)
            want = {"sum": np.sum, "amax": np.max, "mean": np.mean}.get(name, np.count_nonzero)(ref64, axis=ax)
            tol = {"float16": 2e-2, "float32": 1e-5}.get(dtype, 1e-12)
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 10, err_msg=f"{name} {dtype} {label} dim={dims}")


def _cuda_free_bytes():
    try:
        return ingot.cuda.mem_get_info()[0]
    except Exception:  # noqa: BLE001 - older builds have no mem_get_info
        return 0


@pytest.mark.skipif("cuda" not in DEVICES, reason="needs a CUDA device")
def test_cuda_reductions_over_more_than_2_31_elements():
    n = (1 << 31) + 12345
    if _cuda_free_bytes() and _cuda_free_bytes() < 6 * n:
        pytest.skip("not enough GPU memory")
    t = ingot.ones((n,), dtype="int8", device="cuda")
    assert ingot.sum(t).item() == n
    assert ingot.count_nonzero(t).item() == n
    f = ingot.ones((n,), dtype="float16", device="cuda")
    assert ingot.sum(f, dtype="float32").item() == np.float32(n)
    assert ingot.amax(t).item() == 1 and ingot.argmin(f).item() == 0
    # The maximum past 2^31: the launch is cut into 32-bit pieces, and the index must be global.
    t[(1 << 31) + 100] = 2
    t[n - 1] = 2
    assert ingot.argmax(t).item() == (1 << 31) + 100
    assert ingot.sum(t).item() == n + 2
    two = f.view((2, -1)) if n % 2 == 0 else f[: n - 1].view((2, -1))
    np.testing.assert_array_equal(host(ingot.sum(two, 1, dtype="float64")), [(n - 1) // 2] * 2)
