"""ingot.device: where a tensor lives ("cpu", "cuda:1").

Like dtypes, devices are plain Python objects, one per (type, index), owned for the life of the
process: another library holding one at interpreter exit is not a nanobind instance that nanobind
would report as leaked. The extension converts them through _C._register_device."""
from __future__ import annotations

from ingot import _C


class device:
    """A device: `device("cpu")`, `device("cuda:1")`, or another device (returned as is)."""

    __slots__ = ("_code", "_type", "_index")
    _interned: dict = {}

    def __new__(cls, spec):
        if isinstance(spec, device):
            return spec
        if not isinstance(spec, str):
            raise TypeError(f"device: expected a string such as 'cpu' or 'cuda:0', got {type(spec).__name__}")
        code, name, index = _C._parse_device(spec)  # ValueError naming the spec
        return cls._of(code, name, index)

    @classmethod
    def _of(cls, code: int, name: str, index: int) -> device:
        d = cls._interned.get((code, index))
        if d is None:
            d = object.__new__(cls)
            d._code, d._type, d._index = code, name, index
            cls._interned[(code, index)] = d
        return d

    type = property(lambda self: self._type)
    index = property(lambda self: self._index)

    def __str__(self):
        return "cpu" if self._type == "cpu" else f"{self._type}:{self._index}"

    def __repr__(self):
        return f"device(type='{self._type}', index={self._index})"

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                return self is device(other)
            except ValueError:
                return False
        return self is other

    def __hash__(self):
        return self._code * 256 + self._index


_C._register_device(device, device._of)
