"""Installs every generated op as an ingot._C._OpFunction: the same signature and behaviour as
the generated Python function (ingot/_generated_ops.py), which stays its slow path, without a
Python frame per call. A tiny op's whole budget is a few hundred nanoseconds; a Python-level
wrapper with keyword-only defaults costs about a quarter of it."""
from __future__ import annotations

import inspect

from ingot import _C, _generated_ops

_REQUIRED = object()  # marks a parameter without a default
_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


def fast(fn):
    """The _OpFunction for generated function `fn`, or `fn` itself when it has no single nanobind
    entry point taking its parameters in order (the method wrappers that reorder arguments)."""
    entry = getattr(_generated_ops, "_k_" + fn.__name__, None)
    if entry is None or fn.__name__.startswith("_"):
        return fn
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    if any(p.kind not in _KINDS for p in params):
        return fn
    names = tuple(p.name for p in params)
    defaults = tuple(_REQUIRED if p.default is p.empty else p.default for p in params)
    npositional = sum(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
    op = _C._op_function(entry, fn, names, defaults, _REQUIRED, npositional)
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        setattr(op, attr, getattr(fn, attr))
    op.__signature__ = sig
    return op


def install() -> None:
    """Replaces the functions in _generated_ops.FUNCTIONS and METHODS (one object for both)."""
    made = {}
    for table in (_generated_ops.FUNCTIONS, _generated_ops.METHODS):
        for name, fn in table.items():
            if id(fn) not in made:
                made[id(fn)] = fast(fn)
            table[name] = made[id(fn)]
