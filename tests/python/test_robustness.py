"""Regression tests for issue 9 (robustness) from Python: each failed before its fix."""
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import ingot


def test_broadcast_overflow_through_out_is_value_error_naming_add():
    a = ingot.zeros((1, 1)).expand(2 ** 40, 1)
    b = ingot.zeros((1, 1)).expand(1, 2 ** 40)
    out = ingot.empty(0)
    with pytest.raises(ValueError, match=r"add.*\[1099511627776, 1099511627776\]"):
        ingot.add(a, b, out=out)
    assert out.shape == (0,)
    with pytest.raises(ValueError, match=r"^add: "):
        ingot.add(a, b)


def test_from_dlpack_of_unsupported_dtype_does_not_leak_the_producer():
    a = np.zeros(4, np.uint32)
    before = sys.getrefcount(a)
    for _ in range(10):
        with pytest.raises(TypeError, match="unsupported DLPack dtype"):
            ingot.from_dlpack(a)
    assert sys.getrefcount(a) == before


def test_float64_to_float16_rounds_once():
    t = ingot.asarray(np.array([65519.99999999, 2.0 ** -25 + 2.0 ** -50]))
    np.testing.assert_array_equal(t.astype(ingot.float16).numpy(),
                                  np.array([65519.99999999, 2.0 ** -25 + 2.0 ** -50]).astype(np.float16))


def test_float64_fill_value_rounds_to_float16_once():
    assert ingot.full((3,), 2.0 ** -25 + 2.0 ** -50, dtype=ingot.float16).tolist() == [2.0 ** -24] * 3
    t = ingot.zeros(2, dtype=ingot.bfloat16)
    t.fill_(1.0 + 2.0 ** -8 + 2.0 ** -40)
    assert t.tolist() == [1.0078125] * 2


def test_nan_and_inf_to_integer_follow_the_documented_rule():
    t = ingot.asarray(np.array([np.nan, np.inf, -np.inf, 1e300, 2.9, -2.9]))
    assert t.astype(ingot.int64).tolist() == [-2 ** 63] * 4 + [2, -2]
    assert t.astype(ingot.int8).tolist() == [0, 0, 0, 0, 2, -2]


def test_in_place_op_does_not_resize_an_empty_self():
    a = ingot.empty((1, 0))
    with pytest.raises(ValueError, match=r"add.*in-place"):
        a.add_(ingot.ones((2, 0)))
    assert a.shape == (1, 0)


def test_empty_out_view_is_not_detached_from_its_base():
    base = ingot.zeros(6)
    with pytest.raises(ValueError, match=r"add.*view"):
        ingot.add(ingot.ones(2), 1, out=base[2:2])


def test_interleaved_out_and_input_are_accepted_like_numpy():
    x = np.arange(8.0)
    t = ingot.asarray(x.copy())
    ingot.add(t[1::2], 1, out=t[::2])
    np.add(x[1::2], 1, out=x[::2])
    np.testing.assert_array_equal(t.numpy(), x)


def test_python_int_beyond_int64_is_overflow_error_not_int64_min():
    with pytest.raises(OverflowError, match="asarray"):
        ingot.asarray([2 ** 63])
    with pytest.raises(OverflowError, match="asarray"):
        ingot.asarray([2 ** 70, 1])
    with pytest.raises(OverflowError, match="asarray"):
        ingot.asarray([300], dtype=ingot.uint8)
    assert ingot.asarray([2 ** 63 - 1]).tolist() == [2 ** 63 - 1]


def test_python_int_beyond_int64_in_an_op_names_the_op_and_the_overflow():
    t = ingot.zeros(2, dtype=ingot.int64)
    with pytest.raises(OverflowError, match=r"add: Python int 9223372036854775808"):
        t + 2 ** 63
    with pytest.raises(OverflowError, match=r"sub: .*out of range for int64"):
        2 ** 63 - t
    with pytest.raises(OverflowError, match="full"):
        ingot.full((2,), 2 ** 64)
    with pytest.raises(OverflowError, match="__setitem__"):
        t[0] = -2 ** 63 - 1
    with pytest.raises(OverflowError, match="fill_"):
        t.fill_(2 ** 63)
    with pytest.raises(OverflowError, match="alpha"):
        ingot.add(t, t, alpha=2 ** 63)
    with pytest.raises(OverflowError, match="arange"):
        ingot.arange(2 ** 64)


def test_seventeen_dims_plus_transpose_matches_numpy():
    a = np.arange(2 ** 17, dtype=np.float32).reshape((2,) * 17)
    got = ingot.add(ingot.asarray(a), ingot.asarray(a).T)
    np.testing.assert_array_equal(got.numpy(), a + a.T)


def test_integer_tensor_to_negative_python_int_power_is_value_error():
    t = ingot.asarray([1, 2, 3])
    with pytest.raises(ValueError, match=r"pow: integers to negative integer powers"):
        t ** -1
    assert (ingot.asarray([2.0]) ** -1).tolist() == [0.5]


def test_unaligned_numpy_array_is_copied_into_aligned_memory():
    buf = np.zeros(4 * 6 + 1, np.uint8)
    a = buf[1:].view(np.float32)
    a[:] = np.arange(6)
    assert not a.flags.aligned
    t = ingot.asarray(a)
    assert t.data_ptr % 4 == 0
    np.testing.assert_array_equal((t + 1).numpy(), a + 1)
    with pytest.raises(BufferError, match="not aligned"):
        ingot.from_dlpack(a, copy=False)


def test_long_op_releases_the_gil():
    """Deterministic: with forced GIL switches effectively off, the main thread can run while the
    worker is still busy only if an op released the GIL (holding it, the worker keeps the GIL until
    it has set `done` and exited)."""
    n = 1 << 20  # above the release threshold (2^16 elements)
    a, b, out = ingot.ones(n), ingot.ones(n), ingot.empty(n)
    started, done = threading.Event(), threading.Event()

    def work():
        started.set()
        for _ in range(20):
            ingot.add(a, b, out=out)
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    try:
        worker = threading.Thread(target=work)
        worker.start()
        started.wait()
        ran_during_ops = not done.is_set()
        worker.join()
    finally:
        sys.setswitchinterval(old)
    assert ran_during_ops, "the main thread could only run once every op had finished"


def test_clean_exit_prints_no_nanobind_leak_when_hypothesis_holds_dtypes_and_devices(tmp_path):
    pytest.importorskip("hypothesis")
    (tmp_path / "test_holds_dtypes.py").write_text(textwrap.dedent("""
        import ingot
        from hypothesis import given, strategies as st

        @given(st.sampled_from([ingot.float32, ingot.int64]), st.sampled_from([ingot.device("cpu")]),
               st.integers(0, 3))
        def test_zeros(dtype, device, n):
            t = ingot.zeros((n,), dtype=dtype, device=device)
            assert (t.dtype, t.device) == (dtype, device)
    """))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "leaked" not in r.stderr, r.stderr
