"""Index ops (gather, index_select, take, take_along_dim, scatter, scatter_add, index, index_put,
masked_fill, nonzero) and advanced tensor indexing against NumPy, on every device available."""
import numpy as np
import pytest

import ingot
from ingot_test_helpers import ALL_DTYPES, DEVICES, sample

INDEX_DTYPES = ["int64", "int32"]


def data(shape, dtype, device, seed=0):
    """A tensor of `dtype` on `device` and its values as float64 NumPy (exact for these samples)."""
    values = sample(shape, "float32" if dtype in ("float16", "bfloat16") else dtype, seed)
    t = ingot.asarray(values.astype(np.float64)).astype(getattr(ingot, dtype))
    return (t if device == "cpu" else t.to(device)), values_of(t)


def values_of(t):
    if t.device != "cpu":
        t = t.to("cpu")
    return t.astype(ingot.float64).numpy()


def index(arr, dtype="int64", device="cpu"):
    t = ingot.asarray(np.asarray(arr, dtype=dtype))
    return t if device == "cpu" else t.to(device)


def gather_ref(a, dim, ix):
    """torch.gather's result: a cropped to ix's shape off `dim`, then read along `dim`."""
    dim = dim % a.ndim
    crop = tuple(slice(None) if d == dim else slice(0, ix.shape[d]) for d in range(a.ndim))
    return np.take_along_axis(a[crop], ix, axis=dim)


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES)
def test_gather_matches_take_along_axis(device, dtype, index_dtype):
    t, a = data((5, 7), dtype, device)
    idx = np.array([[0, 4, -1, 2, 3, 1, -5], [4, 4, 0, 0, 1, 2, 3]])
    for dim in (0, 1, -1):
        ix = idx if dim == 0 else idx[:, :5] % 7 - 3
        r = ingot.gather(t, dim, index(ix, index_dtype, device))
        assert r.dtype == t.dtype and r.shape == ix.shape
        np.testing.assert_array_equal(values_of(r), gather_ref(a, dim, ix))


def test_gather_of_non_contiguous_data_and_index(device):
    t, a = data((6, 4), "float32", device)
    tt = t.T[:, ::2]  # (4, 3), strided both ways
    at = a.T[:, ::2]
    big = np.array([[2, 0, 1, 0], [1, 1, 0, 2], [0, 2, 2, 1]]).T  # (4, 3) viewed from a transpose
    ix = index(big.T, device=device).T
    np.testing.assert_array_equal(values_of(ingot.gather(tt, 1, ix)), np.take_along_axis(at, big, 1))


def test_gather_with_an_index_smaller_than_self(device):
    t, a = data((4, 5), "int16", device)
    ix = np.array([[3, 0], [1, 1]])
    np.testing.assert_array_equal(values_of(ingot.gather(t, 0, index(ix, device=device))),
                                  gather_ref(a, 0, ix))


def test_gather_empty_index_and_zero_dim(device):
    t, a = data((3, 4), "float64", device)
    assert ingot.gather(t, 1, index(np.zeros((3, 0)), device=device)).shape == (3, 0)
    s, _ = data((), "int32", device)
    assert values_of(ingot.gather(s, 0, index(0, device=device))) == values_of(s)


def test_gather_out(device):
    t, a = data((3, 4), "float32", device)
    ix = np.array([[1, 0, 2, 1]])
    out = ingot.zeros((1, 4), device=device)
    r = ingot.gather(t, 0, index(ix, device=device), out=out)
    assert r is out
    np.testing.assert_array_equal(values_of(out), np.take_along_axis(a, ix, 0))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_index_select_matches_numpy_take(device, dtype):
    t, a = data((4, 5, 3), dtype, device)
    for dim, ix in ((0, [3, 0, 0, -1]), (1, [4, 2]), (2, []), (-1, [2])):
        r = ingot.index_select(t, dim, index(ix, device=device))
        np.testing.assert_array_equal(values_of(r), np.take(a, np.asarray(ix, dtype=np.int64), axis=dim))


def test_index_select_of_a_transposed_tensor_with_a_strided_index(device):
    t, a = data((5, 6), "bfloat16", device)
    ix = index([4, 0, 9, 2, 3, 1], "int32", device)[::2]  # [4, 9, 3] -> 9 is out of range for dim 1
    ok = index([4, 0, 1, 2, 3, 1], "int32", device)[::2]
    np.testing.assert_array_equal(values_of(ingot.index_select(t.T, 1, ok)), a.T[:, [4, 1, 3]])
    if device == "cpu":
        with pytest.raises(IndexError, match="index 9 is out of bounds for dimension 1 with size 5"):
            ingot.index_select(t.T, 1, ix)


