"""ingot.cuda: CUDA devices, synchronization and memory statistics.

`is_available()` is False, without an exception or a warning, when there is no GPU, no driver, or
the package was built without the CUDA backend. Kernels are compiled at run time by NVRTC, found
in the CUDA toolkit or in the `nvidia-cuda-nvrtc` wheel (`pip install ingot[cuda]`).
"""
from __future__ import annotations

from ingot import _C, _device

_cuda = _C._cuda


def is_available() -> bool:
    return _cuda.is_available()


def device_count() -> int:
    return _cuda.device_count()


def _index(device) -> int:
    if device is None:
        return 0
    if isinstance(device, int):
        return device
    d = _device.device(device)
    if d.type != "cuda":
        raise ValueError(f"expected a cuda device, got {d}")
    return d.index


def synchronize(device=None) -> None:
    """Waits for every kernel and copy ingot enqueued on the device."""
    _cuda.synchronize(_index(device))


def memory_stats(device=None) -> dict:
    """allocated_bytes, peak_allocated_bytes, allocations, total_allocations, reserved_bytes."""
    return _cuda.memory_stats(_index(device))


def memory_allocated(device=None) -> int:
    return memory_stats(device)["allocated_bytes"]


def reset_peak_memory_stats(device=None) -> None:
    _cuda.reset_peak_memory_stats(_index(device))


def empty_cache(device=None) -> None:
    """Returns cached, unused memory of the device's pool to the driver."""
    _cuda.empty_cache(_index(device))


def get_device_properties(device=None) -> dict:
    return _cuda.device_properties(_index(device))


def get_device_name(device=None) -> str:
    return get_device_properties(device)["name"]


def precompile(arch: str = "sm_90", jobs: int | None = None, op: str = "") -> dict:
    """Compiles every registered kernel module for `arch` into the kernel cache (needs NVRTC, not
    a GPU). Returns modules, from_cache, seconds and failures."""
    import os
    digits = arch[3:] if arch.startswith("sm_") else arch
    return _cuda.precompile(int(digits[:-1]), int(digits[-1]), jobs or os.cpu_count() or 1, op)
