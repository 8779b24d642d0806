"""CUDA reductions (and softmax/log_softmax/cumsum once they exist in ingot) beside PyTorch and
CuPy, as a fraction of a device-to-device copy measured in the same run (DESIGN.md §8).

    python bench/cuda_reductions.py [--json out.json] [--png out.png] [--n 67108864] [--side 16384]
                                    [--only sum,bfloat16] [--libs ingot]

Bandwidth counts the fewest bytes an op must move: the input read once and the output written
once. Times are medians of CUDA-event-timed runs after a warm-up. Goals (issue #12): full sums
>= 95% of copy, inner/outer sums of a 16384x16384 float32 >= 93%, argmax >= 93%, var/std >= 90%,
softmax/log_softmax/logsumexp over rows >= 90%, cumsum >= 80%, and no case slower than PyTorch.
Without a CUDA device the script says so and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time

import numpy as np

import ingot
from cuda_timing import copy_bandwidth, plot_fraction_of_copy, timed

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None
try:
    import cupy
except ImportError:  # pragma: no cover
    cupy = None

GOALS = {"sum": 95, "sum inner": 93, "sum outer": 93, "argmax": 93, "var": 90, "std": 90, "softmax": 90,
         "log_softmax": 90, "logsumexp": 90, "cumsum": 80}


def has(lib: str, op: str) -> bool:
    """softmax, log_softmax and cumsum land separately in ingot; the cases appear once they do."""
    if lib == "ingot":
        return hasattr(ingot, op)
    if lib == "cupy":
        return op in ("sum", "argmax", "var", "std", "cumsum", "amax")
    return True


def make(lib: str, host: np.ndarray, dtype: str):
    if lib == "ingot":
        return ingot.asarray(host, device="cuda").astype(getattr(ingot, dtype))
    if lib == "torch":
        return torch.from_numpy(host).cuda().to(getattr(torch, dtype))
    return None if dtype == "bfloat16" else cupy.asarray(host).astype(dtype)


def call(lib: str, op: str, x, dim):
    """One reduction in each library's spelling; dim None reduces everything."""
    if lib == "cupy":
        fn = {"sum": cupy.sum, "argmax": cupy.argmax, "var": cupy.var, "std": cupy.std, "cumsum": cupy.cumsum,
              "amax": cupy.max}[op]
        return fn(x, axis=dim)
    mod = ingot if lib == "ingot" else torch
    if op in ("softmax", "log_softmax", "cumsum"):
        return getattr(mod, op)(x, dim)
    if op == "logsumexp":
        return mod.logsumexp(x, dim)
    if dim is None:
        return getattr(mod, op)(x)
    return getattr(mod, op)(x, dim)


# (label, op, dtype, shape, dim): dim None is a full reduction.
def cases(n: int, side: int):
    out = []
    for dtype in ("float32", "float16", "bfloat16"):
        out.append(("sum", "sum", dtype, (n,), None))
    out += [("sum inner", "sum", "float32", (side, side), 1), ("sum outer", "sum", "float32", (side, side), 0),
            ("argmax", "argmax", "float32", (n,), None), ("argmax inner", "argmax", "float32", (side, side), 1),
            ("amax inner", "amax", "float32", (side, side), 1),
            ("var", "var", "float32", (side, side), 1), ("std", "std", "float32", (side, side), 1),
            ("var outer", "var", "float32", (side, side), 0),
            ("logsumexp", "logsumexp", "float32", (side, side), 1)]
    for dtype in ("float32", "bfloat16"):
        out += [("softmax", "softmax", dtype, (side, side), 1), ("log_softmax", "log_softmax", dtype, (side, side), 1)]
    out += [("cumsum", "cumsum", "float32", (side, side), 1)]
    return out


def case_bytes(op: str, dtype: str, shape, dim) -> int:
    elem = 2 if dtype in ("float16", "bfloat16") else 4
    n = int(np.prod(shape))
    if op in ("softmax", "log_softmax", "cumsum"):
        return 2 * n * elem
    n_out = 1 if dim is None else n // shape[dim]
    out_elem = 8 if op == "argmax" else elem
    return n * elem + n_out * out_elem


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=1 << 28)
    p.add_argument("--side", type=int, default=16384)
    p.add_argument("--json")
    p.add_argument("--png")
    p.add_argument("--only", help="comma-separated case labels and/or dtypes to run, e.g. 'sum,bfloat16' "
                   "(a case runs when its label or its dtype is listed); default: all")
    p.add_argument("--libs", default="ingot,torch,cupy",
                   help="comma-separated libraries to time (those importable); tuning runs pass 'ingot'")
    a = p.parse_args()
    only = set(a.only.split(",")) if a.only else None
    if not ingot.cuda.is_available():
        print("cuda_reductions.py: no CUDA device; nothing to measure", file=sys.stderr)
        return 2
    want = set(a.libs.split(","))
    libs = ["ingot"] + (["torch"] if torch and "torch" in want else []) + (["cupy"] if cupy and "cupy" in want else [])
    rng = np.random.default_rng(0)
    copy = copy_bandwidth(1 << 30)
    ceiling = max(copy.values())
    hosts = {}
    rows = []
    for label, op, dtype, shape, dim in cases(a.n, a.side):
        if only is not None and label not in only and dtype not in only:
            continue
        if shape not in hosts:
            hosts[shape] = rng.standard_normal(shape, dtype=np.float32)
        row = {"case": label, "op": op, "dtype": dtype, "shape": list(shape), "dim": dim,
               "goal_pct": GOALS.get(label.split(" ")[0] if label not in GOALS else label)}
        nbytes = case_bytes(op, dtype, shape, dim)
        for lib in libs:
            if not has(lib, op):
                continue
            try:
                x = make(lib, hosts[shape], dtype)
                if x is None:
                    continue
                row[lib] = nbytes / timed(lambda: call(lib, op, x, dim)) / 1e9
                del x
            except (AttributeError, TypeError, NotImplementedError, RuntimeError) as e:
                row.setdefault("errors", {})[lib] = f"{type(e).__name__}: {e}"[:200]
        if "ingot" in row:
            rows.append(row)
    props = ingot.cuda.get_device_properties()
    print(f"card: {props['name']}; copy ceiling {ceiling:.0f} GB/s ({', '.join(f'{k} {v:.0f}' for k, v in copy.items())})")
    print(f"{'case':14} {'dtype':9} " + " ".join(f"{n + ' %copy':>12}" for n in libs) + "  goal  ingot GB/s")
    for r in rows:
        cells = " ".join(f"{100 * r[n] / ceiling:11.1f}%" if n in r else f"{'-':>12}" for n in libs)
        slower = " SLOWER THAN TORCH" if "torch" in r and r["ingot"] < r["torch"] else ""
        print(f"{r['case']:14} {r['dtype']:9} {cells}  {r['goal_pct'] or '-':>4}  {r['ingot']:8.0f}{slower}")
    result = {"date": time.strftime("%Y-%m-%d"), "card": props["name"], "host": platform.node(), "n": a.n,
              "side": a.side, "copy_gbs": copy, "ceiling_gbs": ceiling, "rows": rows}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if a.png:
        plot(rows, libs, ceiling, a.png)
    return 0


def plot(rows, names, ceiling, path) -> None:
    labels = [f"{r['case']} {r['dtype']}" for r in rows]
    plot_fraction_of_copy(labels, rows, names, ceiling, path, row_height=0.3, fontsize=6)


if __name__ == "__main__":
    sys.exit(main())
