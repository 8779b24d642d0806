"""CUDA elementwise throughput beside PyTorch and CuPy, as a fraction of a device-to-device copy
measured in the same run (DESIGN.md §8), plus per-op host overhead.

    python bench/cuda_elementwise.py [--json out.json] [--png out.png] [--n 67108864]
                                     [--overhead-bin build/release/bench/ingot_bench_cuda_overhead]

Bandwidth counts the fewest bytes an op must move: every input read once, the output written
once (a broadcast row or a scalar counts its own size). Times are medians of CUDA-event-timed
runs after a warm-up (PyTorch's events; all three libraries run on the legacy default stream).
"""
from __future__ import annotations

import argparse
import json
import platform
import subprocess
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

DTYPES = ["float32", "float16", "bfloat16"]
OPS = ["add", "mul", "atan2", "exp", "tanh", "where"]
LAYOUTS = ["contiguous", "row-broadcast", "scalar", "int32+float32", "transposed"]


class Lib:
    """One library's way to make inputs and run an op on them."""

    def __init__(self, name, mod):
        self.name, self.mod = name, mod

    def make(self, host: np.ndarray, dtype: str):
        if self.name == "ingot":
            return ingot.asarray(host, device="cuda").astype(getattr(ingot, dtype))
        if self.name == "torch":
            return torch.from_numpy(host).cuda().to(getattr(torch, dtype))
        if dtype == "bfloat16":
            return None  # CuPy has no bfloat16
        return cupy.asarray(host).astype(dtype)

    def op(self, name, *args):
        m = self.mod
        if name == "where":
            cond, a, b = args
            return m.where(cond, a, b)
        if name in ("exp", "tanh"):
            return getattr(m, name)(args[0])
        if name == "atan2":
            return (m.arctan2 if self.name == "cupy" else m.atan2)(*args)
        return getattr(m, {"add": "add", "mul": "multiply" if self.name == "cupy" else "mul"}[name])(*args)

    def transpose(self, x):
        return x.T


_HOST = {}


