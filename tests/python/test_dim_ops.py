"""Dim ops (softmax, log_softmax, cumsum, cumprod, cummax, cummin) against float64/int64 NumPy
references (opinfo_dim.py) on every backend present: every dim of 3-d and 4-d inputs, every dtype,
non-contiguous inputs, long rows (the CPU's parallel chunks, CUDA's chunked scans), empty dims, 0-d
inputs, out=, dtype=, special values and the errors.

Error bounds (u = unit roundoff of the accumulation type: float32 for float16/bfloat16/float32,
float64 for float64; e = spacing of the result dtype at 1):
  cumsum  |got_i - ref_i| <= (i + 1) u S_i + e |ref_i|, S_i = sum of |x_j| for j <= i (the recursive
          summation bound; CUDA's blocked scans have a smaller depth, so the same bound holds);
  cumprod |got_i - ref_i| <= ((i + 1) u + e) |ref_i|;
  softmax and log_softmax: 16 u (|log p| + log n + 1) relative, plus e for the final rounding;
  cummax/cummin, integers and bool: exact."""
from __future__ import annotations

import math

import numpy as np
import pytest

import ingot
from ingot_test_helpers import DEVICES, host, make
from opinfo_dim import DIM_BY_NAME, DIM_OPS, cummax_ref, cummin_ref
from opinfo_support import ALL, FLOATS, container, float_tiny, is_float, mismatches, samples

EPS = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "float64": 2.0**-52}
ACC_U = {"float16": 2.0**-24, "bfloat16": 2.0**-24, "float32": 2.0**-24, "float64": 2.0**-53}


