"""Tensor attributes and the Python protocols, checked against NumPy."""
import numpy as np
import pytest

import ingot
from ingot_test_helpers import NUMPY_DTYPES, sample


def test_shape_ndim_size_match_numpy():
    a = np.zeros((2, 3, 4), np.float32)
    t = ingot.asarray(a)
    assert (t.shape, t.ndim, t.size) == (a.shape, a.ndim, a.size)


def test_strides_are_in_bytes_like_numpy():
    a = np.zeros((2, 3, 4), np.int16)
    assert ingot.asarray(a).strides == a.strides


def test_stride_method_gives_element_strides_like_pytorch():
    t = ingot.zeros((2, 3, 4), dtype=ingot.int16)
    assert t.stride() == (12, 4, 1)
    assert t.stride(1) == 4


def test_transposed_view_strides_match_numpy():
    a = np.zeros((3, 5), np.float64)
    assert ingot.asarray(a).T.strides == a.T.strides


def test_T_reverses_all_dims():
    a = sample((2, 3, 4), "float32")
    np.testing.assert_array_equal(ingot.asarray(a).T.numpy(), a.T)


def test_dtype_and_device():
    t = ingot.zeros((1,), dtype=ingot.int32)
    assert t.dtype == ingot.int32
    assert t.device == "cpu"
    assert str(t.device) == "cpu"


def test_itemsize_and_nbytes():
    t = ingot.zeros((3, 4), dtype="float64")
    assert (t.itemsize, t.nbytes) == (8, 96)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_item_returns_python_scalar_of_matching_kind(dtype):
    a = sample((), dtype)
    v = ingot.asarray(a).item()
    assert type(v) is type(a.item())
    assert v == a.item()


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_tolist_matches_numpy(dtype):
    a = sample((3, 2), dtype)
    assert ingot.asarray(a).tolist() == a.tolist()


def test_tolist_of_bfloat16_gives_floats():
    t = ingot.asarray([1.5, -2.0], dtype=ingot.bfloat16)
    assert t.tolist() == [1.5, -2.0]


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_numpy_roundtrip_keeps_values_and_dtype(dtype):
    a = sample((4, 3), dtype)
    b = ingot.asarray(a).numpy()
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)


def test_numpy_of_a_view_shares_memory():
    t = ingot.zeros((3, 4))
    v = t[1:, ::2].numpy()
    v[:] = 7
    assert t.numpy()[1, 0] == 7 and t.numpy()[1, 1] == 0


