"""The op-binding generator on small tables: a new ops.yaml entry becomes a Python function with
its schema's signature, with no hand-written binding code."""
import importlib.util
import inspect
import os
import sys
import types

import pytest

GEN = os.path.join(os.path.dirname(__file__), "..", "..", "python", "gen_op_bindings.py")
if not os.path.exists(GEN):
    pytest.skip("python/gen_op_bindings.py not in this checkout", allow_module_level=True)
spec = importlib.util.spec_from_file_location("gen_op_bindings", GEN)
gen = importlib.util.module_from_spec(spec)
sys.modules["gen_op_bindings"] = gen  # dataclasses look their module up
spec.loader.exec_module(gen)

def run(schemas):
    """Generates from (schema, variants) pairs and imports the Python half with a fake _k module."""
    overloads = [gen.parse_schema(s, v) for s, v in schemas]
    cpp, py = gen.generate(overloads)
    calls = []
    fake = types.SimpleNamespace()
    for g in gen.build_groups(overloads):
        setattr(fake, g.name, lambda *a, _n=g.name: calls.append((_n, a)) or (_n, a))
    ns = {"_k": fake}
    exec(py.replace("from ingot._C import _ops as _k", ""), ns)
    return cpp, ns, calls

def test_parse_schema_reads_types_defaults_and_keyword_only():
    o = gen.parse_schema("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", ["function"])
    assert (o.name, o.overload_name) == ("add", "out")
    assert [(a.name, a.type, a.default, a.kwarg_only) for a in o.args] == [
        ("self", "Tensor", None, False), ("other", "Tensor", None, False),
        ("alpha", "Scalar", "1", True), ("out", "Tensor", None, True)]
    assert [a.name for a in o.out_args] == ["out"]

def test_new_op_gets_function_with_schema_signature():
    cpp, ns, calls = run([("hypot(Tensor self, Tensor other) -> Tensor", ["function", "method"]),
                          ("hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ["function"])])
    f = ns["hypot"]
    assert str(inspect.signature(f)) == "(self, other, *, out=None)"
    f(1, 2)
    assert calls == [("hypot", (1, 2, None))]
    assert ns["FUNCTIONS"] == {"hypot": f} and ns["METHODS"] == {"hypot": f}
    assert 'tensor_ref(out, "hypot", "out")' in cpp and "ingot::hypot_out(out_ref" in cpp

def test_scalar_overload_follows_tensor_overload_and_wraps_for_out():
    cpp, _, _ = run([("mul.Scalar(Tensor self, Scalar other) -> Tensor", ["function"]),
                     ("mul.Tensor(Tensor self, Tensor other) -> Tensor", ["function"]),
                     ("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ["function"])])
    assert cpp.index("const ingot::Tensor& other") < cpp.index("const ingot::Scalar& other")
    assert "ingot::scalar_to_tensor(other)" in cpp

def test_inplace_op_returns_self_and_is_a_method():
    cpp, ns, _ = run([("exp_(Tensor(a!) self) -> Tensor(a!)", ["method"])])
    assert "return nb::borrow(self);" in cpp and ".exp_()" in cpp
    assert "exp_" in ns["METHODS"] and "exp_" not in ns["FUNCTIONS"]
    assert "out" not in inspect.signature(ns["exp_"]).parameters

def test_method_with_self_not_first_reorders_arguments():
    _, ns, calls = run([("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", ["function", "method"])])
    ns["METHODS"]["where"]("x", "c", "y")
    assert calls == [("where", ("c", "x", "y", None))]

def test_overloads_with_different_arguments_share_one_signature():
    cpp, ns, _ = run([("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", ["function"]),
                      ("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
                       ["function"])])
    assert str(inspect.signature(ns["sum"])) == "(self, dim=None, keepdim=None, *, dtype=None, out=None)"
    assert "nb::none dim" in cpp and "keepdim.value_or(false)" in cpp

def test_unsupported_argument_types_are_skipped_not_fatal():
    cpp, ns, _ = run([("weird(Tensor self, float[] d) -> Tensor", ["function"])])
    assert "weird" not in ns["FUNCTIONS"]

def test_defaults_translate_to_python_literals():
    assert gen.py_default("[]") == "()"
    assert gen.py_default("[0]") == "(0,)"
    assert gen.py_default("[0, 1]") == "(0, 1)"
    assert gen.py_default("True") == "True"

def test_doc_becomes_the_docstring_above_the_declarations_whatever_its_quotes():
    doc = 'Hypotenuse: sqrt(self**2 + other**2).\n"""quoted""" and a \\ backslash'
    overloads = [gen.overload_from_entry({"schema": "hypot(Tensor self, Tensor other) -> Tensor", "doc": doc,
                                          "variants": ["function", "method"]}, None),
                 gen.overload_from_entry({"schema": "hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
                                          "variants": ["method"]}, None),
                 gen.overload_from_entry({"schema": "hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"},
                                         None)]
    _, py = gen.generate(overloads)
    ns = {"_k": types.SimpleNamespace(hypot=None, hypot_=None)}
    exec(py.replace("from ingot._C import _ops as _k", ""), ns)
    assert ns["hypot"].__doc__ == (doc + "\n\nDeclared as (ops.yaml):\n"
                                   "    hypot(Tensor self, Tensor other) -> Tensor\n"
                                   "    hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
    assert ns["hypot_"].__doc__.startswith("In-place hypot: writes the result into self and returns self.\n\n" + doc)
