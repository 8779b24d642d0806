"""CPU reductions beside NumPy on the same buffers, on one thread and on all threads, with a copy
measured in the same run (DESIGN.md §8).

    python bench/cpu_reductions.py [--side 4096] [--json bench/results/cpu_reductions.json]

Cases: float32 sum, mean, var, std, amax, argmax and cumsum over all elements (cumsum: of the
flattened array, as NumPy's axis=None), the inner dim and the outer dim of a side x side array.
Each thread count runs in its own process (INGOT_NUM_THREADS is read when the library loads; 1 for
the one-thread run, unset for all threads). The two libraries are called alternately, --reps pairs
after a warm-up; times are medians, and the speed column is the median of the per-pair ratios.
Goals (issue #12): every case at least as fast as NumPy on one thread; float32 sum >= 80% of copy
bandwidth on all threads (the sum reads n*4 bytes, the copy moves 2*n*4).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

OPS = ["sum", "mean", "var", "std", "amax", "argmax", "cumsum"]
DIMS = {"all": None, "inner": 1, "outer": 0}


def paired_times(fn, ref, reps: int) -> tuple[float, float, float]:
    """Median times of fn and ref called alternately, and the median of the per-pair ratios
    ref/fn: on a shared machine a slow moment then hits both sides of a pair."""
    fn(), ref()
    tf, tr = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        ref()
        t2 = time.perf_counter()
        tf.append(t1 - t0)
        tr.append(t2 - t1)
    return statistics.median(tf), statistics.median(tr), statistics.median(r / f for f, r in zip(tf, tr))


def best_time(fn, reps: int) -> float:
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def child(side: int, reps: int) -> dict:
    import numpy as np

    import ingot

    x = np.random.default_rng(0).standard_normal((side, side), dtype=np.float32)
    t = ingot.asarray(x)
    n_bytes = x.nbytes
    dst = np.empty_like(x)
    out = {"threads": os.environ.get("INGOT_NUM_THREADS", "all"),
           "numpy_copy_gbs": 2 * n_bytes / best_time(lambda: np.copyto(dst, x), reps) / 1e9,
           "ingot_copy_gbs": 2 * n_bytes / best_time(lambda: t.clone(), reps) / 1e9, "cases": []}
    for op in OPS:
        if not hasattr(ingot, op):
            continue
        for dim_name, dim in DIMS.items():
            np_fn = {"sum": np.sum, "mean": np.mean, "var": np.var, "std": np.std, "amax": np.max,
                     "argmax": np.argmax, "cumsum": np.cumsum}[op]
            if op in ("var", "std"):
                ing = (lambda f=getattr(ingot, op), d=dim: f(t, d, correction=0))
            elif op == "cumsum" and dim is None:
                ing = (lambda: ingot.cumsum(t.reshape(-1), 0))
            elif dim is None:
                ing = (lambda f=getattr(ingot, op): f(t))
            else:
                ing = (lambda f=getattr(ingot, op), d=dim: f(t, d))
            ref = (lambda d=dim: np_fn(x, axis=d))
            ti, tn, speed = paired_times(ing, ref, reps)
            out["cases"].append({"op": op, "dim": dim_name, "ingot_ms": ti * 1e3, "numpy_ms": tn * 1e3,
                                 "speed": speed, "ingot_gbs": n_bytes / ti / 1e9, "numpy_gbs": n_bytes / tn / 1e9})
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--side", type=int, default=4096)
    p.add_argument("--reps", type=int, default=21)
    p.add_argument("--json", default="bench/results/cpu_reductions.json")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        print(json.dumps(child(a.side, a.reps)))
        return 0
    runs = []
    for threads in ("1", None):
        env = dict(os.environ)
        if threads:
            env["INGOT_NUM_THREADS"] = threads
        else:
            env.pop("INGOT_NUM_THREADS", None)
        raw = subprocess.run([sys.executable, __file__, "--child", "--side", str(a.side), "--reps", str(a.reps)],
                             check=True, capture_output=True, text=True, env=env).stdout
        runs.append(json.loads(raw))
    import ingot  # after the children: only for its config() here

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"CPU: {cpu}, {os.cpu_count()} logical CPUs; {a.side}x{a.side} float32; "
          f"vector math: {ingot.config()['cpu_vector_math']}")
    for run in runs:
        print(f"\nthreads={run['threads']}: copy ingot {run['ingot_copy_gbs']:.1f} GB/s, numpy {run['numpy_copy_gbs']:.1f} GB/s")
        print(f"{'op':8} {'dim':6} {'ingot ms':>9} {'numpy ms':>9} {'ingot/numpy speed':>18} {'ingot % of copy':>16}")  # copy: read + write
        for c in run["cases"]:
            copy = max(run["ingot_copy_gbs"], run["numpy_copy_gbs"])  # the faster copy is the ceiling
            print(f"{c['op']:8} {c['dim']:6} {c['ingot_ms']:9.2f} {c['numpy_ms']:9.2f} "
                  f"{c['speed']:17.2f}x {100 * c['ingot_gbs'] / copy:15.0f}%")
    result = {"date": datetime.date.today().isoformat(), "cpu": cpu, "logical_cpus": os.cpu_count(),
              "cpu_vector_math": ingot.config()["cpu_vector_math"],
              "side": a.side, "runs": runs}
    if a.json:
        os.makedirs(os.path.dirname(a.json) or ".", exist_ok=True)
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
        print(f"\nwrote {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