def test_index_select_out_and_method(device):
    t, a = data((3, 4), "int64", device)
    out = ingot.zeros((3, 2), dtype=ingot.int64, device=device)
    ingot.index_select(t, 1, index([3, 1], device=device), out=out)
    np.testing.assert_array_equal(values_of(out), a[:, [3, 1]])
    np.testing.assert_array_equal(values_of(t.index_select(0, index([2], device=device))), a[[2]])


def test_take_and_take_along_dim(device):
    t, a = data((3, 4), "uint8", device)
    ix = np.array([[11, 0], [-1, 5]])
    np.testing.assert_array_equal(values_of(ingot.take(t, index(ix, device=device))), np.take(a, ix))
    np.testing.assert_array_equal(values_of(ingot.take(t.T, index(ix, device=device))), np.take(a.T, ix))
    ix2 = np.array([[0], [3], [2]])
    np.testing.assert_array_equal(values_of(ingot.take_along_dim(t, index(ix2, device=device), 1)),
                                  np.take_along_axis(a, ix2, 1))
    ix3 = np.array([[1, 0, 2, 2]])  # broadcast along dim 1... of size 4, and along dim 0 from 1
    np.testing.assert_array_equal(values_of(ingot.take_along_dim(t, index(ix3, device=device), 0)),
                                  np.take_along_axis(a, ix3, 0))
    np.testing.assert_array_equal(values_of(ingot.take_along_dim(t, index([5, 0], device=device))),
                                  np.take(a, [5, 0]))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_scatter_places_src_and_value(device, dtype):
    t, a = data((4, 3), dtype, device)
    src, s = data((2, 3), dtype, device, seed=1)
    ix = np.array([[3, 0, 1], [1, 2, -1]])  # no duplicates along a column
    ref = a.copy()
    np.put_along_axis(ref, ix % 4, s, 0)
    np.testing.assert_array_equal(values_of(ingot.scatter(t, 0, index(ix, device=device), src)), ref)
    ref = a.copy()
    np.put_along_axis(ref, ix % 4, 1, 0)
    np.testing.assert_array_equal(values_of(ingot.scatter(t, 0, index(ix, device=device), value=1)), ref)
    np.testing.assert_array_equal(values_of(t), a)  # functional forms leave self alone


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_scatter_add_sums_duplicates(device, dtype):
    t, a = data((3, 4), dtype, device)
    src, s = data((5, 4), dtype, device, seed=2)
    ix = np.array([[0, 1, 2, 0], [0, 1, 2, 0], [2, 2, 2, 2], [1, 0, 1, 0], [0, 0, 0, 0]])
    ref = a.copy()
    for i in range(5):
        for j in range(4):
            ref[ix[i, j], j] = np.logical_or(ref[ix[i, j], j], s[i, j]) if dtype == "bool" else ref[ix[i, j], j] + s[i, j]
    r = values_of(ingot.scatter_add(t, 0, index(ix, device=device), src))
    if dtype in ("float16", "bfloat16"):
        np.testing.assert_allclose(r, ref, rtol=2e-2, atol=0.1)
    elif dtype in ("uint8", "int8", "int16"):
        wrap = np.dtype(dtype)
        np.testing.assert_array_equal(r, ref.astype(np.int64).astype(wrap))
    else:
        np.testing.assert_allclose(r, ref, rtol=1e-6)


def test_scatter_add_of_integers_is_deterministic(device):
    src = ingot.asarray(np.arange(1, 100001, dtype=np.int64))
    ix = ingot.asarray(np.arange(100000, dtype=np.int64) % 7)
    if device != "cpu":
        src, ix = src.to(device), ix.to(device)
    results = {tuple(values_of(ingot.scatter_add(ingot.zeros(7, dtype=ingot.int64, device=device), 0, ix, src)))
               for _ in range(3)}
    assert len(results) == 1
    expected = np.bincount(np.arange(100000) % 7, weights=np.arange(1, 100001)).astype(np.int64)
    np.testing.assert_array_equal(np.array(results.pop()), expected)


def test_scatter_in_place_and_out(device):
    t, a = data((3, 3), "float32", device)
    ix = index([[2, 0, 1]], device=device)
    src, s = data((1, 3), "float32", device, seed=3)
    out = ingot.zeros((3, 3), device=device)
    ingot.scatter_add(t, 0, ix, src, out=out)
    ref = a.copy()
    ref[[2, 0, 1], [0, 1, 2]] += s[0]
    np.testing.assert_allclose(values_of(out), ref)
    t.scatter_(0, ix, src)
    ref = a.copy()
    ref[[2, 0, 1], [0, 1, 2]] = s[0]
    np.testing.assert_array_equal(values_of(t), ref)


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_broadcasts_values(device, accumulate):
    t, a = data((4, 3), "int32", device)
    rows = np.array([3, 1, -4])
    r = ingot.index_put(t, [index(rows, device=device)], index([10, 20, 30], "int32", device), accumulate)
    ref = a.copy()
    if accumulate:
        np.add.at(ref, rows, [10, 20, 30])
    else:
        ref[rows] = [10, 20, 30]
    np.testing.assert_array_equal(values_of(r), ref)


