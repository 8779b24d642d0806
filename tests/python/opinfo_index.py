"""OpInfo-style entries for the index ops (ops.yaml "Index ops"), which the elementwise table in
opinfo.py cannot describe: an entry names the op, a data shape, and cases; each case calls the op
on a data tensor with index tensors made by `ix` (int64 or int32, on the device under test) and
gives the NumPy result. tests/python/test_index_ops.py runs every entry on every dtype, both index
dtypes, contiguous and transposed data, on every device; test_opinfo.py counts them as entries."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from opinfo_support import ALL


def gather_ref(a, dim, ix):
    """torch.gather's result: a cropped to ix's shape off `dim`, then read along `dim`."""
    dim = dim % a.ndim
    crop = tuple(slice(None) if d == dim else slice(0, ix.shape[d]) for d in range(a.ndim))
    return np.take_along_axis(a[crop], ix, axis=dim)


def scatter_ref(a, dim, ix, src, add=False):
    out = a.copy()
    dim = dim % a.ndim
    for pos in np.ndindex(*ix.shape):
        target = list(pos)
        target[dim] = ix[pos] % a.shape[dim]
        if add:
            out[tuple(target)] += src[pos]
        else:
            out[tuple(target)] = src[pos]
    return out


@dataclass(frozen=True)
class Case:
    """call(fn, x, ix) runs the op (fn: the ingot function) on data x; ref(a) is the result on the
    data's values a (float64). ix(list) makes an index tensor."""
    call: Callable
    ref: Callable


@dataclass(frozen=True)
class IndexOpInfo:
    name: str
    shape: tuple
    cases: tuple
    dtypes: tuple = ALL
    exact_sums: bool = False  # sums: floats are rounded per step (compared with a tolerance), ints wrap
    notes: str = ""


G = np.array([[0, 2, -1], [3, 3, 0]])
S = np.array([[0, 2, 1], [3, 1, 0]])  # distinct per column: scatter's result is then defined

INDEX_OPS = [
    IndexOpInfo("gather", (4, 3), (
        Case(lambda f, x, ix: f(x, 0, ix(G)), lambda a: gather_ref(a, 0, G)),
        Case(lambda f, x, ix: f(x, -1, ix([[2], [0]])), lambda a: gather_ref(a, 1, np.array([[2], [0]]))),
    )),
    IndexOpInfo("index_select", (4, 3), (
        Case(lambda f, x, ix: f(x, 0, ix([3, 0, -4])), lambda a: a[[3, 0, 0]]),
        Case(lambda f, x, ix: f(x, 1, ix([])), lambda a: a[:, []]),
    )),
    IndexOpInfo("take", (4, 3), (
        Case(lambda f, x, ix: f(x, ix([[11, 0], [-1, 4]])), lambda a: np.take(a, [[11, 0], [-1, 4]])),
    )),
    IndexOpInfo("take_along_dim", (4, 3), (
        Case(lambda f, x, ix: f(x, ix([[2], [0], [1], [1]]), 1), lambda a: np.take_along_axis(a, np.array([[2], [0], [1], [1]]), 1)),
        Case(lambda f, x, ix: f(x, ix([5, 0])), lambda a: np.take(a, [5, 0])),
    )),
    IndexOpInfo("scatter", (4, 3), (
        Case(lambda f, x, ix: f(x, 0, ix(S), x[:2]), lambda a: scatter_ref(a, 0, S, a[:2])),
        Case(lambda f, x, ix: f(x, 0, ix(S), value=1), lambda a: scatter_ref(a, 0, S, np.ones(S.shape))),
    )),
    IndexOpInfo("scatter_add", (4, 3), (
        Case(lambda f, x, ix: f(x, 0, ix(G), x[:2]), lambda a: scatter_ref(a, 0, G, a[:2], add=True)),
    ), dtypes=tuple(d for d in ALL if d != "bool"), exact_sums=True, notes="bool adds as logical or (tested in test_index_ops)."),
    IndexOpInfo("index", (4, 3), (
        Case(lambda f, x, ix: f(x, [ix([3, -1]), ix([0, 2])]), lambda a: a[[3, -1], [0, 2]]),
    )),
    IndexOpInfo("index_put", (4, 3), (
        Case(lambda f, x, ix: f(x, [ix([3, 0])], x[1]), lambda a: np.concatenate([a[1:2], a[1:3], a[1:2]])),
        Case(lambda f, x, ix: f(x, [ix([0, 0])], x[1], True), lambda a: np.concatenate([a[:1] + 2 * a[1:2], a[1:]])),
    ), dtypes=tuple(d for d in ALL if d != "bool"), exact_sums=True),
    IndexOpInfo("masked_fill", (4, 3), (
        Case(lambda f, x, ix: f(x, ix([True, False, True]), 1), lambda a: np.where([True, False, True], 1, a)),
    )),
    IndexOpInfo("nonzero", (4, 3), (
        Case(lambda f, x, ix: f(x), lambda a: np.argwhere(a)),
    )),
]
