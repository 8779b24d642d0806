"""Renders the generated C++ (public functions, Tensor methods, stubs, structured impls)."""
from . import cpp
from .model import BACKENDS, COMPOSITE, ITERATORS, NativeFunction, delegate_arguments, delegate_of, stub_args
from .schema import Kind

HEADER = "// Generated from ops/ops.yaml by codegen/generate.py. Do not edit.\n"


def stub_name(f: NativeFunction) -> str:
    return f"{f.schema.base_name}_stub"


def shared_kernel_name(f: NativeFunction) -> str:
    """The dispatch name that means "this op's stub": the out overload's name, '.' -> '_'."""
    return f.schema.full_name.replace(".", "_")


def impl_name(f: NativeFunction) -> str:
    return f"{shared_kernel_name(f)}_structured"


def stub_type(f: NativeFunction) -> str:
    extra = "".join(f", {cpp.arg_type(a.type)} {a.name}" for a in stub_args(f))
    return f"void (*)(TensorIteratorBase& iter{extra})"


def _is_composite(f: NativeFunction) -> bool:
    return any(COMPOSITE in d.keys for d in f.dispatch)


def _backend_kernels(f: NativeFunction) -> list[str]:
    """Backend-specific structured kernels (dispatch names other than the shared stub)."""
    return sorted({d.name for d in f.dispatch if d.name != shared_kernel_name(f)})


def _declaration(f: NativeFunction, method: bool, qualified: bool, with_defaults: bool) -> str:
    s = f.schema
    name = cpp.function_name(s) if not method else s.name
    scope = "Tensor::" if qualified else ""
    const = " const" if method and s.kind is Kind.FUNCTIONAL else ""
    return f"{cpp.return_type(s)} {scope}{name}({cpp.parameter_list(s, method, with_defaults)}){const}"


def _body(f: NativeFunction, fns: list[NativeFunction], method: bool) -> list[str]:
    s = f.schema
    lines = []
    if method:
        # Methods reuse the function body: `self` names the tensor the method is called on.
        lines.append(f"{'Tensor&' if s.kind is Kind.INPLACE else 'const Tensor&'} self = *this;")
    if _is_composite(f):
        call = f"native::{f.dispatch[0].name}({', '.join(a.name for a in cpp.cpp_arguments(s, False, False))})"
    else:
        target = f if f.structured else delegate_of(f, fns)
        call = f"{impl_name(target)}({', '.join(delegate_arguments(f, target))})"
    if s.kind is Kind.FUNCTIONAL or (_is_composite(f) and len(s.returns) > 1):
        # A composite with several outs (cummax.out) returns its tuple of references itself.
        lines.append(f"return {call};")
    else:
        lines += [f"{call};", f"return {s.out_arguments()[0].name if s.kind is Kind.OUT else 'self'};"]
    return lines


def functions_h(fns: list[NativeFunction]) -> str:
    out = [HEADER, "#pragma once\n\n#include <optional>\n#include <string_view>\n\n#include \"ingot/tensor.h\"\n\n"
           "namespace ingot {\n"]
    for f in fns:
        if "function" in f.variants:
            out.append(f"// {f.schema}\n{_declaration(f, False, False, True)};\n")
    out.append("\n}  // namespace ingot\n")
    return "".join(out)


def tensor_methods_inc(fns: list[NativeFunction]) -> str:
    out = [HEADER, "// Included inside class Tensor (include/ingot/tensor.h).\n"]
    for f in fns:
        if "method" in f.variants:
            out.append(f"{_declaration(f, True, False, True)};\n")
    return "".join(out)


