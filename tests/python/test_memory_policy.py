"""The CPU memory policy (src/backend/cpu/memory_policy.h): ingot.config() reports it, INGOT_CPU_MEMORY
overrides it, and the loops it changes (vector math with or without streaming stores and prefetch,
max/argmax rows with or without prefetch, rows and long rows read as several streams) give
bit-identical results under both settings."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ingot

# Run under each policy in its own process (the policy is read once). It prints one line of hex per
# result: large outputs (over the 8 MiB streaming threshold, one starting off a cache line) of
# vector-math ops, and max/argmax of rows with NaNs, ties and signed zeros at chunk edges.
SCRIPT = r"""
import hashlib, sys
import numpy as np
import ingot
ingot.set_num_threads(int(sys.argv[1]))
print(ingot.config()["cpu_memory_policy"])
rng = np.random.default_rng(7)
n = (9 << 20) // 4 + 37
x = rng.standard_normal(n).astype(np.float32)
y = rng.uniform(0.1, 4.0, n).astype(np.float32)
x[[5, 4099, n - 3]] = [np.inf, -np.inf, np.nan]
xs, ys = ingot.asarray(x), ingot.asarray(y)
out = ingot.empty((n + 1,), dtype=ingot.float32)[1:]  # 4 bytes past a cache line
def digest(t):
    return hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]
for name in ("exp", "tanh", "log", "sin"):
    getattr(ingot, name)(ys if name == "log" else xs, out=out)
    print(name, digest(out))
print("atan2", digest(ingot.atan2(xs, ys)))
print("exp_f64", digest(ingot.exp(ingot.asarray(x[: n // 2].astype(np.float64)))))
print("exp_bf16", digest(ingot.exp(xs.to(ingot.bfloat16)).to(ingot.float32)))
for dtype in ("float32", "float64", "int32", "int8"):
    v = (rng.standard_normal(70001) * 50).astype(dtype)
    rows = v[: 70000].reshape(7, 10000).copy()
    if dtype.startswith("float"):
        v[[600, 40000]] = [0.0, -0.0]
        rows[3, 9000] = np.nan
        rows[5, [100, 5000]] = np.float32(1e4)
    t, r = ingot.asarray(v), ingot.asarray(rows)
    print(dtype, digest(ingot.amax(t)), digest(ingot.argmin(t)), digest(ingot.amin(r, 1)), digest(ingot.argmax(r, 1)))
# Sums: a long row is read in parts, rows of 1Ki-64Ki elements four at a time and an outer dim 8
# rows a pass under the plain policy; each must keep the bits of the assisted policy's one stream.
for dtype in ("float32", "float64", "float16", "int32"):
    v = (rng.standard_normal((3 << 18) + 37) * 10).astype(dtype)
    rows = (rng.standard_normal((9, 5000)) * 10).astype(dtype)
    t, r = ingot.asarray(v), ingot.asarray(rows)
    o = ingot.asarray((rng.standard_normal((131, 301)) * 10).astype(dtype))  # over dim 0: 8 rows a pass or 1
    got = [digest(ingot.sum(t)), digest(ingot.sum(r, 1)), digest(ingot.sum(t[: 1 << 16])), digest(ingot.sum(o, 0)),
           digest(ingot.amax(o, 0))]
    if dtype[0] == "f":
        got += [digest(ingot.var(o, 0)), digest(ingot.mean(o, 0))]
        w = v.copy()
        w[[7, 70000]] = np.nan
        got += [digest(ingot.mean(t)), digest(ingot.var(r, 1)), digest(ingot.logsumexp(r, 1)),
                digest(ingot.nansum(ingot.asarray(w))), digest(ingot.vector_norm(t))]
    print("sums", dtype, *got)
"""


def run(policy=None, threads=1):
    env = {k: v for k, v in os.environ.items() if k != "INGOT_CPU_MEMORY"}
    if policy is not None:
        env["INGOT_CPU_MEMORY"] = policy
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(threads)], env=env, capture_output=True, text=True,
                         check=True).stdout.split("\n", 1)
    return out[0], out[1]


def test_config_reports_the_policy_and_the_environment_overrides_it():
    assert ingot.config()["cpu_memory_policy"] in ("assisted", "plain")
    code = "import ingot; print(ingot.config()['cpu_memory_policy'])"
    for want in ("assisted", "plain"):
        got = subprocess.run([sys.executable, "-c", code], env={**os.environ, "INGOT_CPU_MEMORY": want},
                             capture_output=True, text=True, check=True).stdout.strip()
        assert got == want


@pytest.mark.parametrize("threads", [1, 2])
def test_both_policies_give_the_same_bits(threads):
    assisted, a = run("assisted", threads)
    plain, p = run("plain", threads)
    assert (assisted, plain) == ("assisted", "plain")
    assert a == p


def test_results_under_the_plain_policy_match_numpy():
    # The digests above only compare the two policies with each other; this checks one of them
    # against NumPy on the same kind of data (max/argmax exactly, exp within float32 rounding).
    env = {**os.environ, "INGOT_CPU_MEMORY": "plain"}
    code = r"""
import numpy as np, ingot
rng = np.random.default_rng(3)
x = rng.standard_normal((9 << 20) // 4 + 5).astype(np.float32)
e = ingot.exp(ingot.asarray(x)).numpy()
ref = np.exp(x.astype(np.float64))
assert np.all(np.abs(e - ref) <= 2 * np.spacing(np.abs(ref).astype(np.float32))), "exp"
x[123457] = np.nan
assert np.isnan(ingot.amax(ingot.asarray(x)).item()) and ingot.argmax(ingot.asarray(x)).item() == 123457
x[123457] = 0
assert ingot.amax(ingot.asarray(x)).item() == x.max() and ingot.argmin(ingot.asarray(x)).item() == x.argmin()
print("ok")
"""
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "ok"
