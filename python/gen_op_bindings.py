"""Generates the Python bindings of every op in op_table.json (written by codegen/ from ops.yaml).

Two outputs, so that declaring an op in ops.yaml is all it takes to reach Python:
  * op_bindings.cpp: one nanobind function per op name in ingot._C._ops, one overload per schema
    (Tensor/Scalar variants), taking every argument positionally; `out` is the last argument.
  * _generated_ops.py: a plain Python function per op with the schema's names, keyword-only
    markers and defaults (so inspect.signature works), forwarding to the nanobind function, plus
    the FUNCTIONS and METHODS tables that ingot/__init__.py installs.
"""
from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root, for codegen/
from codegen import schema as codegen_schema  # noqa: E402

# Schema type -> C++ parameter type of the binding lambda.
CPP_TYPES = {
    "Tensor": "const ingot::Tensor&",
    "Tensor?": "std::optional<ingot::Tensor>",
    "Tensor[]": "std::vector<ingot::Tensor>",
    "Scalar": "const ingot::Scalar&",
    "Scalar?": "std::optional<ingot::Scalar>",
    "int": "int64_t",
    "int?": "std::optional<int64_t>",
    "SymInt": "int64_t",
    "float": "double",
    "float?": "std::optional<double>",
    "bool": "bool",
    "bool?": "std::optional<bool>",
    "str": "std::string",
    "str?": "std::optional<std::string>",
    "int[]": "std::vector<int64_t>",
    "int[]?": "std::optional<std::vector<int64_t>>",
    "ScalarType": "ingot::ScalarType",
    "ScalarType?": "std::optional<ingot::ScalarType>",
}


@dataclass
class Arg:
    name: str
    type: str  # alias annotations removed, "int[2]" normalized to "int[]"
    default: str | None
    kwarg_only: bool
    mutable: bool


@dataclass
class Overload:
    name: str  # base name, "add" or "add_"
    overload_name: str
    args: list[Arg]
    returns: str
    variants: list[str]
    schema: str = ""  # the declaration as written in ops.yaml, for the docstring
    doc: str | None = None

    @property
    def is_inplace(self) -> bool:
        return self.name.endswith("_") and not self.name.startswith("_")

    @property
    def out_args(self) -> list[Arg]:
        if self.is_inplace:
            return []
        return [a for a in self.args if a.mutable and a.kwarg_only]

    @property
    def inputs(self) -> list[Arg]:
        outs = self.out_args
        return [a for a in self.args if a not in outs]


def normalize_type(raw: str) -> tuple[str, bool]:
    """'Tensor(a!)' -> ('Tensor', True); 'int[2]' -> ('int[]', False)."""
    mutable = "!" in raw
    t = re.sub(r"\([a-z]!?\)", "", raw.strip())
    t = re.sub(r"\[\d+\]", "[]", t)
    return t, mutable


def parse_schema(func: str, variants: list[str]) -> Overload:
    """Parses one schema string with codegen's parser (the single grammar of ops.yaml)."""
    schema = codegen_schema.parse_schema(func)
    args = [Arg(a.name, normalize_type(str(a.type))[0], a.default, a.kwarg_only, a.type.mutable)
            for a in schema.arguments]
    returns = ", ".join(str(r.type) for r in schema.returns) or "()"
    return Overload(schema.name, schema.overload, args, returns, variants, str(schema))


def parse_variants(v) -> list[str]:
    if v is None:
        return ["function"]
    if isinstance(v, str):
        return [s.strip() for s in v.split(",") if s.strip()]
    return list(v)


def overload_from_entry(entry: dict, base_name: str | None) -> Overload:
    variants = parse_variants(entry.get("variants"))
    schema = entry.get("func") or entry.get("schema")
    if schema:
        o = parse_schema(schema, variants)
        o.doc = entry.get("doc")
        return o
    args, kwarg_only = [], False
    for a in entry.get("arguments", []):
        t, mutable = normalize_type(a["type"])
        kw = bool(a.get("kwarg_only", a.get("keyword_only", kwarg_only)))
        default = a.get("default")
        args.append(Arg(a["name"], t, None if default is None else str(default), kw,
                        mutable or bool(a.get("is_out") or a.get("mutable"))))
    name = entry.get("name") or base_name
    overload_name = entry.get("overload_name", entry.get("overload", ""))
    if "." in name:
        name, overload_name = name.split(".", 1)
    returns = entry.get("returns", "Tensor")
    if isinstance(returns, list):
        returns = ", ".join(r["type"] if isinstance(r, dict) else str(r) for r in returns)
    return Overload(name, overload_name or "", args, str(returns), variants, doc=entry.get("doc"))


