"""The generator turns the real ops/ops.yaml into the C++ API and op table of opcontract.md."""
import json
import shutil
import subprocess
import os

import pytest
import yaml

from codegen import generate
from codegen.model import NO_INPLACE_ITERATORS, load_ops
from conftest import FIXTURES, REPO_ROOT

OPS_YAML = os.path.join(REPO_ROOT, "ops", "ops.yaml")

def op_names(path, structured_only):
    """Base names of the (structured) ops in an ops.yaml, read with plain PyYAML (not codegen)."""
    with open(path) as f:
        entries = yaml.safe_load(f)
    return sorted({e["func"].split("(")[0].split(".")[0].rstrip("_") for e in entries
                   if e.get("structured") or not structured_only})


DECLARED = op_names(OPS_YAML, structured_only=True)
# Every op name, aliases that only delegate included (clip delegates to clamp.out).
ALL_NAMES = op_names(OPS_YAML, structured_only=False)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    assert generate.main(["--ops", OPS_YAML, "--include-dir", str(out / "inc"), "--source-dir", str(out / "src")]) == 0
    files = {
        "functions.h": out / "inc" / "ingot" / "generated" / "functions.h",
        "tensor_methods.inc": out / "inc" / "ingot" / "generated" / "tensor_methods.inc",
        "dispatch_stubs.h": out / "src" / "dispatch_stubs.h",
        "generated_ops.cpp": out / "src" / "generated_ops.cpp",
        "op_table.json": out / "src" / "op_table.json",
    }
    return {name: path.read_text() for name, path in files.items()}


def _lines(text):
    return {line.strip() for line in text.splitlines()}


def test_public_functions_put_out_first_and_keep_defaults(generated):
    lines = _lines(generated["functions.h"])
    assert "Tensor atan2(const Tensor& self, const Tensor& other);" in lines
    assert "Tensor& atan2_out(Tensor& out, const Tensor& self, const Tensor& other);" in lines
    assert "Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);" in lines
    assert "Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);" in lines


def test_in_place_overloads_are_methods_only(generated):
    methods = _lines(generated["tensor_methods.inc"])
    assert "Tensor atan2(const Tensor& other) const;" in methods
    assert "Tensor& atan2_(const Tensor& other);" in methods
    assert "Tensor& add_(const Scalar& other, const Scalar& alpha = 1);" in methods
    assert not any(line.startswith("Tensor& atan2_(") for line in _lines(generated["functions.h"]))


def test_one_stub_per_structured_op_with_scalar_arguments_after_the_iterator(generated):
    stubs = _lines(generated["dispatch_stubs.h"])
    assert "DECLARE_DISPATCH(add_stub, void (*)(TensorIteratorBase& iter, const Scalar& alpha));" in stubs
    assert "DECLARE_DISPATCH(atan2_stub, void (*)(TensorIteratorBase& iter));" in stubs
    declared = {line[len("DECLARE_DISPATCH("):line.index(",")] for line in stubs if line.startswith("DECLARE_DISPATCH(")}
    assert declared == {f"{op}_stub" for op in DECLARED}


def test_structured_impl_uses_the_named_builder_then_the_stub(generated):
    cpp = generated["generated_ops.cpp"]
    body = cpp[cpp.index("Tensor atan2_out_structured("):]
    body = body[: body.index("\n}\n")]
    assert "iter.build_binary_float_op(out, self, other);" in body
    assert "native::check_wrapped_numbers_fit(iter);" in body
    assert "atan2_stub(iter.device_type(), iter);" in body
    # CPU, CUDA share the stub: no switch on the device, the kernel library decides once.
    assert "switch" not in body and "throw_not_implemented" not in body
    assert "iter.build_comparison_op(out, self, other);" in cpp
    assert "iter.build_where_op(out, condition, self, other);" in cpp


def test_scalar_overloads_wrap_the_scalar_for_the_tensor_delegate(generated):
    cpp = generated["generated_ops.cpp"]
    assert "return add_out_structured(Tensor(), self, scalar_to_tensor(other), alpha);" in cpp
    assert "add_out_structured(self, self, scalar_to_tensor(other), alpha);" in cpp


def test_op_table_lists_every_declared_op_with_every_overload_kind(generated):
    table = json.loads(generated["op_table.json"])
    ops = {op["name"]: op for op in table["ops"]}
    assert sorted(ops) == ALL_NAMES
    no_inplace = {f.schema.base_name for f in load_ops(OPS_YAML) if f.iterator in NO_INPLACE_ITERATORS}
    for name in DECLARED:  # structured ops have every kind (reductions no in-place); composites may not
        kinds = [o["kind"] for o in ops[name]["overloads"]]
        want = {"functional", "out"} if name in no_inplace else {"functional", "inplace", "out"}
        assert want <= set(kinds), name


