"""CPU reductions beyond bench/cpu_reductions.py's float32 table, beside NumPy on the same buffers, on
one thread: other dtypes, any/all/count_nonzero, the vector norms, logsumexp, softmax and
multi-dim reductions, where a slow path would hide from the main table.

    python bench/cpu_reductions_wide.py [--side 2048] [--reps 15] [--json out.json]

NumPy has no logsumexp or softmax: its reference is the usual composite (max, exp of the
difference, sum, log). The two libraries are called alternately (bench/cpu_reductions.py's
paired_times); the speed column is the median of the per-pair ratios, and a case where ingot is
slower than NumPy is marked. Runs with INGOT_NUM_THREADS=1 (set before ingot loads).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import platform
import sys

os.environ["INGOT_NUM_THREADS"] = "1"
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import ingot  # noqa: E402
from cpu_reductions import paired_times  # noqa: E402


def np_logsumexp(a, axis):
    m = a.max(axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(a - m), axis=axis)) + np.squeeze(m, axis)


def np_softmax(a, axis):
    e = np.exp(a - a.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def cases(side: int):
    """(label, ingot call, NumPy call) for each case."""
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal((side, side), dtype=np.float32)
    arrays = {
        "float32": f32,
        "float64": rng.standard_normal((side, side)),
        "float16": f32.astype(np.float16),
        "int32": rng.integers(-100, 100, (side, side), dtype=np.int32),
        "int8": rng.integers(-100, 100, (side, side), dtype=np.int8),
    }
    out = []

    def add(label, x, ing, ref):
        t = ingot.asarray(x)
        out.append((label, lambda: ing(t), lambda: ref(x)))

    for name, x in arrays.items():
        add(f"sum {name} all", x, lambda t: ingot.sum(t), np.sum)
        add(f"sum {name} dim 0", x, lambda t: ingot.sum(t, 0), lambda a: np.sum(a, 0))
        add(f"sum {name} dim 1", x, lambda t: ingot.sum(t, 1), lambda a: np.sum(a, 1))
        add(f"amax {name} dim 1", x, lambda t: ingot.amax(t, 1), lambda a: np.max(a, 1))
        add(f"argmax {name} dim 0", x, lambda t: ingot.argmax(t, 0), lambda a: np.argmax(a, 0))
    cube = rng.standard_normal((64, side // 8, side // 8), dtype=np.float32)
    add("sum float32 3-d dims (0, 2)", cube, lambda t: ingot.sum(t, (0, 2)), lambda a: np.sum(a, (0, 2)))
    add("mean float32 3-d dims (0, 1)", cube, lambda t: ingot.mean(t, (0, 1)), lambda a: np.mean(a, (0, 1)))
    f32_t = ingot.transpose(ingot.asarray(f32), 0, 1)  # a strided view, as f32.T
    out.append(("sum float32 transposed dim 1", lambda: ingot.sum(f32_t, 1), lambda: np.sum(f32.T, 1)))
    add("var float64 dim 1", arrays["float64"], lambda t: ingot.var(t, 1), lambda a: np.var(a, 1, ddof=1))
    add("prod float32 dim 1", f32, lambda t: ingot.prod(t, 1), lambda a: np.prod(a, 1))
    mask = f32 > 0
    zeros = np.zeros_like(mask)
    add("any bool random", mask, lambda t: ingot.any(t), np.any)
    add("any bool all False", zeros, lambda t: ingot.any(t), np.any)
    add("all bool dim 1", mask, lambda t: ingot.all(t, 1), lambda a: np.all(a, 1))
    add("all bool all True, dim 1", ~zeros, lambda t: ingot.all(t, 1), lambda a: np.all(a, 1))
    add("any float32 dim 0", f32, lambda t: ingot.any(t, 0), lambda a: np.any(a, 0))
    add("count_nonzero bool", mask, lambda t: ingot.count_nonzero(t), np.count_nonzero)
    add("count_nonzero float32 dim 1", f32, lambda t: ingot.count_nonzero(t, 1), lambda a: np.count_nonzero(a, 1))
    add("nansum float32", f32, lambda t: ingot.nansum(t), np.nansum)
    add("vector_norm 2 float32", f32, lambda t: ingot.vector_norm(t), lambda a: np.linalg.norm(a.ravel()))
    add("vector_norm 1 float32 dim 1", f32, lambda t: ingot.vector_norm(t, 1, 1), lambda a: np.linalg.norm(a, 1, axis=1))
    add("vector_norm inf float32 dim 1", f32, lambda t: ingot.vector_norm(t, float("inf"), 1),
        lambda a: np.linalg.norm(a, np.inf, axis=1))
    add("vector_norm -inf float32 all", f32, lambda t: ingot.vector_norm(t, float("-inf")), lambda a: np.min(np.abs(a)))
    add("logsumexp float32 dim 1", f32, lambda t: ingot.logsumexp(t, 1), lambda a: np_logsumexp(a, 1))
    add("logsumexp float32 dim 0", f32, lambda t: ingot.logsumexp(t, 0), lambda a: np_logsumexp(a, 0))
    add("softmax float32 dim 1", f32, lambda t: ingot.softmax(t, 1), lambda a: np_softmax(a, 1))
    add("softmax float32 dim 0", f32, lambda t: ingot.softmax(t, 0), lambda a: np_softmax(a, 0))
    add("cumsum float64 dim 1", arrays["float64"], lambda t: ingot.cumsum(t, 1), lambda a: np.cumsum(a, 1))
    add("cumsum int32 dim 1", arrays["int32"], lambda t: ingot.cumsum(t, 1), lambda a: np.cumsum(a, 1))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--side", type=int, default=2048)
    p.add_argument("--reps", type=int, default=15)
    p.add_argument("--json", type=pathlib.Path)
    args = p.parse_args()
    cfg = ingot.config()
    print(f"CPU: {platform.processor() or platform.machine()}, one thread; {args.side}x{args.side}; "
          f"vector math: {cfg['cpu_vector_math']}; memory policy: {cfg['cpu_memory_policy']}")
    print(f"{'case':34s} {'ingot ms':>9s} {'numpy ms':>9s} {'speed':>7s}")
    rows = []
    for label, fn, ref in cases(args.side):
        ti, tn, speed = paired_times(fn, ref, args.reps)
        flag = "  slower than NumPy" if speed < 1.0 else ""
        print(f"{label:34s} {ti * 1e3:9.3f} {tn * 1e3:9.3f} {speed:6.2f}x{flag}", flush=True)
        rows.append({"case": label, "ingot_ms": ti * 1e3, "numpy_ms": tn * 1e3, "speed": speed})
    if args.json:
        args.json.write_text(json.dumps({"date": datetime.date.today().isoformat(), "side": args.side,
                                         "threads": 1, "config": cfg, "cases": rows}, indent=1) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
