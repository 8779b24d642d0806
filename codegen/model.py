"""ops.yaml entries, validated: every mistake becomes a SourceError at the entry's file:line."""
from dataclasses import dataclass, field

from . import yaml_loader
from .errors import SourceError, SourceErrors
from . import cpp
from .schema import Kind, Schema, parse_schema

BACKENDS = ("CPU", "CUDA")  # same order as ingot::DeviceType
COMPOSITE = "CompositeImplicit"
DISPATCH_KEYS = BACKENDS + (COMPOSITE,)
VARIANTS = ("function", "method")
# iterator: value -> (builder, number of tensor inputs). A TensorIteratorBase method is called as
# iter.build_x(out, inputs...); a "native::" builder (src/native/meta.h, for configurations the
# iterator does not offer) as native::build_x(iter, out, every non-out argument...).
ITERATORS = {
    "binary": ("build_binary_op", 2),
    "binary_float": ("build_binary_float_op", 2),
    "comparison": ("build_comparison_op", 2),
    "unary": ("build_unary_op", 1),
    "unary_float": ("build_unary_float_op", 1),
    "ternary": ("build_ternary_op", 3),
    "where": ("build_where_op", 3),
    "unary_predicate": ("native::build_unary_predicate_op", 1),
    "unary_scalar_operands": ("native::build_unary_scalar_operands_op", 1),
    "div": ("native::build_div_op", 2),
    # Reductions (src/native/meta_reduce.h): a reduction iterator over self; no in-place form.
    "reduce": ("native::build_reduce_op", 1),
}
# Iterators whose ops have no in-place overload (the result has another shape than self).
NO_INPLACE_ITERATORS = ("reduce",)
KEYS = ("func", "variants", "structured", "structured_inherits", "structured_delegate", "iterator", "dispatch", "doc")


@dataclass
class DispatchLine:
    keys: tuple[str, ...]
    name: str
    line: int


@dataclass
class NativeFunction:
    schema: Schema
    path: str
    line: int
    variants: tuple[str, ...] = ("function",)
    structured: bool = False
    structured_delegate: str | None = None
    iterator: str | None = None
    dispatch: list[DispatchLine] = field(default_factory=list)
    doc: str | None = None  # the op's docstring (its functional entry), for the Python bindings
    key_lines: dict = field(default_factory=dict)

    def error(self, message: str, key: str | None = None) -> SourceError:
        return SourceError(self.path, self.key_lines.get(key, self.line), message)

    def dispatch_map(self) -> dict[str, str]:
        return {k: d.name for d in self.dispatch for k in d.keys}


def _parse_dispatch(value, path: str, line: int) -> list[DispatchLine]:
    if not isinstance(value, dict) or not value:
        raise SourceError(path, line, "dispatch must be a mapping like 'CPU, CUDA: atan2_out'")
    lines, seen = [], {}
    for key_text, name in value.items():
        kline = value.key_lines[key_text]
        keys = tuple(k.strip() for k in str(key_text).split(","))
        for k in keys:
            if k not in DISPATCH_KEYS:
                raise SourceError(path, kline, f"unknown dispatch key '{k}' (known: {', '.join(DISPATCH_KEYS)})")
            if k in seen:
                raise SourceError(path, kline, f"dispatch key '{k}' given twice (first at line {seen[k]})")
            seen[k] = kline
        if not isinstance(name, str) or not name.isidentifier():
            raise SourceError(path, kline, f"dispatch value for '{key_text}' must be a C++ function name")
        lines.append(DispatchLine(keys, str(name), kline))
    if COMPOSITE in seen and len(seen) > 1:
        raise SourceError(path, seen[COMPOSITE], f"{COMPOSITE} serves every backend; it cannot sit beside backend keys")
    return lines