def data(op, dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if op.name == "cumprod":  # magnitudes near 1, both signs: long products stay finite
        if is_float(dtype):
            return container(rng.uniform(0.6, 1.4, shape) * rng.choice([-1.0, 1.0], shape), dtype)
        return samples(dtype, shape, rng, (-3, 3))
    return samples(dtype, shape, rng, (-10.0, 10.0))


def reference(op, x, axis, dtype, result):
    """The reference result for container x of dtype, as a container of `result`."""
    if op.kind == "index_scan":
        v, i = op.ref(x if is_float(dtype) else x.astype(np.int64), axis)
        return container(v, dtype), i
    if is_float(result):
        return op.ref(np.asarray(x, np.float64), axis)
    return container(op.ref(np.asarray(x).astype(np.int64), axis), result)


def bound(op, x, want, axis, result):
    """Per-element absolute tolerance (see the module docstring)."""
    u, e = ACC_U[result], EPS[result]
    a = np.abs(want)
    n = x.shape[axis] if x.ndim else 1
    if op.name == "cumsum":
        depth = np.arange(1, n + 1).reshape([-1 if k == axis % max(x.ndim, 1) else 1 for k in range(x.ndim)])
        with np.errstate(invalid="ignore"):
            return depth * u * np.cumsum(np.abs(np.asarray(x, np.float64)), axis=axis) + e * a + float_tiny(result)
    if op.name == "cumprod":
        depth = np.arange(1, n + 1).reshape([-1 if k == axis % max(x.ndim, 1) else 1 for k in range(x.ndim)])
        return (depth * u + e) * a + float_tiny(result)
    with np.errstate(divide="ignore", invalid="ignore"):
        if op.name == "softmax":
            logp = np.where(a > 0, np.abs(np.log(np.where(a > 0, a, 1.0))), 0.0)
            return e * a + 16 * u * a * (logp + math.log(max(n, 1)) + 1) + float_tiny(result)
        return e * a + 16 * u * (a + math.log(max(n, 1)) + 1)


def assert_close(op, got, want, tol, result, context):
    assert got.dtype == result, f"{op.name} {context}: dtype {got.dtype}, expected {result}"
    g = host(got)
    assert g.shape == want.shape, f"{op.name} {context}: shape {g.shape}, expected {want.shape}"
    if not is_float(result):
        bad = g != want
    else:
        g, w = np.asarray(g, np.float64), np.asarray(want, np.float64)
        with np.errstate(invalid="ignore"):
            finite = np.isfinite(w) & np.isfinite(g)
            bad = (np.isnan(g) != np.isnan(w)) | (~finite & ~np.isnan(w) & (g != w))
            bad |= finite & (np.abs(g - w) > (0.0 if tol is None else tol))
    if bad.any():
        idx = [tuple(i) for i in np.argwhere(bad)[:5]]
        pytest.fail(f"{op.name} {context}: {int(bad.sum())} of {bad.size} differ; " +
                    "; ".join(f"at {i}: got {g[i]!r}, want {want[i]!r}" for i in idx))


def check_op(op, t, x, dim, in_dtype, context, **kw):
    """Runs op on tensor t (holding container x of in_dtype) along dim and checks it."""
    dtype = in_dtype
    got = getattr(ingot, op.name)(t, dim, **kw)
    result = kw.get("dtype").name if kw.get("dtype") is not None else op.result_dtype(dtype)
    if op.kind == "index_scan":
        v, i = reference(op, x, dim, dtype, result)
        assert_close(op, got[0], v, None, dtype, context + " values")
        assert_close(op, got[1], i, None, "int64", context + " indices")
        return
    want = reference(op, x, dim, dtype, result)
    tol = bound(op, np.asarray(x, np.float64), want, dim, result) if is_float(result) else None
    assert_close(op, got, want if is_float(result) else want, tol, result, context)


def op_cases(kinds=None, dtypes=None):
    out = []
    for op in DIM_OPS:
        if kinds and op.kind not in kinds:
            continue
        for d in dtypes or op.dtypes:
            if d in op.dtypes:
                for dev in DEVICES:
                    out.append(pytest.param(op, d, dev, id=f"{op.name}-{d}-{dev}"))
    return out


@pytest.mark.parametrize("op, dtype, device", op_cases())
def test_every_dim_of_3d_and_4d_inputs(op, dtype, device):
    for shape in [(3, 4, 5), (2, 3, 4, 5)]:
        x = data(op, dtype, shape)
        t = make(x, dtype, device)
        for dim in range(-len(shape), len(shape)):
            check_op(op, t, x, dim, dtype, f"shape {shape} dim {dim}")


@pytest.mark.parametrize("op, dtype, device", op_cases(dtypes=("float32", "int32", "bfloat16")))
def test_non_contiguous_inputs(op, dtype, device):
    if dtype not in op.dtypes:
        pytest.skip("dtype not taken")
    x = data(op, dtype, (6, 7, 8))
    t = make(x, dtype, device)
    views = {"transposed": (lambda a: a.transpose(0, 2), lambda a: np.swapaxes(a, 0, 2)),
             "stepped": (lambda a: a[::2, :, 1::3], lambda a: a[::2, :, 1::3]),
             "flipped": (lambda a: a.flip([1]), lambda a: a[:, ::-1])}
    for name, (tv, nv) in views.items():
        for dim in range(3):
            check_op(op, tv(t), nv(x), dim, dtype, f"{name} dim {dim}")


@pytest.mark.parametrize("op, dtype, device", op_cases(dtypes=("float16", "float32", "float64", "int64")))
def test_long_rows_and_columns(op, dtype, device):
    # 1-d: one long row (CUDA: chunked scans, softmax rows past the registers); 2-d along dim 0:
    # long columns; a few long rows along dim 1. Past the CPU grain size, so parallel chunks run.
    # (CUDA: cols_split for the few-column cases, (2, 3000, 33) with a partly used column block.)
    for shape, dim in [((100_003,), 0), ((3, 70_001), 1), ((20_000, 5), 0), ((513, 257), 1), ((2, 3000, 33), 1)]:
        x = data(op, dtype, shape, seed=sum(shape))
        check_op(op, make(x, dtype, device), x, dim, dtype, f"shape {shape} dim {dim}")


@pytest.mark.parametrize("op, dtype, device", op_cases(dtypes=("float32", "int16", "bool")))
def test_row_lengths_around_vector_and_group_sizes(op, dtype, device):
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, 4097]:
        x = data(op, dtype, (3, n), seed=n)
        check_op(op, make(x, dtype, device), x, 1, dtype, f"n {n}")


@pytest.mark.parametrize("op, device", [pytest.param(op, d, id=f"{op.name}-{d}") for op in DIM_OPS for d in DEVICES])
def test_empty_dims(op, device):
    dtype = "float32"
    for shape in [(0,), (2, 0, 3), (0, 4), (4, 0)]:
        t = make(np.zeros(shape), dtype, device)
        for dim in range(len(shape)):
            got = getattr(ingot, op.name)(t, dim)
            got = got[0] if op.kind == "index_scan" else got
            assert tuple(got.shape) == shape and got.dtype == op.result_dtype(dtype)


