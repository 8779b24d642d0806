"""The slow path of the generated op functions: when nanobind finds no overload for the given
arguments, Python numbers and array-likes passed for Tensor parameters are converted and the call
is retried (ingot.where(mask, x, 0), t + [1, 2, 3]). The fast path never comes here."""
from ingot._C import Tensor, _scalar_tensor
from ingot._C import device as _device

_CPU = _device("cpu")


def tensor_args(op, names, values, tensor_params):
    """`values` with every Tensor parameter that holds a number or an array-like converted: numbers
    become 0-dim wrapped numbers (ranked below tensors in type promotion, as in PyTorch), the rest
    go through asarray. None when nothing needed converting, so the caller's error stands."""
    like = next((v for v in values if isinstance(v, Tensor)), None)
    device = like.device if like is not None else _CPU
    out, changed = list(values), False
    for i in tensor_params:
        value = values[i]
        if value is None or isinstance(value, Tensor):
            continue
        if isinstance(value, (bool, int, float)):
            out[i] = _scalar_tensor(value, device)
        else:
            from ingot._creation import asarray
            try:
                out[i] = asarray(value, device=device)
            except (TypeError, ValueError) as e:
                raise TypeError(f"{op}: argument '{names[i]}' must be an ingot.Tensor, a number or an "
                                f"array-like, not {type(value).__name__}") from e
        changed = True
    return out if changed else None
