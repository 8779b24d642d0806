"""DLPack export and import: zero-copy with NumPy both ways, versioned and legacy capsules."""
import ctypes

import numpy as np
import pytest

import ingot
from ingot_test_helpers import NUMPY_DTYPES, sample


def test_dlpack_device_is_cpu():
    assert ingot.zeros((1,)).__dlpack_device__() == (1, 0)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_numpy_from_dlpack_reads_ingot_values(dtype):
    a = sample((3, 5), dtype)
    np.testing.assert_array_equal(np.from_dlpack(ingot.asarray(a.copy())), a)


def test_ingot_to_numpy_shares_memory_both_directions():
    t = ingot.zeros((2, 3), dtype=ingot.int32)
    a = np.from_dlpack(t)
    a[1, 2] = 42            # write through NumPy, read through ingot
    assert t[1, 2].item() == 42
    t[0, 0] = 7             # write through ingot, read through NumPy
    assert a[0, 0] == 7


def test_numpy_to_ingot_shares_memory_both_directions():
    a = np.zeros((4,), np.float64)
    t = ingot.from_dlpack(a)
    t[2] = 1.5
    assert a[2] == 1.5
    a[0] = -3.0
    assert t[0].item() == -3.0


def test_negative_and_transposed_strides_survive_export():
    a = sample((4, 6), "float32")
    t = ingot.asarray(a).T[::-1, 1::2]
    np.testing.assert_array_equal(np.from_dlpack(t), a.T[::-1, 1::2])


def test_versioned_capsule_when_consumer_supports_1_0():
    cap = ingot.zeros((2,)).__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)


def test_legacy_capsule_without_max_version():
    cap = ingot.zeros((2,)).__dlpack__()
    assert '"dltensor"' in repr(cap)


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_from_dlpack_accepts_raw_capsules(max_version):
    src = ingot.asarray([1.0, 2.0, 3.0])
    t = ingot.from_dlpack(src.__dlpack__(max_version=max_version))
    assert t.data_ptr == src.data_ptr
    np.testing.assert_array_equal(t.numpy(), [1, 2, 3])


def test_capsule_can_be_consumed_only_once():
    cap = ingot.zeros((2,)).__dlpack__()
    ingot.from_dlpack(cap)
    with pytest.raises(TypeError, match="capsule"):
        ingot.from_dlpack(cap)


def test_unconsumed_capsule_releases_tensor():
    t = ingot.zeros((1000,))
    for _ in range(100):
        t.__dlpack__(max_version=(1, 0))
        t.__dlpack__()
    assert t.shape == (1000,)


def test_export_with_copy_true_does_not_share():
    t = ingot.zeros((3,))
    a = np.from_dlpack(ingot.from_dlpack(t.__dlpack__(max_version=(1, 0), copy=True)))
    a[0] = 5
    assert t[0].item() == 0


def test_from_dlpack_copy_true_does_not_share():
    a = np.zeros(3, np.int8)
    t = ingot.from_dlpack(a, copy=True)
    a[0] = 1
    assert t[0].item() == 0


def test_readonly_numpy_is_copied_on_import():
    a = np.arange(3.0)
    a.flags.writeable = False
    t = ingot.from_dlpack(a)
    np.testing.assert_array_equal(t.numpy(), a)
    with pytest.raises(BufferError):
        ingot.from_dlpack(a, copy=False)


def test_dlpack_rejects_stream_for_cpu():
    with pytest.raises(BufferError, match="stream"):
        ingot.zeros((1,)).__dlpack__(stream=5)


def test_dlpack_rejects_other_device():
    with pytest.raises(BufferError):
        ingot.zeros((1,)).__dlpack__(dl_device=(2, 0))


def test_from_dlpack_rejects_objects_without_protocol():
    with pytest.raises(TypeError, match="__dlpack__"):
        ingot.from_dlpack([1, 2])


def test_from_dlpack_rejects_unsupported_dtype():
    with pytest.raises(TypeError, match="dtype"):
        ingot.from_dlpack(np.zeros(2, np.complex64))


def test_bfloat16_exports_bfloat_code():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    t = ingot.asarray([1.0, 2.0], dtype=ingot.bfloat16)
    np.testing.assert_array_equal(t.numpy().astype(np.float32), [1.0, 2.0])
    assert t.numpy().dtype == ml_dtypes.bfloat16


def test_imported_memory_outlives_the_producer():
    a = np.arange(5, dtype=np.int64)
    t = ingot.from_dlpack(a)
    del a
    np.testing.assert_array_equal(t.numpy(), np.arange(5))


def test_zero_copy_pointer_identity_with_numpy():
    a = np.arange(8, dtype=np.float32)
    t = ingot.from_dlpack(a)
    b = np.from_dlpack(t)
    assert a.ctypes.data == t.data_ptr == b.ctypes.data
    assert ctypes.c_float.from_address(t.data_ptr).value == 0.0


def test_torch_cpu_tensors_share_memory_both_directions():
    torch = pytest.importorskip("torch")  # installed on the GPU machine (scripts/gpu-check)
    src = torch.zeros(2, 3, dtype=torch.float32)
    t = ingot.from_dlpack(src)
    t[1, 2] = 4.5            # write through ingot, read through PyTorch
    assert src[1, 2].item() == 4.5
    back = torch.from_dlpack(t)
    back[0, 1] = -2.0        # write through PyTorch, read through ingot
    assert t[0, 1].item() == -2.0
    assert back.data_ptr() == src.data_ptr()


def test_torch_bfloat16_round_trips_without_copy():
    torch = pytest.importorskip("torch")
    src = torch.arange(6, dtype=torch.bfloat16).reshape(2, 3).t()
    t = ingot.from_dlpack(src)
    assert t.dtype == ingot.bfloat16 and t.shape == (3, 2)
    assert torch.equal(torch.from_dlpack(t), src)
