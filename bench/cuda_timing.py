"""The timer, the copy ceiling and the plot every CUDA benchmark in bench/ shares."""
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


def copy_bandwidth(n_bytes: int) -> dict:
    """Device-to-device copy bandwidth (read + write, GB/s) of n_bytes: ingot's clone and, when
    PyTorch is importable, its copy_; the benchmarks take the larger as their ceiling."""
    out = {}
    src = ingot.empty(n_bytes // 4, device="cuda")
    out["ingot clone"] = 2 * n_bytes / timed(lambda: src.clone()) / 1e9
    if torch is not None:
        t = torch.empty(n_bytes // 4, device="cuda")
        d = torch.empty_like(t)
        out["torch copy_"] = 2 * n_bytes / timed(lambda: d.copy_(t)) / 1e9
    return out


def plot_fraction_of_copy(labels, rows, names, ceiling, path, row_height=0.3, fontsize=6) -> None:
    """A horizontal bar per row and library (`rows[i][name]` in GB/s) as % of the copy ceiling;
    skipped quietly without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(8, max(4, len(rows) * row_height)))
    h = 0.8 / len(names)
    for k, n in enumerate(names):
        ax.barh([i + k * h for i in range(len(rows))], [100 * r.get(n, 0) / ceiling for r in rows], h, label=n)
    ax.set_yticks([i + 0.4 for i in range(len(rows))], labels, fontsize=fontsize)
    ax.axvline(100, color="k", lw=0.5)
    ax.set_xlabel("% of device-to-device copy bandwidth")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=130)
