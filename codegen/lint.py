"""Dispatch lint: `python -m codegen.lint ops/ops.yaml [--root DIR]`.

Checks ops.yaml against itself and against what src/native/ and kernels/ register; prints one
`file:line: error: ...` per finding and exits 1 when there is any.
"""
import argparse
import os
import sys

from . import sources
from .emit import shared_kernel_name, stub_name
from .errors import SourceError, SourceErrors
from .model import BACKENDS, COMPOSITE, NO_INPLACE_ITERATORS, NativeFunction, delegate_of, load_ops
from .schema import Kind


def _backend_set(f: NativeFunction, fns) -> frozenset:
    owner = delegate_of(f, fns) if f.structured_delegate else f
    return frozenset(owner.dispatch_map()) if owner else frozenset()


def _groups(fns):
    groups: dict[str, list[NativeFunction]] = {}
    for f in fns:
        groups.setdefault(f.schema.base_name, []).append(f)
    return groups


def check_backend_sets(fns) -> list[SourceError]:
    """Every overload of an op runs on the same backends (migrations move all overloads)."""
    errors = []
    for name, group in _groups(fns).items():
        ref = group[0]
        want = _backend_set(ref, fns)
        for f in group[1:]:
            got = _backend_set(f, fns)
            if got != want:
                errors.append(f.error(f"{f.schema.full_name} runs on {{{', '.join(sorted(got))}}} but its sibling "
                                      f"{ref.schema.full_name} (line {ref.line}) runs on {{{', '.join(sorted(want))}}}"))
    return errors


def check_single_path(fns) -> list[SourceError]:
    """A structured op's backends share its stub; no backend-specific kernel beside it."""
    errors = []
    for f in fns:
        shared = shared_kernel_name(f)
        if not f.structured or shared not in {d.name for d in f.dispatch}:
            continue
        for d in f.dispatch:
            if d.name != shared:
                errors.append(SourceError(f.path, d.line, f"{f.schema.full_name}: backend-specific kernel "
                                          f"'{', '.join(d.keys)}: {d.name}' beside the shared stub '{shared}'; "
                                          f"register the backend's kernel into {stub_name(f)} instead"))
    return errors


def _family_key(f: NativeFunction):
    return tuple(sorted((a.name, a.type.base, a.type.is_list) for a in f.schema.non_out_arguments()))


def check_structured_families(fns) -> list[SourceError]:
    """Each argument set of a structured op has its functional, in-place and out overloads."""
    errors = []
    for s in (f for f in fns if f.structured):
        families: dict[tuple, list[NativeFunction]] = {}
        for f in [s] + [g for g in fns if g.structured_delegate == s.schema.full_name]:
            families.setdefault(_family_key(f), []).append(f)
        for members in families.values():
            kinds = {m.schema.kind for m in members}
            args = ", ".join(f"{a.type.base}{'[]' if a.type.is_list else ''} {a.name}"
                             for a in members[0].schema.non_out_arguments())
            # An in-place form writes into self, so a family whose self is a Scalar has none.
            self_args = members[0].schema.non_out_arguments()[:1]
            needs_inplace = bool(self_args) and self_args[0].type.is_tensor and s.iterator not in NO_INPLACE_ITERATORS
            for kind in Kind:
                if kind not in kinds and (kind is not Kind.INPLACE or needs_inplace):
                    errors.append(members[0].error(f"structured op {s.schema.full_name}: the overloads taking "
                                                   f"({args}) have no {kind.value} overload", "func"))
    return errors


def check_providers(fns, provided: sources.Provided, root: str) -> list[SourceError]:
    """Every dispatch name is provided by a stub registration or a src/native function."""
    errors = []
    for f in fns:
        for d in f.dispatch:
            if f.structured and d.name == shared_kernel_name(f):
                if stub_name(f) not in provided.stubs:
                    errors.append(SourceError(f.path, d.line, f"{f.schema.full_name}: dispatch '{d.name}' for "
                                              f"{', '.join(d.keys)} has no REGISTER_DISPATCH({stub_name(f)}, ...) in "
                                              f"{os.path.join(root, 'src', 'native')}"))
            elif d.name not in provided.functions:
                what = "composite function" if COMPOSITE in d.keys else "backend kernel function"
                errors.append(SourceError(f.path, d.line, f"{f.schema.full_name}: dispatch '{d.name}' names a "
                                          f"{what} that src/native does not define"))
    return errors


# Kernels that Tensor methods in src/core run directly (copy_, fill_), declared by no ops.yaml op.
CORE_KERNELS = {"copy"}


def _declared_kernel(name: str, ops: set) -> bool:
    """An op's own kernel, or a variant its stub picks by argument, named <op>_<variant> (gelu_tanh)."""
    return name in ops or any(name.startswith(op + "_") and name[len(op) + 1:].isidentifier() for op in ops)


def check_kernels_declared(fns, provided: sources.Provided) -> list[SourceError]:
    """Every kernel registered in kernels/ belongs to an op declared in ops.yaml (or to src/core)."""
    ops = {f.schema.base_name for f in fns} | CORE_KERNELS
    return [SourceError(loc.path, loc.line, f"kernel '{name}' is registered but ops.yaml declares no op '{name}'")
            for name, loc in provided.kernels if not _declared_kernel(name, ops)]


def lint(yaml_path: str, root: str | None = None) -> list[SourceError]:
    try:
        fns = load_ops(yaml_path)
    except SourceErrors as e:
        return e.errors
    root = root or sources.find_root(yaml_path)
    provided = sources.scan(root)
    return (check_backend_sets(fns) + check_single_path(fns) + check_structured_families(fns)
            + check_providers(fns, provided, root) + check_kernels_declared(fns, provided))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Checks ops.yaml against src/native/ and kernels/.")
    p.add_argument("ops_yaml")
    p.add_argument("--root", help="repository root holding src/native/ and kernels/ (default: found from ops_yaml)")
    a = p.parse_args(argv)
    errors = lint(a.ops_yaml, a.root)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"{len(errors)} dispatch lint error(s)", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
