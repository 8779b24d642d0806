"""float16/bfloat16 reductions on the CPU widen contiguous data to float32 a block at a time
(src/backend/cpu/reduce_loops.h) and run the float32 loops over the block. Each op accumulates in
float32 either way, so on the same values a float16 (bfloat16) reduction must give the bits of
the float32 reduction rounded once to float16 (bfloat16), and where no functor hook is involved
the bits of a stepped view of the same data, which converts element by element. Covered: tails
around the 256-element leaves and 16-element groups, max/argmax rows longer than the 2048-element
widening block, the outer strategy's 512-column blocks and 8/4/1-row passes, long rows read in
parts, NaN (the first wins), ties (the first index), signed zeros and infinities."""
import warnings

import numpy as np
import pytest

from ingot_test_helpers import host, ingot

REDUCED = ("float16", "bfloat16")
LENGTHS = (1, 15, 16, 17, 255, 256, 257, 1000, 2047, 2048, 2049, 4097, 70001)


def tensor(values: np.ndarray, dtype: str):
    """values (float32, exactly representable in dtype) as a tensor of dtype."""
    return ingot.asarray(np.ascontiguousarray(values, dtype=np.float32)).astype(getattr(ingot, dtype))


def data(shape, dtype: str, seed: int) -> np.ndarray:
    """Random float32 values already rounded to dtype."""
    v = (np.random.default_rng(seed).standard_normal(shape) * 4).astype(np.float32)
    return host(tensor(v, dtype).astype(ingot.float32)).astype(np.float32)


def stepped(values: np.ndarray, dtype: str):
    """A view of the same values, its last dim stepped (the loops that convert element by element)."""
    wide = np.zeros(values.shape + (2,), np.float32)
    wide[..., 0] = values
    return tensor(wide, dtype)[..., 0]


def bits(t) -> np.ndarray:
    return np.ascontiguousarray(host(t)).view(np.uint8)


def same(a, b, what: str):
    np.testing.assert_array_equal(bits(a), bits(b), err_msg=what)


# Ops whose float16 result is the float32 result rounded once (float32 accumulators, no float64
# projection), and which have no block hook (so a stepped view gives the same bits too).
PLAIN = {
    "sum": lambda x, d: ingot.sum(x, d),
    "mean": lambda x, d: ingot.mean(x, d),
    "nansum": lambda x, d: ingot.nansum(x, d),
    "nanmean": lambda x, d: ingot.nanmean(x, d),
    "prod": lambda x, d: ingot.prod(x, d),  # on values near 1 (check)
    "norm2": lambda x, d: ingot.vector_norm(x, 2, d),
    "norm1": lambda x, d: ingot.vector_norm(x, 1, d),
    "amax": lambda x, d: ingot.amax(x, d),
    "amin": lambda x, d: ingot.amin(x, d),
}
INDEX = {"argmax": ingot.argmax, "argmin": ingot.argmin}


