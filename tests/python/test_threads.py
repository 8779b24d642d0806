"""ingot.set_num_threads / get_num_threads: the CPU backend's thread count."""
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
