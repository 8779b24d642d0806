"""ingot.compile_shader: CUDA C++ kernels compiled at run time, on CUDA (NVRTC) or on the CPU
(the host C++ compiler, threads run as fibers). See docs/custom-kernels.md."""
from ingot import _C


class ShaderLibrary:
    """The kernels of one compiled source: ``lib.name(*args, threads=..., group_size=...)``.

    ``threads`` is the TOTAL number of threads per dim (1 to 3 ints), not the number of groups;
    ``group_size`` is the number of threads per group (default 256 along x). A template kernel is
    reached with ``lib.kernel("name<float>")``."""

    def __init__(self, lib):
        self._lib = lib
        self._kernels = {}

    @property
    def device(self):
        return self._lib.device

    def kernel_names(self):
        return list(self._lib.kernel_names())

    def kernel(self, name):
        k = self._kernels.get(name)
        if k is None:
            k = self._kernels[name] = self._lib.kernel(name)
        return k

    def __getattr__(self, name):
        if name.startswith("__") or name not in self._lib.kernel_names():
            raise AttributeError(f"the shader defines no kernel '{name}' "
                                 f"(it defines: {', '.join(self._lib.kernel_names()) or 'none'})")
        return self.kernel(name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._lib.kernel_names()))

    def __repr__(self):
        return f"ShaderLibrary(device={self.device}, kernels={self.kernel_names()})"


def compile_shader(source, device=None, *, options=(), name="shader.cu"):
    """Compiles ``source`` (CUDA C++) for ``device`` (None: CUDA when available, else the CPU).

    ``options`` are extra compiler flags (``-DNAME=VALUE``); ``name`` is the file name compile
    errors refer to. Raises CompileError with the compiler's log."""
    return ShaderLibrary(_C._compile_shader(source, device, list(options), name))
