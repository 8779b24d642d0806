"""cat/concat/concatenate and stack against NumPy, on every backend present."""
import numpy as np
import pytest

from ingot_test_helpers import DEVICES, host, ingot, make, sample


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "float16", "bfloat16", "float32", "float64"])
def test_cat_and_stack_match_numpy_on_every_dim(device, dtype):
    parts = [sample((2, 3, 4), "float32" if dtype == "bfloat16" else dtype, seed=s) for s in range(3)]
    ts = [make(p, dtype, device) for p in parts]
    ref = [host(t) for t in ts]
    for dim in range(-3, 3):
        np.testing.assert_array_equal(host(ingot.cat(ts, dim)), np.concatenate(ref, dim))
        np.testing.assert_array_equal(host(ingot.stack(ts, dim)), np.stack(ref, dim))
    np.testing.assert_array_equal(host(ingot.stack(ts, 3)), np.stack(ref, 3))
    got = ingot.cat([t.T for t in ts], 1)  # non-contiguous inputs
    np.testing.assert_array_equal(host(got), np.concatenate([r.T for r in ref], 1))
    assert ingot.cat(ts).dtype == ts[0].dtype


@pytest.mark.parametrize("device", DEVICES)
def test_cat_promotes_skips_legacy_empty_and_writes_out(device):
    a = make(np.arange(6, dtype=np.int32).reshape(2, 3), "int32", device)
    b = make(np.full((1, 3), 0.5, np.float32), "float32", device)
    got = ingot.cat((a, b))
    assert got.dtype == ingot.float32 and got.device == a.device
    np.testing.assert_array_equal(host(got), np.concatenate([host(a).astype(np.float32), host(b)]))
    empty = ingot.zeros(0, device=device)
    assert ingot.cat([empty, a, empty]).shape == (2, 3)
    assert ingot.cat([a[:0], a]).shape == (2, 3)
    out = ingot.empty((2, 6), dtype="int64", device=device)
    assert ingot.concat([a, a], 1, out=out) is out
    np.testing.assert_array_equal(host(out), np.concatenate([host(a)] * 2, 1))
    np.testing.assert_array_equal(host(ingot.concatenate([a, a], axis=None)), np.concatenate([host(a)] * 2, None))
    np.testing.assert_array_equal(host(ingot.stack([b[0, 0], a[0, 0]])), np.array([0.5, 0.0], np.float32))
    mixed = ingot.cat([np.zeros((1, 3), np.float64), a, [[7, 8, 9]]])  # array-likes onto a's device
    assert (mixed.dtype, mixed.device, mixed.shape) == (ingot.float64, a.device, (4, 3))
    np.testing.assert_array_equal(host(mixed)[3], [7, 8, 9])


def test_cat_and_stack_reject_bad_input_naming_the_operand():
    a, b = ingot.zeros(2, 3), ingot.zeros(3, 2)
    with pytest.raises(ValueError, match="non-empty"):
        ingot.cat([])
    with pytest.raises(TypeError, match="sequence of tensors"):
        ingot.cat(a)
    with pytest.raises(TypeError, match=r"tensors\[1\] \(str\) is not a tensor"):
        ingot.stack([a, "x"])
    with pytest.raises(ValueError, match="must match except in dim 0"):
        ingot.cat([a, b])
    with pytest.raises(ValueError, match=r"tensors\[1\] has 1 dims"):
        ingot.cat([a, ingot.zeros(3)])
    with pytest.raises(ValueError, match="zero-dimensional"):
        ingot.cat([ingot.asarray(1.0)])
    with pytest.raises(ValueError, match="one shape"):
        ingot.stack([a, b])
    with pytest.raises(IndexError, match="out of range"):
        ingot.cat([a, a], 2)
    with pytest.raises(IndexError, match="out of range"):
        ingot.stack([a, a], 3)
    with pytest.raises(ValueError, match="out has shape"):
        ingot.cat([a, a], out=ingot.empty((2, 3)))
    with pytest.raises(TypeError, match="can't be cast"):
        ingot.cat([a, a], out=ingot.empty((4, 3), dtype="int32"))
    out = ingot.zeros(4, 3)
    with pytest.raises(ValueError, match="overlaps"):
        ingot.cat([out[:2], out[2:]], out=out)
