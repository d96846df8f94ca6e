"""torch's memory layouts for numpy arrays: the strides torch gives a new tensor where numpy
decides otherwise (``empty_like`` of a non-dense tensor, ``new_empty_strided``), and the
strides of empty gradients, which numpy does not keep (``tensor.torch_strides``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import torch_strides
from .summation import sort_dims


def empty_dense_like(a: np.ndarray) -> np.ndarray:
    """torch's ``empty_like`` of a non-dense ``a`` (``infer_dense_strides``): its dims sorted
    by stride, innermost last, by a stable insertion sort in which a zero stride compares
    with nothing (an expanded dim keeps its row-major place)."""
    n, st, sz = a.ndim, a.strides, a.shape
    perm = list(range(n - 1, -1, -1))  # innermost first

    def swap(d0: int, d1: int) -> int:
        s0, s1 = st[d0], st[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return 1 if s0 > s1 else -1
        return 1 if sz[d0] > sz[d1] else 0

    outer = sort_dims(perm, swap)[::-1]
    return np.empty([sz[d] for d in outer], a.dtype).transpose(np.argsort(outer))


def preserve_copy(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` laid out as torch's ``preserve_format`` does: ``a``'s own strides when
    ``a`` is dense, else dense ones in ``a``'s order of dims (numpy's order "K" is the same
    rule but for zero strides)."""
    if a.size and 0 in a.strides:
        out = empty_dense_like(a)
        out[...] = a
        return out
    return np.array(a, order="K", copy=True)


def empty_strided(shape: tuple, strides: tuple, dt: Any) -> np.ndarray:
    """An uninitialized array whose dims lie in memory in the order of ``strides`` (the
    outermost first), as torch's ``new_empty_strided`` with a dense layout."""
    n = len(shape)
    order = sorted(range(n), key=lambda d: -abs(strides[d]))
    if order == list(range(n)):
        return np.empty(shape, dt)
    a = np.empty([shape[d] for d in order], dt)
    return a.transpose(np.argsort(order))


def unsqueeze_empty(g: np.ndarray, shape: tuple) -> np.ndarray:
    """An empty gradient given back its size-1 dims with torch's strides (numpy has none for
    an empty array): unsqueeze at ``d`` takes stride ``size[d] * stride[d]`` -- 0 in front of
    a size-0 dim, which breaks the gradient layout contract."""
    ins = [d for d, n in enumerate(shape) if n == 1]
    if len(ins) != len(shape) - g.ndim:
        return g.reshape(shape)
    sizes, strides = list(g.shape), list(torch_strides(g))
    for d in ins:
        strides.insert(d, 1 if d >= len(sizes) else sizes[d] * strides[d])
        sizes.insert(d, 1)
    st = tuple(s * g.itemsize for s in strides)
    return np.lib.stride_tricks.as_strided(g, shape, st, writeable=any(st) and g.flags.writeable)
