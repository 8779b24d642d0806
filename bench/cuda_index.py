"""CUDA index-op throughput beside PyTorch, as a fraction of a device-to-device copy measured in
the same run (DESIGN.md §8).

    python bench/cuda_index.py [--json out.json] [--rows 1048576] [--cols 256]

The workload of issue #10: rows × cols float32 source, `rows` random row indices (int64). Bytes
counted: the output written once, the rows read once, the index read once (an index expanded
along a dim is read once per row). Times are medians of CUDA-event-timed runs after a warm-up.
"""
from __future__ import annotations

import argparse
import json
import platform

import numpy as np

import ingot
from cuda_timing import timed

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def cases(rows: int, cols: int, rng):
    src_h = rng.standard_normal((rows, cols), dtype=np.float32)
    idx_h = rng.integers(0, rows, rows, dtype=np.int64)
    row_bytes = rows * cols * 4
    moved = 2 * row_bytes + rows * 8
    x = ingot.asarray(src_h, device="cuda")
    i = ingot.asarray(idx_h, device="cuda")
    ig = i.reshape(rows, 1).broadcast_to((rows, cols))
    i32 = i.astype(ingot.int32)
    out = {
        "index_select": (lambda: ingot.index_select(x, 0, i), moved),
        "index_select_int32": (lambda: ingot.index_select(x, 0, i32), moved - rows * 4),
        "gather_rows": (lambda: ingot.gather(x, 0, ig), moved),
        "getitem": (lambda: x[i], moved),
        "copy": (lambda: x.clone(), 2 * row_bytes),
    }
    theirs = {}
    if torch is not None:
        xt = torch.from_numpy(src_h).cuda()
        it = torch.from_numpy(idx_h).cuda()
        igt = it.view(rows, 1).expand(rows, cols)
        it32 = it.to(torch.int32)
        theirs = {
            "index_select": (lambda: torch.index_select(xt, 0, it), moved),
            "index_select_int32": (lambda: torch.index_select(xt, 0, it32), moved - rows * 4),
            "gather_rows": (lambda: torch.gather(xt, 0, igt), moved),
            "getitem": (lambda: xt[it], moved),
            "copy": (lambda: xt.clone(), 2 * row_bytes),
        }
    return out, theirs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json")
    p.add_argument("--rows", type=int, default=1 << 20)
    p.add_argument("--cols", type=int, default=256)
    a = p.parse_args()
    if not ingot.cuda.is_available():
        raise SystemExit("no CUDA device")
    rng = np.random.default_rng(0)
    ours, theirs = cases(a.rows, a.cols, rng)
    results = {"rows": a.rows, "cols": a.cols, "host": platform.node(), "ops": {}}
    for lib, table in (("ingot", ours), ("torch", theirs)):
        if not table:
            continue
        copy_s = timed(table["copy"][0])
        copy_bw = table["copy"][1] / copy_s
        for name, (fn, nbytes) in table.items():
            s = timed(fn)
            bw = nbytes / s
            entry = results["ops"].setdefault(name, {})
            entry[lib] = {"seconds": s, "GBps": bw / 1e9, "fraction_of_copy": bw / copy_bw}
            print(f"{lib:6s} {name:20s} {s * 1e3:8.3f} ms {bw / 1e9:8.1f} GB/s {bw / copy_bw:6.1%} of copy")
    ingot.cuda.synchronize()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
