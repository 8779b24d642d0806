"""The slow path of the generated op functions: when nanobind finds no overload for the given
arguments, Python numbers and array-likes passed for Tensor parameters are converted and the call
is retried (ingot.where(mask, x, 0), t + [1, 2, 3]). The fast path never comes here."""
from ingot._C import Tensor, _scalar_tensor
from ingot._creation import _CPU, asarray
from ingot._dtype import check_int64


def as_tensor(value, device, op="asarray"):
    """A Python number as a 0-dim wrapped number (ranked below tensors in type promotion, as in
    PyTorch), kept on the host: device kernels take it by value, with no copy to the device; a
    tensor as itself; anything else through asarray on `device`."""
    if isinstance(value, Tensor):
        return value
    check_int64(op, "other", value)
    if isinstance(value, (bool, int, float)):
        return _scalar_tensor(value, _CPU)
    return asarray(value, device=device)


def tensor_args(op, names, values, tensor_params):
    """`values` with every Tensor parameter that holds a number or an array-like converted by
    as_tensor. None when nothing needed converting, so the caller's error stands."""
    like = next((v for v in values if isinstance(v, Tensor)), None)
    device = like.device if like is not None else _CPU
    for name, value in zip(names, values):
        check_int64(op, name, value)
    out, changed = list(values), False
    for i in tensor_params:
        value = values[i]
        if value is None or isinstance(value, Tensor):
            continue
        try:
            out[i] = as_tensor(value, device)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{op}: argument '{names[i]}' must be an ingot.Tensor, a number or an "
                            f"array-like, not {type(value).__name__}") from e
        changed = True
    return out if changed else None
