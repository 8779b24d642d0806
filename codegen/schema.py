"""Function schemas: `add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor`.

Parsing raises ValueError with the reason; the caller adds file:line.
"""
import re
from dataclasses import dataclass
from enum import Enum

BASE_TYPES = ("Tensor", "Scalar", "int", "float", "bool", "str", "ScalarType")

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_NAME_RE = re.compile(rf"^(?P<name>{_IDENT})(?:\.(?P<overload>{_IDENT}))?$")
_TYPE_RE = re.compile(r"^(?P<base>[A-Za-z]+)(?:\((?P<alias>[a-z])(?P<mut>!?)\))?(?P<list>\[\d*\])?(?P<opt>\?)?$")
_ARG_RE = re.compile(rf"^(?P<type>\S+)\s+(?P<name>{_IDENT})(?:\s*=\s*(?P<default>.+))?$")


class Kind(Enum):
    FUNCTIONAL = "functional"
    INPLACE = "inplace"
    OUT = "out"


@dataclass(frozen=True)
class Type:
    base: str
    is_list: bool = False
    optional: bool = False
    alias: str | None = None
    mutable: bool = False

    @staticmethod
    def parse(text: str) -> "Type":
        m = _TYPE_RE.match(text)
        if not m:
            raise ValueError(f"bad type syntax '{text}'")
        if m["base"] not in BASE_TYPES:
            raise ValueError(f"unknown type '{m['base']}' (known: {', '.join(BASE_TYPES)})")
        if m["alias"] and m["base"] != "Tensor":
            raise ValueError(f"only Tensor may carry an alias annotation, not '{text}'")
        return Type(m["base"], bool(m["list"]), bool(m["opt"]), m["alias"], bool(m["mut"]))

    def __str__(self) -> str:
        alias = f"({self.alias}{'!' if self.mutable else ''})" if self.alias else ""
        return f"{self.base}{alias}{'[]' if self.is_list else ''}{'?' if self.optional else ''}"

    @property
    def is_tensor(self) -> bool:
        return self.base == "Tensor" and not self.is_list


@dataclass(frozen=True)
class Argument:
    name: str
    type: Type
    default: str | None  # as written in the schema
    kwarg_only: bool

    @property
    def is_out(self) -> bool:
        return self.kwarg_only and self.type.mutable


@dataclass(frozen=True)
class Return:
    type: Type
    name: str | None = None


@dataclass(frozen=True)
class Schema:
    name: str  # "add_" for in-place overloads
    overload: str  # "" when absent
    arguments: tuple[Argument, ...]
    returns: tuple[Return, ...]

    @property
    def full_name(self) -> str:
        return f"{self.name}.{self.overload}" if self.overload else self.name

    @property
    def base_name(self) -> str:
        return self.name[:-1] if self.name.endswith("_") else self.name

    @property
    def kind(self) -> Kind:
        if any(a.is_out for a in self.arguments):
            return Kind.OUT
        return Kind.INPLACE if self.name.endswith("_") else Kind.FUNCTIONAL

    def out_arguments(self) -> list[Argument]:
        return [a for a in self.arguments if a.is_out]

    def non_out_arguments(self) -> list[Argument]:
        return [a for a in self.arguments if not a.is_out]

    def argument(self, name: str) -> Argument | None:
        return next((a for a in self.arguments if a.name == name), None)

    def __str__(self) -> str:
        parts, star = [], False
        for a in self.arguments:
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(f"{a.type} {a.name}" + (f"={a.default}" if a.default is not None else ""))
        rets = [f"{r.type}" + (f" {r.name}" if r.name else "") for r in self.returns]
        ret = rets[0] if len(rets) == 1 else f"({', '.join(rets)})"
        return f"{self.full_name}({', '.join(parts)}) -> {ret}"


