"""Generates ingot's op API from ops/ops.yaml (run by cmake/IngotCodegen.cmake).

Output files are rewritten only when their text changes, so an edit to one op does not rebuild
everything that includes the public headers.
"""
import argparse
import os
import sys

from . import emit
from .errors import SourceErrors
from .model import load_ops
from .op_table import op_table_json


def outputs(fns, include_dir: str, source_dir: str) -> dict[str, str]:
    """Every generated file; keep in sync with INGOT_GENERATED_* in cmake/IngotCodegen.cmake."""
    gen_inc = os.path.join(include_dir, "ingot", "generated")
    return {
        os.path.join(gen_inc, "functions.h"): emit.functions_h(fns),
        os.path.join(gen_inc, "tensor_methods.inc"): emit.tensor_methods_inc(fns),
        os.path.join(source_dir, "dispatch_stubs.h"): emit.dispatch_stubs_h(fns),
        os.path.join(source_dir, "generated_ops.cpp"): emit.generated_ops_cpp(fns),
        os.path.join(source_dir, "op_table.json"): op_table_json(fns),
    }


def write_if_changed(path: str, text: str) -> bool:
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return False
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return True


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ops", required=True, help="path to ops.yaml")
    p.add_argument("--include-dir", required=True, help="gets ingot/generated/{functions.h,tensor_methods.inc}")
    p.add_argument("--source-dir", required=True, help="gets generated_ops.cpp, dispatch_stubs.h, op_table.json")
    a = p.parse_args(argv)
    try:
        fns = load_ops(a.ops)
    except SourceErrors as e:
        print(e, file=sys.stderr)
        return 1
    for path, text in outputs(fns, a.include_dir, a.source_dir).items():
        write_if_changed(path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