@pytest.mark.parametrize("op, device", [pytest.param(op, d, id=f"{op.name}-{d}") for op in DIM_OPS for d in DEVICES])
def test_zero_dim_inputs(op, device):
    t = make(np.array(2.5), "float32", device)
    for dim in (0, -1):
        got = getattr(ingot, op.name)(t, dim)
        if op.kind == "index_scan":
            assert got[0].shape == () and host(got[0])[()] == 2.5 and host(got[1])[()] == 0
        else:
            assert got.shape == ()
            assert host(got)[()] == {"softmax": 1.0, "log_softmax": 0.0}.get(op.name, 2.5)
    with pytest.raises(IndexError, match=op.name):
        getattr(ingot, op.name)(t, 1)


@pytest.mark.parametrize("op, device", [pytest.param(op, d, id=f"{op.name}-{d}") for op in DIM_OPS for d in DEVICES])
def test_dim_out_of_range_is_an_index_error(op, device):
    t = make(np.ones((2, 3)), "float32", device)
    for dim in (2, -3):
        with pytest.raises(IndexError, match=op.name):
            getattr(ingot, op.name)(t, dim)


@pytest.mark.parametrize("op, device", [pytest.param(op, d, id=f"{op.name}-{d}")
                                        for op in DIM_OPS if op.kind != "index_scan" for d in DEVICES])
def test_out(op, device):
    x = data(op, "float32", (4, 6))
    t = make(x, "float32", device)
    want = host(getattr(ingot, op.name)(t, 1))
    out = make(np.zeros((4, 6)), "float32", device)
    assert getattr(ingot, op.name)(t, 1, out=out) is out
    assert np.array_equal(host(out), want)
    # a transposed out=, and a wider dtype: computed, then copied in
    out_t = make(np.zeros((6, 4)), "float32", device).transpose(0, 1)
    getattr(ingot, op.name)(t, 1, out=out_t)
    assert np.array_equal(host(out_t), want)
    out64 = make(np.zeros((4, 6)), "float64", device)
    getattr(ingot, op.name)(t, 1, out=out64)
    assert np.array_equal(host(out64), want)
    # out= aliasing the input
    same = make(x, "float32", device)
    getattr(ingot, op.name)(same, 1, out=same)
    assert np.array_equal(host(same), want)
    with pytest.raises(ValueError, match=op.name):
        getattr(ingot, op.name)(t, 1, out=make(np.zeros((4, 5)), "float32", device))
    with pytest.raises(TypeError, match=op.name):
        getattr(ingot, op.name)(t, 1, out=make(np.zeros((4, 6)), "int32", device))


@pytest.mark.parametrize("device", DEVICES)
def test_integer_and_bool_scans_return_int64(device):
    for dtype in ("bool", "uint8", "int8", "int16", "int32", "int64"):
        x = samples(dtype, (5, 40), np.random.default_rng(1), (-100, 100))
        t = make(x, dtype, device)
        for name in ("cumsum", "cumprod"):
            got = getattr(ingot, name)(t, 1)
            assert got.dtype == "int64"
            assert np.array_equal(host(got), getattr(np, name)(np.asarray(x).astype(np.int64), axis=1))


@pytest.mark.parametrize("device", DEVICES)
def test_scan_dtype_keyword(device):
    x = np.array([100, 100, 100, -50], np.int64)
    t = make(x, "int32", device)
    got = ingot.cumsum(t, 0, dtype=ingot.int8)  # accumulates, then wraps to int8 like a cast
    assert got.dtype == "int8" and list(host(got)) == list(container(np.cumsum(x), "int8"))
    got = ingot.cumsum(make(np.array([0.1] * 1000), "float32", device), 0, dtype=ingot.float64)
    assert got.dtype == "float64"
    np.testing.assert_allclose(host(got), np.cumsum(np.full(1000, np.float32(0.1), np.float64)), rtol=1e-12)
    got = ingot.cumprod(t, 0, dtype=ingot.float32)
    assert got.dtype == "float32" and list(host(got)) == [100.0, 1e4, 1e6, -5e7]


@pytest.mark.parametrize("device", DEVICES)
def test_softmax_of_integers_needs_dtype(device):
    t = make(np.array([[1, 2, 3]]), "int64", device)
    for name in ("softmax", "log_softmax"):
        with pytest.raises(TypeError, match=name):
            getattr(ingot, name)(t, 1)
        with pytest.raises(TypeError, match=name):
            getattr(ingot, name)(make(np.array([[1.0]]), "float32", device), 1, dtype=ingot.int32)
        got = getattr(ingot, name)(t, 1, dtype=ingot.float64)
        assert got.dtype == "float64"
        want = DIM_BY_NAME[name].ref(np.array([[1.0, 2.0, 3.0]]), 1)
        np.testing.assert_allclose(host(got), want, rtol=1e-14)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("device", DEVICES)
