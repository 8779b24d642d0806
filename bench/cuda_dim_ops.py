"""CUDA dim ops (softmax, log_softmax, cumsum, cummax) beside PyTorch, as a fraction of a
device-to-device copy of the same number of bytes measured in the same run (DESIGN.md §8).

    python bench/cuda_dim_ops.py [--json out.json]

Bytes counted: the input read once and the output written once (cummax: values and int64
indices). Times are medians of timed runs after a warm-up (CUDA events when PyTorch is present,
else synchronize + wall clock). Goals (issue #12): softmax/log_softmax over rows >= 90% of copy,
cumsum >= 80%, no case slower than PyTorch. The suite "red" owns (bench/cuda_reductions.py) covers
these ops too when it is present."""
from __future__ import annotations

import argparse
import json

import numpy as np

import ingot
from cuda_timing import timed

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

CASES = [  # (op, shape, dim, dtype)
    ("softmax", (32768, 1024), 1, "float32"),
    ("softmax", (8192, 4096), 1, "float32"),
    ("softmax", (1024, 32768), 1, "float32"),
    ("softmax", (65536, 128), 1, "float32"),
    ("softmax", (8192, 4096), 1, "bfloat16"),
    ("softmax", (8192, 4096), 1, "float16"),
    ("softmax", (4096, 8192), 0, "float32"),
    ("log_softmax", (8192, 4096), 1, "float32"),
    ("cumsum", (8192, 4096), 1, "float32"),
    ("cumsum", (1 << 26,), 0, "float32"),
    ("cumsum", (16, 1 << 22), 1, "float32"),
    ("cumsum", (4096, 8192), 0, "float32"),
    ("cumsum", (8192, 4096), 1, "bfloat16"),
    ("cumsum", (8192, 4096), 1, "int32"),
    ("cummax", (8192, 4096), 1, "float32"),
]


def nbytes(op, shape, dtype):
    n = int(np.prod(shape))
    size = {"float32": 4, "bfloat16": 2, "float16": 2, "int32": 4}[dtype]
    out = {"cumsum": 8 if dtype == "int32" else size, "cummax": size + 8}.get(op, size)
    return n * (size + out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    src = ingot.asarray(rng.standard_normal(1 << 28).astype(np.float32), device="cuda")
    dst = ingot.empty((1 << 28,), device="cuda")
    copy_s = timed(lambda: dst.copy_(src))
    copy_bw = 2 * 4 * (1 << 28) / copy_s
    print(f"copy: {copy_bw / 1e12:.2f} TB/s (read + write)")
    print(f"{'op':12} {'shape':>14} dim {'dtype':9} {'ingot us':>9} {'of copy':>8} {'torch us':>9} {'vs torch':>9}")
    rows = []
    for op, shape, dim, dtype in CASES:
        host = (rng.standard_normal(shape) * 3).astype(np.float32)
        if dtype == "int32":
            host = rng.integers(-50, 50, shape).astype(np.int32)
        x = ingot.asarray(host, device="cuda")
        if dtype in ("bfloat16", "float16"):
            x = x.astype(getattr(ingot, dtype))
        f = getattr(ingot, op)
        t = timed(lambda: f(x, dim))
        row = dict(op=op, shape=list(shape), dim=dim, dtype=dtype, ingot_s=t,
                   of_copy=nbytes(op, shape, dtype) / t / copy_bw)
        line = f"{op:12} {'x'.join(map(str, shape)):>14} {dim:3} {dtype:9} {t * 1e6:9.1f} {row['of_copy']:8.2f}"
        if torch is not None:
            tx = torch.from_numpy(host).cuda().to(getattr(torch, dtype))
            tf = getattr(torch, op)
            tt = timed(lambda: tf(tx, dim))
            row.update(torch_s=tt, vs_torch=tt / t)
            line += f" {tt * 1e6:9.1f} {tt / t:9.2f}"
        print(line, flush=True)
        rows.append(row)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"copy_bytes_per_s": copy_bw, "cases": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
