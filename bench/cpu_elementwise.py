"""CPU elementwise throughput beside NumPy (and PyTorch CPU when importable), one process, the same
buffers (NumPy reads ingot's memory through DLPack; bfloat16 through NumPy's array protocol, as
ml_dtypes arrays), each case as a fraction of a copy measured in the same run (DESIGN.md §8).

    python bench/cpu_elementwise.py [--threads 1,2] [--rows 4096 --cols 4096] [--repeat 7]
                                    [--json out.json] [--png out.png]

ingot runs each case once per thread count in --threads (ingot.set_num_threads); NumPy's loops
are single-threaded, so the one-thread ingot column is the like-for-like one. Bandwidth counts
the fewest bytes an op must move: each input read once, the output written once. Times are the
best of --repeat runs (the minimum is the least disturbed by other work on the machine), after a
warm-up call; within a case NumPy (PyTorch) and ingot on the fewest threads take turns run by run,
so a burst of load elsewhere on the machine hits them alike. Ops write into preallocated outputs (out=) where the library allows it. NumPy has no
erf: the NumPy column shows SciPy's (scipy.special.erf) when SciPy is importable.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
import timeit

import numpy as np

import ingot

try:
    import ml_dtypes
except ImportError:  # pragma: no cover
    ml_dtypes = None
try:
    import torch
except ImportError:  # pragma: no cover
    torch = None
try:  # NumPy has no erf: SciPy's stands in for it in the NumPy column when importable
    import scipy.special as scipy_special
except ImportError:  # pragma: no cover
    scipy_special = None

ITEM = {"float32": 4, "float16": 2, "bfloat16": 2, "int32": 4, "bool": 1}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def best_seconds(fn, repeat: int, number: int = 1) -> float:
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


class Buffers:
    """ingot tensors and NumPy (and PyTorch) views of the same memory."""

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        rng = np.random.default_rng(0)
        self.host = {
            "a": rng.standard_normal((rows, cols), dtype=np.float32),
            "b": rng.standard_normal((rows, cols), dtype=np.float32),
            "pos": rng.uniform(0.1, 10.0, (rows, cols)).astype(np.float32),
            "int": rng.integers(-1000, 1000, (rows, cols), dtype=np.int32),
        }
        self.cache = {}

    def get(self, name: str, dtype: str):
        """(ingot tensor, numpy array, torch tensor or None) of host array `name` in `dtype`."""
        key = (name, dtype)
        if key not in self.cache:
            if name == "out":
                t = ingot.empty((self.rows, self.cols), dtype=getattr(ingot, dtype))
            elif name == "cond":
                t = ingot.asarray(self.host["a"] > 0)
            elif name == "row":
                t = ingot.asarray(self.host["b"][0]).astype(getattr(ingot, dtype))
            else:
                t = ingot.asarray(self.host[name]).astype(getattr(ingot, dtype))
            self.cache[key] = (t, self.numpy_view(t), self.torch_view(t))
        return self.cache[key]

    @staticmethod
    def numpy_view(t):
        if str(t.dtype).endswith("bfloat16"):
            if ml_dtypes is None:
                return None
            return np.asarray(t)  # the array protocol shares the memory
        return np.from_dlpack(t)

    @staticmethod
    def torch_view(t):
        if torch is None:
            return None
        try:
            return torch.from_dlpack(t)
        except Exception:  # noqa: BLE001 -- a dtype PyTorch cannot import
            return None


def np_sigmoid(x, out):
    np.negative(x, out=out)
    np.exp(out, out=out)
    out += 1
    np.reciprocal(out, out=out)


def cases(buf: Buffers):
    """(name, dtype, bytes, {library: fn}) for every case."""
    n = buf.rows * buf.cols
    out = []

    def add_case(name, dtype, nbytes, fns):
        out.append((name, dtype, nbytes, {k: v for k, v in fns.items() if v is not None}))

    for dtype in ["float32", "float16", "bfloat16"]:
        e = ITEM[dtype]
        (a, an, at), (b, bn, bt), (o, on, ot) = buf.get("a", dtype), buf.get("b", dtype), buf.get("out", dtype)
        (c, cn, ct) = buf.get("cond", "bool")
        for op in ["add", "mul"]:
            npop = {"add": np.add, "mul": np.multiply}[op]
            tfn = getattr(torch, op) if torch is not None else None
            add_case(f"{op} contiguous", dtype, 3 * n * e, {
                "ingot": lambda op=op, a=a, b=b, o=o: getattr(ingot, op)(a, b, out=o),
                "numpy": None if an is None else (lambda f=npop, an=an, bn=bn, on=on: f(an, bn, out=on)),
                "torch": None if ot is None else (lambda f=tfn, at=at, bt=bt, ot=ot: f(at, bt, out=ot)),
            })
        (r, rn, rt) = buf.get("row", dtype)
        add_case("add row-broadcast", dtype, 2 * n * e, {
            "ingot": lambda a=a, r=r, o=o: ingot.add(a, r, out=o),
            "numpy": None if an is None else (lambda an=an, rn=rn, on=on: np.add(an, rn, out=on)),
            "torch": None if ot is None else (lambda at=at, rt=rt, ot=ot: torch.add(at, rt, out=ot)),
        })
        add_case("add scalar", dtype, 2 * n * e, {
            "ingot": lambda a=a, o=o: ingot.add(a, 2.0, out=o),
            "numpy": None if an is None else (lambda an=an, on=on: np.add(an, an.dtype.type(2.0), out=on)),
            "torch": None if ot is None else (lambda at=at, ot=ot: torch.add(at, 2.0, out=ot)),
        })
        add_case("where contiguous", dtype, n * (1 + 2 * e), {
            "ingot": lambda c=c, a=a, b=b: ingot.where(c, a, b),
            "numpy": None if an is None else (lambda cn=cn, an=an, bn=bn: np.where(cn, an, bn)),
            "torch": None if at is None else (lambda ct=ct, at=at, bt=bt: torch.where(ct, at, bt)),
        })

    (a, an, at), (i, inp, it), (o, on, ot) = buf.get("a", "float32"), buf.get("int", "int32"), buf.get("out", "float32")
    for op in ["add", "mul"]:
        npop = {"add": np.add, "mul": np.multiply}[op]
        add_case(f"{op} int32+float32", "float32", 3 * n * 4, {
            "ingot": lambda op=op: getattr(ingot, op)(i, a, out=o),
            "numpy": lambda f=npop: f(inp, an, out=on),
            "torch": None if torch is None else (lambda op=op: getattr(torch, op)(it, at, out=ot)),
        })
    (p, pn, pt) = buf.get("pos", "float32")
    (b, bn, bt) = buf.get("b", "float32")
    for op in ["exp", "log", "sin", "tanh", "erf", "sigmoid"]:
        x, xn, xt = (p, pn, pt) if op == "log" else (a, an, at)
        np_erf = None if scipy_special is None else scipy_special.erf
        npfn = {"exp": np.exp, "log": np.log, "sin": np.sin, "tanh": np.tanh, "erf": np_erf, "sigmoid": np_sigmoid}[op]
        add_case(op, "float32", 2 * n * 4, {
            "ingot": lambda op=op, x=x: getattr(ingot, op)(x, out=o),
            "numpy": None if npfn is None else (lambda f=npfn, xn=xn: f(xn, out=on)),
            "torch": None if torch is None else (lambda op=op, xt=xt: getattr(torch, op)(xt, out=ot)),
        })
    add_case("atan2", "float32", 3 * n * 4, {
        "ingot": lambda: ingot.atan2(a, b, out=o),
        "numpy": lambda: np.arctan2(an, bn, out=on),
        "torch": None if torch is None else (lambda: torch.atan2(at, bt, out=ot)),
    })
    add_case("add transposed", "float32", 3 * n * 4, {
        "ingot": lambda: ingot.add(a.T, b, out=o),  # square buffers (main() checks)
        "numpy": lambda: np.add(an.T, bn, out=on),
        "torch": None if torch is None else (lambda: torch.add(at.T, bt, out=ot)),
    })
    add_case("copy_ transposed", "float32", 2 * n * 4, {
        "ingot": lambda: o.copy_(a.T),
        "numpy": lambda: np.copyto(on, an.T),
        "torch": None if torch is None else (lambda: ot.copy_(at.T)),
    })
    add_case("contiguous() transposed", "float32", 2 * n * 4, {
        "ingot": lambda: a.T.contiguous(),
        "numpy": lambda: np.ascontiguousarray(an.T),
        "torch": None if torch is None else (lambda: at.T.contiguous()),
    })
    return out


def copy_case(buf: Buffers):
    (a, an, at), (o, on, ot) = buf.get("a", "float32"), buf.get("out", "float32")
    return {"ingot": lambda: o.copy_(a), "numpy": lambda: np.copyto(on, an),
            "torch": None if torch is None else (lambda: ot.copy_(at))}


def small_call_overhead(repeat: int) -> dict:
    """Microseconds per 16-element float32 add(out=) from Python."""
    res = {}
    a, b, c = (ingot.ones(16) for _ in range(3))
    res["ingot"] = best_seconds(lambda: ingot.add(a, b, out=c), repeat, 20000) * 1e6
    an, bn, cn = (np.ones(16, dtype=np.float32) for _ in range(3))
    res["numpy"] = best_seconds(lambda: np.add(an, bn, out=cn), repeat, 20000) * 1e6
    if torch is not None:
        at, bt, ct = (torch.ones(16) for _ in range(3))
        res["torch"] = best_seconds(lambda: torch.add(at, bt, out=ct), repeat, 20000) * 1e6
    return res


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", default=f"1,{os.cpu_count()}")
    p.add_argument("--rows", type=int, default=4096)
    p.add_argument("--cols", type=int, default=4096)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--json")
    p.add_argument("--png")
    a = p.parse_args()
    threads = sorted({int(t) for t in a.threads.split(",")})
    if a.rows != a.cols:
        raise SystemExit("--rows and --cols must be equal (the transposed cases add a.T to b)")
    buf = Buffers(a.rows, a.cols)
    n = a.rows * a.cols
    all_cases = cases(buf)
    libs = ["numpy"] + (["torch"] if torch is not None else [])
    copy_fns = copy_case(buf)

    def interleaved(fns: dict) -> dict:
        """Best seconds per library (ingot: per thread count). The peers and ingot on the fewest
        threads take turns within each repeat, so that load from elsewhere on the machine hits them
        alike; ingot's other thread counts then run their repeats back to back (switching the count
        every call would add waking OpenMP's sleeping threads to each of them)."""
        best = {}

        def timed(lib, t):
            s = min(timeit.repeat(fns[lib], number=1, repeat=1))
            best[(lib, t)] = min(best.get((lib, t), s), s)

        turns = [(lib, None) for lib in libs if fns.get(lib)] + [("ingot", threads[0])]
        ingot.set_num_threads(threads[0])
        for lib, _ in turns:  # warm-up
            fns[lib]()
        for _ in range(a.repeat):
            for lib, t in turns:
                timed(lib, t)
        for t in threads[1:]:
            ingot.set_num_threads(t)
            fns["ingot"]()
            for _ in range(a.repeat):
                timed("ingot", t)
        return best

    copy_best = interleaved(copy_fns)
    peer_copy = {lib: 2 * n * 4 / copy_best[(lib, None)] / 1e9 for lib in libs if (lib, None) in copy_best}
    ingot_copy = {t: 2 * n * 4 / copy_best[("ingot", t)] / 1e9 for t in threads}
    rows = []
    for name, dtype, nbytes, fns in all_cases:
        best = interleaved(fns)
        row = {"case": name, "dtype": dtype, "bytes": nbytes,
               "ingot_gbs": {t: nbytes / best[("ingot", t)] / 1e9 for t in threads}}
        for lib in libs:
            if (lib, None) in best:
                row[f"{lib}_gbs"] = nbytes / best[(lib, None)] / 1e9
        rows.append(row)
    overhead = small_call_overhead(a.repeat)
    ceiling = max(ingot_copy.values())
    print(f"CPU: {cpu_model()} ({os.cpu_count()} logical CPUs); {a.rows}x{a.cols} elements; best of {a.repeat}; "
          f"vector math: {ingot.config()['cpu_vector_math']}")
    print("copy GB/s: " + ", ".join([f"ingot {t}T {v:.1f}" for t, v in ingot_copy.items()] +
                                    [f"{k} {v:.1f}" for k, v in peer_copy.items()]))
    head = f"{'case':26} {'dtype':9}" + "".join(f"{f'ingot {t}T':>10}" for t in threads) + "".join(
        f"{lib:>9}" for lib in libs) + "".join(f"{f'{t}T/numpy':>10}" for t in threads)
    print("GB/s, and ingot's speed relative to NumPy's (>1: ingot faster)")
    print(head)
    for r in rows:
        cells = "".join(f"{r['ingot_gbs'][t]:10.1f}" for t in threads)
        cells += "".join(f"{r[f'{lib}_gbs']:9.1f}" if f"{lib}_gbs" in r else f"{'-':>9}" for lib in libs)
        cells += "".join(f"{r['ingot_gbs'][t] / r['numpy_gbs']:10.2f}" if "numpy_gbs" in r else f"{'-':>10}"
                         for t in threads)
        print(f"{r['case']:26} {r['dtype']:9}{cells}")
    print("as a fraction of ingot's copy with the same thread count:")
    for r in rows:
        print(f"  {r['case']:26} {r['dtype']:9}" + "".join(
            f"{f'{t}T':>4} {100 * r['ingot_gbs'][t] / ingot_copy[t]:5.0f}%" for t in threads))
    print("16-element float32 add(out=) from Python, us/call: " +
          ", ".join(f"{k} {v:.2f}" for k, v in overhead.items()))
    result = {"date": time.strftime("%Y-%m-%d"), "cpu": cpu_model(), "logical_cpus": os.cpu_count(),
              "cpu_vector_math": ingot.config()["cpu_vector_math"],
              "host": platform.node(), "rows": a.rows, "cols": a.cols, "repeat": a.repeat,
              "numpy": np.__version__, "torch": getattr(torch, "__version__", None), "threads": threads,
              "copy_gbs": {"ingot": {str(k): v for k, v in ingot_copy.items()}, **peer_copy},
              "rows_gbs": [{**r, "ingot_gbs": {str(k): v for k, v in r["ingot_gbs"].items()}} for r in rows],
              "small_add_us": overhead}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if a.png:
        plot(rows, threads, libs, ceiling, a.png)


def plot(rows, threads, libs, ceiling, path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not importable: no plot written")
        return
    series = [(f"ingot {t}T", [r["ingot_gbs"][t] for r in rows]) for t in threads]
    series += [(lib, [r.get(f"{lib}_gbs", 0) for r in rows]) for lib in libs]
    labels = [f"{r['case']} {r['dtype']}" for r in rows]
    fig, ax = plt.subplots(figsize=(8, max(4, len(rows) * 0.28)))
    h = 0.8 / len(series)
    for k, (name, vals) in enumerate(series):
        ax.barh([i + k * h for i in range(len(rows))], [100 * v / ceiling for v in vals], h, label=name)
    ax.set_yticks([i + 0.4 for i in range(len(rows))], labels, fontsize=6)
    ax.invert_yaxis()
    ax.axvline(100, color="k", lw=0.5)
    ax.set_xlabel("% of ingot's best copy bandwidth in the same run")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=130)


if __name__ == "__main__":
    main()
