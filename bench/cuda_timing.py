"""The timer every CUDA benchmark in bench/ shares."""
from __future__ import annotations

import statistics
import time

import ingot

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def timed(fn, reps: int = 20) -> float:
    """Median seconds per call, timed with CUDA events on the default stream (PyTorch's events
    when PyTorch is importable, else wall time around a synchronized loop). Three warm-up calls
    come first, so a kernel's first-use compile is not timed."""
    for _ in range(3):
        fn()
    if torch is not None and torch.cuda.is_available():
        times = []
        for _ in range(reps):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / 1e3)
        return statistics.median(times)
    ingot.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    ingot.cuda.synchronize()
    return (time.perf_counter() - t0) / reps
