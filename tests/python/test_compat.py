"""PyTorch's calling conventions layered on the generated ops (ingot/_compat.py): clamp and clip
with one bound, where(condition), and the Tensor methods PyTorch code uses, against NumPy."""
import numpy as np
import pytest

from ingot_test_helpers import DEVICES, host, ingot, make


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("name", ["clamp", "clip"])
def test_clamp_and_clip_take_either_bound_alone(device, name):
    c = np.linspace(-3, 3, 13, dtype=np.float32).reshape(13, 1)
    t = make(c, "float32", device)
    fn = getattr(ingot, name)
    np.testing.assert_array_equal(host(fn(t, min=-1)), np.maximum(c, -1))
    np.testing.assert_array_equal(host(getattr(t, name)(max=0.5)), np.minimum(c, 0.5))
    np.testing.assert_array_equal(host(fn(t, None, 2)), np.minimum(c, 2))
    np.testing.assert_array_equal(host(fn(t, -1, 2)), np.clip(c, -1, 2))
    low = make(np.full((13, 1), 0.25, np.float32), "float32", device)
    np.testing.assert_array_equal(host(fn(t, low)), np.maximum(c, 0.25))
    out = ingot.empty((13, 1), device=device)
    assert fn(t, max=1, out=out) is out
    np.testing.assert_array_equal(host(out), np.minimum(c, 1))
    u = t.clone()
    assert getattr(u, name + "_")(min=0) is u
    np.testing.assert_array_equal(host(u), np.maximum(c, 0))
    getattr(u, name + "_")(max=1)
    np.testing.assert_array_equal(host(u), np.clip(c, 0, 1))
    with pytest.raises(TypeError, match="at least one of min and max"):
        fn(t)
    with pytest.raises(TypeError, match="at least one of min and max"):
        getattr(u, name + "_")()


@pytest.mark.parametrize("device", DEVICES)
def test_where_of_a_condition_alone_gives_the_nonzero_indices_per_dim(device):
    c = np.array([[0, 3, 0], [5, 0, 7]], np.int32)
    t = make(c, "int32", device)
    got = ingot.where(t)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, np.where(c)):
        np.testing.assert_array_equal(host(g), w)
    np.testing.assert_array_equal(host(ingot.where(t > 0, t, -1)), np.where(c > 0, c, -1))
    with pytest.raises(TypeError, match="condition alone"):
        ingot.where(t > 0, t)


def test_pytorch_shape_methods():
    t = ingot.zeros((2, 3, 4), dtype=ingot.int16)
    assert (t.dim(), t.ndimension(), t.nelement(), t.element_size()) == (3, 3, 24, 2)
    assert not t.is_floating_point() and t.float().is_floating_point()


@pytest.mark.parametrize("start,end", [(0, -1), (1, -1), (0, 1), (-2, -1), (1, 1), (2, 2)])
def test_flatten_merges_the_dims_from_start_to_end(start, end):
    c = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = ingot.asarray(c)
    n = c.ndim
    s, e = start % n, end % n
    want = c.reshape(c.shape[:s] + (-1,) + c.shape[e + 1:])
    np.testing.assert_array_equal(t.flatten(start, end).numpy(), want)
    np.testing.assert_array_equal(t.T.flatten(start, end).numpy(), c.T.reshape(c.T.shape[:s] + (-1,) + c.T.shape[e + 1:]))
    assert ingot.asarray(np.float32(2)).flatten().shape == (1,)
    with pytest.raises(IndexError, match="out of range"):
        t.flatten(3)
    with pytest.raises(ValueError, match="comes after"):
        t.flatten(2, 1)