def test_array_protocol_used_by_numpy():
    t = ingot.asarray([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(t), [[1, 2], [3, 4]])
    assert np.asarray(t, dtype=np.float64).dtype == np.float64


def test_len_and_iter():
    a = sample((3, 2), "int32")
    t = ingot.asarray(a)
    assert len(t) == 3
    rows = list(t)
    assert len(rows) == 3
    np.testing.assert_array_equal(rows[2].numpy(), a[2])


def test_len_of_0d_raises_type_error():
    with pytest.raises(TypeError):
        len(ingot.asarray(1.0))


def test_one_element_conversions():
    t = ingot.asarray([[3]])
    assert int(t) == 3 and float(t) == 3.0 and bool(t) is True
    assert [10, 20, 30, 40][ingot.asarray(2)] == 30  # __index__


def test_bool_of_many_elements_is_ambiguous():
    with pytest.raises(ValueError, match="ambiguous"):
        bool(ingot.zeros((2,)))


def test_index_of_float_tensor_is_type_error():
    with pytest.raises(TypeError):
        [1, 2][ingot.asarray(1.0)]


def test_repr_is_numpy_like():
    assert repr(ingot.asarray([1.0, 2.5])) == "tensor([1. , 2.5])"
    assert repr(ingot.asarray([1, 2], dtype=ingot.int32)) == "tensor([1, 2], dtype=int32)"
    assert repr(ingot.zeros((0,))) == "tensor([], dtype=float32)"


def test_str_matches_numpy_str():
    a = sample((2, 3), "float32")
    assert str(ingot.asarray(a)) == str(a)


def test_views_share_storage():
    t = ingot.zeros((4, 4))
    t.transpose(0, 1)[0].fill_(2.0)
    np.testing.assert_array_equal(t.numpy()[:, 0], [2, 2, 2, 2])


def test_astype_converts_values():
    a = sample((5,), "float32")
    np.testing.assert_array_equal(ingot.asarray(a).astype(ingot.int32).numpy(), a.astype(np.int32))


def test_reshape_and_view_accept_varargs_or_tuple():
    t = ingot.zeros((2, 6))
    assert t.view(3, 4).shape == (3, 4)
    assert t.view((4, 3)).shape == (4, 3)
    assert t.reshape(-1).shape == (12,)


def test_tensor_has_no_public_constructor():
    with pytest.raises(TypeError):
        ingot.Tensor()


def test_to_takes_pytorchs_dtype_device_and_tensor_forms():
    a = np.array([[1.5, -2.5], [3.25, 4.0]], np.float32)
    t = ingot.asarray(a)
    for spec in (ingot.float64, "float64", "f8", np.float64, float):
        got = t.to(spec)
        assert got.dtype == ingot.float64
        np.testing.assert_array_equal(got.numpy(), a.astype(np.float64))
    assert t.to(dtype=ingot.int32).dtype == ingot.int32
    np.testing.assert_array_equal(t.to("cpu", ingot.int8).numpy(), a.astype(np.int8))
    np.testing.assert_array_equal(t.to(device="cpu", dtype="int16").numpy(), a.astype(np.int16))
    other = ingot.zeros((1,), dtype=ingot.uint8)
    assert t.to(other).dtype == ingot.uint8
    np.testing.assert_array_equal(t.T.to(ingot.float64).numpy(), a.T.astype(np.float64))


def test_to_returns_self_when_nothing_changes_unless_copy():
    t = ingot.asarray(np.arange(4, dtype=np.float32))
    assert t.to(ingot.float32) is t
    assert t.to("cpu") is t
    assert t.to(t) is t
    c = t.to("cpu", copy=True)
    assert c is not t and not c._is_view_of(t)
    c[0] = 7
    assert t[0].item() == 0


def test_to_rejects_what_is_neither_dtype_nor_device():
    t = ingot.zeros((2,))
    with pytest.raises(TypeError, match="neither a device"):
        t.to("cude")
    with pytest.raises(TypeError, match="got None"):
        t.to(None)
    with pytest.raises(TypeError, match="at most 2 positional"):
        t.to("cpu", ingot.int8, True)
    with pytest.raises(TypeError, match="to\\(other\\)"):
        t.to(t, dtype=ingot.int8)
    with pytest.raises(TypeError, match="dtype given twice"):
        t.to(ingot.int8, dtype=ingot.int16)


@pytest.mark.parametrize("method,dtype", [
    ("bool", "bool"), ("byte", "uint8"), ("char", "int8"), ("short", "int16"), ("int", "int32"),
    ("long", "int64"), ("half", "float16"), ("bfloat16", "bfloat16"), ("float", "float32"),
    ("double", "float64")])
def test_cast_methods_match_numpy_astype(method, dtype):
    a = np.array([0.0, 1.75, -2.5, 100.0], np.float64)
    t = ingot.asarray(a)
    got = getattr(t, method)()
    assert got.dtype == dtype
    want = a.astype(np.float32) if dtype == "bfloat16" else a.astype(dtype)  # exact in bfloat16
    np.testing.assert_array_equal(np.asarray(got.to(ingot.float64)), want.astype(np.float64))
    assert getattr(got, method)() is got


def test_cpu_is_to_cpu_and_cuda_rejects_a_host_device():
    t = ingot.zeros((2,))
    assert t.cpu() is t
    with pytest.raises(ValueError, match="CUDA device"):
        t.cuda("cpu")


def test_astype_takes_every_dtype_spelling():
    t = ingot.asarray(np.array([1.5, -2.0], np.float32))
    for spec in (ingot.int8, "int8", np.int8, "i1"):
        got = t.astype(spec)
        assert got.dtype == ingot.int8
        np.testing.assert_array_equal(got.numpy(), np.array([1, -2], np.int8))
    same = t.astype("float32")
    assert same is not t and not same._is_view_of(t)
    assert t.astype(ingot.float32, copy=False)._is_view_of(t)
    with pytest.raises(TypeError, match="cannot interpret"):
        t.astype("complex64")


def test_zero_dim_tensors_format_as_their_value():
    assert f"{ingot.asarray(np.float64(1.23456)):.3f}" == "1.235"
    assert f"{ingot.asarray(7):>3}" == "  7"
    t = ingot.asarray(np.array([1.0, 2.0], np.float32))
    assert f"{t}" == str(t)
    with pytest.raises(TypeError, match="0-dim"):
        f"{t:.2f}"


@pytest.mark.parametrize("dtype", NUMPY_DTYPES + ["bfloat16"])
def test_pickle_and_deepcopy_make_equal_independent_tensors(dtype):
    import copy
    import pickle
    a = sample((3, 4), "float32" if dtype == "bfloat16" else dtype)
    t = ingot.asarray(a).astype(dtype).T  # non-contiguous
    for u in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t), copy.copy(t)):
        assert (u.dtype, u.shape, u.device) == (t.dtype, t.shape, t.device)
        assert not u._is_view_of(t)
        np.testing.assert_array_equal(np.asarray(u.to(ingot.float64)), np.asarray(t.to(ingot.float64)))


def test_numpy_operands_on_the_left_give_tensors():
    a = np.array([1.0, 2.0], np.float32)
    t = ingot.asarray(a + 2)
    for got, want in ((np.float32(2) * t, 2 * (a + 2)), (a + t, a + a + 2), (np.int64(7) - t, 7 - (a + 2)),
                      (a < t, a < a + 2)):
        assert isinstance(got, ingot.Tensor)
        np.testing.assert_array_equal(got.numpy(), want)
    assert isinstance(np.exp(t), np.ndarray)  # NumPy's functions still convert through __array__
    arr = np.zeros(2, np.float32)
    assert np.add(arr, t, out=arr) is arr  # the in-place form that keeps the array
    np.testing.assert_array_equal(arr, a + 2)


def test_array_protocol_honours_numpys_copy_argument():
    a = np.arange(4, dtype=np.float32)
    t = ingot.asarray(a)
    shared = np.asarray(t, copy=False)
    shared[0] = 9
    assert a[0] == 9
    copied = np.asarray(t, copy=True)
    copied[1] = 7
    assert a[1] == 1
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="copy=False"):
        np.asarray(t, dtype=np.float64, copy=False)
