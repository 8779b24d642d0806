"""__getitem__ / __setitem__ against NumPy's indexing."""
import numpy as np
import pytest

import ingot
from ingot_test_helpers import sample

BASIC_KEYS = [
    0, -1, 2, (1, 2), (slice(None), 1), slice(1, 3), slice(None, None, -1), slice(3, 0, -2),
    (slice(None, None, 2), slice(None, None, -1)), Ellipsis, (Ellipsis, 1), (0, Ellipsis),
    None, (None, 1), (slice(1, None), None, Ellipsis), (1, None, slice(None, None, -2)),
    slice(10, 20), slice(-100, 100), (), (Ellipsis, None),
]
ADVANCED_KEYS = [
    [0, 2], ([0, 1], [1, 2]), (slice(None), [3, 0]), np.array([1, 1, 0]), (Ellipsis, [0, -1]),
]


@pytest.mark.parametrize("key", BASIC_KEYS, ids=repr)
def test_basic_getitem_matches_numpy_and_is_a_view(key):
    a = sample((4, 5, 3), "float32")
    t = ingot.asarray(a)
    r = t[key]
    np.testing.assert_array_equal(r.numpy(), a[key])
    assert r._is_view_of(t)


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=repr)
def test_integer_array_getitem_matches_numpy(key):
    a = sample((4, 5, 3), "int32")
    np.testing.assert_array_equal(ingot.asarray(a)[key].numpy(), a[key])


def test_boolean_mask_getitem_matches_numpy():
    a = sample((4, 5), "float64")
    mask = a > 0
    np.testing.assert_array_equal(ingot.asarray(a)[ingot.asarray(mask)].numpy(), a[mask])


def test_integer_tensor_index_matches_numpy():
    a = sample((6,), "int16")
    idx = np.array([5, 0, 3])
    np.testing.assert_array_equal(ingot.asarray(a)[ingot.asarray(idx)].numpy(), a[idx])


def test_advanced_getitem_keeps_bfloat16():
    t = ingot.asarray([1.0, 2.0, 3.0], dtype=ingot.bfloat16)
    r = t[[2, 0]]
    assert r.dtype == ingot.bfloat16 and r.tolist() == [3.0, 1.0]


@pytest.mark.parametrize("key", [4, -5, (0, 5), (1, -6)])
def test_out_of_range_integer_raises_index_error(key):
    with pytest.raises(IndexError, match="out of bounds"):
        ingot.zeros((4, 5))[key]


def test_too_many_indices_raise_index_error():
    with pytest.raises(IndexError, match="too many indices"):
        ingot.zeros((2,))[0, 0]


def test_zero_step_slice_raises_value_error():
    with pytest.raises(ValueError):
        ingot.zeros((3,))[::0]


@pytest.mark.parametrize("key", [1, (slice(None), 2), (slice(None, None, -2), Ellipsis), (Ellipsis, 0)], ids=repr)
def test_setitem_scalar_matches_numpy(key):
    a = sample((4, 3), "float32")
    t = ingot.asarray(a.copy())
    t[key] = 9.5
    a[key] = 9.5
    np.testing.assert_array_equal(t.numpy(), a)


def test_setitem_broadcasts_array_values():
    a = np.zeros((3, 4), np.int32)
    t = ingot.asarray(a.copy())
    t[1:] = [1, 2, 3, 4]
    a[1:] = [1, 2, 3, 4]
    np.testing.assert_array_equal(t.numpy(), a)


def test_setitem_from_tensor_converts_dtype():
    t = ingot.zeros((2, 2), dtype=ingot.float64)
    t[0] = ingot.asarray([1, 2], dtype=ingot.int32)
    np.testing.assert_array_equal(t.numpy(), [[1, 2], [0, 0]])


def test_setitem_boolean_mask_matches_numpy():
    a = sample((5, 4), "float32")
    t = ingot.asarray(a.copy())
    t[ingot.asarray(a < 0)] = 0.0
    a[a < 0] = 0
    np.testing.assert_array_equal(t.numpy(), a)


def test_setitem_integer_array_matches_numpy():
    a = np.zeros(6, np.int64)
    t = ingot.asarray(a.copy())
    t[[0, 3, 5]] = [7, 8, 9]
    a[[0, 3, 5]] = [7, 8, 9]
    np.testing.assert_array_equal(t.numpy(), a)


def test_setitem_out_of_range_raises_index_error():
    with pytest.raises(IndexError):
        ingot.zeros((3,))[3] = 1.0
