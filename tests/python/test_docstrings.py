"""help() on ingot's functions: every public function, method and class has a docstring; an op
declared in ops.yaml shows its doc text and its declarations (python/gen_op_bindings.py)."""
import inspect

import pytest

import ingot

PUBLIC = sorted(n for n in dir(ingot) if not n.startswith("_") and callable(getattr(ingot, n)))
METHODS = sorted(n for n in dir(ingot.Tensor) if not n.startswith("_") and callable(getattr(ingot.Tensor, n)))
# Reductions, softmax and scans (issue #12); every op of ops.yaml has a doc: (tests/codegen checks).
DOCUMENTED = ("sum prod mean nansum nanmean amax amin max min argmax argmin var std var_mean std_mean any all "
              "count_nonzero logsumexp norm vector_norm softmax log_softmax cumsum cumprod cummax cummin").split()


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_function_and_class_has_a_docstring(name):
    assert (inspect.getdoc(getattr(ingot, name)) or "").strip(), f"ingot.{name} has no docstring"


@pytest.mark.parametrize("name", METHODS)
def test_every_tensor_method_has_a_docstring(name):
    assert (inspect.getdoc(getattr(ingot.Tensor, name)) or "").strip(), f"Tensor.{name} has no docstring"


@pytest.mark.parametrize("name", DOCUMENTED)
def test_a_reduction_shows_its_ops_yaml_doc_then_its_declarations(name):
    doc = inspect.getdoc(getattr(ingot, name))
    text, _, declared = doc.partition("Declared as (ops.yaml):")
    assert len(text.split()) >= 5, doc  # a sentence or more of its own, before the declarations
    assert f"    {name}(" in declared or f"    {name}." in declared, doc
    if hasattr(ingot.Tensor, name):  # var_mean and std_mean are functions only, as in PyTorch
        assert getattr(ingot.Tensor, name).__doc__ == getattr(ingot, name).__doc__


def test_an_elementwise_op_shows_its_doc_and_every_overloads_declaration():
    doc = inspect.getdoc(ingot.sub)
    assert doc.startswith("self - alpha * other")
    assert "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" in doc
    assert "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor" in doc
    assert "sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)" in doc


def test_an_in_place_method_says_so_and_names_its_functional_op():
    doc = inspect.getdoc(ingot.Tensor.add_)
    assert doc.startswith("In-place add: writes the result into self and returns self.")
    assert "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)" in doc


def test_the_signature_stays_the_schemas():
    assert str(inspect.signature(ingot.sum)) == "(self, dim=None, keepdim=False, *, dtype=None, out=None)"
