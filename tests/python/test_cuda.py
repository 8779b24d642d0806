"""The CUDA backend from Python: availability, memory, copies, DLPack with PyTorch and CuPy, and
a cross-backend check that runs every declared op on CUDA and compares it with the CPU backend.
Device tests skip without a GPU (scripts/gpu-check runs them on one)."""
import json
import os

import numpy as np
import pytest

import ingot

GPU = ingot.cuda.is_available()
needs_gpu = pytest.mark.skipif(not GPU, reason="no CUDA device")
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"]


def test_is_available_is_a_bool_and_agrees_with_the_device_count():
    assert isinstance(ingot.cuda.is_available(), bool)
    assert ingot.cuda.is_available() == (ingot.cuda.device_count() > 0)


@pytest.mark.skipif(GPU, reason="a CUDA device is present")
def test_without_a_gpu_device_tensors_raise_accelerator_error():
    with pytest.raises(ingot.AcceleratorError):
        ingot.zeros(3, device="cuda")


@needs_gpu
def test_asarray_to_device_and_numpy_copies_back():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = ingot.asarray(a, device="cuda")
    assert t.device == "cuda:0"
    np.testing.assert_array_equal(t.numpy(), a)
    np.testing.assert_array_equal((t * 2).T.numpy(), (a * 2).T)
    assert repr(t).endswith("device='cuda:0')")
    with pytest.raises(ValueError, match="copy=False"):
        ingot.asarray(a, device="cuda", copy=False)


@needs_gpu
def test_to_moves_and_casts_in_one_call_and_cuda_cpu_methods_round_trip():
    a = np.linspace(-4, 4, 33, dtype=np.float64).reshape(3, 11)
    t = ingot.asarray(a)
    for got in (t.to("cuda", ingot.float16), t.to(ingot.float16).cuda(), t.cuda(0).half()):
        assert (got.device, got.dtype) == ("cuda:0", ingot.float16)
        np.testing.assert_array_equal(got.cpu().numpy(), a.astype(np.float16))
    wide = ingot.asarray(a.astype(np.float16)).to("cuda", ingot.float64)
    assert wide.dtype == ingot.float64
    np.testing.assert_array_equal(wide.numpy(), a.astype(np.float16).astype(np.float64))
    d = t.cuda()
    assert d.to("cuda:0") is d and d.to(d) is d
    assert d.to(t).device == "cpu"
    with pytest.raises(IndexError):
        t.to("cuda:99")
    with pytest.raises(ValueError, match="copy=False"):
        np.asarray(d, copy=False)  # reaching a device tensor from NumPy copies it
    np.testing.assert_array_equal(np.asarray(d), a)


@needs_gpu
def test_python_numbers_stay_on_the_host_and_device_zero_dim_operands_are_read_on_the_device():
    a = np.linspace(-3, 3, 50, dtype=np.float32)
    t = ingot.asarray(a, device="cuda")
    np.testing.assert_allclose(ingot.atan2(t, 2.0).numpy(), np.arctan2(a, np.float32(2.0)), rtol=2e-7)
    two = ingot.asarray(np.float64(2.0), device="cuda")
    np.testing.assert_allclose(ingot.atan2(t, two).numpy(), np.arctan2(a, np.float32(2.0)), rtol=2e-7)
    np.testing.assert_array_equal((t.T * 3).numpy(), a * 3)


@needs_gpu
def test_memory_stats_track_live_tensors_and_the_pool_reuses_memory():
    ingot.cuda.synchronize()
    before = ingot.cuda.memory_stats()
    t = ingot.empty((1 << 20,), device="cuda")
    during = ingot.cuda.memory_stats()
    assert during["allocated_bytes"] >= before["allocated_bytes"] + 4 * (1 << 20)
    del t
    after = ingot.cuda.memory_stats()
    assert after["allocated_bytes"] == before["allocated_bytes"]
    assert after["reserved_bytes"] >= during["allocated_bytes"] - before["allocated_bytes"]


@needs_gpu
def test_device_properties_describe_the_card():
    p = ingot.cuda.get_device_properties(0)
    assert p["major"] >= 5 and p["multi_processor_count"] > 0 and p["total_memory"] > 0


@needs_gpu
def test_dlpack_with_pytorch_is_zero_copy_both_ways():
    torch = pytest.importorskip("torch")
    x = torch.arange(10, dtype=torch.float32, device="cuda")
    t = ingot.from_dlpack(x)
    assert t.device == "cuda:0"
    t.fill_(3)  # writes through to PyTorch's memory
    assert x.sum().item() == 30
    back = torch.from_dlpack(ingot.asarray(np.arange(5, dtype=np.int64), device="cuda") + 1)
    assert back.device.type == "cuda" and back.tolist() == [1, 2, 3, 4, 5]


