"""ingot.set_num_threads / get_num_threads: the CPU backend's thread count."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ingot


@pytest.fixture
def restore_threads():
    before = ingot.get_num_threads()
    yield
    ingot.set_num_threads(before)


def test_set_num_threads_is_what_get_num_threads_reports(restore_threads):
    ingot.set_num_threads(1)
    assert ingot.get_num_threads() == 1
    ingot.set_num_threads(3)
    assert ingot.get_num_threads() == 3


@pytest.mark.parametrize("n", [0, -2])
def test_set_num_threads_rejects_non_positive_counts(n, restore_threads):
    with pytest.raises(ValueError, match="set_num_threads"):
        ingot.set_num_threads(n)


def test_results_do_not_depend_on_the_thread_count(restore_threads):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((300, 700)).astype(np.float32)  # large enough to split into chunks
    b = rng.standard_normal((700,)).astype(np.float32)
    results = []
    for t in (1, 2, 3):
        ingot.set_num_threads(t)
        results.append(np.asarray(ingot.add(ingot.asarray(a).T.contiguous().T, ingot.asarray(b))))
    expected = a + b
    for r in results:
        np.testing.assert_array_equal(r, expected)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc")
def test_one_thread_runs_every_cpu_driver_on_the_calling_thread():
    # INGOT_NUM_THREADS=1 must hold for reductions, dim ops (scans, softmax) and index kernels too,
    # not only elementwise launches: no OpenMP team may start.
    code = """
import os, numpy as np, ingot
before = len(os.listdir("/proc/self/task"))
x = ingot.asarray(np.random.default_rng(0).standard_normal((512, 1024)).astype(np.float32))
for f in (lambda: ingot.sum(x), lambda: ingot.sum(x, 0), lambda: ingot.var(x, 1), lambda: ingot.argmax(x),
          lambda: ingot.cumsum(x, 1), lambda: ingot.softmax(x, 0), lambda: x + 1.0):
    f()
print(before, len(os.listdir("/proc/self/task")))
"""
    env = dict(os.environ, INGOT_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="4")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    before, after = map(int, out.stdout.split())
    assert after == before


def test_config_names_the_vector_math_the_threads_and_cuda(restore_threads):
    ingot.set_num_threads(2)
    c = ingot.config()
    assert c["version"] == ingot.__version__ and c["num_threads"] == 2
    assert c["cuda_available"] == ingot.cuda.is_available() and c["cuda_device_count"] == ingot.cuda.device_count()
    math = c["cpu_vector_math"]
    assert math.split("+")[0] in ("sleef-avx512f", "sleef-avx2", "libmvec-avx512f", "libmvec-avx2", "scalar",
                                  "scalar (built without SLEEF)")
    assert math.endswith("+libmvec") <= math.startswith("sleef")  # libmvec only beside SLEEF


def test_config_follows_ingot_vec_isa_and_ingot_vec_mvec():
    code = "import ingot; print(ingot.config()['cpu_vector_math'])"
    def run(**env):
        return subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True,
                              text=True, check=True).stdout.strip()
    default = run()
    if default.startswith("scalar"):
        pytest.skip(f"no vector math in this build or on this CPU: {default}")
    assert run(INGOT_VEC_ISA="scalar") == "scalar"
    assert run(INGOT_VEC_MVEC="0") == (default.split("+")[0] if default.startswith("sleef") else "scalar")
