"""Runs every OpInfo entry (opinfo.py) on every available backend: special values inside longer
arrays, sizes 0..33 and one large size, layouts (transposed, stepped, negative steps, broadcast,
0-d, empty, unaligned offsets), out= and in-place forms, Python operators, promotion across dtype
pairs, Python numbers as operands, and the errors each op must raise. Floats are compared in ULPs
(NaN-ness and the sign of zero must match), integers and bool exactly."""
from __future__ import annotations

import itertools
import json
import operator as pyop
import os
import zlib

import numpy as np
import pytest

import ingot
from ingot_test_helpers import DEVICES, host, make
from opinfo import OPS, TABLED_ELSEWHERE, OpInfo
from opinfo_dim import DIM_OPS
from opinfo_index import INDEX_OPS
from opinfo_support import (ALL, can_cast, container, from_numpy, is_float, mismatches, numpy_array, opmath,
                            promote_all, promote_with_scalar, round_to, samples, specials)


LARGE = 100_003  # past the CPU grain size, so parallel chunks and their tails run

BINARY_OPERATORS = {"+": (pyop.add, pyop.iadd), "-": (pyop.sub, pyop.isub), "*": (pyop.mul, pyop.imul),
                    "/": (pyop.truediv, pyop.itruediv), "//": (pyop.floordiv, pyop.ifloordiv),
                    "%": (pyop.mod, pyop.imod), "**": (pyop.pow, pyop.ipow), "&": (pyop.and_, pyop.iand),
                    "|": (pyop.or_, pyop.ior), "^": (pyop.xor, pyop.ixor), "<<": (pyop.lshift, pyop.ilshift),
                    ">>": (pyop.rshift, pyop.irshift), "==": (pyop.eq, None), "!=": (pyop.ne, None),
                    "<": (pyop.lt, None), "<=": (pyop.le, None), ">": (pyop.gt, None), ">=": (pyop.ge, None)}
UNARY_OPERATORS = {"-": pyop.neg, "+": pyop.pos, "abs": abs, "~": pyop.invert}


def rng_for(*key) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, key)).encode()))


# ---- what an op should give
def result_dtypes(op: OpInfo, dtypes, values=None, kwargs=None) -> tuple[str, str]:
    """(common dtype, compute dtype) for inputs of `dtypes` (None marks a Python number in values)
    and the keyword numbers that take part in promotion (op.scalar_kwargs)."""
    free = [d for i, d in enumerate(dtypes) if i not in op.fixed and d is not None]
    common = promote_all(free)
    for i, d in enumerate(dtypes):
        if d is None and i not in op.fixed:
            common = promote_with_scalar(common, values[i])
    for k in op.scalar_kwargs:
        if kwargs and k in kwargs:
            common = promote_with_scalar(common, kwargs[k])
    compute = "float32" if op.result == "float" and not is_float(common) else common
    return common, compute


def expected(op: OpInfo, values, dtypes, kwargs) -> tuple[np.ndarray, str]:
    """The reference result as a container, and its dtype."""
    _, compute = result_dtypes(op, dtypes, values, kwargs)
    result = "bool" if op.result == "bool" else compute
    kwargs = dict(kwargs)
    for k in op.scalar_kwargs + op.param_kwargs:  # numbers reach the kernel in the compute type
        if k in kwargs:
            kwargs[k] = (float(round_to(kwargs[k], opmath(compute))) if is_float(compute)
                         else np.asarray(kwargs[k]).astype(numpy_array(np.zeros(0), compute).dtype)[()])
    args = []
    for i, (v, d) in enumerate(zip(values, dtypes)):
        if i in op.fixed:
            args.append(np.asarray(v, bool))
        elif is_float(compute):
            # Tensors are rounded to the compute dtype; Python numbers reach the kernel in opmath.
            x = round_to(np.asarray(v, np.float64), compute if d is not None else opmath(compute))
            if op.ref_precision == "dtype":
                x = numpy_array(x, compute)
            elif op.ref_precision == "opmath":
                x = x.astype(opmath(compute))
            args.append(x)
        else:
            args.append(numpy_array(np.asarray(v), compute))
    with np.errstate(all="ignore"):
        r = np.asarray(op.ref(*args, **kwargs))
    if is_float(result):
        r = from_numpy(r) if r.dtype.name == "bfloat16" else r.astype(np.float64)
    return container(r, result), result


