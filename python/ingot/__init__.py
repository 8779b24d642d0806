"""ingot: a tensor-operator runtime with native kernels on the CPU and on NVIDIA GPUs (CUDA).

Tensors interoperate with NumPy and any DLPack producer without copying. Every op declared in
ops/ops.yaml is available as a function here and as a Tensor method, generated at build time.
"""
# ml_dtypes (optional, NumPy's bfloat16) is imported on first use (_dtype.ml_dtypes). It may load
# after _C: libingot and _C hide the symbols of a statically linked libstdc++ (python/CMakeLists.txt,
# --exclude-libs), whose GNU_UNIQUE ones otherwise broke ml_dtypes loaded later on the GPU machine.
import os as _os
import sys as _sys


def _nvrtc_search_path() -> None:
    """Lets the CUDA backend find NVRTC in the nvidia-cuda-nvrtc wheel (pip install ingot[cuda]),
    which PyTorch and CuPy users already have: site-packages directories holding nvidia/ are added
    to INGOT_NVRTC_SEARCH_PATH. NVRTC itself is loaded on the first CUDA kernel compile."""
    dirs = [p for p in _sys.path if p and _os.path.isdir(_os.path.join(p, "nvidia"))]
    if dirs:
        old = _os.environ.get("INGOT_NVRTC_SEARCH_PATH")
        _os.environ["INGOT_NVRTC_SEARCH_PATH"] = _os.pathsep.join(([old] if old else []) + dirs)


_nvrtc_search_path()
from ingot import _C  # noqa: E402
from ingot._C import AcceleratorError, CompileError, Tensor, can_cast, get_num_threads, promote_types, set_num_threads
from ingot._dtype import BY_NAME as _DTYPES
from ingot._device import device
from ingot._dtype import dtype
from ingot._dtype import finfo, iinfo
from ingot._creation import (arange, asarray, empty, empty_like, eye, from_dlpack, from_numpy, full, full_like,
                             linspace, manual_seed, ones, ones_like, rand, randint, randn, tensor, zeros,
                             zeros_like)
from ingot import _fast_ops, _generated_ops, _tensor, cuda
from ingot._shader import compile_shader
from ingot._join import cat, concat, concatenate, stack

__version__ = "0.1.0"


def config() -> dict:
    """What this build uses on this machine, for bug reports and for reading benchmark numbers:
    the CPU vector math ("sleef-avx512f+libmvec", ..., or "scalar (built without SLEEF)", in which
    case transcendentals run one element at a time), the CPU memory policy ("assisted" or "plain":
    docs/cpu.md), the CPU thread count, and CUDA's state."""
    return {"version": __version__, "cpu_vector_math": _C._cpu_vector_math(),
            "cpu_memory_policy": _C._cpu_memory_policy(), "num_threads": get_num_threads(),
            "cuda_available": cuda.is_available(), "cuda_device_count": cuda.device_count()}


globals().update(_DTYPES)
_fast_ops.install()
_tensor.install()
# Generated ops; the hand-written NumPy-style API above keeps its name if both exist.
for _name, _fn in _generated_ops.FUNCTIONS.items():
    globals().setdefault(_name, _fn)
globals().pop("_name", None)
globals().pop("_fn", None)
from ingot import _reductions  # noqa: E402
_reductions.install(globals(), Tensor, _generated_ops.FUNCTIONS, _generated_ops.METHODS)
from ingot import _compat  # noqa: E402
_compat.install(globals(), Tensor, _generated_ops.FUNCTIONS, _generated_ops.METHODS)

__all__ = (["Tensor", "dtype", "device", "AcceleratorError", "CompileError", "compile_shader", "finfo", "iinfo",
            "promote_types", "can_cast", "asarray", "from_dlpack", "empty", "zeros", "ones", "full",
            "arange", "linspace", "eye", "empty_like", "zeros_like", "ones_like", "full_like", "rand",
            "randn", "randint", "manual_seed", "set_num_threads", "get_num_threads", "config", "cat", "concat",
            "concatenate", "stack", "allclose", "equal", "tensor", "from_numpy", "tril", "triu", "swapaxes"]
           + list(_compat._METHOD_FUNCTIONS) + list(_DTYPES) + list(_generated_ops.FUNCTIONS))
