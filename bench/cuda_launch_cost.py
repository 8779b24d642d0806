"""Where a short reduction's time goes, beside PyTorch: full sums of 2^28 elements timed per call
between CUDA events (as bench/cuda_reductions.py does) and ten calls queued back to back (the host's
time per call hidden behind the GPU's), then the host time per call of ops on 1024 elements (no
synchronization inside the loop). Needs PyTorch (its events and its ops are the reference).

    python bench/cuda_launch_cost.py
"""
import statistics
import time

import numpy as np
import torch

import ingot

def ev(fn, reps=20, queued=1):
    for _ in range(3): fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(queued): fn()
        e.record(); e.synchronize()
        ts.append(s.elapsed_time(e) / 1e3 / queued)
    return statistics.median(ts)

rng = np.random.default_rng(0)
host = rng.standard_normal(1 << 28, dtype=np.float32)
for dt in ("float32", "float16", "bfloat16"):
    xi = ingot.asarray(host, device="cuda").astype(getattr(ingot, dt))
    xt = torch.from_numpy(host).cuda().to(getattr(torch, dt))
    nb = xt.numel() * xt.element_size()
    for name, fn in (("ingot", lambda: ingot.sum(xi)), ("torch", lambda: torch.sum(xt))):
        one, q = ev(fn), ev(fn, reps=10, queued=10)
        print(f"sum {dt:9} {name}: per call {one*1e6:7.1f} us ({nb/one/1e9:5.0f} GB/s), queued {q*1e6:7.1f} us ({nb/q/1e9:5.0f} GB/s)")
    del xi, xt
small_i = ingot.ones((1024,), device="cuda"); small_t = torch.ones(1024, device="cuda")
for name, fn in (("ingot.sum", lambda: ingot.sum(small_i)), ("torch.sum", lambda: torch.sum(small_t)),
                 ("ingot.add", lambda: ingot.add(small_i, small_i)), ("torch.add", lambda: torch.add(small_t, small_t)),
                 ("ingot.softmax", lambda: ingot.softmax(small_i, 0)), ("torch.softmax", lambda: torch.softmax(small_t, 0))):
    for _ in range(100): fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(2000): fn()
    t1 = time.perf_counter(); torch.cuda.synchronize()
    print(f"host per call {name:14} {(t1-t0)/2000*1e6:6.2f} us")
