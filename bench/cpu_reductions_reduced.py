"""float16 and bfloat16 reductions, softmax and scans on the CPU against float32 on the same values,
one thread: a float16 reduction reads half float32's bytes and accumulates in float32, so float32's
time is its ceiling to reach. Beside them NumPy (float16 and float32) and, where it is installed,
PyTorch (float16, bfloat16, float32), each on the same buffers.

    python bench/cpu_reductions_reduced.py [--side 2048] [--reps 11] [--json out.json]

Each time is the best of --reps calls after one warm-up. Columns: milliseconds per call; `vs f32`
is ingot float32's time over ingot's time for the dtype (1.0: as fast as float32). Runs with
INGOT_NUM_THREADS=1 and one PyTorch thread.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import platform
import time

os.environ["INGOT_NUM_THREADS"] = "1"

import numpy as np  # noqa: E402

import ingot  # noqa: E402

try:
    import torch  # noqa: E402

    torch.set_num_threads(1)
except ImportError:  # the dev box has none
    torch = None


def best_ms(fn, reps: int) -> float:
    fn()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


# (label, ingot call, NumPy call, PyTorch call) on a 2-d array.
OPS = [
    ("sum all", lambda t: ingot.sum(t), lambda a: np.sum(a), lambda x: x.sum()),
    ("sum dim 1", lambda t: ingot.sum(t, 1), lambda a: np.sum(a, 1), lambda x: x.sum(1)),
    ("sum dim 0", lambda t: ingot.sum(t, 0), lambda a: np.sum(a, 0), lambda x: x.sum(0)),
    ("mean dim 1", lambda t: ingot.mean(t, 1), lambda a: np.mean(a, 1), lambda x: x.mean(1)),
    ("var dim 1", lambda t: ingot.var(t, 1), lambda a: np.var(a, 1, ddof=1), lambda x: x.var(1)),
    ("amax dim 1", lambda t: ingot.amax(t, 1), lambda a: np.max(a, 1), lambda x: x.amax(1)),
    ("amax dim 0", lambda t: ingot.amax(t, 0), lambda a: np.max(a, 0), lambda x: x.amax(0)),
    ("amax all", lambda t: ingot.amax(t), lambda a: np.max(a), lambda x: x.amax()),
    ("argmax all", lambda t: ingot.argmax(t), lambda a: np.argmax(a), lambda x: x.argmax()),
    ("argmax dim 1", lambda t: ingot.argmax(t, 1), lambda a: np.argmax(a, 1), lambda x: x.argmax(1)),
    ("argmax dim 0", lambda t: ingot.argmax(t, 0), lambda a: np.argmax(a, 0), lambda x: x.argmax(0)),
    ("norm 2 dim 1", lambda t: ingot.vector_norm(t, 2, 1), lambda a: np.linalg.norm(a, axis=1),
     lambda x: torch.linalg.vector_norm(x, 2, 1)),
    ("logsumexp dim 1", lambda t: ingot.logsumexp(t, 1), None, lambda x: torch.logsumexp(x, 1)),
    ("softmax dim 1", lambda t: ingot.softmax(t, 1), None, lambda x: torch.softmax(x, 1)),
    ("log_softmax dim 1", lambda t: ingot.log_softmax(t, 1), None, lambda x: torch.log_softmax(x, 1)),
    ("softmax dim 0", lambda t: ingot.softmax(t, 0), None, lambda x: torch.softmax(x, 0)),
    ("log_softmax dim 0", lambda t: ingot.log_softmax(t, 0), None, lambda x: torch.log_softmax(x, 0)),
    ("cumsum dim 1", lambda t: ingot.cumsum(t, 1), lambda a: np.cumsum(a, 1), lambda x: x.cumsum(1)),
    ("cumsum dim 0", lambda t: ingot.cumsum(t, 0), lambda a: np.cumsum(a, 0), lambda x: x.cumsum(0)),
    ("cummax dim 1", lambda t: ingot.cummax(t, 1), lambda a: np.maximum.accumulate(a, 1), lambda x: x.cummax(1)),
    ("cummax dim 0", lambda t: ingot.cummax(t, 0), lambda a: np.maximum.accumulate(a, 0), lambda x: x.cummax(0)),
]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--side", type=int, default=2048)
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--json", type=pathlib.Path)
    args = p.parse_args()
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal((args.side, args.side), dtype=np.float32)
    f16 = f32.astype(np.float16)
    f32_of_f16 = f16.astype(np.float32)  # float32 on the float16 values
    tensors = {"float32": ingot.asarray(f32_of_f16), "float16": ingot.asarray(f16),
               "bfloat16": ingot.asarray(f32_of_f16).astype(ingot.bfloat16)}
    torch_tensors = {}
    if torch is not None:
        base = torch.from_numpy(f32_of_f16)
        torch_tensors = {"float32": base, "float16": base.half(), "bfloat16": base.bfloat16()}
    print(f"CPU: {platform.processor() or platform.machine()}, one thread; {args.side}x{args.side}; "
          f"PyTorch: {torch.__version__ if torch is not None else 'not installed'}")
    head = f"{'case':18s} {'f32':>7s} {'f16':>7s} {'vs f32':>6s} {'bf16':>7s} {'vs f32':>6s} {'np f32':>7s} {'np f16':>7s}"
    if torch is not None:
        head += f" {'pt f32':>7s} {'pt f16':>7s} {'pt bf16':>7s}"
    print(head)
    rows = []
    for label, ing, ref, pt in OPS:
        r = {"case": label}
        for dt, t in tensors.items():
            r[f"ingot_{dt}_ms"] = best_ms(lambda: ing(t), args.reps)
        if ref is not None:
            r["numpy_float32_ms"] = best_ms(lambda: ref(f32_of_f16), args.reps)
            r["numpy_float16_ms"] = best_ms(lambda: ref(f16), max(3, args.reps // 3))
        for dt, x in torch_tensors.items():
            r[f"torch_{dt}_ms"] = best_ms(lambda: pt(x), args.reps)
        f = r["ingot_float32_ms"]
        line = (f"{label:18s} {f:7.3f} {r['ingot_float16_ms']:7.3f} {f / r['ingot_float16_ms']:6.2f} "
                f"{r['ingot_bfloat16_ms']:7.3f} {f / r['ingot_bfloat16_ms']:6.2f} "
                f"{r.get('numpy_float32_ms', float('nan')):7.3f} {r.get('numpy_float16_ms', float('nan')):7.3f}")
        if torch is not None:
            line += "".join(f" {r[f'torch_{dt}_ms']:7.3f}" for dt in ("float32", "float16", "bfloat16"))
        print(line, flush=True)
        rows.append(r)
    if args.json:
        args.json.write_text(json.dumps({"date": datetime.date.today().isoformat(), "side": args.side,
                                         "threads": 1, "config": ingot.config(), "cases": rows}, indent=1) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
