import pytest

import ingot


def test_accelerator_and_compile_errors_are_runtime_errors():
    assert issubclass(ingot.AcceleratorError, RuntimeError)
    assert issubclass(ingot.CompileError, RuntimeError)
    assert ingot.AcceleratorError is not ingot.CompileError


def test_ingot_value_error_maps_to_value_error():
    t = ingot.zeros((2, 3))
    with pytest.raises(ValueError):
        t.view(4, 2)  # 6 elements cannot be viewed as 8


def test_ingot_index_error_maps_to_index_error():
    with pytest.raises(IndexError):
        ingot.zeros((2, 3)).transpose(0, 5)


def test_ingot_type_error_maps_to_type_error():
    with pytest.raises(TypeError, match="_bitcast"):
        ingot.zeros((2,))._bitcast(ingot.float64)  # raised by INGOT_CHECK(..., TypeError, ...)


def test_item_of_many_elements_is_value_error():
    with pytest.raises(ValueError):
        ingot.zeros((2,)).item()


def test_unknown_device_is_value_error():
    with pytest.raises(ValueError, match="device"):
        ingot.device("tpu")