def check(op: OpInfo, got, want: np.ndarray, dtype: str, context: str, inputs=()) -> None:
    assert got.dtype == dtype, f"{op.name} {context}: result dtype {got.dtype}, expected {dtype}"
    g = host(got)
    assert g.shape == want.shape, f"{op.name} {context}: shape {g.shape}, expected {want.shape}"
    tol = op.ulps.get(dtype, 0)
    bad = mismatches(g, want, dtype, tol, op.zero_sign, op.atol.get(dtype, 0.0))
    if bad.any():
        shown = []
        for idx in np.argwhere(bad)[:6]:
            ins = [np.broadcast_to(np.asarray(x), want.shape)[tuple(idx)] for x in inputs]
            shown.append(f"inputs {ins}: got {g[tuple(idx)]!r}, want {want[tuple(idx)]!r}")
        pytest.fail(f"{op.name} {context}: {int(bad.sum())} of {bad.size} elements differ "
                    f"(bound {tol} ulp for {dtype}):\n  " + "\n  ".join(shown))


def input_dtypes(op: OpInfo, dtype: str) -> list[str]:
    return [op.fixed.get(i, dtype) for i in range(op.arity)]


def run(op: OpInfo, device: str, values, dtypes, kwargs, context: str, views=None) -> None:
    """Calls the op on tensors made from `values` (each viewed through views[i]) and checks it."""
    views = views or [lambda x: x] * len(values)
    tensors = [view(make(v, d, device)) for v, d, view in zip(values, dtypes, views)]
    viewed = [view(v) for v, view in zip(values, views)]
    want, rdtype = expected(op, viewed, dtypes, kwargs)
    check(op, getattr(ingot, op.name)(*tensors, **kwargs), want, rdtype, context, viewed)


def cases(ops=OPS, per_dtype=True):
    out = []
    for op in ops:
        for d in (op.dtypes if per_dtype else [None]):
            for dev in DEVICES:
                args = (op, d, dev) if per_dtype else (op, dev)
                out.append(pytest.param(*args, id="-".join(str(a.label if isinstance(a, OpInfo) else a)
                                                           for a in args if a is not None)))
    return out


def declared_ops() -> set[str]:
    with open(os.path.join(os.path.dirname(ingot.__file__), "op_table.json")) as f:
        return {o["name"] for o in json.load(f)["ops"]}


def test_every_declared_op_has_an_entry():
    # Dim ops (softmax, scans), index ops and reductions are not elementwise: their tables are
    # opinfo_dim.py (test_dim_ops.py), opinfo_index.py (test_index_ops.py) and
    # opinfo_reductions.py (test_reductions.py, counted through TABLED_ELSEWHERE).
    missing = sorted(declared_ops() - {op.name for op in OPS} - {op.name for op in DIM_OPS}
                     - {op.name for op in INDEX_OPS} - TABLED_ELSEWHERE)
    assert not missing, f"ops declared in ops.yaml without an OpInfo entry in tests/python/opinfo.py: {missing}"


def test_every_entry_is_a_declared_op():
    stale = sorted(({op.name for op in OPS} | {op.name for op in INDEX_OPS}) - declared_ops())
    assert not stale, f"OpInfo entries for ops that ops.yaml does not declare: {stale}"


def test_entry_labels_are_unique():
    labels = [op.label for op in OPS]
    assert len(labels) == len(set(labels))


@pytest.mark.parametrize("op, dtype, device", cases())
def test_special_values_inside_longer_arrays(op, dtype, device):
    rng = rng_for(op.name, dtype, "specials")
    dtypes = input_dtypes(op, dtype)
    grids = np.meshgrid(*[specials(d) for d in dtypes], indexing="ij")
    special = [g.ravel() for g in grids]
    n = len(special[0]) * 2 + 37
    pos = np.sort(rng.choice(n, len(special[0]), replace=False))
    values = []
    for s, d, dom in zip(special, dtypes, op.domains(dtype)):
        filler = samples(d, n, rng, dom)
        filler[pos] = s
        values.append(filler)
    for kwargs in op.kwargs:
        run(op, device, values, dtypes, kwargs, f"{dtype} specials {kwargs}")


def representative_dtypes(op: OpInfo) -> list[str]:
    picks = [d for d in ("float32", "int32", "float16") if d in op.dtypes]
    return picks or [op.dtypes[0]]


@pytest.mark.parametrize("op, device", cases(per_dtype=False))
def test_sizes_0_to_33_and_large(op, device):
    for dtype in representative_dtypes(op):
        dtypes = input_dtypes(op, dtype)
        rng = rng_for(op.name, dtype, "sizes")
        for n in list(range(34)) + [LARGE]:
            # The large size repeats 1009 samples, so per-value references stay cheap.
            values = [np.resize(samples(d, min(n, 1009), rng, dom), n) for d, dom in zip(dtypes, op.domains(dtype))]
            run(op, device, values, dtypes, op.kwargs[-1], f"{dtype} size {n}")


def _bcast(shape):
    return lambda x: np.broadcast_to(x, shape) if isinstance(x, np.ndarray) else x.broadcast_to(shape)