def test_softmax_dtype_float32_from_half_computes_in_float32(dtype, device):
    x = data(DIM_BY_NAME["softmax"], dtype, (4, 300))
    t = make(x, dtype, device)
    for op in (DIM_BY_NAME["softmax"], DIM_BY_NAME["log_softmax"]):
        check_op(op, t, x, 1, dtype, "dtype=float32", dtype=ingot.float32)


@pytest.mark.parametrize("device", DEVICES)
def test_softmax_special_rows(device):
    inf, nan = np.inf, np.nan
    rows = np.array([[-inf, -inf, -inf, -inf],   # all -inf: NaN (as PyTorch)
                     [1.0, -inf, 2.0, -inf],     # -inf entries get probability 0
                     [1.0, inf, 2.0, 3.0],       # +inf: NaN
                     [1.0, nan, 2.0, 3.0],       # NaN: the whole row is NaN
                     [1e4, 1e4 - 1, -1e4, 0.0],  # large values: no overflow (max subtracted)
                     [0.0, 0.0, 0.0, 0.0]])
    for name in ("softmax", "log_softmax"):
        op = DIM_BY_NAME[name]
        for dtype in FLOATS:
            x = container(rows, dtype)
            check_op(op, make(x, dtype, device), x, 1, dtype, f"special rows {dtype}")
    got = host(ingot.softmax(make(rows, "float32", device), 1))
    assert np.isnan(got[0]).all() and np.isnan(got[2]).all() and np.isnan(got[3]).all()
    assert got[1][1] == 0.0 and got[1][3] == 0.0 and np.isfinite(got[4]).all()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_many_long_rows(dtype, device):
    # More long rows than an H200 holds blocks at once, with rows of whole thread groups (16384)
    # and of ragged ones (10000, 4104: bounds checked), special rows among them.
    rng = np.random.default_rng(7)
    for n in (16384, 10000, 4104) if dtype != "float64" else (8192, 5000):
        x = rng.standard_normal((300, n)) * 4
        x[5, :] = -np.inf
        x[17, 3] = np.nan
        x[40, n - 1] = np.inf
        x[41, ::7] = -np.inf
        x = container(x, dtype)
        for name in ("softmax", "log_softmax"):
            check_op(DIM_BY_NAME[name], make(x, dtype, device), x, 1, dtype, f"{name} {dtype} 300x{n}")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [16384, 1000, 37])