def test_round_and_divmod_follow_numpy():
    c = np.array([-2.5, -1.5, 0.5, 1.25, 2.675], np.float64)
    t = ingot.asarray(c)
    np.testing.assert_array_equal(round(t).numpy(), np.round(c))
    np.testing.assert_array_equal(round(t, 1).numpy(), np.round(c, 1))
    ints = np.array([-7, -3, 4, 9], np.int64)
    q, r = divmod(ingot.asarray(ints), 3)
    np.testing.assert_array_equal(q.numpy(), ints // 3)
    np.testing.assert_array_equal(r.numpy(), ints % 3)
    q, r = divmod(10, ingot.asarray(np.array([3, -4], np.int64)))
    np.testing.assert_array_equal(q.numpy(), 10 // np.array([3, -4]))
    np.testing.assert_array_equal(r.numpy(), 10 % np.array([3, -4]))


@pytest.mark.parametrize("device", DEVICES)
def test_allclose_and_equal_answer_python_bools(device):
    c = np.array([[1.0, 2.0], [3.0, np.nan]], np.float32)
    a = make(c, "float32", device)
    b = make(c + np.float32(1e-6), "float32", device)
    assert ingot.allclose(a[:, :1], b[:, :1]) is True
    assert ingot.allclose(a, b) is False  # NaN is not close to NaN by default
    assert ingot.allclose(a, b, equal_nan=True) is True
    assert a.allclose(b, rtol=0, atol=1e-9, equal_nan=True) is False
    assert ingot.allclose(a[:, :1], make(np.array([1.0], np.float32), "float32", device) * 1) is False
    assert ingot.equal(a[:, :1], a[:, :1].clone()) is True
    assert ingot.equal(a, a.clone()) is False  # NaN != NaN
    assert ingot.equal(a[0], a[:, 0]) is False
    assert ingot.equal(a[0], a[0][None]) is False  # shapes differ


@pytest.mark.parametrize("dims,want", [((0, 2), (2, 3)), ((-1,), (1, 2, 1, 3)), ((-2,), (1, 2, 3)), ((1,), (1, 2, 1, 3)),
                                       ([0], (2, 1, 3)), ((), (1, 2, 1, 3))])
def test_squeeze_takes_a_tuple_of_dims(dims, want):
    t = ingot.zeros(1, 2, 1, 3)
    assert t.squeeze(dims).shape == np.zeros((1, 2, 1, 3)).squeeze(tuple(d for d in dims if [1, 2, 1, 3][d] == 1)).shape == want
    with pytest.raises(ValueError, match="twice"):
        t.squeeze((0, -4))
    with pytest.raises(IndexError, match="out of range"):
        t.squeeze((4,))


def test_unflatten_and_mT():
    c = np.arange(24, dtype=np.float32).reshape(6, 4)
    t = ingot.asarray(c)
    np.testing.assert_array_equal(t.unflatten(0, (2, 3)).numpy(), c.reshape(2, 3, 4))
    np.testing.assert_array_equal(t.unflatten(-1, (-1, 2)).numpy(), c.reshape(6, 2, 2))
    np.testing.assert_array_equal(t.T.unflatten(1, (3, 2)).numpy(), c.T.reshape(4, 3, 2))
    with pytest.raises(ValueError, match="multiply to"):
        t.unflatten(0, (4, 2))
    with pytest.raises(ValueError, match="cannot split"):
        t.unflatten(0, (4, -1))
    with pytest.raises(ValueError, match="at most one"):
        t.unflatten(0, (-1, -1))
    with pytest.raises(IndexError, match="out of range"):
        t.unflatten(2, (2, 2))
    c3 = c.reshape(2, 3, 4)
    np.testing.assert_array_equal(ingot.asarray(c3).mT.numpy(), np.swapaxes(c3, -1, -2))
    with pytest.raises(ValueError, match="at least 2 dims"):
        ingot.zeros(3).mT


@pytest.mark.parametrize("device", DEVICES)
def test_new_factories_and_as_helpers_take_selfs_dtype_and_device(device):
    t = make(np.arange(6, dtype=np.int32).reshape(2, 3), "int32", device)
    for got, want in ((t.new_zeros(2, 2), np.zeros((2, 2), np.int32)), (t.new_ones((3,)), np.ones(3, np.int32)),
                      (t.new_full((2,), 7), np.full(2, 7, np.int32)), (t.new_tensor([1.0, 2.0]), np.array([1, 2], np.int32))):
        assert (got.dtype, got.device) == (t.dtype, t.device)
        np.testing.assert_array_equal(host(got), want)
    assert t.new_empty(1, dtype="float64").dtype == ingot.float64
    assert t.type_as(ingot.zeros(1, dtype="float16")).dtype == ingot.float16
    assert t.view_as(ingot.zeros(3, 2)).shape == (3, 2) and t.reshape_as(ingot.zeros(6)).shape == (6,)
    np.testing.assert_array_equal(host(make(np.array([1, 2, 3], np.int32), "int32", device).expand_as(t)),
                                  np.broadcast_to([1, 2, 3], (2, 3)))
    u = t.clone()
    assert u.zero_() is u
    np.testing.assert_array_equal(host(u), np.zeros((2, 3), np.int32))


@pytest.mark.parametrize("reps", [(1, 1), (2, 3), (2, 1, 2), (0, 2), (3, 1, 1, 1)])
def test_repeat_tiles_like_numpy(reps):
    c = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ingot.asarray(c)
    np.testing.assert_array_equal(t.repeat(*reps).numpy(), np.tile(c, reps))
    np.testing.assert_array_equal(t.T.repeat(reps).numpy(), np.tile(c.T, reps))
    with pytest.raises(ValueError, match="at least 2"):
        t.repeat(2)
    with pytest.raises(ValueError, match="negative"):
        t.repeat(-1, 1)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["bool", "int32", "bfloat16", "float32"])
def test_tril_and_triu_match_numpy(device, dtype):
    c = (np.arange(2 * 3 * 5).reshape(2, 3, 5) % 7 + 1).astype(np.float32 if dtype == "bfloat16" else dtype)
    t = make(c, dtype, device)
    for k in (-4, -1, 0, 2, 9):
        got_l, got_u = ingot.tril(t, k), t.triu(k)
        assert got_l.dtype == t.dtype and got_u.dtype == t.dtype
        np.testing.assert_array_equal(host(got_l).astype(np.float32), np.tril(c, k).astype(np.float32))
        np.testing.assert_array_equal(host(got_u).astype(np.float32), np.triu(c, k).astype(np.float32))
    u = t.clone()
    assert u.tril_(-1) is u
    np.testing.assert_array_equal(host(u).astype(np.float32), np.tril(c, -1).astype(np.float32))
    with pytest.raises(ValueError, match="at least 2 dims"):
        ingot.triu(t[0, 0])


def test_function_forms_of_the_view_methods_match_numpy():
    c = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = ingot.asarray(c)
    cases = [(ingot.reshape(t, (4, 6)), c.reshape(4, 6)), (ingot.permute(t, (2, 0, 1)), c.transpose(2, 0, 1)),
             (ingot.transpose(t, 0, 2), np.swapaxes(c, 0, 2)), (ingot.swapaxes(t, 1, 2), np.swapaxes(c, 1, 2)),
             (ingot.flatten(t, 1), c.reshape(2, 12)), (ingot.unflatten(t, 2, (2, 2)), c.reshape(2, 3, 2, 2)),
             (ingot.squeeze(t[:1]), c[0]), (ingot.unsqueeze(t, 1), c[:, None]), (ingot.flip(t, (0, 2)), c[::-1, :, ::-1]),
             (ingot.diagonal(t[0]), np.diagonal(c[0])), (ingot.broadcast_to(t[0, 0], (3, 4)), np.broadcast_to(c[0, 0], (3, 4))),
             (ingot.clone(t), c), (ingot.reshape(c.tolist(), (24,)), c.reshape(24))]
    for got, want in cases:
        assert isinstance(got, ingot.Tensor)
        np.testing.assert_array_equal(got.numpy(), want)
    assert ingot.numel(t) == 24
    assert not ingot.clone(t)._is_view_of(t)
    assert set(["tril", "cat", "reshape", "tensor"]) <= set(ingot.__all__)
