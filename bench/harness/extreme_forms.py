"""Times the loop forms of bench/harness/extreme_forms.cpp (a shared library, argv[1]) beside NumPy on
the same buffers, in one process, pairs alternated, after checking each form's answer; argv[2]
passes of 31 rounds (default 3), each printing the median milliseconds of every form."""
import ctypes
import statistics
import sys
import time

import numpy as np

ARGMAX_FORMS = ("argmax_cur", "argmax_nopf", "argmax_u1", "argmax_u2", "argmax_u2add", "argmax_u2lanes",
                "argmax_u2addlanes", "argmax_u2addlanes_nopf", "argmax_u1addlanes")
SUM0_FORMS = ("sum0_onerow", "sum0_cur", "sum0_nofill", "sum0_counter")
ROWS = COLS = 4096


def main():
    lib = ctypes.CDLL(sys.argv[1])
    passes = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ptr, n = ctypes.c_void_p, ctypes.c_long(ROWS * COLS)
    x = np.random.default_rng(0).standard_normal(ROWS * COLS, dtype=np.float32)
    grid = x.reshape(ROWS, COLS)
    out = np.empty(COLS, np.float32)
    px, pout = ptr(x.ctypes.data), ptr(out.ctypes.data)
    lib.amax_cur.restype = ctypes.c_float
    forms = {"np.argmax": lambda: np.argmax(x), "np.max": lambda: np.max(x),
             "amax_cur": lambda: lib.amax_cur(px, n)}

    # Each argmax form on random data, a NaN (the first one wins) and a tie (the first index wins).
    nan = x.copy()
    nan[123457] = np.nan
    tie = np.zeros_like(x)
    tie[5_000_000] = tie[9_000_000] = 1
    for name in ARGMAX_FORMS:
        f = getattr(lib, name)
        f.restype = ctypes.c_long
        for data, want in ((x, int(np.argmax(x))), (nan, 123457), (tie, 5_000_000)):
            got = f(ptr(data.ctypes.data), n)
            assert got == want, f"{name}: {got}, expected {want}"
        forms[name] = lambda f=f: f(px, n)

    want = grid.astype(np.float64).sum(axis=0)
    for name in SUM0_FORMS:
        f = getattr(lib, name)
        f(px, pout, ctypes.c_long(ROWS), ctypes.c_long(COLS))
        assert np.allclose(out, want, rtol=1e-5, atol=1e-3), name
        forms[name] = lambda f=f: f(px, pout, ctypes.c_long(ROWS), ctypes.c_long(COLS))
    forms["np.sum0"] = lambda: np.sum(grid, axis=0)
    lib.sum0_cur(px, pout, ctypes.c_long(ROWS), ctypes.c_long(COLS))
    cur = out.copy()
    lib.sum0_counter(px, pout, ctypes.c_long(ROWS), ctypes.c_long(COLS))
    print("sum0_counter gives sum0_cur's bits:", np.array_equal(out, cur))

    for f in forms.values():
        f()
    for p in range(passes):
        times = {name: [] for name in forms}
        for _ in range(31):
            for name, f in forms.items():
                t0 = time.perf_counter()
                f()
                times[name].append(time.perf_counter() - t0)
        print(f"pass {p}: " + "  ".join(f"{k} {statistics.median(v) * 1e3:.3f}" for k, v in times.items()),
              flush=True)


if __name__ == "__main__":
    main()
