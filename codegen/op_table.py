"""op_table.json: the declared ops as data, for the Python bindings and the tests."""
import json

from .cpp import function_name
from .model import NativeFunction
from .schema import default_value


def _argument(a) -> dict:
    d = {"name": a.name, "type": str(a.type), "kwarg_only": a.kwarg_only, "is_out": a.is_out}
    if a.default is not None:  # absent key = no default; null = defaults to None
        d["default"] = default_value(a.type, a.default)
    return d


def _overload(f: NativeFunction) -> dict:
    s = f.schema
    return {
        "name": s.name,
        "overload": s.overload,
        "schema": str(s),
        "kind": s.kind.value,
        "cpp_name": function_name(s),  # ingot::<cpp_name>, out arguments first
        "arguments": [_argument(a) for a in s.arguments],
        "returns": [{"type": str(r.type), **({"name": r.name} if r.name else {})} for r in s.returns],
        "variants": list(f.variants),
        "structured": f.structured,
        "structured_delegate": f.structured_delegate,
        "dispatch": f.dispatch_map(),
        **({"doc": f.doc} if f.doc else {}),
    }


def op_table_json(fns: list[NativeFunction]) -> str:
    ops: dict[str, list] = {}
    for f in fns:
        ops.setdefault(f.schema.base_name, []).append(_overload(f))
    table = {"ops": [{"name": name, "overloads": overloads} for name, overloads in ops.items()]}
    return json.dumps(table, indent=1) + "\n"