def test_index_reads_leading_dims(device):
    t, a = data((4, 5, 2), "float64", device)
    i, j = np.array([[0, 3], [2, -1]]), np.array([4, 0])
    np.testing.assert_array_equal(values_of(ingot.index(t, [index(i, device=device), index(j, device=device)])),
                                  a[i, j])


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_masked_fill_with_a_number_and_a_0d_tensor(device, dtype):
    t, a = data((3, 4), dtype, device)
    mask = np.array([True, False, False, True])
    m = ingot.asarray(mask).to(device) if device != "cpu" else ingot.asarray(mask)
    np.testing.assert_array_equal(values_of(t.masked_fill(m, 1)), np.where(mask, 1, a))
    v = ingot.asarray(np.array(0, dtype=np.int64))
    np.testing.assert_array_equal(values_of(ingot.masked_fill(t, m, v)), np.where(mask, 0, a))
    t.masked_fill_(m, 1)
    np.testing.assert_array_equal(values_of(t), np.where(mask, 1, a))


def test_masked_fill_rejects_non_bool_masks_and_wide_masks(device):
    t, _ = data((3,), "float32", device)
    with pytest.raises(TypeError, match="mask"):
        t.masked_fill(index([1, 0, 1], device=device), 0)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        t.masked_fill(ingot.ones((2, 3), dtype=ingot.bool, device=device), 0)


@pytest.mark.parametrize("shape", [(0,), (5,), (3, 4), (2, 3, 2), ()])
def test_nonzero_matches_argwhere(device, shape):
    t, a = data(shape, "int8", device)
    r = ingot.nonzero(t)
    assert r.dtype == ingot.int64
    np.testing.assert_array_equal(values_of(r), np.argwhere(a))


@pytest.mark.parametrize("op", [
    lambda t, ix: ingot.gather(t, 0, ix.reshape(1, 1)),
    lambda t, ix: ingot.index_select(t, 0, ix),
    lambda t, ix: ingot.take(t, ix),
    lambda t, ix: t.scatter_(0, ix.reshape(1, 1), 1.0),
    lambda t, ix: t[ix],
], ids=["gather", "index_select", "take", "scatter_", "getitem"])
@pytest.mark.parametrize("bad", [4, -5])
def test_out_of_range_indices_raise(device, op, bad):
    t = ingot.zeros((4, 1), device=device)
    ix = index([bad], device=device)
    if device == "cpu":
        with pytest.raises(IndexError, match=f"index {bad} is out of bounds"):
            op(t, ix)
        return
    op(t, ix)  # reported by the kernel, raised at the next synchronization
    with pytest.raises(ingot.AcceleratorError, match=f"index {bad} is out of bounds"):
        ingot.cuda.synchronize()
    np.testing.assert_array_equal(values_of(t + 1), np.ones((4, 1)))  # the stream keeps working


def test_float_index_is_a_type_error(device):
    t = ingot.zeros((3,), device=device)
    with pytest.raises(TypeError, match="int64 or int32"):
        ingot.index_select(t, 0, ingot.zeros((1,), device=device))
    with pytest.raises(TypeError, match="src has dtype"):
        ingot.scatter(t, 0, index([0], device=device), ingot.zeros((1,), dtype=ingot.float64, device=device))


def test_gather_shape_errors_name_the_op():
    with pytest.raises(ValueError, match="gather: index has 1 dims but self has 2"):
        ingot.gather(ingot.zeros((2, 2)), 0, index([0]))
    with pytest.raises(ValueError, match="gather: index has size 3 in dim 1"):
        ingot.gather(ingot.zeros((2, 2)), 0, index([[0, 0, 0]]))
    with pytest.raises(IndexError):
        ingot.gather(ingot.zeros((2, 2)), 2, index([[0]]))


# ---- tensor indexing (t[idx], t[mask], t[idx] = v) routed through the index ops

