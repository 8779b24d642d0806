import subprocess
import sys

import numpy as np
import pytest

import ingot
from ingot_test_helpers import ALL_DTYPES, NUMPY_DTYPES


@pytest.mark.parametrize("name", ALL_DTYPES)
def test_dtype_is_module_attribute_with_name(name):
    dt = getattr(ingot, name)
    assert isinstance(dt, ingot.dtype)
    assert dt.name == name
    assert repr(dt) == f"ingot.{name}"


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_itemsize_and_kind_match_numpy(name):
    dt, ref = getattr(ingot, name), np.dtype(name)
    assert dt.itemsize == ref.itemsize
    assert dt.kind == ref.kind


def test_bfloat16_is_a_two_byte_float():
    assert ingot.bfloat16.itemsize == 2
    assert ingot.bfloat16.kind == "f"
    assert ingot.bfloat16.is_floating_point


def test_dtypes_compare_equal_only_to_themselves_and_their_name():
    assert ingot.float32 == ingot.float32
    assert ingot.float32 != ingot.float64
    assert ingot.float32 == "float32"
    assert ingot.float32 != 3


def test_dtypes_hash_consistently_with_equality():
    table = {ingot.float32: 1, ingot.int64: 2}
    assert table[ingot.float32] == 1
    assert hash(ingot.float32) == hash("float32")
    assert len({getattr(ingot, n) for n in ALL_DTYPES}) == len(ALL_DTYPES)


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_matches_numpy(name):
    f, ref = ingot.finfo(getattr(ingot, name)), np.finfo(name)
    assert f.bits == ref.bits
    assert f.eps == float(ref.eps)
    assert f.max == float(ref.max)
    assert f.min == float(ref.min)
    assert f.tiny == float(ref.tiny)
    assert f.smallest_normal == float(ref.smallest_normal)


def test_finfo_bfloat16_limits():
    f = ingot.finfo(ingot.bfloat16)
    assert f.bits == 16
    assert f.eps == 2.0 ** -7
    assert f.max == float(np.float32(3.3895314e38))
    assert f.tiny == 2.0 ** -126


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_numpy(name):
    i, ref = ingot.iinfo(name), np.iinfo(name)
    assert (i.bits, i.min, i.max) == (ref.bits, int(ref.min), int(ref.max))


def test_finfo_rejects_integer_dtype():
    with pytest.raises(TypeError, match="finfo"):
        ingot.finfo(ingot.int32)


def test_iinfo_rejects_float_dtype():
    with pytest.raises(TypeError, match="iinfo"):
        ingot.iinfo(ingot.float32)


def test_promote_types_follows_the_lattice():
    assert ingot.promote_types(ingot.uint8, ingot.int8) == ingot.int16
    assert ingot.promote_types(ingot.float16, ingot.bfloat16) == ingot.float32
    assert ingot.promote_types(ingot.int64, ingot.float16) == ingot.float16


def test_can_cast_forbids_float_to_int():
    assert ingot.can_cast(ingot.int32, ingot.float32)
    assert not ingot.can_cast(ingot.float32, ingot.int32)


def test_ml_dtypes_is_imported_on_first_use_and_may_load_after_ingot():
    """`import ingot` leaves ml_dtypes alone (its import takes most of a second); a bfloat16
    tensor's .numpy() imports it, and a user's own import of it after ingot's works (the static
    libstdc++ of some toolchains broke that until libingot hid its symbols)."""
    pytest.importorskip("ml_dtypes")
    script = (
        "import sys, ingot\n"
        "assert 'ml_dtypes' not in sys.modules, 'imported by ingot'\n"
        "a = (ingot.ones(3, dtype='bfloat16') * 2.5).numpy()\n"
        "assert 'ml_dtypes' in sys.modules and a.dtype.name == 'bfloat16', a.dtype\n"
        "assert a.astype('float32').tolist() == [2.5, 2.5, 2.5]\n"
    )
    later = (
        "import ingot, numpy as np\n"
        "import ml_dtypes\n"
        "b = np.ones(2, ml_dtypes.bfloat16) + 1\n"
        "t = ingot.asarray(b) * 2\n"
        "assert t.dtype == ingot.bfloat16 and t.numpy().astype('float32').tolist() == [4.0, 4.0]\n"
    )
    for code in (script, later):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
