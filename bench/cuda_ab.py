"""A/B tuning runs of bench/cuda_reductions.py: each setting in its own process with its own
environment (kernel variants picked by -D macros through INGOT_NVRTC_EXTRA_OPTIONS, host choices by
INGOT_CUDA_* variables; docs/cuda.md), so one build on the GPU machine compares several variants.

    python bench/cuda_ab.py settings.txt [--timeout 60]

settings.txt holds one run per line, "ENV=VALUE;ENV=VALUE|case,case"; an empty environment part is
the default build, a case list ending in "+torch" times PyTorch beside ingot, '#' lines are
skipped. Example:

    INGOT_NVRTC_EXTRA_OPTIONS=-DINGOT_SOFTMAX_CHAIN=0|softmax,log_softmax
    |softmax,log_softmax+torch

Prints each run's rows (% of the copy bandwidth measured in that process, as the bench does).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("settings")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    a = p.parse_args()
    with open(a.settings) as f:
        lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    t0 = time.time()
    for line in lines:
        envs, _, only = line.partition("|")
        env = dict(os.environ)
        for assignment in filter(None, envs.split(";")):
            key, _, value = assignment.partition("=")
            env[key] = value
        libs = "ingot,torch" if only.endswith("+torch") else "ingot"
        only = only.removesuffix("+torch")
        print(f"-- [{time.time() - t0:.0f} s] {envs or 'default'} | {only}", flush=True)
        cmd = [sys.executable, os.path.join(HERE, "cuda_reductions.py"), "--only", only, "--libs", libs]
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            print("   timed out")
            continue
        for row in r.stdout.splitlines():
            if not row.startswith(("case ", "card")):
                print("  ", row)
        if r.returncode:
            print("   exit status", r.returncode, r.stderr[-600:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