def load_overloads(table) -> list[Overload]:
    if isinstance(table, dict):
        table = table.get("ops", table.get("operators", []))
    overloads = []
    for item in table:
        if "overloads" in item:
            overloads += [overload_from_entry(o, item.get("name")) for o in item["overloads"]]
        else:
            overloads.append(overload_from_entry(item, None))
    return overloads


def py_name(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) else name


def py_default(default: str) -> str:
    d = default.strip()
    if d.startswith("[") and d.endswith("]"):
        return "(" + d[1:-1] + ("," if d[1:-1].strip() and "," not in d else "") + ")"
    return d


def cpp_default(default: str, t: str) -> str:
    d = default.strip()
    if d in ("True", "False"):
        return d.lower()
    if d.startswith("["):
        return "std::vector<int64_t>{" + d[1:-1] + "}"
    if t.startswith("str"):
        return "std::string(" + d.replace("'", '"') + ")"
    return d


@dataclass
class Group:
    """One Python-visible function: the overloads sharing a name, with their matching .out forms."""
    name: str
    overloads: list[Overload]
    outs: list[Overload] = field(default_factory=list)

    def params(self) -> list[tuple[Arg, str | None]]:
        """The union of the overloads' inputs: (arg, Python default or None when required)."""
        seen: dict[str, list[Arg]] = {}
        for o in self.overloads:
            for a in o.inputs:
                seen.setdefault(a.name, []).append(a)
        positional = [n for n, v in seen.items() if not v[0].kwarg_only]
        keyword_only = [n for n, v in seen.items() if v[0].kwarg_only]
        result = []
        for n in positional + keyword_only:
            args = seen[n]
            if len(args) < len(self.overloads):
                result.append((args[0], "None"))
            else:
                defaults = {a.default for a in args}
                result.append((args[0], py_default(args[0].default) if len(defaults) == 1 and args[0].default else None))
        return result

    @property
    def has_out(self) -> bool:
        return bool(self.outs)


def matching_out(f: Overload, outs: list[Overload]) -> tuple[Overload, list[str]] | None:
    """The .out overload taking f's inputs (a Scalar may feed a Tensor: it is wrapped), if any."""
    for o in outs:
        if not o.out_args:
            continue
        ins = o.inputs
        if [a.name for a in ins] != [a.name for a in f.inputs]:
            continue
        wraps = []
        for fa, oa in zip(f.inputs, ins):
            if fa.type == oa.type:
                wraps.append(py_name(fa.name))
            elif fa.type == "Scalar" and oa.type == "Tensor":
                wraps.append(f"ingot::scalar_to_tensor({py_name(fa.name)})")
            else:
                break
        else:
            return o, wraps
    return None


def supported(o: Overload) -> bool:
    return all(a.type in CPP_TYPES for a in o.args)


