"""python -m ingot.precompile [--arch sm_90] [--jobs N] [--op NAME]

Compiles every registered CUDA kernel into ingot's kernel cache (INGOT_CACHE_DIR), so the first
use of each op loads it from disk instead of compiling. Needs NVRTC, not a GPU.
"""
from __future__ import annotations

import argparse
import sys

from ingot import cuda


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m ingot.precompile", description=__doc__.splitlines()[2])
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--jobs", type=int)
    p.add_argument("--op", default="")
    a = p.parse_args(argv)
    try:
        r = cuda.precompile(a.arch, a.jobs, a.op)
    except (ValueError, RuntimeError) as e:  # an unknown op, no NVRTC
        print(f"ingot.precompile: {e}", file=sys.stderr)
        return 2
    for failure in r["failures"]:
        print("FAILED", failure, file=sys.stderr)
    print(f"ingot.precompile: {a.arch}: {r['modules']} modules ({r['from_cache']} already cached), "
          f"{len(r['failures'])} failed, {r['seconds']:.1f} s")
    return 1 if r["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