@needs_gpu
def test_dlpack_export_orders_a_consumer_stream_after_ingot():
    torch = pytest.importorskip("torch")
    big = ingot.ones((1 << 24,), device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        y = torch.from_dlpack(big * 2)  # torch passes its current stream; ingot makes it wait
        total = y.sum()
    assert total.item() == 2 * (1 << 24)


@needs_gpu
def test_dlpack_with_cupy_is_zero_copy_both_ways():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(6, dtype=cupy.int32)
    t = ingot.from_dlpack(x)
    t.fill_(7)
    assert int(x.sum()) == 42
    y = cupy.from_dlpack(ingot.asarray(np.ones(4, np.float32), device="cuda") * 5)
    assert cupy.asnumpy(y).tolist() == [5.0] * 4


def test_precompile_compiles_one_op_without_a_gpu(tmp_path, monkeypatch):
    monkeypatch.setenv("INGOT_CACHE_DIR", str(tmp_path))
    try:
        r = ingot.cuda.precompile("sm_90", jobs=2, op="neg")
    except (ingot.CompileError, ingot.AcceleratorError, NotImplementedError) as e:  # no NVRTC, or no CUDA build
        if "not found" in str(e) or "without the CUDA backend" in str(e):
            pytest.skip(str(e).splitlines()[0])
        raise
    assert r["failures"] == [] and r["modules"] > 0


# ---- cross-backend: every declared op on CUDA equals the CPU backend ----

def _op_table():
    with open(os.path.join(os.path.dirname(ingot.__file__), "op_table.json")) as f:
        return json.load(f)["ops"]


def _functional(op):
    for o in op["overloads"]:
        if o["kind"] == "functional" and "Tensor" in o["overload"] + "Tensor" and all(
                a["type"].startswith("Tensor") or "default" in a for a in o["arguments"]):
            return o
    return None


def _values(shape, dtype, rng):
    if dtype == "bool":
        v = rng.integers(0, 2, shape).astype(bool)
    elif dtype in ("uint8",):
        v = rng.integers(0, 6, shape).astype(np.uint8)
    elif dtype.startswith("int"):
        v = rng.integers(-6, 7, shape).astype(dtype)
    else:
        v = (rng.standard_normal(shape) * 3).astype(np.float32)
    t = ingot.asarray(v)
    return t.astype(getattr(ingot, dtype)) if dtype in ("float16", "bfloat16", "float64") else t


def _inputs(tensor_args, dtype, rng):
    """One value per tensor argument of a functional overload, shaped for what the argument means:
    index lists (distinct rows, so index_put's result does not depend on the write order), boolean
    masks, masked_fill's 0-dim fill value, index_put's row of values; the rest 5x37 in mixed layouts."""
    shape = (5, 37)
    out = []
    for k, a in enumerate(tensor_args):
        if a["type"] == "Tensor[]":
            out.append([ingot.asarray(np.array([4, 0, 2], dtype=np.int64))])
        elif a["name"] == "mask":
            out.append(ingot.asarray(rng.integers(0, 2, shape).astype(bool)))
        elif a["name"] == "value":
            out.append(_values((), dtype, rng))
        elif a["name"] == "values":
            out.append(_values(shape[1:], dtype, rng))
        else:
            t = _values(shape, dtype, rng)
            out.append(t if k % 2 == 0 else t.T.contiguous().T)  # mixes layouts
    return out


def _to_cuda(a):
    return [t.to("cuda") for t in a] if isinstance(a, list) else a.to("cuda")


def _same(cpu, gpu, dtype):
    if cpu.dtype.is_floating_point:  # compared as float64 (NumPy has no bfloat16 of its own)
        a64, b64 = cpu.astype(ingot.float64).numpy(), gpu.astype(ingot.float64).numpy()
        np.testing.assert_array_equal(np.isnan(a64), np.isnan(b64))
        # A coarse consistency check: the two backends use different math libraries (glibc, CUDA's),
        # each within a few ulp; near a zero of the function (lgamma at 1 and 2, digamma at 1.46)
        # that is an absolute, not a relative, difference. The OpInfo table checks ulps exactly.
        tol = {"float16": 2e-3, "bfloat16": 1.6e-2, "float32": 2e-6, "float64": 4e-15}[cpu.dtype.name]
        np.testing.assert_allclose(b64, a64, rtol=tol, atol=tol, equal_nan=True)
    else:
        np.testing.assert_array_equal(cpu.numpy(), gpu.numpy())


@needs_gpu
@pytest.mark.parametrize("op", [o["name"] for o in _op_table()])
def test_every_op_on_cuda_equals_the_cpu_backend(op):
    entry = next(o for o in _op_table() if o["name"] == op)
    overload = _functional(entry)
    if overload is None:
        pytest.skip(f"{op}: no all-tensor functional overload")
    fn = getattr(ingot, op)
    tensor_args = [a for a in overload["arguments"] if a["type"].startswith("Tensor")]
    rng = np.random.default_rng(0)
    compared = 0
    for dtype in DTYPES:
        args = _inputs(tensor_args, dtype, rng)
        if op == "where":
            args[0] = args[0] > 0 if dtype != "bool" else args[0]
        try:
            cpu = fn(*args)
        except Exception as e:  # the same error type on both backends
            with pytest.raises(type(e)):
                fn(*[_to_cuda(a) for a in args])
            continue
        gpu = fn(*[_to_cuda(a) for a in args])
        cpu_results, gpu_results = (cpu, gpu) if isinstance(cpu, tuple) else ((cpu,), (gpu,))  # var_mean, ...
        assert len(gpu_results) == len(cpu_results)
        for c, g in zip(cpu_results, gpu_results):
            assert g.device == "cuda:0" and g.dtype == c.dtype
            _same(c, g, dtype)
        compared += 1
    assert compared > 0, f"{op}: every dtype raised on the CPU backend, so nothing was compared"