def host_arrays(n: int, rng):
    """Random inputs made once per run (drawing 2^26 normals per case would dominate the run)."""
    if n not in _HOST:
        rows = 8192
        a = rng.standard_normal((rows, n // rows), dtype=np.float32)
        b = rng.standard_normal((rows, n // rows), dtype=np.float32)
        _HOST[n] = (a, b, np.ascontiguousarray(a.T), (b * 100).astype(np.int32))
    return _HOST[n]


def case_inputs(lib: Lib, layout: str, dtype: str, n: int, rng):
    a_h, b_h, a_t, b_i = host_arrays(n, rng)
    rows = a_h.shape[0]
    a = lib.make(a_h, dtype)
    if a is None:
        return None
    if layout == "contiguous":
        return a, lib.make(b_h, dtype), 3
    if layout == "row-broadcast":
        return a, lib.make(b_h[0], dtype), 2 + 1 / rows
    if layout == "scalar":  # a Python number; PyTorch's binary float ops want a (CPU 0-d) tensor
        return a, (torch.tensor(2.0) if lib.name == "torch" else 2.0), 2
    if layout == "int32+float32":
        return lib.make(b_i, "int32"), a, 3
    if layout == "transposed":
        return lib.transpose(lib.make(a_t, dtype)), lib.make(b_h, dtype), 3
    raise ValueError(layout)


def run_case(lib: Lib, op: str, layout: str, dtype: str, n: int, rng):
    inputs = case_inputs(lib, layout, dtype, n, rng)
    if inputs is None:
        return None
    a, b, traffic = inputs
    elem = 2 if dtype in ("float16", "bfloat16") else 4
    if op in ("exp", "tanh"):
        if layout != "contiguous":
            return None
        fn, nbytes = (lambda: lib.op(op, a)), 2 * n * elem
    elif op == "where":
        if layout not in ("contiguous", "scalar"):
            return None
        cond = lib.op("add", a, 0.0) > 0
        other = b
        fn, nbytes = (lambda: lib.op("where", cond, a, other)), n * (1 + elem * traffic)
    else:
        if layout == "int32+float32":
            nbytes = n * (4 + elem + elem)
        else:
            nbytes = n * elem * traffic
        fn = lambda: lib.op(op, a, b)  # noqa: E731
    seconds = timed(fn)
    return nbytes / seconds / 1e9


def python_overhead(libs) -> dict:
    res = {}
    for lib in libs:
        if lib.name == "ingot":
            a, b, c = (ingot.ones(16, device="cuda") for _ in range(3))
            fn = lambda: ingot.add(a, b, out=c)  # noqa: E731
        elif lib.name == "torch":
            a, b, c = (torch.ones(16, device="cuda") for _ in range(3))
            fn = lambda: torch.add(a, b, out=c)  # noqa: E731
        else:
            a, b, c = (cupy.ones(16, dtype=np.float32) for _ in range(3))
            fn = lambda: cupy.add(a, b, out=c)  # noqa: E731
        for _ in range(1000):
            fn()
        ingot.cuda.synchronize()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(20000):
                fn()
            best = min(best, (time.perf_counter() - t0) / 20000)
            ingot.cuda.synchronize()
        res[lib.name] = best * 1e6
    return res


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--n", type=int, default=1 << 26)
    p.add_argument("--json")
    p.add_argument("--png")
    p.add_argument("--overhead-bin", help="the C++ overhead benchmark (bare cuLaunchKernel vs ingot)")
    a = p.parse_args()
    if not ingot.cuda.is_available():
        raise SystemExit("no CUDA device")
    libs = [Lib("ingot", ingot)] + ([Lib("torch", torch)] if torch else []) + ([Lib("cupy", cupy)] if cupy else [])
    rng = np.random.default_rng(0)
    copy = copy_bandwidth(1 << 30)
    ceiling = max(copy.values())
    rows = []
    for dtype in DTYPES:
        for op in OPS:
            for layout in LAYOUTS:
                row = {"dtype": dtype, "op": op, "layout": layout}
                for lib in libs:
                    try:
                        gbs = run_case(lib, op, layout, dtype, a.n, rng)
                    except (AttributeError, TypeError, NotImplementedError) as e:  # op missing there
                        row.setdefault("errors", {})[lib.name] = f"{type(e).__name__}: {e}"[:200]
                        continue
                    if gbs is not None:
                        row[lib.name] = gbs
                if "ingot" in row:
                    rows.append(row)
    overhead = python_overhead(libs)
    cpp = None
    if a.overhead_bin:
        cpp = json.loads(subprocess.run([a.overhead_bin], check=True, capture_output=True, text=True).stdout)
    props = ingot.cuda.get_device_properties()
    print(f"card: {props['name']}; copy ceiling {ceiling:.0f} GB/s ({', '.join(f'{k} {v:.0f}' for k, v in copy.items())})")
    names = [lib.name for lib in libs]
    print(f"{'dtype':9} {'op':6} {'layout':14} " + " ".join(f"{n + ' %copy':>12}" for n in names) + "  ingot GB/s")
    for r in rows:
        cells = " ".join(f"{100 * r[n] / ceiling:11.1f}%" if n in r else f"{'-':>12}" for n in names)
        print(f"{r['dtype']:9} {r['op']:6} {r['layout']:14} {cells}  {r['ingot']:8.0f}")
    print("python add(out=) on 16 elements, us/call: " + ", ".join(f"{k} {v:.2f}" for k, v in overhead.items()))
    if cpp:
        print("C++: " + ", ".join(f"{k} {v:.2f}" for k, v in cpp.items()))
    result = {"date": time.strftime("%Y-%m-%d"), "card": props["name"], "host": platform.node(), "n": a.n,
              "copy_gbs": copy, "ceiling_gbs": ceiling, "rows": rows, "python_overhead_us": overhead, "cpp": cpp}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if a.png:
        plot(rows, names, ceiling, a.png)


def plot(rows, names, ceiling, path) -> None:
    labels = [f"{r['dtype']} {r['op']} {r['layout']}" for r in rows]
    plot_fraction_of_copy(labels, rows, names, ceiling, path, row_height=0.18, fontsize=5)


if __name__ == "__main__":
    main()
