"""Placeholder generator: emits empty generated files until the op pipeline lands."""
import argparse
import os


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ops", required=True)
    p.add_argument("--include-dir", required=True)
    p.add_argument("--source-dir", required=True)
    a = p.parse_args()
    gen_inc = os.path.join(a.include_dir, "ingot", "generated")
    os.makedirs(gen_inc, exist_ok=True)
    os.makedirs(a.source_dir, exist_ok=True)
    for path, text in [
        (os.path.join(gen_inc, "functions.h"), "#pragma once\n"),
        (os.path.join(gen_inc, "tensor_methods.inc"), ""),
        (os.path.join(a.source_dir, "generated_ops.cpp"), ""),
        (os.path.join(a.source_dir, "op_table.json"), "[]\n"),
    ]:
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