def check(values: np.ndarray, dtype: str, dim, what: str, steps=True):
    rdt = getattr(ingot, dtype)
    axes = [] if dim is None else [dim] if isinstance(dim, int) else list(dim)
    near_one = host(tensor(values * 0.125 + 1.0, dtype).astype(ingot.float32))
    for name, op in PLAIN.items():
        v = near_one if name == "prod" else values
        x, f = tensor(v, dtype), ingot.asarray(np.ascontiguousarray(v, dtype=np.float32))
        r = op(x, dim)
        same(r, op(f, dim).astype(rdt), f"{name} {what} {dtype} vs float32")
        if steps:
            same(r, op(stepped(v, dtype), dim), f"{name} {what} {dtype} vs stepped")
    x, f = tensor(values, dtype), ingot.asarray(np.ascontiguousarray(values, dtype=np.float32))
    if dim is None or isinstance(dim, int):
        for name, op in INDEX.items():
            r = op(x) if dim is None else op(x, dim)
            np.testing.assert_array_equal(host(r), host(op(f) if dim is None else op(f, dim)),
                                          err_msg=f"{name} {what} {dtype}")
        if dim is not None:
            for op in (ingot.max, ingot.min):
                (v, i), (fv, fi) = op(x, dim), op(f, dim)
                same(v, fv.astype(rdt), f"{op.__name__}.values {what} {dtype}")
                np.testing.assert_array_equal(host(i), host(fi), err_msg=f"{op.__name__}.indices {what}")
    # var/std round float64 moments once to dtype, float32 twice: compare within one dtype ulp.
    ref = values.astype(np.float64)
    for name, op, npop in (("var", ingot.var, np.var), ("std", ingot.std, np.std)):
        r = host(op(x, dim).astype(ingot.float32)).astype(np.float64)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # one element: no degrees of freedom
            want = npop(ref, axis=None if dim is None else tuple(axes), ddof=1)
        if np.isfinite(want).all():
            np.testing.assert_allclose(r, want, rtol=2 ** -7 if dtype == "bfloat16" else 2 ** -10,
                                       atol=1e-6, err_msg=f"{name} {what} {dtype}")
    r = host(ingot.logsumexp(x, dim if dim is not None else tuple(range(values.ndim))).astype(ingot.float32))
    with np.errstate(all="ignore"):
        want = np.log(np.sum(np.exp(ref), axis=None if dim is None else tuple(axes)))
    np.testing.assert_allclose(r, want, rtol=2 ** -7 if dtype == "bfloat16" else 2 ** -10, atol=1e-4,
                               err_msg=f"logsumexp {what} {dtype}")