def test_the_declared_op_list_is_read_from_the_yaml_not_assumed():
    assert {"add", "atan2", "eq", "where"} <= set(DECLARED)


def test_op_table_records_types_defaults_and_keyword_only(generated):
    ops = {op["name"]: op for op in json.loads(generated["op_table.json"])["ops"]}
    add_tensor = next(o for o in ops["add"]["overloads"] if o["name"] == "add" and o["overload"] == "Tensor")
    args = {a["name"]: a for a in add_tensor["arguments"]}
    assert args["alpha"] == {"name": "alpha", "type": "Scalar", "kwarg_only": True, "is_out": False, "default": 1}
    assert "default" not in args["other"]
    assert add_tensor["variants"] == ["function", "method"]
    assert add_tensor["returns"] == [{"type": "Tensor"}]
    atan2_out = next(o for o in ops["atan2"]["overloads"] if o["overload"] == "out")
    assert atan2_out["arguments"][-1] == {"name": "out", "type": "Tensor(a!)", "kwarg_only": True, "is_out": True}
    assert atan2_out["dispatch"] == {"CPU": "atan2_out", "CUDA": "atan2_out"}
    assert (atan2_out["cpp_name"], add_tensor["cpp_name"]) == ("atan2_out", "add")


def test_unchanged_outputs_are_not_rewritten(tmp_path):
    args = ["--ops", OPS_YAML, "--include-dir", str(tmp_path / "inc"), "--source-dir", str(tmp_path / "src")]
    assert generate.main(args) == 0
    paths = generate.outputs(load_ops(OPS_YAML), str(tmp_path / "inc"), str(tmp_path / "src"))
    for path in paths:
        os.utime(path, (1, 1))
    assert generate.main(args) == 0
    assert all(os.stat(path).st_mtime == 1 for path in paths)


def test_changed_output_is_rewritten(tmp_path):
    path = tmp_path / "a.h"
    assert generate.write_if_changed(str(path), "one\n")
    assert not generate.write_if_changed(str(path), "one\n")
    assert generate.write_if_changed(str(path), "two\n")
    assert path.read_text() == "two\n"


@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler on PATH")
@pytest.mark.parametrize("yaml_path", [OPS_YAML, os.path.join(FIXTURES, "features.yaml")], ids=["ops", "features"])
def test_generated_cpp_compiles(tmp_path, yaml_path):
    """Composite ops, backend-specific kernels, optional/list/default arguments all compile."""
    inc, src = tmp_path / "inc", tmp_path / "src"
    assert generate.main(["--ops", yaml_path, "--include-dir", str(inc), "--source-dir", str(src)]) == 0
    result = subprocess.run(
        ["c++", "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror", f"-I{inc}",
         f"-I{os.path.join(REPO_ROOT, 'include')}", f"-I{os.path.join(REPO_ROOT, 'src')}", f"-I{src}",
         str(src / "generated_ops.cpp")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_composite_and_backend_specific_kernels_are_declared_for_src_native(tmp_path):
    inc, src = tmp_path / "inc", tmp_path / "src"
    assert generate.main(["--ops", os.path.join(FIXTURES, "features.yaml"),
                          "--include-dir", str(inc), "--source-dir", str(src)]) == 0
    stubs = _lines((src / "dispatch_stubs.h").read_text())
    assert "void hypot_out_cuda(TensorIteratorBase& iter);" in stubs
    assert "Tensor square(const Tensor& self);" in stubs
    cpp = (src / "generated_ops.cpp").read_text()
    assert "native::hypot_out_cpu(iter);" in cpp and "return native::square(self);" in cpp


def test_op_table_carries_an_ops_doc_on_its_functional_overload_only(generated):
    ops = {op["name"]: op for op in json.loads(generated["op_table.json"])["ops"]}
    with open(OPS_YAML, encoding="utf-8") as f:
        yaml_text = f.read()
    docs = {o["kind"]: o.get("doc") for o in ops["sum"]["overloads"]}
    assert docs["functional"].startswith("Sum of the elements over dim")
    assert "Sum of the elements over dim" in yaml_text
    assert docs["out"] is None  # the out overload shares the functional one's text
    add = [o for o in ops["add"]["overloads"] if o["kind"] != "functional" or o["overload"] == "Scalar"]
    assert add and all("doc" not in o for o in add)  # only the entry that has the doc: carries it


def test_every_op_in_ops_yaml_has_a_doc():
    """help(ingot.<op>) must say what the op does: a new op's functional entry needs a `doc:`."""
    fns = load_ops(OPS_YAML)
    documented = {f.schema.base_name for f in fns if f.doc}
    missing = sorted({f"{f.schema.base_name} (ops.yaml:{f.line})" for f in fns
                      if f.schema.kind.value == "functional" and f.schema.base_name not in documented})
    assert not missing, "ops without a doc: " + ", ".join(missing)