# name -> [(base shape, view) for each input]; each layout's views give broadcast-compatible shapes.
LAYOUTS = {
    "transposed": [((7, 5), lambda x: x.T)] * 3,
    "stepped": [((10, 21), lambda x: x[::2, ::3])] * 3,
    "negative_steps": [((5, 14), lambda x: x[::-1, ::-2])] * 3,
    "broadcast": [((5, 1), lambda x: x), ((1, 7), lambda x: x), ((7,), lambda x: x)],
    "expanded": [((1, 7), _bcast((5, 7))), ((5, 1), _bcast((5, 7))), ((), _bcast((5, 7)))],
    "one_element_operand": [((5, 7), lambda x: x), ((1,), lambda x: x), ((1, 1), lambda x: x)],
    "zero_dim": [((), lambda x: x)] * 3,
    "empty": [((0, 7), lambda x: x), ((1, 7), lambda x: x), ((0, 1), lambda x: x)],
    "empty_inner": [((3, 0), lambda x: x)] * 3,
    "unaligned_offsets": [((40,), lambda x: x[1:34]), ((40,), lambda x: x[2:35]), ((40,), lambda x: x[3:36])],
    "mixed": [((5, 7), lambda x: x), ((7, 5), lambda x: x.T), ((5, 14), lambda x: x[::-1, ::-2])],
}


@pytest.mark.parametrize("op, dtype, device", cases())
def test_layouts(op, dtype, device):
    dtypes = input_dtypes(op, dtype)
    rng = rng_for(op.name, dtype, "layouts")
    for name, spec in LAYOUTS.items():
        spec = spec[:op.arity]
        values = [samples(d, shape, rng, dom) for (shape, _), d, dom in zip(spec, dtypes, op.domains(dtype))]
        run(op, device, values, dtypes, op.kwargs[-1], f"{dtype} layout {name}", [v for _, v in spec])


@pytest.mark.parametrize("op, dtype, device", cases())
def test_out_and_in_place(op, dtype, device):
    dtypes = input_dtypes(op, dtype)
    rng = rng_for(op.name, dtype, "out")
    values = [samples(d, (4, 6), rng, dom) for d, dom in zip(dtypes, op.domains(dtype))]
    kwargs = op.kwargs[-1]
    want, rdtype = expected(op, values, dtypes, kwargs)
    fn = getattr(ingot, op.name)
    outs = [("out=", ingot.empty((4, 6), dtype=getattr(ingot, rdtype))),
            ("transposed out=", ingot.empty((6, 4), dtype=getattr(ingot, rdtype)).T)]
    for label, out in outs if op.has_out else []:
        out = out if device == "cpu" else out.to(device)
        r = fn(*[make(v, d, device) for v, d in zip(values, dtypes)], **kwargs, out=out)
        assert r is out, f"{op.name}: {label} must return the out tensor"
        check(op, out, want, rdtype, f"{dtype} {label}", values)
    if not op.inplace:
        return
    for use_operator in (False, True):
        if use_operator and (op.arity != 2 or BINARY_OPERATORS.get(op.operator, (0, None))[1] is None):
            continue
        tensors = [make(v, d, device) for v, d in zip(values, dtypes)]
        self = tensors[op.self_index]
        others = tensors[:op.self_index] + tensors[op.self_index + 1:]
        if use_operator:
            kwargs = {}
            call = lambda: BINARY_OPERATORS[op.operator][1](self, others[0])  # noqa: E731
        else:
            call = lambda: getattr(self, op.name + "_")(*others, **kwargs)  # noqa: E731
        want, rdtype = expected(op, values, dtypes, kwargs)
        form = "operator in place" if use_operator else "in place"
        if op.any_out_dtype or can_cast(rdtype, dtype):
            assert call() is self, f"{op.name}: the {form} form must return self"
            check(op, self, container(want, dtype), dtype, f"{dtype} {form}", values)
        else:
            with pytest.raises(TypeError):
                call()


@pytest.mark.parametrize("op, dtype, device", [c for c in cases() if c.values[0].operator])
def test_python_operator_matches_the_function(op, dtype, device):
    dtypes = input_dtypes(op, dtype)
    rng = rng_for(op.name, dtype, "operator")
    values = [samples(d, (3, 5), rng, dom) for d, dom in zip(dtypes, op.domains(dtype))]
    tensors = [make(v, d, device) for v, d in zip(values, dtypes)]
    fn = BINARY_OPERATORS[op.operator][0] if op.arity == 2 else UNARY_OPERATORS[op.operator]
    want, rdtype = expected(op, values, dtypes, {})
    check(op, fn(*tensors), want, rdtype, f"{dtype} operator {op.operator}", values)



PAIRS = list(itertools.product(ALL, ALL))