def cpp_overload(group: Group, o: Overload, inplace: bool) -> str:
    params, call_args = [], []
    present = {a.name: a for a in o.inputs}
    for arg, default in group.params():
        name = py_name(arg.name)
        a = present.get(arg.name)
        if a is None:
            params.append(f"nb::none {name}")  # only accepted as None: selects another overload
        elif inplace and a.name == "self":
            params.append("nb::handle self")
        elif default == "None" and a.default not in (None, "None"):
            params.append(f"std::optional<{CPP_TYPES[a.type].replace('const ', '').rstrip('&')}> {name}")
            call_args.append(f"{name}.value_or({cpp_default(a.default, a.type)})")
            continue
        else:
            params.append(f"{CPP_TYPES[a.type]} {name}")
        if a is not None and not (inplace and a.name == "self"):
            call_args.append(name)
    q = f'"{o.name}"'
    # The kernels run without the GIL above a size threshold (bindings.h: release_gil_above).
    tensors = [py_name(a.name) for a in o.inputs if a.type == "Tensor" and not (inplace and a.name == "self")]

    def released(call: str, *extra: str) -> str:
        numel = "largest_numel({" + ", ".join(f"&{t}" for t in [*extra, *tensors]) + "})"
        return f"release_gil_above({numel}, [&] {{ return {call}; }})"

    if inplace:
        rest = ", ".join(call_args)
        if "method" in o.variants:
            call = f"self_ref.{o.name}({rest})"
        else:
            call = f'ingot::{o.name}(self_ref{", " if rest else ""}{rest})'
        body = (f'    ingot::Tensor& self_ref = tensor_ref(self, {q}, "self");\n'
                f"    {released(call, 'self_ref')};\n    return nb::borrow(self);\n")
    else:
        params.append("nb::handle out")
        call = released(f"ingot::{o.name}({', '.join(call_args)})")
        match = matching_out(o, group.outs)
        if match:  # arguments this overload received as optionals (None: the default) pass their value
            exprs = {c.split(".value_or(")[0]: c for c in call_args}
            match = (match[0], [exprs.get(w, w) for w in match[1]])
        if match and len(match[0].out_args) > 1:
            # Several outs (cummax's values and indices): out= is a tuple of that many tensors.
            out_op, wrapped = match
            n = len(out_op.out_args)
            refs = [f"out_{k}_ref" for k in range(n)]
            out_call = released(f'ingot::{out_op.name}_out({", ".join(refs + wrapped)})', *refs)
            binds = "".join(f'    ingot::Tensor& {r} = tensor_ref(out_items[{k}], {q}, "out[{k}]");\n'
                            for k, r in enumerate(refs))
            body = (f"    if (out.is_none()) return to_python({call});\n"
                    f"    INGOT_CHECK(nb::isinstance<nb::tuple>(out) && nb::len(out) == {n}, TypeError, {q}, "
                    f"\": out= must be a tuple of {n} tensors\");\n"
                    f"    nb::tuple out_items = nb::borrow<nb::tuple>(out);\n{binds}"
                    f"    {out_call};\n    return nb::borrow(out);\n")
        elif match:
            out_op, wrapped = match
            out_call = released(f'ingot::{out_op.name}_out(out_ref, {", ".join(wrapped)})', "out_ref")
            body = (f"    if (out.is_none()) return to_python({call});\n"
                    f'    ingot::Tensor& out_ref = tensor_ref(out, {q}, "out");\n'
                    f"    {out_call};\n    return nb::borrow(out);\n")
        else:
            body = (f"    INGOT_CHECK(out.is_none(), NotImplementedError, {q}, "
                    f"\": this overload has no out= variant\");\n"
                    f"    return to_python({call});\n")
    # Every parameter is annotated: nanobind passes None only to those marked .none().
    names = [p.rsplit(" ", 1)[1] for p in params]
    annotations = "".join(
        f', nb::arg("{n}"){".none()" if p.startswith(("nb::", "std::optional")) else ""}'
        for n, p in zip(names, params))
    return (f'  m.def("{group.name}", []({", ".join(params)}) -> nb::object {{\n{body}  }}'
            f'{annotations});\n')


def py_function(group: Group, inplace: bool, doc: str = "") -> str:
    sig, call = [], []
    star = False
    for arg, default in group.params():
        name = py_name(arg.name)
        if arg.kwarg_only and not star:
            sig.append("*")
            star = True
        sig.append(f"{name}={default}" if default is not None else name)
        call.append(name)
    # Parameters that take a Tensor in some overload: the retry may convert numbers and arrays there.
    tensor_types = {"Tensor", "Tensor?"}
    convertible = [i for i, (arg, _) in enumerate(group.params())
                   if not (inplace and arg.name == "self")
                   and any(a.name == arg.name and a.type in tensor_types for o in group.overloads for a in o.inputs)]
    out = ""
    if not inplace:
        if not star:
            sig.append("*")
        sig.append("out=None")
        out = ", out"
    k = f"_k_{group.name}"
    head = f"def {group.name}({', '.join(sig)}):\n" + (f"    {doc!r}\n" if doc else "")
    if not convertible:
        return head + f"    return {k}({', '.join(call)}{out})\n"
    names = "(" + "".join(f'"{n}", ' for n in call) + ")"
    indexes = "(" + "".join(f"{i}, " for i in convertible) + ")"
    values = "(" + "".join(f"{n}, " for n in call) + ")"
    return (head + f"    try:\n        return {k}({', '.join(call)}{out})\n"
            f"    except TypeError:\n"
            f'        args = _tensor_args("{group.name}", {names}, {values}, {indexes})\n'
            f"        if args is None:\n            raise\n"
            f"        return {k}(*args{out})\n")


