"""Per-call host overhead of a tiny elementwise op from Python: ingot.add on 16-element float32
CPU tensors, with and without out= and as `a + b`, side by side with NumPy (and PyTorch when
importable), all in one process.

    python bench/overhead.py [--json overhead.json] [--number 20000] [--repeat 25] [--timer wall]

Every case is timed once per round, rounds interleaved, and the best round is reported, so a
noisy shared machine slows all cases alike. The default timer is the thread's CPU time (time spent
descheduled does not count); `--timer wall` uses perf_counter. Prints microseconds per call and
ingot's time as a multiple of NumPy's for the same call, and writes the same as JSON. The goal
(issue #11): each ingot call at most NumPy's time (ratio <= 1).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
import timeit

import numpy as np

import ingot

GOAL_RATIO = 1.0  # ingot's time per call / NumPy's


def measure_all(cases, number: int, repeat: int, timer) -> list[float]:
    """Best microseconds per call of each case, over `repeat` interleaved rounds."""
    best = [float("inf")] * len(cases)
    for _, _, fn in cases:
        fn()  # warm up (first-call allocations, lazy imports)
    for _ in range(repeat):
        for i, (_, _, fn) in enumerate(cases):
            best[i] = min(best[i], timeit.Timer(fn, timer=timer).timeit(number=number) / number * 1e6)
    return best


def cases():
    a_np, b_np = np.arange(16, dtype=np.float32), np.ones(16, dtype=np.float32)
    out_np = np.empty_like(a_np)
    a, b, out = ingot.asarray(a_np.copy()), ingot.asarray(b_np.copy()), ingot.empty(16)
    raw_add = ingot._C._ops.add if hasattr(ingot._C._ops, "add") else None
    yield "ingot", "add(a, b)", lambda: ingot.add(a, b)
    yield "ingot", "add(a, b, out=c)", lambda: ingot.add(a, b, out=out)
    yield "ingot", "a + b", lambda: a + b
    if raw_add is not None:  # the nanobind entry point, without the signature's argument mapping
        yield "ingot", "_C._ops.add(a, b, 1, None)", lambda: raw_add(a, b, 1, None)
        yield "ingot", "_C._ops.add(a, b, 1, c)", lambda: raw_add(a, b, 1, out)
    yield "numpy", "add(a, b)", lambda: np.add(a_np, b_np)
    yield "numpy", "add(a, b, out=c)", lambda: np.add(a_np, b_np, out=out_np)
    yield "numpy", "a + b", lambda: a_np + b_np
    try:
        import torch
    except ImportError:
        return
    ta, tb, tout = torch.from_numpy(a_np.copy()), torch.from_numpy(b_np.copy()), torch.empty(16)
    yield "torch", "add(a, b)", lambda: torch.add(ta, tb)
    yield "torch", "add(a, b, out=c)", lambda: torch.add(ta, tb, out=tout)
    yield "torch", "a + b", lambda: ta + tb


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", default="bench/results/overhead.json", help="where to write the results")
    p.add_argument("--number", type=int, default=20000, help="calls per case and round")
    p.add_argument("--repeat", type=int, default=25, help="interleaved rounds; the best is reported")
    p.add_argument("--timer", choices=("cpu", "wall"), default="cpu",
                   help="cpu: the thread's CPU time (default); wall: perf_counter")
    args = p.parse_args()

    all_cases = list(cases())
    timer = time.thread_time if args.timer == "cpu" else time.perf_counter
    best = measure_all(all_cases, args.number, args.repeat, timer)
    numpy_us = {call: us for (lib, call, _), us in zip(all_cases, best) if lib == "numpy"}
    rows = []
    for (library, call, _), us in zip(all_cases, best):
        row = {"library": library, "call": call, "us_per_call": round(us, 4)}
        if call in numpy_us:
            row["vs_numpy"] = round(us / numpy_us[call], 3)
        rows.append(row)
    print(f"{'library':<8} {'call':<28} {'us/call':>8} {'/numpy':>7}")
    for r in rows:
        ratio = f"{r['vs_numpy']:7.2f}" if "vs_numpy" in r else f"{'-':>7}"
        print(f"{r['library']:<8} {r['call']:<28} {r['us_per_call']:>8.3f} {ratio}")
    goal = [r for r in rows if r["library"] == "ingot" and "vs_numpy" in r]
    met = all(r["vs_numpy"] <= GOAL_RATIO for r in goal)
    print(f"goal: every ingot call <= NumPy's time: {'met' if met else 'NOT met'} (" +
          ", ".join(f"{r['call']} {r['vs_numpy']:.2f}x" for r in goal) + ")")
    result = {"benchmark": "overhead", "elements": 16, "dtype": "float32", "device": "cpu",
              "goal_ratio_to_numpy": GOAL_RATIO, "timer": args.timer, "python": platform.python_version(),
              "machine": platform.machine(), "numpy": np.__version__, "results": rows}
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
