"""asarray and the factory functions, compared with NumPy."""
import numpy as np
import pytest

import ingot
from ingot_test_helpers import NUMPY_DTYPES, sample


@pytest.mark.parametrize("value, dtype", [(True, ingot.bool), (3, ingot.int64), (2.5, ingot.float32)])
def test_asarray_python_scalar_gets_pytorch_default_dtype(value, dtype):
    t = ingot.asarray(value)
    assert t.shape == () and t.dtype == dtype and t.item() == value


def test_asarray_nested_list():
    t = ingot.asarray([[1, 2, 3], [4, 5, 6]])
    assert t.dtype == ingot.int64
    np.testing.assert_array_equal(t.numpy(), [[1, 2, 3], [4, 5, 6]])


def test_asarray_mixed_int_float_list_is_float32():
    assert ingot.asarray([1, 2.5]).dtype == ingot.float32


def test_asarray_list_with_dtype():
    t = ingot.asarray([1, 2, 3], dtype=ingot.float64)
    assert t.dtype == ingot.float64
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0, 3.0])


def test_asarray_accepts_dtype_names_and_numpy_dtypes():
    assert ingot.asarray([1], dtype="int16").dtype == ingot.int16
    assert ingot.asarray([1], dtype=np.uint8).dtype == ingot.uint8
    assert ingot.asarray([1], dtype=float).dtype == ingot.float64


def test_asarray_rejects_unknown_dtype():
    with pytest.raises(TypeError, match="dtype"):
        ingot.asarray([1], dtype="complex64")


def test_asarray_rejects_ragged_lists():
    with pytest.raises(ValueError):
        ingot.asarray([[1, 2], [3]])


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_asarray_numpy_shares_memory(dtype):
    a = sample((3, 4), dtype)
    t = ingot.asarray(a)
    assert t.dtype.name == dtype
    assert t.data_ptr == a.ctypes.data


def test_asarray_numpy_keeps_strides_of_views():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)[::2, ::-3]
    t = ingot.asarray(a)
    assert t.strides == a.strides
    np.testing.assert_array_equal(t.numpy(), a)


def test_asarray_copy_true_does_not_share():
    a = np.zeros(4, np.float32)
    t = ingot.asarray(a, copy=True)
    a[0] = 1
    assert t.numpy()[0] == 0


def test_asarray_dtype_change_with_copy_false_raises():
    with pytest.raises(ValueError, match="copy"):
        ingot.asarray(np.zeros(3, np.float32), dtype=ingot.float64, copy=False)


def test_asarray_readonly_numpy_is_copied():
    a = np.arange(3.0)
    a.flags.writeable = False
    t = ingot.asarray(a)
    np.testing.assert_array_equal(t.numpy(), a)
    assert t.data_ptr != a.ctypes.data


def test_asarray_byteswapped_numpy_is_converted():
    a = np.arange(4, dtype=">i4")
    np.testing.assert_array_equal(ingot.asarray(a).numpy(), [0, 1, 2, 3])


def test_asarray_numpy_scalar_keeps_dtype():
    assert ingot.asarray(np.float64(0.1)).item() == 0.1
    assert ingot.asarray(np.int16(3)).dtype == ingot.int16


def test_asarray_of_tensor_is_same_memory_unless_copy():
    t = ingot.zeros((2,))
    assert ingot.asarray(t) is t
    assert ingot.asarray(t, copy=True).data_ptr != t.data_ptr


def test_asarray_bfloat16_from_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = np.array([1.0, -2.5, 3.25], dtype=ml_dtypes.bfloat16)
    t = ingot.asarray(a)
    assert t.dtype == ingot.bfloat16
    assert t.numpy().dtype == a.dtype
    np.testing.assert_array_equal(t.numpy().astype(np.float32), a.astype(np.float32))


def test_asarray_bfloat16_rounds_from_float():
    t = ingot.asarray([1.0 + 2.0 ** -9], dtype=ingot.bfloat16)
    assert t.tolist() == [1.0]


@pytest.mark.parametrize("factory, ref", [(ingot.zeros, np.zeros), (ingot.ones, np.ones)])
def test_zeros_ones_match_numpy(factory, ref):
    for shape in [(), 3, (2, 3), (0, 4)]:
        t = factory(shape, dtype=ingot.int32)
        np.testing.assert_array_equal(t.numpy(), ref(shape, np.int32))


def test_empty_has_shape_and_default_float32():
    t = ingot.empty((2, 5))
    assert t.shape == (2, 5) and t.dtype == ingot.float32


def test_full_infers_dtype_from_fill_value():
    assert ingot.full((2,), 7).dtype == ingot.int64
    assert ingot.full((2,), 7.5).dtype == ingot.float32
    assert ingot.full((2,), True).dtype == ingot.bool
    np.testing.assert_array_equal(ingot.full((2, 2), 3.5, dtype=ingot.float64).numpy(), np.full((2, 2), 3.5))


