"""SASS report for an op's CUDA kernels, on a machine without a GPU.

    .venv/bin/python scripts/sass_report.py sum [--match bfloat16] [--arch sm_90] [--loops N] [--dump]

Compiles the op's modules with build/release/tools/ingot-precompile (NVRTC, the kernel sources
built into that libingot) into a scratch cache, pulls the cubins out of the cache files, and for each
kernel whose name matches --match prints its registers, stack and shared memory (cuobjdump) and its
loops that load global memory (nvdisasm): instructions per iteration, the loads, and the most
frequent opcodes. Instructions per element of a hot loop against the budget of the bandwidth
(bench/RESULTS.md) say whether a kernel can reach memory speed before a device call is spent on it.
Static counts: a loop body holding a rarely taken path counts it too (--dump prints the body).

nvdisasm and cuobjdump come from PyPI (nvidia-cuda-nvdisasm, nvidia-cuda-cuobjdump); the script
installs them into the running interpreter's environment when they are missing.
"""
from __future__ import annotations

import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cuda_tool(name: str) -> str:
    """Path of nvdisasm/cuobjdump: on PATH, in the CUDA toolkit, or from the PyPI wheel."""
    for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/local/cuda/bin"]:
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)

    def from_wheel() -> str | None:
        import site
        for base in site.getsitepackages() + [site.getusersitepackages()]:
            hits = glob.glob(os.path.join(base, "nvidia", "cu*", "bin", name))
            if hits:
                return hits[0]
        return None

    path = from_wheel()
    if path is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", f"nvidia-cuda-{name}"], check=True)
        path = from_wheel()
    if path is None:
        sys.exit(f"sass_report: cannot find or install {name}")
    os.chmod(path, 0o755)
    return path


def cubins(cache_dir: str, out_dir: str) -> list[str]:
    """The ELF images inside ingot's kernel cache files (a header, then the cubin)."""
    paths = []
    for f in sorted(glob.glob(os.path.join(cache_dir, "*.bin"))):
        data = open(f, "rb").read()
        at = data.find(b"\x7fELF")
        if at >= 0:
            path = os.path.join(out_dir, os.path.basename(f) + ".cubin")
            open(path, "wb").write(data[at:])
            paths.append(path)
    return paths


def resources(cuobjdump: str, cubin: str) -> dict[str, str]:
    text = subprocess.run([cuobjdump, "--dump-resource-usage", cubin], capture_output=True, text=True).stdout
    found = {}
    for name, res in re.findall(r"Function (\S+):\s*\n\s*(REG:.*)", text):
        found[name] = " ".join(res.split()[:4])
    return found


def kernels(nvdisasm: str, cubin: str) -> dict[str, list[str]]:
    """Kernel name -> its instructions, with '.L_x_N' label lines kept in place."""
    text = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True).stdout
    found: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^\.text\.(\S+):", line)
        if m:
            current = m.group(1)
            found[current] = []
            continue
        if current is None:
            continue
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            found[current].append(m.group(1))
            continue
        m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
        if m:
            found[current].append(m.group(1))
    return found


def loops(body: list[str]) -> list[tuple[int, list[str]]]:
    """Innermost-first list of (start, instructions) for backward branches whose body loads global memory."""
    labels, ins = {}, []
    for x in body:
        if x.startswith(".L_x_"):
            labels[x] = len(ins)
        else:
            ins.append(x)
    found = []
    for i, x in enumerate(ins):
        m = re.search(r"BRA\s.*`\((\.L_x_\d+)\)", x)
        if m and m.group(1) in labels and labels[m.group(1)] <= i:
            start = labels[m.group(1)]
            loop = ins[start:i + 1]
            if any(re.search(r"\bLDG\b|LDG\.", y) for y in loop):
                found.append((start, loop))
    return sorted(found, key=lambda t: len(t[1]))


def opcode(x: str) -> str:
    x = re.sub(r"^@!?U?P[0-9T]\s+", "", x)
    return x.split()[0].split(".")[0]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("op", help="the op whose modules ingot-precompile builds (e.g. sum, softmax)")
    p.add_argument("--match", default="", help="regex on kernel names (default: all of the op's)")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--loops", type=int, default=4, help="loops shown per kernel, smallest first")
    p.add_argument("--dump", action="store_true", help="print the instructions of each loop shown")
    p.add_argument("--precompile", default=os.path.join(ROOT, "build", "release", "tools", "ingot-precompile"))
    a = p.parse_args()
    if not os.access(a.precompile, os.X_OK):
        sys.exit(f"sass_report: {a.precompile} is missing: build the release preset (scripts/test) first")
    nvdisasm, cuobjdump = cuda_tool("nvdisasm"), cuda_tool("cuobjdump")
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        env = dict(os.environ, INGOT_CACHE_DIR=cache)
        r = subprocess.run([a.precompile, "--arch", a.arch, "--jobs", str(os.cpu_count() or 1), "--op", a.op],
                           env=env, capture_output=True, text=True)
        print((r.stdout + r.stderr).strip().splitlines()[-1] if (r.stdout + r.stderr).strip() else "")
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            return 1
        shown = 0
        for cubin in cubins(cache, tmp):
            res = resources(cuobjdump, cubin)
            for name, body in sorted(kernels(nvdisasm, cubin).items()):
                if not re.search(a.match, name):
                    continue
                shown += 1
                print(f"\n{name}: {res.get(name, '?')}")
                for start, loop in loops(body)[:a.loops]:
                    loads = [y for y in loop if "LDG" in y]
                    counts = collections.Counter(opcode(y) for y in loop)
                    top = ", ".join(f"{k} {v}" for k, v in counts.most_common(8))
                    print(f"  loop at {start}: {len(loop)} instructions, {len(loads)} global loads; {top}")
                    if a.dump:
                        print("    " + "\n    ".join(loop))
        if shown == 0:
            print(f"no kernel of {a.op} matches {a.match!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
