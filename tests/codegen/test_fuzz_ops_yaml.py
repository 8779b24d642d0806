"""Fuzzing the codegen input (ops.yaml): random mutations of the real file and random documents
either load or fail with SourceErrors (file:line: error: ...), never with another exception.

libFuzzer drives C++ entry points only; the generator is Python, so this is hypothesis with a
bounded example count (INGOT_FUZZ_EXAMPLES raises it for a long run)."""
import os

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from codegen.errors import SourceErrors  # noqa: E402
from codegen.model import load_ops  # noqa: E402
from conftest import REPO_ROOT  # noqa: E402

OPS_YAML = os.path.join(REPO_ROOT, "ops", "ops.yaml")
with open(OPS_YAML) as _f:
    LINES = _f.read().splitlines()

FUZZ = settings(max_examples=int(os.environ.get("INGOT_FUZZ_EXAMPLES", "200")), deadline=None,
                suppress_health_check=list(HealthCheck), derandomize="CI" in os.environ)
TOKENS = ["func:", "Tensor", "Tensor(a!)", "Scalar", "->", "(", ")", ",", "*", "=", "1", "self", "out",
          "dispatch:", "CPU, CUDA:", "structured: True", "structured_delegate:", "variants:", "- ", "  ",
          ":", "[", "]", "{", "}", "&", "!", "#", "'", '"', "\t", "\n", "iterator: binary", "a.b",
          "structured_inherits: TensorIteratorBase", "CompositeImplicit:", "\x00", "é", "9" * 30]


def load(tmp_path, text: str):
    path = tmp_path / "ops.yaml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        load_ops(str(path))
    except SourceErrors as e:
        assert e.errors and all(str(x).startswith(f"{path}:") for x in e.errors), str(e)


@st.composite
def mutated_ops_yaml(draw):
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "insert", "replace", "truncate", "swap"]))
        if action == "delete":
            del lines[i]
        elif action == "duplicate":
            lines.insert(i, lines[i])
        elif action in ("insert", "replace"):
            piece = "".join(draw(st.lists(st.sampled_from(TOKENS), max_size=8)))
            if action == "insert":
                lines.insert(i, piece)
            else:
                j = draw(st.integers(0, len(lines[i])))
                lines[i] = lines[i][:j] + piece + lines[i][j:]
        elif action == "truncate":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        if not lines:
            break
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=mutated_ops_yaml())
def test_mutated_ops_yaml_loads_or_reports_source_errors(tmp_path_factory, text):
    load(tmp_path_factory.mktemp("fuzz"), text)


@FUZZ
@given(text=st.text(max_size=300) | st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_random_text_loads_or_reports_source_errors(tmp_path_factory, text):
    load(tmp_path_factory.mktemp("fuzz"), text)
