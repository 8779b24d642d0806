"""A malformed ops.yaml fails generation with file:line and the reason."""
import glob
import os
import subprocess
import sys

import pytest

from codegen.errors import SourceErrors
from codegen.model import load_ops
from conftest import FIXTURES, REPO_ROOT
from expectations import expectation

MALFORMED = sorted(glob.glob(os.path.join(FIXTURES, "malformed", "*.yaml")))


@pytest.mark.parametrize("path", MALFORMED, ids=[os.path.basename(p)[:-5] for p in MALFORMED])
def test_malformed_yaml_reports_file_line_and_reason(path):
    _, line, text = expectation(path)
    with pytest.raises(SourceErrors) as info:
        load_ops(path)
    messages = [str(e) for e in info.value.errors]
    assert any(m.startswith(f"{path}:{line}: error: ") and text in m for m in messages), messages


def test_generator_exits_nonzero_and_prints_location(tmp_path):
    path = os.path.join(FIXTURES, "malformed", "unknown_key.yaml")
    result = subprocess.run(
        [sys.executable, "-m", "codegen.generate", "--ops", path,
         "--include-dir", str(tmp_path / "inc"), "--source-dir", str(tmp_path / "src")],
        cwd=REPO_ROOT, capture_output=True, text=True)
    assert result.returncode != 0
    assert f"{path}:4: error: unknown key 'structred'" in result.stderr
    assert not (tmp_path / "src").exists()


def test_every_error_of_a_file_is_reported(tmp_path):
    path = tmp_path / "ops.yaml"
    path.write_text("- func: exp(Tensor self) -> Tensor\n  colour: red\n"
                    "- func: neg(Tensr self) -> Tensor\n  dispatch:\n    CompositeImplicit: neg\n")
    with pytest.raises(SourceErrors) as info:
        load_ops(str(path))
    assert [e.line for e in info.value.errors] == [2, 3]


def test_broken_structured_entry_is_reported_once_not_again_by_its_delegates(tmp_path):
    path = tmp_path / "ops.yaml"
    path.write_text("- func: exp(Tensor self) -> Tensor\n  structured_delegate: exp.out\n"
                    "- func: exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n  structured: True\n"
                    "  structured_inherits: TensorIteratorBase\n  iterator: unary_flaot\n  dispatch:\n    CPU: exp_out\n")
    with pytest.raises(SourceErrors) as info:
        load_ops(str(path))
    assert [(e.line, "unary_flaot" in e.message) for e in info.value.errors] == [(6, True)]