@pytest.mark.parametrize("dtype", REDUCED)
@pytest.mark.parametrize("n", LENGTHS)
def test_rows_match_float32_and_the_stepped_view(dtype, n):
    v = data(n, dtype, n)
    check(v, dtype, None, f"n={n}")
    check(v, dtype, 0, f"n={n}")
    if n >= 3:
        rows = v[: n // 3 * 3].reshape(3, -1)
        check(rows, dtype, 1, f"3 rows of {n // 3}")


@pytest.mark.parametrize("dtype", REDUCED)
@pytest.mark.parametrize("shape", [(1, 5), (3, 17), (9, 513), (13, 1030), (70, 600), (130, 33), (64, 4100)])
def test_outer_dim_matches_float32_and_the_stepped_view(dtype, shape):
    v = data(shape, dtype, shape[0] * 7 + shape[1])
    check(v, dtype, 0, f"{shape} dim 0")


@pytest.mark.parametrize("dtype", REDUCED)
def test_several_dims(dtype):
    v = data((6, 70, 40), dtype, 3)
    for dim in ((0, 2), (0, 1), (1, 2), -1):
        check(v, dtype, dim, f"dims {dim}", steps=False)


@pytest.mark.parametrize("dtype", REDUCED)
@pytest.mark.parametrize("n", (17, 2048, 2049, 5000, 70001))
def test_first_nan_ties_and_zeros(dtype, n):
    base = data(n, dtype, 1)
    for at in sorted({0, n // 2, n - 1, min(n - 1, 2048), min(n - 1, 4097)}):
        v = base.copy()
        v[0] = 100.0 if at != 0 else v[0]
        v[at] = np.nan
        v[min(n - 1, at + 3)] = np.nan
        x = tensor(v, dtype)
        assert ingot.argmax(x).item() == at and ingot.argmin(x).item() == at
        assert np.isnan(ingot.amax(x).item()) and np.isnan(ingot.amin(x).item())
        check(v, dtype, 0, f"NaN at {at}")
    v = np.zeros(n, np.float32)
    v[[n // 3, n - 1]] = 7.0  # ties, one in the last widening block
    v[[n // 2, n - 2]] = -7.0
    x = tensor(v, dtype)
    assert ingot.argmax(x).item() == n // 3 and ingot.argmin(x).item() == n // 2
    z = np.where(np.random.default_rng(n).integers(0, 2, n) == 1, -0.0, 0.0).astype(np.float32)
    check(z, dtype, 0, "signed zeros")  # a zero extreme: the generic path, as float32 takes
    check(np.concatenate([z, -np.ones(5, np.float32)]), dtype, 0, "zeros then -1")
    for fill in (np.inf, -np.inf):
        f = np.full(n, fill, np.float32)
        x = tensor(f, dtype)
        assert ingot.amax(x).item() == fill and ingot.argmax(x).item() == 0 and ingot.argmin(x).item() == 0
        check(f, dtype, 0, f"all {fill}")


@pytest.mark.parametrize("dtype", REDUCED)
def test_the_block_of_one_thread_and_of_several(dtype):
    v = data((257, 2048), dtype, 5)
    v[200, 77] = np.nan
    before = ingot.get_num_threads()
    try:
        for threads in (1, max(2, before)):
            ingot.set_num_threads(threads)
            check(v, dtype, 1, f"threads={threads}", steps=False)
            check(v, dtype, 0, f"threads={threads}", steps=False)
            check(v, dtype, None, f"threads={threads}", steps=False)
    finally:
        ingot.set_num_threads(before)


@pytest.mark.parametrize("dtype", REDUCED)
@pytest.mark.parametrize("shape", [(3, 1), (4, 17), (5, 1000), (2, 1025), (3, 4096), (2, 4097), (2, 9000), (2, 40000), (40, 33),
                                   (7, 600)])
def test_softmax_and_scans_match_float32_rounded_once(dtype, shape):
    """softmax/log_softmax/cumsum/cumprod compute in float32 for float16/bfloat16; rows are widened
    and narrowed in blocks (dim_loops.h), rows of up to 256 columns (a dim other than the last) one
    row at a time: both the float32 bits, rounded once. cummax/cummin compare widened values and
    return the input's own elements: float32's values and indices."""
    v = data(shape, dtype, shape[0] * 10 + shape[1])
    v[0, shape[1] // 2] = np.nan if shape[1] > 2 else v[0, 0]
    x, f = tensor(v, dtype), ingot.asarray(v)
    rdt = getattr(ingot, dtype)
    for dim in (1, 0):
        for name in ("softmax", "log_softmax", "cumsum", "cumprod"):
            op = getattr(ingot, name)
            same(op(x, dim), op(f, dim).astype(rdt), f"{name} {shape} dim {dim} {dtype}")
            same(op(stepped(v, dtype), dim), op(f, dim).astype(rdt), f"{name} {shape} dim {dim} {dtype} stepped")
        # into float32 (dtype=): the widened row, no narrowing
        same(ingot.softmax(x, dim, dtype=ingot.float32), ingot.softmax(f, dim), f"softmax {shape} to float32")
        same(ingot.cumsum(x, dim, dtype=ingot.float32), ingot.cumsum(f, dim), f"cumsum {shape} to float32")
        for name in ("cummax", "cummin"):
            got, want = getattr(ingot, name)(x, dim), getattr(ingot, name)(f, dim)
            same(got.values, want.values.astype(rdt), f"{name} {shape} dim {dim} {dtype} values")
            np.testing.assert_array_equal(host(got.indices), host(want.indices), f"{name} {shape} dim {dim} indices")


@pytest.mark.parametrize("dtype", REDUCED)
@pytest.mark.parametrize("name", ["softmax", "log_softmax", "cumsum", "cummax"])
def test_a_middle_dim_widens_rows_of_columns(dtype, name):
    """dim 1 of a (3, 70, 300) tensor: 300 columns a row, read as a block of 256 and one of 44."""
    v = data((3, 70, 300), dtype, 7)
    v[1, 5, 299] = np.nan
    v[2, :, 3] = np.inf
    x, f = tensor(v, dtype), ingot.asarray(v)
    got, want = getattr(ingot, name)(x, 1), getattr(ingot, name)(f, 1)
    if name == "cummax":
        np.testing.assert_array_equal(host(got.indices), host(want.indices))
        got, want = got.values, want.values
    same(got, want.astype(getattr(ingot, dtype)), f"{name} dim 1 {dtype}")