def _parse_entry(raw, path: str) -> NativeFunction:
    if not isinstance(raw, dict):
        raise SourceError(path, getattr(raw, "line", 1), "each entry must be a mapping starting with 'func:'")
    klines = raw.key_lines
    for key in raw:
        if key not in KEYS:
            raise SourceError(path, klines[key], f"unknown key '{key}' (known: {', '.join(KEYS)})")
    if "func" not in raw:
        raise SourceError(path, raw.line, "entry has no 'func:'")
    try:
        schema = parse_schema(str(raw["func"]))
    except ValueError as e:
        raise SourceError(path, klines["func"], f"bad signature '{raw['func']}': {e}") from None
    f = NativeFunction(schema, path, raw.line, key_lines=klines)
    variants = tuple(v.strip() for v in str(raw.get("variants", "function")).split(","))
    for v in variants:
        if v not in VARIANTS:
            raise f.error(f"unknown variant '{v}' (known: function, method)", "variants")
    if "method" in variants and not (schema.argument("self") and schema.argument("self").type.is_tensor):
        raise f.error("a method variant needs a 'Tensor self' argument", "variants")
    if "method" in variants and schema.kind is Kind.OUT:
        raise f.error("out overloads are functions only", "variants")
    f.variants = variants
    f.structured = raw.get("structured", False)
    if not isinstance(f.structured, bool):
        raise f.error("structured must be True or False", "structured")
    f.structured_delegate = raw.get("structured_delegate")
    f.iterator = raw.get("iterator")
    if "dispatch" in raw:
        f.dispatch = _parse_dispatch(raw["dispatch"], path, klines["dispatch"])
    if "doc" in raw:
        f.doc = _parse_doc(f, raw["doc"])
    _check_structured_keys(f, raw)
    return f


def _parse_doc(f: NativeFunction, value) -> str:
    """doc: what the op computes, in text (a YAML block scalar for several lines). It belongs on the
    functional overload; the in-place and out overloads of the same name share it."""
    if f.schema.kind is not Kind.FUNCTIONAL:
        raise f.error(f"doc belongs on the functional overload of {f.schema.base_name}, not on "
                      f"{f.schema.full_name}", "doc")
    if not isinstance(value, str) or not value.strip():
        raise f.error("doc must be non-empty text", "doc")
    return "\n".join(line.rstrip() for line in value.strip().splitlines())


def _check_structured_keys(f: NativeFunction, raw: dict) -> None:
    s = f.schema
    if f.structured:
        if s.kind is not Kind.OUT:
            raise f.error(f"structured entry {s.full_name} must be an out overload", "structured")
        if raw.get("structured_inherits") != "TensorIteratorBase":
            raise f.error("structured entry needs 'structured_inherits: TensorIteratorBase'", "structured")
        if f.iterator not in ITERATORS:
            raise f.error(f"structured entry needs 'iterator:' one of {', '.join(ITERATORS)}"
                          + (f", not '{f.iterator}'" if f.iterator else ""), "iterator" if f.iterator else "structured")
        builder, arity = ITERATORS[f.iterator]
        n_in = sum(1 for a in s.non_out_arguments() if a.type.is_tensor)
        if n_in != arity or len(s.out_arguments()) != 1:
            raise f.error(f"iterator '{f.iterator}' ({builder}) takes one out and {arity} tensor input(s); "
                          f"{s.full_name} has {len(s.out_arguments())} and {n_in}", "iterator")
        if not f.dispatch or any(COMPOSITE in d.keys for d in f.dispatch):
            raise f.error("structured entry needs a dispatch block with backend keys", "structured")
    else:
        for key in ("structured_inherits", "iterator"):
            if key in raw:
                raise f.error(f"'{key}' only applies to 'structured: True' entries", key)
    if f.structured_delegate is not None:
        if f.dispatch:
            raise f.error("an entry with structured_delegate takes its dispatch from the delegate", "dispatch")
        if f.structured:
            raise f.error("a structured entry cannot also delegate", "structured_delegate")
    elif not f.dispatch and not f.structured:
        raise f.error(f"{s.full_name} needs a dispatch block or structured_delegate")
    elif not f.structured and any(d.keys != (COMPOSITE,) for d in f.dispatch):
        raise f.error("a backend kernel needs 'structured: True' (it runs through the op's stub); "
                      f"otherwise use {COMPOSITE}", "dispatch")


