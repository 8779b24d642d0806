"""Runs the CPU elementwise benchmark and reports each case as a fraction of the copy bandwidth
measured in the same run (DESIGN.md §8). Prints a table and writes bench/results/cpu_elementwise.json.

usage: python bench/run_cpu.py [--build build/release] [--out bench/results/cpu_elementwise.json]
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build/release")
    p.add_argument("--out", default="bench/results/cpu_elementwise.json")
    p.add_argument("--repetitions", type=int, default=3)
    args = p.parse_args()
    exe = os.path.join(args.build, "bench", "ingot_bench_cpu_elementwise")
    if not os.path.exists(exe):
        print(f"run_cpu.py: {exe} not found; build with -DINGOT_BUILD_BENCHMARKS=ON", file=sys.stderr)
        return 2
    raw = subprocess.run(
        [exe, "--benchmark_format=json", f"--benchmark_repetitions={args.repetitions}",
         "--benchmark_report_aggregates_only=true"],
        check=True, capture_output=True, text=True).stdout
    report = json.loads(raw)
    medians = {b["run_name"].removeprefix("BM_").removesuffix("/real_time"): b for b in report["benchmarks"]
               if b.get("aggregate_name") == "median"}
    copy_bw = medians["copy_float32"]["bytes_per_second"]
    rows = []
    for name, b in medians.items():
        rows.append({"case": name, "ms": b["real_time"], "GB/s": b["bytes_per_second"] / 1e9,
                     "fraction_of_copy": b["bytes_per_second"] / copy_bw})
    print(f"{'case':32} {'ms':>8} {'GB/s':>8} {'of copy':>8}")
    for r in rows:
        print(f"{r['case']:32} {r['ms']:8.2f} {r['GB/s']:8.2f} {r['fraction_of_copy']:8.0%}")
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"date": datetime.date.today().isoformat(), "machine": platform.processor() or platform.machine(),
                   "cpus": os.cpu_count(), "context": report["context"], "results": rows}, f, indent=2)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
