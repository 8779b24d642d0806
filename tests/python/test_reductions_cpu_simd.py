"""The CPU vector paths of max/min and argmax/argmin (src/backend/cpu/reduce_simd.h) against the
generic cascade, which a stepped (non-contiguous) view of the same values takes: results must be
bit-identical, with NaN, ties across the 512-element search chunks, signed zeros, infinities, integer extremes
and lengths around the 16-element vector groups. Also any/all/count_nonzero, which test the
elements' bits and stop early, against NumPy and the stepped view."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from ingot_test_helpers import host, ingot

LENGTHS = (1, 15, 16, 17, 255, 257, 511, 512, 513, 4097, 10001)
DTYPES = ("float32", "float64", "int8", "int16", "int32", "int64", "uint8")


def pair(values: np.ndarray):
    """(contiguous tensor, stepped view with the same values)."""
    wide = np.zeros((values.shape[0], 2) + values.shape[1:], dtype=values.dtype)
    wide[:, 0] = values
    return ingot.asarray(values.copy()), ingot.asarray(wide)[:, 0]


def bits(t) -> np.ndarray:
    a = np.ascontiguousarray(host(t))
    return a.view(np.uint8)


def check_same(values: np.ndarray, dims=(None, 0)):
    c, s = pair(values)
    for op in ("amax", "amin", "argmax", "argmin"):
        for dim in dims:
            if dim is not None and dim >= values.ndim:
                continue
            fc, fs = (getattr(ingot, op)(c), getattr(ingot, op)(s)) if dim is None else \
                (getattr(ingot, op)(c, dim), getattr(ingot, op)(s, dim))
            np.testing.assert_array_equal(bits(fc), bits(fs), err_msg=f"{op} dim={dim} n={values.shape}")
    return c


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
def test_random_data_matches_the_generic_path_and_numpy(dtype, n):
    rng = np.random.default_rng(n)
    if dtype.startswith("float"):
        v = rng.standard_normal(n).astype(dtype)
    else:
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype)
    c = check_same(v)
    assert ingot.argmax(c).item() == int(np.argmax(v)) and ingot.argmin(c).item() == int(np.argmin(v))
    assert ingot.amax(c).item() == v.max() and ingot.amin(c).item() == v.min()
    rows = v[: n // 3 * 3].reshape(3, -1) if n >= 3 else v.reshape(1, -1)
    cr, _ = pair(rows.T.copy())  # also rows along the inner dim
    np.testing.assert_array_equal(host(ingot.argmax(ingot.asarray(rows.copy()), 1)), np.argmax(rows, 1))
    np.testing.assert_array_equal(host(ingot.amin(ingot.asarray(rows.copy()), 1)), np.min(rows, 1))


@pytest.mark.parametrize("dtype", ("float32", "float64"))
@pytest.mark.parametrize("n", LENGTHS)
def test_first_nan_wins_wherever_it_is(dtype, n):
    for p in sorted({0, n // 2, n - 1, min(n - 1, 4097)}):
        v = np.random.default_rng(p).standard_normal(n).astype(dtype)
        v[0] = 100.0 if p != 0 else v[0]  # a large value before the NaN
        v[p] = np.nan
        if p + 5 < n:
            v[p + 5] = np.nan
        c = check_same(v)
        assert ingot.argmax(c).item() == p and ingot.argmin(c).item() == p
        assert np.isnan(ingot.amax(c).item()) and np.isnan(ingot.amin(c).item())


@pytest.mark.parametrize("dtype", ("float32", "float64"))
@pytest.mark.parametrize("n", (16, 600, 5000))
def test_infinities_of_both_signs_and_overflowing_values_are_no_nan(dtype, n):
    """Infinities of both signs and values whose sums overflow (what a NaN test through sums
    would mistake for a NaN) give the exact extreme, and a NaN after them still wins."""
    rng = np.random.default_rng(n)
    big = np.finfo(dtype).max
    for case in ("both infinities", "overflow", "overflow then -inf", "infinities then a NaN"):
        v = rng.standard_normal(n).astype(dtype)
        if case == "both infinities":
            v[[n // 3, n // 2]] = [-np.inf, np.inf]
        elif case == "overflow":
            v[: n // 2] = big
            v[n // 2:] = -big
            v[n - 1] = big / 2
        elif case == "overflow then -inf":
            v[:4] = big
            v[n - 3] = -np.inf
        else:
            v[[1, 3]] = [np.inf, -np.inf]
            v[n - 2] = np.nan
        c = check_same(v)
        assert ingot.argmax(c).item() == int(np.argmax(v)), case
        assert ingot.argmin(c).item() == int(np.argmin(v)), case
        np.testing.assert_array_equal(host(ingot.amax(c)), v.max(), err_msg=case)
        np.testing.assert_array_equal(host(ingot.amin(c)), v.min(), err_msg=case)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ties_across_chunks_pick_the_first_index(dtype):
    v = np.zeros(20000, dtype=dtype)
    for at in (5000, 9000, 4096 * 3 + 1, 19999):
        v[at] = 7
    v[[4100, 8191, 19998]] = 3 if dtype.startswith("u") else -3
    c = check_same(v)
    assert ingot.argmax(c).item() == 5000
    assert ingot.argmin(c).item() == (0 if dtype.startswith("u") else 4100)


@pytest.mark.parametrize("dtype", ("float32", "float64"))
@pytest.mark.parametrize("n", (16, 33, 256, 5000))
def test_signed_zeros_and_infinities(dtype, n):
    rng = np.random.default_rng(n)
    z = np.where(rng.integers(0, 2, n) == 1, -0.0, 0.0).astype(dtype)
    c = check_same(z)
    assert ingot.argmax(c).item() == 0 and ingot.argmin(c).item() == 0
    assert np.signbit(host(ingot.max(c, 0).values)) == np.signbit(z[0])
    check_same(np.concatenate([z, -np.ones(n, dtype=dtype)]))
    for fill in (np.inf, -np.inf):
        f = np.full(n, fill, dtype=dtype)
        c = check_same(f)
        assert ingot.argmax(c).item() == 0 and ingot.argmin(c).item() == 0 and ingot.amax(c).item() == fill


def test_two_dims_and_keepdim_on_the_vector_path():
    v = np.random.default_rng(1).standard_normal((7, 300)).astype(np.float32)
    v[3, 200] = np.nan
    t = ingot.asarray(v)
    idx = host(ingot.argmax(t, 1, keepdim=True))
    assert idx.shape == (7, 1) and idx[3, 0] == 200
    np.testing.assert_array_equal(np.delete(idx[:, 0], 3), np.delete(np.argmax(v, 1), 3))
    check_same(v, dims=(None, 0, 1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (3, 15), (4, 16), (5, 17), (13, 40), (17, 33), (31, 70), (64, 100), (9, 4099)])
def test_max_over_an_outer_dim_matches_the_generic_path(dtype, shape):
    """amax/amin over dim 0 (the outer strategy's vector rows) against a view whose columns are
    stepped (the scalar loop): bit-identical with NaNs, signed zeros and ties, and equal to NumPy."""
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    if dtype.startswith("float"):
        v = rng.standard_normal(shape).astype(dtype)
        v[rng.random(shape) < 0.1] = 0.0
        v[rng.random(shape) < 0.1] = -0.0
        v[rng.random(shape) < 0.02] = np.nan
        v[rng.random(shape) < 0.02] = np.inf
        v[rng.random(shape) < 0.02] = -np.inf
    else:
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)
        v[rng.random(shape) < 0.2] = info.max  # ties
    wide = np.zeros(shape + (2,), dtype=v.dtype)
    wide[..., 0] = v
    c, s = ingot.asarray(v.copy()), ingot.asarray(wide)[:, :, 0]
    for op, ref in (("amax", np.max), ("amin", np.min)):
        fc, fs = getattr(ingot, op)(c, 0), getattr(ingot, op)(s, 0)
        np.testing.assert_array_equal(bits(fc), bits(fs), err_msg=f"{op} {shape}")
        np.testing.assert_array_equal(host(fc), ref(v, 0))  # NaN where NumPy has one; -0.0 == 0.0


@pytest.mark.parametrize("dtype", DTYPES + ("float16", "bfloat16"))
@pytest.mark.parametrize("shape", [(1, 1), (2, 15), (5, 17), (9, 40), (64, 33), (65, 100), (130, 20),
                                   (300, 7), (6, 1030)])
def test_argmax_over_an_outer_dim_matches_the_generic_path(dtype, shape):
    """argmax/argmin and max/min with indices over dim 0 (the outer strategy's arg_group: values and
    row numbers in vectors, groups of up to 127 rows for 1-byte types) against a view whose columns
    are stepped (the element rule) and NumPy: the first extreme, the first NaN, ties to the first."""
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    floating = dtype.startswith("float") or dtype == "bfloat16"
    if floating:
        v = rng.integers(-8, 8, shape).astype(np.float32)  # few values: many ties
        v[rng.random(shape) < 0.05] = -0.0
        v[rng.random(shape) < 0.02] = np.nan
        v[rng.random(shape) < 0.02] = np.inf
        v[rng.random(shape) < 0.02] = -np.inf
        v[:, 0] = np.nan  # a column of NaNs: row 0
        if shape[0] > 1 and shape[1] > 1:
            v[:, 1] = 3.0
            v[-1, 1] = np.nan  # the NaN in the last row
    else:
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)
        v[rng.random(shape) < 0.3] = info.max  # ties
        v[rng.random(shape) < 0.3] = info.min
    wide = np.zeros(shape + (2,), dtype=v.dtype)
    wide[..., 0] = v
    c, s = as_dtype(v, dtype), as_dtype(wide, dtype)[:, :, 0]
    ref = v.astype(np.float64) if floating else v  # NumPy: first NaN, first index of the extreme
    for op, npop in (("argmax", np.argmax), ("argmin", np.argmin)):
        fc, fs = getattr(ingot, op)(c, 0), getattr(ingot, op)(s, 0)
        np.testing.assert_array_equal(host(fc), host(fs), err_msg=f"{op} {shape} {dtype}")
        np.testing.assert_array_equal(host(fc), npop(ref, 0), err_msg=f"{op} {shape} {dtype}")
    for op in ("max", "min"):
        (vc, ic), (vs, is_) = getattr(ingot, op)(c, 0), getattr(ingot, op)(s, 0)
        np.testing.assert_array_equal(bits(vc), bits(vs), err_msg=f"{op} {shape} {dtype}")
        np.testing.assert_array_equal(host(ic), host(is_), err_msg=f"{op} {shape} {dtype}")


# Rows of 64Ki elements or more are read as four parts at once under the plain memory policy
# (StreamLanes in reduce_simd.h) and as one under the assisted one; the policy is read once per
# process, so each runs in its own. Part edges of a row of n elements fall near k * n / 4.
LONG_ROWS_SCRIPT = r"""
import sys
import numpy as np
import ingot
sys.path.insert(0, sys.argv[1])
from test_reductions_cpu_simd import check_same
assert ingot.config()["cpu_memory_policy"] == sys.argv[2]
for n in (1 << 16, 4 * 65536 + 4999, 1_000_003):
    edges = sorted({0, n // 4 - 1, n // 4, n // 2 + 7, 3 * (n // 4) - 1, n - 5000, n - 1})
    for dtype in ("float32", "float64", "int8", "int32", "uint8"):
        rng = np.random.default_rng(n)
        v = (rng.standard_normal(n) * 20).astype(dtype) if dtype[0] == "f" else \
            rng.integers(0, 100, n).astype(dtype)
        check_same(v)
        for a, b in ((edges[2], edges[4]), (edges[3], edges[5]), (edges[1], edges[6])):
            w = v.copy()  # ties in two parts (or a part and the tail): the first index wins
            w[[a, b]] = 120
            w[[b - 1, a + 1]] = 0 if dtype[0] == "u" else -120
            c = check_same(w)
            assert ingot.argmax(c).item() == a and ingot.argmin(c).item() == (a + 1 if dtype[0] != "u" else
                                                                             int(np.argmin(w)))
        if dtype[0] == "f":
            for at in edges:  # a NaN in any part, the first of two winning
                w = v.copy()
                w[[at, edges[-1]]] = np.nan
                c = check_same(w)
                assert ingot.argmax(c).item() == at and np.isnan(ingot.amin(c).item())
            z = np.zeros(n, dtype)  # signed zeros: the sign of the first one
            z[edges[3]:] = -0.0
            check_same(z)
            check_same(-z)
            check_same(np.concatenate([z, -np.ones(5, dtype)]))
print("ok")
"""


def run_under_policy(script: str, policy: str):
    """Runs one of the scripts above in a process of its own under the memory policy `policy`."""
    env = dict(os.environ, INGOT_CPU_MEMORY=policy)
    run = subprocess.run([sys.executable, "-c", script, str(pathlib.Path(__file__).parent), policy],
                         env=env, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]


@pytest.mark.parametrize("policy", ("plain", "assisted"))
def test_long_rows_read_in_parts_match_the_generic_path(policy):
    run_under_policy(LONG_ROWS_SCRIPT, policy)


# Under the plain memory policy, rows of 1Ki to 64Ki elements are read four at a time (rows_extreme
# and rows_arg_extreme in reduce_simd.h); under the assisted one each on its own. A view stepped
# along the rows takes the generic cascade instead, so the two must agree bit for bit.
ROWS_TOGETHER_SCRIPT = r"""
import sys
import numpy as np
import ingot
sys.path.insert(0, sys.argv[1])
from test_reductions_cpu_simd import bits
from ingot_test_helpers import host
assert ingot.config()["cpu_memory_policy"] == sys.argv[2]

def check(v):
    wide = np.zeros(v.shape + (2,), v.dtype)
    wide[..., 0] = v
    c, s = ingot.asarray(v.copy()), ingot.asarray(wide)[..., 0]  # s: stepped along the rows
    for op, ref in (("amax", np.max), ("amin", np.min), ("argmax", np.argmax), ("argmin", np.argmin)):
        fc, fs = getattr(ingot, op)(c, -1), getattr(ingot, op)(s, -1)
        np.testing.assert_array_equal(bits(fc), bits(fs), err_msg=f"{op} {v.shape} {v.dtype}")
        np.testing.assert_array_equal(host(fc), ref(v, -1), err_msg=f"{op} {v.shape} {v.dtype}")
    for op, ref in (("max", np.argmax), ("min", np.argmin)):  # values and indices
        (vc, ic), (vs, is_) = getattr(ingot, op)(c, -1, keepdim=True), getattr(ingot, op)(s, -1, keepdim=True)
        np.testing.assert_array_equal(bits(vc), bits(vs), err_msg=f"{op} {v.shape} {v.dtype}")
        np.testing.assert_array_equal(host(ic), host(is_), err_msg=f"{op} {v.shape} {v.dtype}")
        np.testing.assert_array_equal(host(ic)[..., 0], ref(v, -1), err_msg=f"{op} {v.shape} {v.dtype}")

for n in (1024, 1031, 4096 + 7, 65535):
    for rows in ((4,), (7,), (2, 5)):
        shape = rows + (n,)
        for dtype in ("float32", "float64", "int8", "int32", "uint8"):
            rng = np.random.default_rng(n + len(rows) * 100 + rows[-1])
            v = (rng.standard_normal(shape) * 20).astype(dtype) if dtype[0] == "f" else \
                rng.integers(0, 100, shape).astype(dtype)
            check(v)
            w = v.copy().reshape(-1, n)  # ties across chunks and in the tail: the first index wins
            w[0, [600, n - 2]] = 120
            w[-1, [n - 3, n - 1]] = 120
            w[1, [5, 1000]] = 0 if dtype[0] == "u" else -120
            check(w.reshape(shape))
            if dtype[0] == "f":
                for at in (0, 511, 512, n // 2, n - 3, n - 1):  # a NaN in one row, the first of two winning
                    w = v.copy().reshape(-1, n)
                    w[1, [at, min(at + 1, n - 1)]] = np.nan
                    check(w.reshape(shape))
                z = np.zeros(shape, dtype).reshape(-1, n)  # zero extremes: the generic path's sign
                z[0, n // 3:] = -0.0
                z[2, :7] = -0.0
                z[3] = -1.0
                z[3, 900] = 0.0
                check(z.reshape(shape))
                check(-z.reshape(shape))
                f = np.full(shape, np.inf, dtype).reshape(-1, n)
                f[1] = -np.inf
                check(f.reshape(shape))
v = np.random.default_rng(0).standard_normal((257, 2048)).astype(np.float32)  # threads, a partial group
v[200, 77] = np.nan
check(v)
print("ok")
"""


@pytest.mark.parametrize("policy", ("plain", "assisted"))
def test_rows_read_together_match_the_generic_path(policy):
    run_under_policy(ROWS_TOGETHER_SCRIPT, policy)


LOGICAL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")


def as_dtype(values: np.ndarray, dtype: str):
    """A tensor of dtype with values (bfloat16 through float32: NumPy has none)."""
    if dtype == "bfloat16":
        return ingot.asarray(values.astype(np.float32)).astype(ingot.bfloat16)
    return ingot.asarray(values.astype(dtype))


@pytest.mark.parametrize("dtype", LOGICAL_DTYPES)
@pytest.mark.parametrize("n", LENGTHS + (70001,))
def test_any_all_count_nonzero_find_one_element_anywhere(dtype, n):
    # One nonzero among zeros (any) and one zero among nonzeros (all) at the start, at a chunk
    # edge, in the vector part's last step and in the scalar tail; -0.0 is a zero and NaN is not.
    floating = dtype.startswith("float") or dtype == "bfloat16"
    zero = -0.0 if floating else 0
    for at in sorted({0, min(511, n - 1), min(512, n - 1), n // 16 * 16 - 1 if n >= 16 else 0, n - 1}):
        for marker in ((np.nan, 1) if floating else (1,)):
            v = np.full(n, zero, dtype=np.float64)
            v[at] = marker
            c, s = as_dtype(v, dtype), as_dtype(np.stack([v, v], 1), dtype)[:, 0]
            for t in (c, s):
                assert ingot.any(t).item() is True and ingot.all(t).item() is (n == 1)
                assert ingot.count_nonzero(t).item() == 1
            w = np.full(n, 1.0)
            w[at] = zero
            c, s = as_dtype(w, dtype), as_dtype(np.stack([w, w], 1), dtype)[:, 0]
            for t in (c, s):
                assert ingot.all(t).item() is False and ingot.any(t).item() is (n > 1)
                assert ingot.count_nonzero(t).item() == n - 1
    empty = as_dtype(np.zeros(0), dtype)
    assert ingot.any(empty).item() is False and ingot.all(empty).item() is True


@pytest.mark.parametrize("dtype", LOGICAL_DTYPES)
def test_any_all_count_nonzero_over_rows_and_dims_match_numpy(dtype):
    rng = np.random.default_rng(7)
    v = rng.choice([0.0, -0.0, 1.0, -2.0, np.inf, np.nan] if dtype.startswith(("float", "bf")) else [0, 1, 3],
                   size=(37, 1029), p=None)
    v[rng.random(v.shape) < 0.9] = 0.0  # mostly zeros: rows with and without a nonzero
    v[5] = 1.0  # a row of nonzeros, for all
    t = as_dtype(v, dtype)
    ref = v != 0
    for dim in (None, 0, 1):
        for op, want in (("any", ref.any(axis=dim)), ("all", ref.all(axis=dim)),
                         ("count_nonzero", ref.sum(axis=dim))):
            got = getattr(ingot, op)(t) if dim is None else getattr(ingot, op)(t, dim)
            np.testing.assert_array_equal(host(got), want, err_msg=f"{op} dim={dim} {dtype}")
    tt = ingot.transpose(t, 0, 1)  # non-contiguous rows
    np.testing.assert_array_equal(host(ingot.any(tt, 1)), ref.T.any(1))
    np.testing.assert_array_equal(host(ingot.all(tt, 1)), ref.T.all(1))


@pytest.mark.parametrize("dtype", ("float16", "bfloat16", "float32", "float64"))
@pytest.mark.parametrize("n", LENGTHS)
def test_inf_norms_match_the_generic_path_bit_for_bit(dtype, n):
    # vector_norm's inf / -inf orders over contiguous rows take an integer extreme of the
    # magnitudes' bits; the stepped view takes the generic float path. Signed zeros, infinities,
    # subnormals and a NaN (its bits come from the generic path either way).
    rng = np.random.default_rng(n)
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1e-40, -3.5, 2.0**-140])
    for case in ("random", "special", "nan", "zeros"):
        v = rng.standard_normal(n) * 100
        if case == "special":
            v[rng.integers(0, n, max(1, n // 4))] = rng.choice(special, max(1, n // 4))
        elif case == "nan":
            v[rng.integers(0, n)] = np.nan
        elif case == "zeros":
            v = np.where(rng.random(n) < 0.5, 0.0, -0.0)
        c, s = as_dtype(v, dtype), as_dtype(np.stack([v, v], 1), dtype)[:, 0]
        for order in (float("inf"), float("-inf")):
            fc, fs = ingot.vector_norm(c, order), ingot.vector_norm(s, order)
            np.testing.assert_array_equal(bits(fc), bits(fs), err_msg=f"{case} ord={order}")
            stored = np.abs(host(c.astype(ingot.float64)))  # the values as the dtype holds them
            want = stored.max() if order > 0 else stored.min()
            got = float(host(fc.astype(ingot.float64)))
            assert (np.isnan(got) and np.isnan(want)) or got == want, f"{case} ord={order}: {got} != {want}"
        rows = as_dtype(np.stack([v, -v, v * 0.5]), dtype)  # over dim 1 too
        np.testing.assert_array_equal(bits(ingot.vector_norm(rows, float("inf"), 1)),
                                      bits(ingot.vector_norm(ingot.transpose(ingot.transpose(rows, 0, 1).clone(), 0, 1), float("inf"), 1)))


@pytest.mark.parametrize("dtype", ("float32", "float64", "float16", "int32"))
@pytest.mark.parametrize("shape", [(2, 3, 5), (5, 9, 300), (64, 7, 256), (3, 33, 1030)])
def test_outputs_read_four_at_a_time_give_each_output_its_own_bits(dtype, shape):
    """A reduction over dims (0, 2) reads four outputs' rows side by side (reduce_loops.h's rows_of),
    each output keeping its own combining tree: the bits of reducing each output's slice alone."""
    v = np.random.default_rng(sum(shape)).standard_normal(shape) * 100
    v[0, 0, 0] = np.nan if dtype.startswith("float") else v[0, 0, 0]
    x = as_dtype(v, dtype)
    before = ingot.get_num_threads()
    try:
        ingot.set_num_threads(1)
        for op in ("sum", "var", "amax", "vector_norm"):
            if op in ("var", "vector_norm") and not dtype.startswith("float"):
                continue
            f = getattr(ingot, op)
            together = f(x, (0, 2)) if op != "vector_norm" else f(x, 2, (0, 2))
            for j in range(shape[1]):
                alone = f(x[:, j, :]) if op != "vector_norm" else f(x[:, j, :], 2)
                np.testing.assert_array_equal(bits(together[j:j + 1]), bits(alone.reshape(1)),
                                              err_msg=f"{op} {shape} {dtype} output {j}")
        one_thread = ingot.sum(x, (0, 2))
        ingot.set_num_threads(max(2, before))  # threads share the groups of outputs: the same bits
        np.testing.assert_array_equal(bits(ingot.sum(x, (0, 2))), bits(one_thread))
    finally:
        ingot.set_num_threads(before)