def delegate_arguments(f: NativeFunction, target: NativeFunction) -> list[str]:
    """C++ expressions passing f's arguments to the structured `target` (out first, then the rest).

    Arguments match by name; a Scalar passed where the delegate takes a Tensor is wrapped.
    """
    s, t = f.schema, target.schema
    out = {Kind.OUT: lambda: s.out_arguments()[0].name, Kind.INPLACE: lambda: "self",
           Kind.FUNCTIONAL: lambda: "Tensor()"}[s.kind]()
    exprs, used = [out], set()
    for ta in t.non_out_arguments():
        sa = s.argument(ta.name)
        if sa is None and not ta.type.is_tensor and (ta.default is not None or ta.type.optional):
            # An overload without the argument passes its default (None for an optional).
            exprs.append(cpp.default(ta) if ta.default is not None else "std::nullopt")
            continue
        if sa is None or sa.is_out:
            raise f.error(f"structured_delegate {t.full_name}: {s.full_name} has no argument '{ta.name}'",
                          "structured_delegate")
        used.add(sa.name)
        if sa.type.base == ta.type.base and sa.type.is_list == ta.type.is_list:
            exprs.append(sa.name)
        elif sa.type.base == "Scalar" and ta.type.is_tensor:
            exprs.append(f"scalar_to_tensor({sa.name})")
        else:
            raise f.error(f"structured_delegate {t.full_name}: argument '{sa.name}' is {sa.type}, "
                          f"the delegate takes {ta.type}", "structured_delegate")
    extra = [a.name for a in s.non_out_arguments() if a.name not in used and not (s.kind is Kind.INPLACE and a.name == "self")]
    if extra:
        raise f.error(f"structured_delegate {t.full_name}: it has no argument '{extra[0]}'", "structured_delegate")
    if len(s.out_arguments()) > 1:
        raise f.error(f"structured_delegate {t.full_name}: {s.full_name} has more than one out argument")
    return exprs


def stub_args(f: NativeFunction) -> list:
    """The non-Tensor arguments of a structured entry, passed to its stub after the iterator."""
    return [a for a in f.schema.non_out_arguments() if not a.type.is_tensor]


def _cross_check(fns: list[NativeFunction], broken: set[str]) -> list[SourceError]:
    """Checks between entries; `broken` names entries already reported, so delegates stay quiet."""
    errors, by_name = [], {}
    for f in fns:
        prev = by_name.get(f.schema.full_name)
        if prev:
            errors.append(f.error(f"duplicate overload {f.schema.full_name} (first at line {prev.line})", "func"))
        else:
            by_name[f.schema.full_name] = f
    docs = {}
    for f in fns:
        if f.doc is not None:
            first = docs.setdefault(f.schema.base_name, f)
            if first is not f:
                errors.append(f.error(f"{f.schema.base_name} has a doc already (at line "
                                      f"{first.key_lines.get('doc', first.line)}); give it once", "doc"))
    stubs = {}
    for f in fns:
        try:
            if f.structured_delegate is not None:
                target = by_name.get(str(f.structured_delegate))
                if target is None and str(f.structured_delegate) in broken:
                    continue
                if target is None:
                    raise f.error(f"structured_delegate to a missing overload '{f.structured_delegate}'",
                                  "structured_delegate")
                if not target.structured:
                    raise f.error(f"structured_delegate {target.schema.full_name} is not 'structured: True'",
                                  "structured_delegate")
                delegate_arguments(f, target)
            if f.structured:
                sig = [str(a.type) for a in stub_args(f)]
                first = stubs.setdefault(f.schema.base_name, (f, sig))
                if first[1] != sig:
                    raise f.error(f"{f.schema.base_name}_stub: {f.schema.full_name} passes ({', '.join(sig)}) but "
                                  f"{first[0].schema.full_name} passes ({', '.join(first[1])})", "func")
        except SourceError as e:
            errors.append(e)
    return errors


def load_ops(path: str) -> list[NativeFunction]:
    """Parses and validates ops.yaml; raises SourceErrors listing every problem found."""
    try:
        data = yaml_loader.load(path)
    except SourceError as e:
        raise SourceErrors([e]) from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise SourceErrors([SourceError(path, getattr(data, "line", 1), "ops.yaml must be a list of entries")])
    fns, errors, broken = [], [], set()
    for raw in data:
        try:
            fns.append(_parse_entry(raw, path))
        except SourceError as e:
            errors.append(e)
            try:
                broken.add(parse_schema(str(raw["func"])).full_name)
            except (ValueError, KeyError, TypeError):
                pass
    errors += _cross_check(fns, broken)
    if errors:
        raise SourceErrors(errors)
    return fns


def delegate_of(f: NativeFunction, fns: list[NativeFunction]) -> NativeFunction | None:
    return next((g for g in fns if g.schema.full_name == f.structured_delegate), None)