A = (4, 5, 6)
GET_KEYS = [
    [0, 3, -1], np.array([[1, 2], [3, 0]]), ([0, 1], [4, 0]), (slice(None), [4, 0, 4]),
    (Ellipsis, [5, 0]), (slice(1, 3), slice(None), [1, -1]), ([1, 2], slice(None), [0, 5]),
    (0, slice(None), [1, 2]), ([1, 2], 0), (None, [1, 0], None), (slice(None, None, -1), [2, 2]),
    ([[0], [3]], slice(None), [0, 1, 2]), ([],), (slice(None), [], slice(None)),
    np.array([True, False, True, True]), (slice(None), np.array([True] * 3 + [False] * 2)),
    np.arange(4 * 5).reshape(4, 5) % 3 == 0, (Ellipsis, np.arange(6) > 2), (1, np.arange(5) < 3),
]


@pytest.mark.parametrize("key", GET_KEYS, ids=repr)
def test_advanced_getitem_matches_numpy(device, key):
    t, a = data(A, "float32", device)
    np.testing.assert_array_equal(values_of(t[key]), a[key])


@pytest.mark.parametrize("key", GET_KEYS, ids=repr)
def test_advanced_setitem_matches_numpy(device, key):
    t, a = data(A, "int32", device)
    shape = a[key].shape
    values = np.arange(np.prod(shape, dtype=np.int64)).reshape(shape) + 100
    t[key] = values
    a[key] = values
    got = values_of(t)
    # Which of several values written to one element wins is NumPy's last on the CPU and
    # unspecified on CUDA (docs/user-guide.md): there, such an element holds one of its values.
    ids = np.arange(a.size).reshape(a.shape)[key].ravel()
    targets, counts = np.unique(ids, return_counts=True)
    for target in targets[counts > 1] if device != "cpu" else ():
        pos = np.unravel_index(target, a.shape)
        assert got[pos] in set(values.ravel()[ids == target].tolist()), (pos, got[pos])
        got[pos] = a[pos]
    np.testing.assert_array_equal(got, a)
    t[key] = 7
    a[key] = 7
    np.testing.assert_array_equal(values_of(t), a)


def test_indices_given_as_tensors_of_either_int_dtype_and_as_lists(device):
    t, a = data((6,), "float64", device)
    for ix in (index([5, 0], "int32", device), index([5, 0], "int64", device), [5, 0], np.array([5, 0])):
        np.testing.assert_array_equal(values_of(t[ix]), a[[5, 0]])


def test_setitem_broadcasts_a_row_over_advanced_rows(device):
    t, a = data((4, 3), "float32", device)
    t[[0, 2]] = ingot.asarray(np.array([1.0, 2.0, 3.0], np.float32)).to(device)
    a[[0, 2]] = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(values_of(t), a)


def test_mask_of_the_wrong_shape_is_an_index_error():
    with pytest.raises(IndexError, match="boolean index did not match"):
        ingot.zeros((3, 2))[np.array([True, False])]


def test_float_array_index_is_an_index_error():
    with pytest.raises(IndexError):
        ingot.zeros((3,))[np.array([0.5])]


# ---- the OpInfo-style entries of opinfo_index.py: every dtype, both index dtypes, contiguous
# and transposed data, every device

from opinfo_index import INDEX_OPS  # noqa: E402


def _entry_cases():
    out = []
    for op in INDEX_OPS:
        for dtype in op.dtypes:
            for index_dtype in INDEX_DTYPES:
                out.append(pytest.param(op, dtype, index_dtype, id=f"{op.name}-{dtype}-{index_dtype}"))
    return out


@pytest.mark.parametrize("layout", ["contiguous", "transposed"])
@pytest.mark.parametrize("op,dtype,index_dtype", _entry_cases())
def test_index_op_entry(device, op, dtype, index_dtype, layout):
    shape = op.shape if layout == "contiguous" else op.shape[::-1]
    t, a = data(shape, dtype, device, seed=5)
    if layout == "transposed":
        t, a = t.T, a.T

    def ix(values):
        arr = np.asarray(values)
        return index(arr, "bool" if arr.dtype == np.bool_ else index_dtype, device)

    fn = getattr(ingot, op.name)
    for case in op.cases:
        got = values_of(case.call(fn, t, ix))
        want = case.ref(a)
        if dtype == "bool" and op.name != "nonzero":
            want = want != 0
        if op.exact_sums and dtype in ("float16", "bfloat16"):
            np.testing.assert_allclose(got, want, rtol=2e-2, atol=0.1)
        elif op.exact_sums and dtype in ("float32", "float64"):
            np.testing.assert_allclose(got, want, rtol=1e-6)
        elif op.exact_sums and dtype in ("uint8", "int8", "int16", "int32"):
            np.testing.assert_array_equal(got, want.astype(np.int64).astype(dtype))
        else:
            np.testing.assert_array_equal(got, want)
