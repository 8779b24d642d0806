"""CPU dim ops (softmax, log_softmax, cumsum, cumprod, cummax) on one thread beside NumPy, each
reported as a fraction of a copy of the same bytes measured in the same run, and as a speed ratio
to NumPy (> 1: ingot is faster). "out=" times ingot writing into a preallocated result: a fresh
result of 32 MiB or more pays first-touch page faults in the CPU allocator (aligned_alloc -> mmap)
that dominate the fast kernels. Run: OMP_NUM_THREADS=1 python bench/cpu_dim_ops.py [--json F]."""
import argparse
import json
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import ingot  # noqa: E402


def best(fn, repeat=7, min_time=0.05):
    fn()
    times = []
    for _ in range(repeat):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            if time.perf_counter() - t0 >= min_time:
                break
        times.append((time.perf_counter() - t0) / n)
    return min(times)


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return (x - m) - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


CASES = [  # (op, shape, dim, dtype)
    ("cumsum", (1 << 22,), 0, "float32"),
    ("cumsum", (1024, 4096), 1, "float32"),
    ("cumsum", (4096, 1024), 0, "float32"),
    ("cumsum", (1024, 4096), 1, "float64"),
    ("cumsum", (1024, 4096), 1, "int32"),
    ("cumprod", (1024, 4096), 1, "float32"),
    ("cummax", (1024, 4096), 1, "float32"),
    ("softmax", (4096, 1024), 1, "float32"),
    ("softmax", (1024, 4096), 0, "float32"),
    ("log_softmax", (4096, 1024), 1, "float32"),
]

NUMPY = {"cumsum": lambda x, a: np.cumsum(x, axis=a), "cumprod": lambda x, a: np.cumprod(x, axis=a),
         "cummax": lambda x, a: np.maximum.accumulate(x, axis=a), "softmax": np_softmax,
         "log_softmax": np_log_softmax}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    print(f"{'op':12} {'shape':>12} dim {'dtype':8} {'ingot ms':>9} {'out= ms':>8} {'numpy ms':>9} {'vs numpy':>8} "
          f"{'out= vs':>8} {'of copy':>8}")
    for op, shape, dim, dtype in CASES:
        x = (rng.standard_normal(shape) * (0.01 if op == "cumprod" else 3) + (1 if op == "cumprod" else 0))
        x = x.astype(dtype) if dtype.startswith("float") else rng.integers(-50, 50, shape).astype(dtype)
        t = ingot.asarray(x)
        f = getattr(ingot, op)
        t_ingot = best(lambda: f(t, dim))
        res = f(t, dim)
        t_out = best(lambda: f(t, dim, out=res))  # a tuple for cummax
        t_numpy = best(lambda: NUMPY[op](x, dim))
        dst = t.clone()
        t_copy = best(lambda: dst.copy_(t))  # into a preallocated tensor, like out=
        row = dict(op=op, shape=list(shape), dim=dim, dtype=dtype, ingot_s=t_ingot, ingot_out_s=t_out,
                   numpy_s=t_numpy, copy_s=t_copy, vs_numpy=t_numpy / t_ingot, out_vs_numpy=t_numpy / t_out,
                   of_copy=t_copy / t_out)
        rows.append(row)
        print(f"{op:12} {'x'.join(map(str, shape)):>12} {dim:3} {dtype:8} {t_ingot * 1e3:9.3f} {t_out * 1e3:8.3f} "
              f"{t_numpy * 1e3:9.3f} {row['vs_numpy']:8.2f} {row['out_vs_numpy']:8.2f} {row['of_copy']:8.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"threads": os.environ["OMP_NUM_THREADS"], "cases": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