@pytest.mark.parametrize("op, device", cases([op for op in OPS if op.arity >= 2], per_dtype=False))
def test_promotion_across_dtype_pairs(op, device):
    """Inputs of two different dtypes (and broadcast shapes) compute in their promoted dtype; a
    promoted dtype the op does not take is a typed error naming the op."""
    free = [i for i in range(op.arity) if i not in op.fixed]
    for da, db in PAIRS:
        dtypes = [op.fixed.get(i) for i in range(op.arity)]
        for k, i in enumerate(free):
            dtypes[i] = (da, db)[k % 2]
        common, _ = result_dtypes(op, dtypes, kwargs=op.kwargs[0])
        rng = rng_for(op.name, da, db)
        shapes = [(3, 4), (4,), (3, 1)]
        values = [samples(d, s, rng, dom) for d, s, dom in zip(dtypes, shapes, op.domains(common))]
        if op.takes(common, dtypes):
            run(op, device, values, dtypes, op.kwargs[0], f"{da} with {db}")
        else:
            with pytest.raises((TypeError, NotImplementedError), match=op.named):
                getattr(ingot, op.name)(*[make(v, d, device) for v, d in zip(values, dtypes)], **op.kwargs[0])


@pytest.mark.parametrize("op, dtype, device", [c for c in cases() if c.values[0].arity == 2])
def test_python_numbers_as_operands(op, dtype, device):
    """A Python number on either side ranks below the tensor (only its category counts)."""
    rng = rng_for(op.name, dtype, "scalars")
    x = samples(dtype, (7,), rng, op.domains(dtype)[0])
    fn = getattr(ingot, op.name)
    for s in op.scalars:
        for values, dtypes in (([x, s], [dtype, None]), ([s, x], [None, dtype])):
            common, _ = result_dtypes(op, dtypes, values, op.kwargs[0])
            args = [make(v, d, device) if d else v for v, d in zip(values, dtypes)]
            if not op.takes(common, [d or ("bool" if isinstance(v, bool) else None) for v, d in zip(values, dtypes)]):
                with pytest.raises((TypeError, NotImplementedError), match=op.named):
                    fn(*args, **op.kwargs[0])
                continue
            want, rdtype = expected(op, values, dtypes, op.kwargs[0])
            check(op, fn(*args, **op.kwargs[0]), want, rdtype, f"{dtype} with Python {s!r}", values)
            if op.operator in BINARY_OPERATORS:
                got = BINARY_OPERATORS[op.operator][0](*args)
                check(op, got, want, rdtype, f"{dtype} {op.operator} Python {s!r}", values)


@pytest.mark.parametrize("op, device", cases(per_dtype=False))
def test_unsupported_dtypes_raise_naming_the_op(op, device):
    for dtype in ALL:
        dtypes = input_dtypes(op, dtype)
        common, _ = result_dtypes(op, dtypes, kwargs=op.kwargs[0])
        if op.takes(common, dtypes):
            continue
        tensors = [make(container([1, 0], d), d, device) for d in dtypes]
        with pytest.raises((TypeError, NotImplementedError), match=op.named):
            getattr(ingot, op.name)(*tensors, **op.kwargs[0])


@pytest.mark.parametrize("op, device", cases([op for op in OPS if op.arity >= 2], per_dtype=False))
def test_shape_mismatch_is_a_value_error_naming_the_op(op, device):
    dtype = representative_dtypes(op)[0]
    tensors = [make(container(np.ones(3 + i), d), d, device) for i, d in enumerate(input_dtypes(op, dtype))]
    with pytest.raises(ValueError, match=op.named):
        getattr(ingot, op.name)(*tensors, **op.kwargs[0])


@pytest.mark.parametrize("op, device", cases([op for op in OPS if not op.any_out_dtype and op.has_out],
                                             per_dtype=False))
def test_out_of_a_dtype_the_result_cannot_cast_to_is_a_type_error(op, device):
    dtype = representative_dtypes(op)[0]
    dtypes = input_dtypes(op, dtype)
    _, rdtype = expected(op, [container([1], d) for d in dtypes], dtypes, op.kwargs[0])
    target = "int32" if is_float(rdtype) else "bool" if rdtype != "bool" else None
    if target is None:
        pytest.skip(f"{op.name} gives bool, which casts to every dtype")
    out = make(container([0], target), target, device)
    with pytest.raises(TypeError):
        getattr(ingot, op.name)(*[make(container([1], d), d, device) for d in dtypes], **op.kwargs[0], out=out)


@pytest.mark.parametrize("op, case, device", [pytest.param(op, e, dev, id=f"{op.label}-{e.what}-{dev}")
                                              for op in OPS for e in op.errors for dev in DEVICES])
def test_expected_errors(op, case, device):
    def t(values, dtype):
        return make(container(values, dtype), dtype, device)
    with pytest.raises(case.exc, match=case.match):
        case.call(getattr(ingot, op.name), t)
