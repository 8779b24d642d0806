"""C++ spellings of schema types, defaults and signatures."""
from .schema import Argument, Kind, Schema, Type

_VALUE_TYPES = {"int": "int64_t", "float": "double", "bool": "bool", "str": "std::string_view",
                "ScalarType": "ScalarType"}


def arg_type(t: Type) -> str:
    if t.is_list:
        inner = "IntArrayRef" if t.base == "int" else f"std::vector<{value_type(t.base)}>"
        return f"std::optional<{inner}>" if t.optional else inner
    if t.base == "Tensor":
        if t.mutable:
            return "Tensor&"
        return "const std::optional<Tensor>&" if t.optional else "const Tensor&"
    if t.base == "Scalar":
        return "const std::optional<Scalar>&" if t.optional else "const Scalar&"
    return f"std::optional<{_VALUE_TYPES[t.base]}>" if t.optional else _VALUE_TYPES[t.base]


def value_type(base: str) -> str:
    return {"Tensor": "Tensor", "Scalar": "Scalar"}.get(base) or _VALUE_TYPES[base]


def default(a: Argument) -> str:
    d = a.default
    if d == "None":
        return "std::nullopt"
    if d in ("True", "False"):
        return d.lower()
    if d.startswith("["):
        return "{" + d[1:-1] + "}"
    if d.startswith("'"):
        return '"' + d[1:-1] + '"'
    return d


def return_type(s: Schema) -> str:
    if not s.returns:
        return "void"
    if s.kind is not Kind.FUNCTIONAL:
        return "Tensor&" if len(s.returns) == 1 else f"std::tuple<{', '.join(['Tensor&'] * len(s.returns))}>"
    types = [value_type(r.type.base) for r in s.returns]
    return types[0] if len(types) == 1 else f"std::tuple<{', '.join(types)}>"


def function_name(s: Schema) -> str:
    """PyTorch's C++ names: add.Scalar_out -> add_out; overloads share a name."""
    return f"{s.name}_out" if s.kind is Kind.OUT else s.name


def cpp_arguments(s: Schema, method: bool, with_defaults: bool) -> list[Argument]:
    """Arguments in C++ order: out arguments first (like PyTorch); methods drop self."""
    args = s.out_arguments() + s.non_out_arguments()
    return [a for a in args if not (method and a.name == "self")]


def parameter_list(s: Schema, method: bool, with_defaults: bool) -> str:
    args = cpp_arguments(s, method, with_defaults)
    # A default is only legal when every later parameter has one too.
    allowed, ok = set(), True
    for a in reversed(args):
        ok = ok and a.default is not None
        if ok:
            allowed.add(a.name)
    parts = []
    for a in args:
        text = f"{arg_type(a.type)} {a.name}"
        if with_defaults and a.name in allowed:
            text += f" = {default(a)}"
        parts.append(text)
    return ", ".join(parts)
