"""ingot.compile_shader: the CPU path everywhere; the same kernels on CUDA, compared with the CPU,
where a GPU is present (scripts/gpu-check runs them there)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ingot

GPU = ingot.cuda.is_available()
DEVICES = ["cpu"] + (["cuda"] if GPU else [])

SCALE = """
__global__ void scale(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
"""

BLOCK_SUM = """
__global__ void block_sum(const float* x, float* partial, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
"""

HISTOGRAM = """
__global__ void histogram(const int* values, int* bins, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[values[i] % nbins], 1);
}
"""

TEMPLATE = """
template <typename T>
__global__ void tscale(const T* x, T* y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
"""


def on(device, array):
    return ingot.asarray(array, device=device)


@pytest.mark.parametrize("device", DEVICES)
def test_scale_matches_numpy(device):
    lib = ingot.compile_shader(SCALE, device=device)
    x = np.linspace(-3, 3, 1280, dtype=np.float32)
    y = on(device, np.zeros_like(x))
    lib.scale(on(device, x), y, 2.5, x.size, threads=[x.size], group_size=[256])
    np.testing.assert_array_equal(y.numpy(), np.float32(2.5) * x)


@pytest.mark.parametrize("device", DEVICES)
def test_barrier_reduction_matches_numpy(device):
    lib = ingot.compile_shader(BLOCK_SUM, device=device)
    x = (np.arange(256 * 6 + 3) % 11 - 5).astype(np.float32)
    groups = -(-x.size // 256)
    partial = on(device, np.full(groups, -1, np.float32))
    lib.block_sum(on(device, x), partial, x.size, threads=groups * 256, group_size=256)
    want = np.add.reduceat(x, np.arange(0, x.size, 256))
    np.testing.assert_array_equal(partial.numpy(), want)


@pytest.mark.parametrize("device", DEVICES)
def test_atomic_histogram_matches_numpy(device):
    lib = ingot.compile_shader(HISTOGRAM, device=device)
    v = (np.arange(10000) * 7919 % 1009).astype(np.int32)
    bins = on(device, np.zeros(13, np.int32))
    lib.histogram(on(device, v), bins, v.size, 13, threads=v.size, group_size=128)
    np.testing.assert_array_equal(bins.numpy(), np.bincount(v % 13, minlength=13))


@pytest.mark.parametrize("device", DEVICES)
def test_template_instantiation_by_name(device):
    lib = ingot.compile_shader(TEMPLATE, device=device)
    x = np.arange(5, dtype=np.float64)
    y = on(device, np.zeros(5))
    lib.kernel("tscale<double>")(on(device, x), y, 0.25, 5, threads=5)
    np.testing.assert_array_equal(y.numpy(), x * 0.25)


@pytest.mark.skipif(not GPU, reason="no CUDA device")
def test_cuda_results_equal_cpu_results():
    x = np.random.default_rng(0).standard_normal(3000).astype(np.float32)
    outs = []
    for device in ("cpu", "cuda"):
        lib = ingot.compile_shader(BLOCK_SUM, device=device)
        partial = on(device, np.zeros(12, np.float32))
        lib.block_sum(on(device, x), partial, x.size, threads=12 * 256, group_size=256)
        outs.append(partial.numpy())
    np.testing.assert_array_equal(outs[0], outs[1])


def test_default_device_is_cuda_when_available():
    lib = ingot.compile_shader(SCALE)
    assert lib.device == ingot.device("cuda" if GPU else "cpu")


def test_dir_lists_the_kernels_and_kernels_expose_limits():
    lib = ingot.compile_shader(SCALE + HISTOGRAM, device="cpu")
    assert {"scale", "histogram"} <= set(dir(lib))
    k = lib.scale
    assert k.max_threads_per_group == 1024
    assert k.num_registers == 0 and k.static_shared_bytes == 0
    assert k.params == [("x", "const float*"), ("y", "float*"), ("a", "float"), ("n", "int")]
    with pytest.raises(AttributeError, match="defines: scale, histogram"):
        lib.nope


def test_wrong_dtype_is_a_type_error_naming_the_parameter():
    lib = ingot.compile_shader(HISTOGRAM, device="cpu")
    f = ingot.zeros(4)
    with pytest.raises(TypeError, match="'values'.*int32.*float32"):
        lib.histogram(f, ingot.zeros(4, dtype=ingot.int32), 4, 2, threads=4)


def test_argument_count_and_launch_errors():
    lib = ingot.compile_shader(SCALE, device="cpu")
    x, y = ingot.ones(4), ingot.zeros(4)
    with pytest.raises(TypeError, match="takes 4 arguments, got 3"):
        lib.scale(x, y, 1.0, threads=4)
    with pytest.raises(ValueError, match="limit of 1024"):
        lib.scale(x, y, 1.0, 4, threads=4, group_size=2048)
    with pytest.raises(ValueError, match="positive"):
        lib.scale(x, y, 1.0, 4, threads=0)
    with pytest.raises(TypeError, match="threads="):
        lib.scale(x, y, 1.0, 4)
    with pytest.raises(OverflowError, match="'n'"):
        lib.scale(x, y, 1.0, 2**40, threads=4)
    with pytest.raises(OverflowError):
        lib.scale(x, y, 1.0, 2**70, threads=4)
    with pytest.raises(OverflowError, match="'a'"):
        lib.scale(x, y, 1e300, 4, threads=4)
    np.testing.assert_array_equal(y.numpy(), np.zeros(4, np.float32))  # nothing ran


@pytest.mark.skipif(not GPU, reason="no CUDA device")
def test_tensor_on_the_wrong_device_is_an_error():
    lib = ingot.compile_shader(SCALE, device="cuda")
    with pytest.raises(ValueError, match="the shader was compiled for cuda"):
        lib.scale(ingot.ones(4), ingot.zeros(4, device="cuda"), 1.0, 4, threads=4)


def test_cpu_tensor_on_cpu_library_and_storage_offset():
    lib = ingot.compile_shader(SCALE, device="cpu")
    x = ingot.asarray(np.arange(8, dtype=np.float32))
    y = ingot.zeros(8)
    lib.scale(x[4:], y[2:], 2.0, 4, threads=4)
    np.testing.assert_array_equal(y.numpy(), [0, 0, 8, 10, 12, 14, 0, 0])


def test_compile_error_reports_the_users_line():
    src = "// 1\n// 2\n__global__ void k(float* x) {\n  x[0] = not_declared;\n}\n"
    with pytest.raises(ingot.CompileError, match=r"shader\.cu:4:.*not_declared"):
        ingot.compile_shader(src, device="cpu")


@pytest.mark.parametrize("device", DEVICES)
def test_two_sources_with_one_kernel_name_keep_their_code(device):
    a = ingot.zeros(3, dtype=ingot.int32, device=device)
    b = ingot.zeros(3, dtype=ingot.int32, device=device)
    ingot.compile_shader("__global__ void f(int* x) { x[threadIdx.x] = 7; }", device=device).f(a, threads=3)
    ingot.compile_shader("__global__ void f(int* x) { x[threadIdx.x] = 9; }", device=device).f(b, threads=3)
    assert a.numpy().tolist() == [7, 7, 7] and b.numpy().tolist() == [9, 9, 9]


@pytest.mark.parametrize("device", DEVICES)
def test_second_process_loads_the_compiled_object_from_disk(tmp_path, device):
    script = textwrap.dedent(f"""
        import ingot
        from ingot import _C
        x = ingot.zeros(1, dtype=ingot.int32, device="{device}")
        before = _C._kernel_cache_stats()
        lib = ingot.compile_shader("__global__ void g(int* x) {{ x[0] = 41 + 1; }}", device="{device}")
        again = ingot.compile_shader("__global__ void g(int* x) {{ x[0] = 41 + 1; }}", device="{device}")
        after = _C._kernel_cache_stats()
        lib.g(x, threads=1)
        assert x.numpy()[0] == 42
        print(*(after[k] - before[k] for k in ("misses", "disk_hits", "disk_writes")))
    """)
    env = dict(os.environ, INGOT_CACHE_DIR=str(tmp_path))
    env.pop("INGOT_DISABLE_DISK_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout.split() == ["1", "0", "1"]  # compiled once (not twice) and written
    assert runs[1].stdout.split() == ["0", "1", "0"]  # read back, never compiled


def test_tensor_lists_become_pointer_arrays():
    lib = ingot.compile_shader("""
    __global__ void sum_list(const float* const* xs, int count, float* out, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      float s = 0;
      for (int k = 0; k < count; ++k) s += xs[k][i];
      out[i] = s;
    }""", device="cpu")
    a = ingot.asarray(np.array([1, 2, 3], np.float32))
    out = ingot.zeros(3)
    lib.sum_list([a, a, a], 3, out, 3, threads=3)
    np.testing.assert_array_equal(out.numpy(), [3, 6, 9])


def test_the_worked_example_in_the_docs_runs():
    doc = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "custom-kernels.md")
    with open(doc, encoding="utf-8") as f:
        blocks = f.read().split("```python\n")[1:]
    example = max((b.split("```")[0] for b in blocks), key=len)
    assert "row_sum" in example
    exec(compile(example, "custom-kernels.md", "exec"), {})


SCALARS = """
__global__ void scalars(float* out, signed char a, unsigned char b, bool c, long long d, double e,
                        unsigned int f) {
  out[0] = a; out[1] = b; out[2] = c; out[3] = (float)d; out[4] = (float)e; out[5] = (float)f;
}
"""


@pytest.mark.parametrize("device", DEVICES)
def test_numbers_convert_to_the_declared_scalar_types(device):
    lib = ingot.compile_shader(SCALARS, device=device)
    out = ingot.zeros(6, device=device)
    lib.scalars(out, -5, 200, True, -(2**40), 0.5, 2**32 - 1, threads=1)
    np.testing.assert_array_equal(out.numpy(), np.array([-5, 200, 1, -(2**40), 0.5, 2**32 - 1], np.float32))


@pytest.mark.parametrize("value,index,match", [
    (128, 1, "'a'"), (-1, 2, "'b'"), (2, 3, "'c'"), (-1, 6, "'f'"), (2**32, 6, "'f'")])
def test_numbers_that_do_not_fit_the_declared_type_are_overflow_errors(value, index, match):
    lib = ingot.compile_shader(SCALARS, device="cpu")
    args = [ingot.zeros(6), 1, 1, True, 1, 1.0, 1]
    args[index] = value
    with pytest.raises(OverflowError, match=match):
        lib.scalars(*args, threads=1)


def test_three_dim_threads_cover_every_index_once():
    lib = ingot.compile_shader("""
    __global__ void idx(int* out, int nx, int ny, int nz) {
      int x = blockIdx.x * blockDim.x + threadIdx.x;
      int y = blockIdx.y * blockDim.y + threadIdx.y;
      int z = blockIdx.z * blockDim.z + threadIdx.z;
      if (x < nx && y < ny && z < nz) atomicAdd(&out[(z * ny + y) * nx + x], x + 10 * y + 100 * z);
    }""", device="cpu")
    nx, ny, nz = 5, 7, 3
    out = ingot.zeros(nx * ny * nz, dtype=ingot.int32)
    lib.idx(out, nx, ny, nz, threads=[nx, ny, nz], group_size=[2, 4, 2])
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    np.testing.assert_array_equal(out.numpy(), (x + 10 * y + 100 * z).ravel())