def dispatch_stubs_h(fns: list[NativeFunction]) -> str:
    out = [HEADER, "// Private: src/native registers kernels into these stubs.\n#pragma once\n\n",
           "#include \"dispatch/dispatch_stub.h\"\n#include \"ingot/tensor.h\"\n#include \"iter/tensor_iterator.h\"\n\n",
           "namespace ingot {\n\n"]
    declared = set()
    natives = []
    for f in fns:
        if f.structured and stub_name(f) not in declared:
            declared.add(stub_name(f))
            out.append(f"DECLARE_DISPATCH({stub_name(f)}, {stub_type(f)});\n")
        if f.structured:
            extra = "".join(f", {cpp.arg_type(a.type)} {a.name}" for a in stub_args(f))
            natives += [f"void {k}(TensorIteratorBase& iter{extra});\n" for k in _backend_kernels(f)]
        if _is_composite(f):
            natives.append(f"{cpp.return_type(f.schema)} {f.dispatch[0].name}"
                           f"({cpp.parameter_list(f.schema, False, False)});\n")
    if natives:
        out.append("\n// Hand-written in src/native: composite ops and backend-specific structured kernels.\n"
                   "namespace native {\n" + "".join(natives) + "}  // namespace native\n")
    out.append("\n}  // namespace ingot\n")
    return "".join(out)


def _structured_impl(f: NativeFunction) -> str:
    s = f.schema
    builder, _ = ITERATORS[f.iterator]
    params = ", ".join(["const Tensor& out"] + [f"{cpp.arg_type(a.type)} {a.name}" for a in s.non_out_arguments()])
    if builder.startswith("native::"):
        build = f"{builder}(iter, {', '.join(['out'] + [a.name for a in s.non_out_arguments()])});"
    else:
        build = f"iter.{builder}({', '.join(['out'] + [a.name for a in s.non_out_arguments() if a.type.is_tensor])});"
    extra = "".join(f", {a.name}" for a in stub_args(f))
    by_name: dict[str, list[str]] = {}
    for d in f.dispatch:
        by_name.setdefault(d.name, []).extend(d.keys)
    head = (f"// {s.full_name}: the meta step (iterator set-up) is shared by every backend.\n"
            f"Tensor {impl_name(f)}({params}) {{\n"
            f"  TensorIterator iter;\n  iter.set_name(\"{s.base_name}\");\n  iter.borrow_operands();\n  {build}\n"
            f"  native::check_wrapped_numbers_fit(iter);\n")
    stub_call = f"{stub_name(f)}(iter.device_type(), iter{extra})"
    if list(by_name) == [shared_kernel_name(f)]:
        # One stub for every backend it names: the kernel library of the iterator's device is the
        # call's only device decision.
        keys = by_name[shared_kernel_name(f)]
        missing = [k for k in BACKENDS if k not in keys]
        guard = "".join(f"  if (iter.device_type() == DeviceType::{k}) throw_not_implemented(\"{s.base_name}\", "
                        f"iter.device_type());\n" for k in missing)
        return f"{head}{guard}  {stub_call};\n  return iter.take_output();\n}}\n"
    cases = []
    for name, keys in by_name.items():
        labels = "".join(f"    case DeviceType::{k}:\n" for k in BACKENDS if k in keys)
        call = stub_call if name == shared_kernel_name(f) else f"native::{name}(iter{extra})"
        cases.append(f"{labels}      {call};\n      break;\n")
    return (f"{head}  switch (iter.device_type()) {{\n{''.join(cases)}"
            f"    default:\n      throw_not_implemented(\"{s.base_name}\", iter.device_type());\n  }}\n"
            f"  return iter.take_output();\n}}\n")


def generated_ops_cpp(fns: list[NativeFunction]) -> str:
    out = [HEADER, "#include <optional>\n\n#include \"dispatch_stubs.h\"\n#include \"ingot/generated/functions.h\"\n",
           "#include \"ingot/tensor.h\"\n#include \"iter/tensor_iterator.h\"\n#include \"native/meta.h\"\n\n"
           "namespace ingot {\n\n"]
    stubs = sorted({stub_name(f) for f in fns if f.structured})
    out += [f"DEFINE_DISPATCH({s});\n" for s in stubs]
    structured = [f for f in fns if f.structured]
    if structured:
        out.append("\nnamespace {\n\n" + "\n".join(_structured_impl(f) for f in structured) + "\n}  // namespace\n")
    for f in fns:
        for method in (False, True):
            if ("method" if method else "function") not in f.variants:
                continue
            body = "".join(f"  {line}\n" for line in _body(f, fns, method))
            out.append(f"\n{_declaration(f, method, method, False)} {{\n{body}}}\n")
    out.append("\n}  // namespace ingot\n")
    return "".join(out)
