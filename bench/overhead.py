"""Per-call host overhead of a tiny elementwise op from Python: ingot.add on 16-element float32
CPU tensors, with and without out=, side by side with NumPy (and PyTorch when importable).

    python bench/overhead.py [--json overhead.json] [--number 200000] [--repeat 7]

Prints a table of microseconds per call (best of --repeat runs) and writes the same as JSON.
The goal for ingot is under 1.5 us per call.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import timeit

import numpy as np

import ingot

GOAL_US = 1.5


def measure(fn, number: int, repeat: int) -> float:
    fn()  # warm up (first-call allocations, lazy imports)
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def cases():
    a_np, b_np = np.arange(16, dtype=np.float32), np.ones(16, dtype=np.float32)
    out_np = np.empty_like(a_np)
    a, b, out = ingot.asarray(a_np.copy()), ingot.asarray(b_np.copy()), ingot.empty(16)
    raw_add = ingot._C._ops.add if hasattr(ingot._C._ops, "add") else None
    yield "ingot", "add(a, b)", lambda: ingot.add(a, b)
    yield "ingot", "add(a, b, out=c)", lambda: ingot.add(a, b, out=out)
    yield "ingot", "a + b", lambda: a + b
    if raw_add is not None:  # the nanobind entry point without the Python signature wrapper
        yield "ingot", "_C._ops.add(a, b, 1, None)", lambda: raw_add(a, b, 1, None)
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
    p.add_argument("--number", type=int, default=200000, help="calls per timing run")
    p.add_argument("--repeat", type=int, default=7, help="timing runs; the best is reported")
    args = p.parse_args()

    rows = []
    for library, call, fn in cases():
        us = measure(fn, args.number, args.repeat)
        rows.append({"library": library, "call": call, "us_per_call": round(us, 4)})
    print(f"{'library':<8} {'call':<28} {'us/call':>8}")
    for r in rows:
        print(f"{r['library']:<8} {r['call']:<28} {r['us_per_call']:>8.3f}")
    ingot_add = next(r["us_per_call"] for r in rows if r["library"] == "ingot" and r["call"] == "add(a, b)")
    print(f"goal: ingot add(a, b) < {GOAL_US} us: {'met' if ingot_add < GOAL_US else 'NOT met'} ({ingot_add:.3f} us)")
    result = {"benchmark": "overhead", "elements": 16, "dtype": "float32", "device": "cpu",
              "goal_us": GOAL_US, "python": platform.python_version(), "machine": platform.machine(),
              "numpy": np.__version__, "results": rows}
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