@pytest.mark.parametrize("args", [(5,), (2, 10), (1, 10, 3), (10, 0, -2), (0.0, 1.0, 0.25)])
def test_arange_matches_numpy(args):
    t = ingot.arange(*args)
    ref = np.arange(*args)
    assert t.dtype == (ingot.float32 if ref.dtype.kind == "f" else ingot.int64)
    np.testing.assert_allclose(t.numpy(), ref)


def test_arange_with_dtype():
    assert ingot.arange(4, dtype=ingot.float64).dtype == ingot.float64


def test_linspace_matches_numpy():
    np.testing.assert_allclose(ingot.linspace(0, 1, 5).numpy(), np.linspace(0, 1, 5, dtype=np.float32))
    np.testing.assert_allclose(ingot.linspace(2, 3, 4, endpoint=False).numpy(),
                               np.linspace(2, 3, 4, endpoint=False), rtol=1e-6)
    assert ingot.linspace(0, 1).shape == (50,)


@pytest.mark.parametrize("args, kwargs", [((3,), {}), ((2, 4), {}), ((4,), {"k": 1}), ((3, 5), {"k": -1})])
def test_eye_matches_numpy(args, kwargs):
    np.testing.assert_array_equal(ingot.eye(*args, **kwargs).numpy(), np.eye(*args, **kwargs, dtype=np.float32))


@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like"])
def test_like_keeps_shape_and_dtype(name):
    src = ingot.zeros((2, 3), dtype=ingot.int16)
    t = getattr(ingot, name)(src)
    assert t.shape == (2, 3) and t.dtype == ingot.int16
    assert getattr(ingot, name)(src, dtype=ingot.float64).dtype == ingot.float64


def test_full_like_matches_numpy():
    a = np.zeros((2, 2), np.float32)
    np.testing.assert_array_equal(ingot.full_like(ingot.asarray(a), 4).numpy(), np.full_like(a, 4))


def test_rand_is_uniform_in_unit_interval_and_seeded():
    ingot.manual_seed(0)
    a = ingot.rand(1000).numpy()
    ingot.manual_seed(0)
    b = ingot.rand((1000,)).numpy()
    np.testing.assert_array_equal(a, b)
    assert a.dtype == np.float32 and a.min() >= 0 and a.max() < 1 and 0.4 < a.mean() < 0.6


def test_randn_has_unit_variance():
    ingot.manual_seed(1)
    a = ingot.randn(4000, dtype=ingot.float64).numpy()
    assert abs(a.mean()) < 0.1 and 0.9 < a.std() < 1.1


def test_randint_numpy_signature():
    ingot.manual_seed(2)
    a = ingot.randint(3, 7, size=(500,)).numpy()
    assert a.dtype == np.int64 and a.min() >= 3 and a.max() < 7
    b = ingot.randint(5, size=10).numpy()
    assert b.min() >= 0 and b.max() < 5


@pytest.mark.parametrize("name", ["empty", "zeros", "ones"])
def test_factories_take_sizes_as_separate_ints_like_pytorch(name):
    fn = getattr(ingot, name)
    assert fn(2, 3).shape == (2, 3)
    assert fn(np.int64(2), 3, 4).shape == (2, 3, 4)
    assert fn(2, 3, dtype="int8").dtype == ingot.int8
    assert fn((2, 3), ingot.int16).dtype == ingot.int16  # NumPy's positional dtype
    assert fn((2,), "float64", "cpu").device == "cpu"
    assert fn(5).shape == (5,) and fn(()).shape == ()
    if name != "empty":
        np.testing.assert_array_equal(fn(2, 3).numpy(), getattr(np, name)((2, 3), np.float32))
    with pytest.raises(TypeError, match="dtype given twice"):
        fn((2,), "int8", dtype="int8")
    with pytest.raises(TypeError, match="at most dtype and device"):
        fn(2, "int8", "cpu", 4)


def test_tensor_always_copies_and_from_numpy_always_shares():
    a = np.arange(4, dtype=np.float32)
    t, f = ingot.tensor(a), ingot.from_numpy(a)
    a[0] = 9
    np.testing.assert_array_equal(t.numpy(), [0, 1, 2, 3])
    np.testing.assert_array_equal(f.numpy(), [9, 1, 2, 3])
    assert ingot.tensor([1.5, 2]).dtype == ingot.float32 and ingot.tensor(3).dtype == ingot.int64
    assert ingot.tensor([[1, 2]], dtype="int8").dtype == ingot.int8
    src = ingot.zeros(2)
    assert not ingot.tensor(src)._is_view_of(src)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        ingot.from_numpy([1, 2])
    with pytest.raises(ValueError, match="copy=False"):
        ingot.from_numpy(np.arange(3, dtype=">i4"))