def test_softmax_2_byte_outputs_within_an_ulp_down_to_subnormals(n, dtype, device):
    # Outputs from 1 down through the subnormals of the result dtype, against the float64 reference
    # rounded to dtype: within one ulp (at the subnormal spacing below the normals), and never
    # flushed to zero. CUDA rows with 2-byte outputs take their exps from an approximation scaled
    # clear of float32's flush range (dim_kernels.cuh, narrow_exp); this holds it to the bound.
    lo, hi = (-95.0, -80.0) if dtype == "bfloat16" else (-18.0, -6.0)
    row = np.concatenate([[0.0], np.linspace(lo, hi, n - 1)])
    x = container(np.stack([row, row[::-1] + 3.0, np.roll(row, n // 2) - 50.0]), dtype)
    t = make(x, dtype, device)
    want = container(DIM_BY_NAME["softmax"].ref(x, 1), dtype)
    got = host(ingot.softmax(t, 1))
    bad = mismatches(got, want, dtype, 1.0)
    assert not bad.any(), (f"{int(bad.sum())} outputs off by more than an ulp, e.g. got {got[bad][:4]}, "
                           f"want {want[bad][:4]}")
    assert ((got == 0) == (want == 0)).all(), "tiny outputs flushed to zero"
    assert (want[:, 1:] < float_tiny(dtype)).any() and (want[:, 1:] > 0).any()  # the range is covered
    lwant = container(DIM_BY_NAME["log_softmax"].ref(x, 1), dtype)
    bad = mismatches(host(ingot.log_softmax(t, 1)), lwant, dtype, 1.0)
    assert not bad.any(), f"log_softmax: {int(bad.sum())} outputs off by more than an ulp"


@pytest.mark.parametrize("device", DEVICES)
def test_softmax_rows_sum_to_one(device):
    x = (np.random.default_rng(3).standard_normal((64, 1000)) * 3).astype(np.float32)
    for dim, t in [(1, make(x, "float32", device)), (0, make(x.T.copy(), "float32", device))]:
        p = np.asarray(host(ingot.softmax(t, dim)), np.float64)
        assert np.abs(p.sum(axis=dim) - 1.0).max() <= 16 * 2.0**-24


@pytest.mark.parametrize("device", DEVICES)
def test_cummax_cummin_nan_and_ties_follow_pytorch(device):
    nan = np.nan
    x = np.array([1.0, 3.0, 3.0, 2.0, nan, 5.0, nan, 0.0])
    v, i = ingot.cummax(make(x, "float32", device), 0)
    np.testing.assert_array_equal(host(v), [1, 3, 3, 3, nan, nan, nan, nan])
    assert list(host(i)) == [0, 1, 2, 2, 4, 4, 6, 6]  # ties: the later index; a later NaN moves it
    v, i = ingot.cummin(make(np.array([2.0, 1.0, 1.0, 4.0]), "float32", device), 0)
    assert list(host(v)) == [2, 1, 1, 1] and list(host(i)) == [0, 1, 2, 2]
    vb, ib = ingot.cummax(make(np.array([False, True, False, True]), "bool", device), 0)
    assert list(host(vb)) == [False, True, True, True] and list(host(ib)) == [0, 1, 1, 3]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_return_values_and_indices_by_name(device, name):
    # As torch.return_types.cummax: .values and .indices, from the function, the method and out=.
    x = np.array([[2.0, 1.0, 3.0], [0.0, 5.0, 4.0]])
    t = make(x, "float32", device)
    want_v, want_i = (cummax_ref if name == "cummax" else cummin_ref)(x, 1)
    for r in (getattr(ingot, name)(t, 1), getattr(t, name)(dim=1)):
        assert np.array_equal(host(r.values), want_v) and np.array_equal(host(r.indices), want_i)
        assert host(r.indices).dtype == np.int64
    v = ingot.empty((2, 3), device=t.device)
    i = ingot.empty((2, 3), dtype=ingot.int64, device=t.device)
    r = getattr(ingot, name)(t, 1, out=(v, i))
    assert r.values is v and r.indices is i
    assert np.array_equal(host(v), want_v) and np.array_equal(host(i), want_i)


@pytest.mark.parametrize("device", DEVICES)
def test_float16_cumsum_accumulates_in_float32(device):
    # 4096 ones: a float16 accumulator stalls at 2048; float32 accumulation is exact here.
    got = host(ingot.cumsum(make(np.ones(4096), "float16", device), 0))
    assert got[-1] == 4096.0 and got[2048] == 2049.0 - (2049 % 2)  # 2049 rounds to 2048 in float16


@pytest.mark.parametrize("device", DEVICES)
def test_methods(device):
    x = data(DIM_BY_NAME["softmax"], "float32", (3, 5))
    t = make(x, "float32", device)
    assert np.array_equal(host(t.softmax(1)), host(ingot.softmax(t, 1)))
    assert np.array_equal(host(t.log_softmax(0)), host(ingot.log_softmax(t, 0)))
    assert np.array_equal(host(t.cumsum(0)), host(ingot.cumsum(t, 0)))
    assert np.array_equal(host(t.cumprod(1)), host(ingot.cumprod(t, 1)))
    v, i = t.cummax(1)
    wv, wi = cummax_ref(x, 1)
    assert np.array_equal(host(v), wv) and np.array_equal(host(i), wi)
    v, i = t.cummin(0)
    assert host(i).dtype == np.int64


def test_every_dim_op_is_declared():
    for op in DIM_OPS:
        assert hasattr(ingot, op.name), op.name


def test_table_covers_all_dtypes_for_scans():
    assert DIM_BY_NAME["cumsum"].dtypes == ALL and DIM_BY_NAME["cummax"].dtypes == ALL


@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("device", DEVICES)
def test_index_scan_out_is_a_tuple(name, device):
    x = data(DIM_BY_NAME[name], "float32", (3, 7))
    t = make(x, "float32", device)
    want_v, want_i = DIM_BY_NAME[name].ref(x, 1)
    v = make(np.zeros((3, 7)), "float32", device)
    i = make(np.zeros((7, 3)), "int64", device).transpose(0, 1)  # non-contiguous indices out=
    got = getattr(ingot, name)(t, 1, out=(v, i))
    assert got[0] is v and got[1] is i
    assert np.array_equal(host(v), want_v) and np.array_equal(host(i), want_i)
    with pytest.raises(TypeError, match=name):
        getattr(ingot, name)(t, 1, out=v)
    with pytest.raises(TypeError, match=name):  # indices must be int64, values self's dtype
        getattr(ingot, name)(t, 1, out=(v, make(np.zeros((3, 7)), "float32", device)))
    with pytest.raises(TypeError, match=name):
        getattr(ingot, name)(t, 1, out=(make(np.zeros((3, 7)), "float64", device), i))
