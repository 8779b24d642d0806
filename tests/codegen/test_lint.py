"""Dispatch lint: each rule against a fixture tree that breaks it, and the real tree."""
import glob
import os
import re
import subprocess
import sys

import pytest

from codegen.lint import lint
from conftest import FIXTURES, REPO_ROOT
from expectations import expectation

CASES = sorted(os.path.basename(os.path.dirname(os.path.dirname(p)))
               for p in glob.glob(os.path.join(FIXTURES, "lint", "*", "ops", "ops.yaml")))


@pytest.mark.parametrize("case", CASES)
def test_lint_fixture_reports_exactly_its_expected_finding(case):
    root = os.path.join(FIXTURES, "lint", case)
    yaml_path = os.path.join(root, "ops", "ops.yaml")
    want = expectation(yaml_path)
    errors = lint(yaml_path)
    if want is None:
        assert [str(e) for e in errors] == []
        return
    path, line, text = want
    assert len(errors) == 1, [str(e) for e in errors]
    assert (errors[0].path, errors[0].line) == (os.path.join(root, path), line)
    assert text in errors[0].message


def test_every_rule_has_a_fixture():
    rules = {"backend_set_differs", "backend_specific_beside_shared", "structured_missing_inplace",
             "structured_missing_out", "dispatch_unprovided", "kernel_undeclared", "clean"}
    assert rules <= set(CASES)


def test_lint_cli_exits_nonzero_with_file_line(tmp_path):
    yaml_path = os.path.join(FIXTURES, "lint", "kernel_undeclared", "ops", "ops.yaml")
    result = subprocess.run([sys.executable, "-m", "codegen.lint", yaml_path],
                            cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode == 1
    assert re.search(r"kernels/unary\.h:3: error: kernel 'tanh'", result.stderr)


def test_lint_cli_root_option_overrides_the_found_root():
    yaml_path = os.path.join(FIXTURES, "lint", "clean", "ops", "ops.yaml")
    other = os.path.join(FIXTURES, "lint", "kernel_undeclared")
    result = subprocess.run([sys.executable, "-m", "codegen.lint", yaml_path, "--root", other],
                            cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode == 1 and "'tanh'" in result.stderr


def test_lint_reports_malformed_yaml_as_findings():
    yaml_path = os.path.join(FIXTURES, "malformed", "unknown_key.yaml")
    assert [(e.line, e.message.split(" (")[0]) for e in lint(yaml_path)] == [(4, "unknown key 'structred'")]


def test_real_ops_yaml_is_lint_clean():
    assert [str(e) for e in lint(os.path.join(REPO_ROOT, "ops", "ops.yaml"))] == []