def docstring(group: Group, docs: dict[str, str]) -> str:
    """The function's docstring: the op's doc from ops.yaml (an in-place form points at its
    functional op), then the declarations it takes."""
    base = group.name[:-1] if group.overloads[0].is_inplace else group.name
    text = docs.get(base, "")
    if group.overloads[0].is_inplace:
        text = f"In-place {base}: writes the result into self and returns self." + (
            f"\n\n{text}" if text else "")
    schemas = [o.schema for o in group.overloads + group.outs if o.schema]
    if schemas:
        text += ("\n\n" if text else "") + "Declared as (ops.yaml):\n" + "\n".join(f"    {s}" for s in schemas)
    return text


def py_method(group: Group) -> str | None:
    """A method wrapper when `self` is not the first parameter (where(condition, self, other))."""
    names = [py_name(a.name) for a, _ in group.params()]
    if "self" not in names or names[0] == "self":
        return None
    rest = [n for n in names if n != "self"]
    sig = ", ".join(["self"] + rest)
    call = ", ".join(f"{n}={n}" for n in names)
    return (f"def _method_{group.name}({sig}):\n    return {group.name}({call})\n\n\n"
            f"_method_{group.name}.__doc__ = {group.name}.__doc__\n")


def build_groups(overloads: list[Overload]) -> list[Group]:
    groups: dict[str, Group] = {}
    outs: dict[str, list[Overload]] = {}
    for o in overloads:
        if not supported(o):
            continue
        if o.out_args:
            outs.setdefault(o.name, []).append(o)
        else:
            groups.setdefault(o.name, Group(o.name, [])).overloads.append(o)
    for name, g in groups.items():
        g.outs = outs.get(name, [])
        # Tensor overloads first: nanobind tries overloads in order.
        g.overloads.sort(key=lambda o: sum(a.type.startswith("Scalar") for a in o.args))
    return list(groups.values())


def generate(overloads: list[Overload]) -> tuple[str, str]:
    groups = build_groups(overloads)
    cpp = ["// Generated by python/gen_op_bindings.py from op_table.json. Do not edit.",
           "#include <nanobind/nanobind.h>", "#include <nanobind/stl/optional.h>",
           "#include <nanobind/stl/string.h>", "#include <nanobind/stl/tuple.h>",
           "#include <nanobind/stl/vector.h>", "", '#include "bindings.h"', '#include "casters.h"', "",
           "namespace ingot::python {", "", "void bind_ops(nb::module_& m) {"]
    cpp.append("  (void)m;")
    py = ['"""Generated by python/gen_op_bindings.py from op_table.json. Do not edit."""',
          "from ingot._C import _ops as _k", "from ingot._convert import tensor_args as _tensor_args", ""]
    functions, methods = [], []
    docs = {o.name: o.doc for o in overloads if o.doc}
    for g in groups:
        inplace = g.overloads[0].is_inplace
        for o in g.overloads:
            cpp.append(cpp_overload(g, o, inplace))
        py.append(f"_k_{g.name} = _k.{g.name}")
        py.append(py_function(g, inplace, docstring(g, docs)))
        variants = {v for o in g.overloads for v in o.variants}
        if "function" in variants:
            functions.append(g.name)
        if "method" in variants:
            wrapper = py_method(g)
            if wrapper:
                py.append(wrapper)
            methods.append((g.name, f"_method_{g.name}" if wrapper else g.name))
    cpp += ["}", "", "}  // namespace ingot::python", ""]
    py.append("FUNCTIONS = {" + ", ".join(f'"{n}": {n}' for n in functions) + "}")
    py.append("METHODS = {" + ", ".join(f'"{n}": {f}' for n, f in methods) + "}")
    return "\n".join(cpp), "\n".join(py) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--op-table", required=True)
    p.add_argument("--cpp-out", required=True)
    p.add_argument("--py-out", required=True)
    a = p.parse_args()
    with open(a.op_table) as f:
        overloads = load_overloads(json.load(f))
    cpp, py = generate(overloads)
    for path, text in ((a.cpp_out, cpp), (a.py_out, py)):
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