def split_top_level(text: str) -> list[str]:
    """Splits on commas outside brackets: `int[] dims=[0, 1], bool keep=False`."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def default_value(arg_type: Type, text: str):
    """The default as a JSON-able value; ValueError when it does not fit the type."""
    if text == "None":
        if not arg_type.optional:
            raise ValueError(f"default None needs an optional type ('{arg_type}?')")
        return None
    if arg_type.is_list:
        if not re.fullmatch(r"\[\s*(-?\d+\s*(,\s*-?\d+\s*)*)?\]", text):
            raise ValueError(f"bad default '{text}' for {arg_type}")
        return [int(x) for x in text.strip("[]").split(",") if x.strip()]
    if text in ("True", "False") and arg_type.base in ("bool", "Scalar"):
        return text == "True"
    if re.fullmatch(r"-?\d+", text) and arg_type.base in ("int", "float", "Scalar"):
        return int(text)
    if re.fullmatch(r"-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", text) and arg_type.base in ("float", "Scalar"):
        return float(text)
    if re.fullmatch(r"'[A-Za-z0-9_]*'", text) and arg_type.base == "str":
        return text[1:-1]
    raise ValueError(f"bad default '{text}' for an argument of type {arg_type}")


def _parse_arguments(text: str) -> tuple[Argument, ...]:
    args, kwarg_only, seen = [], False, set()
    if not text.strip():
        return ()
    for part in split_top_level(text):
        if part == "*":
            if kwarg_only:
                raise ValueError("'*' appears twice")
            kwarg_only = True
            continue
        m = _ARG_RE.match(part)
        if not m:
            raise ValueError(f"bad argument syntax '{part}' (expected 'Type name' or 'Type name=default')")
        arg_type = Type.parse(m["type"])
        if m["name"] in seen:
            raise ValueError(f"argument '{m['name']}' appears twice")
        seen.add(m["name"])
        default = m["default"].strip() if m["default"] else None
        if default is not None:
            default_value(arg_type, default)
        args.append(Argument(m["name"], arg_type, default, kwarg_only))
    return tuple(args)


def _parse_returns(text: str) -> tuple[Return, ...]:
    text = text.strip()
    if text == "()":
        return ()
    items = split_top_level(text[1:-1]) if text.startswith("(") and text.endswith(")") and "," in text else [text]
    returns = []
    for item in items:
        fields = item.split()
        if not 1 <= len(fields) <= 2:
            raise ValueError(f"bad return syntax '{item}'")
        returns.append(Return(Type.parse(fields[0]), fields[1] if len(fields) == 2 else None))
    return tuple(returns)


def parse_schema(text: str) -> Schema:
    head, arrow, ret = text.partition("->")
    if not arrow:
        raise ValueError("missing '-> ReturnType'")
    head = head.strip()
    if not head.endswith(")") or "(" not in head:
        raise ValueError("expected 'name.overload(arguments) -> returns'")
    name_part, _, args_part = head[:-1].partition("(")
    m = _NAME_RE.match(name_part.strip())
    if not m:
        raise ValueError(f"bad operator name '{name_part.strip()}' (expected 'name' or 'name.overload')")
    schema = Schema(m["name"], m["overload"] or "", _parse_arguments(args_part), _parse_returns(ret))
    _check_mutability(schema)
    return schema


def _check_mutability(s: Schema) -> None:
    mutable = [a for a in s.arguments if a.type.mutable]
    if s.kind is Kind.FUNCTIONAL:
        if mutable:
            raise ValueError(f"functional overload has mutable argument '{mutable[0].name}' "
                             "(in-place names end with '_'; out arguments are keyword-only)")
        return
    if s.kind is Kind.INPLACE:
        first = s.arguments[0] if s.arguments else None
        if not first or first.name != "self" or not first.type.mutable or len(mutable) != 1:
            raise ValueError("in-place overload must take 'Tensor(a!) self' first and mutate nothing else")
    elif any(a.type.mutable and not a.kwarg_only for a in s.arguments):
        raise ValueError("out overload: mutable arguments must be keyword-only (after '*')")
    mutated = [a.type.alias for a in mutable]
    if [r.type.alias for r in s.returns] != mutated or not all(r.type.mutable for r in s.returns):
        raise ValueError(f"{s.kind.value} overload must return its mutated argument(s), "
                         f"as {', '.join(str(a.type) for a in mutable)}")
