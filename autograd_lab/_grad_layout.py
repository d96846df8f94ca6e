"""torch's gradient layout contract: which tensor becomes a leaf's first ``.grad``.

``AccumulateGrad`` in torch keeps the incoming gradient itself as ``.grad`` ("steals" it) when
nothing else holds it and it is laid out as the leaf (same strides, or contiguous for a leaf
that is not dense); otherwise ``.grad`` is a copy laid out as the leaf
(``empty_like(var).copy_(g)``, which has version 1). Which of the two happened shows in
``.grad``'s strides and ``._version``, so it is replayed here; ``node.accumulate_grad`` calls
``first_grad`` once and otherwise only adds.

Layer: data and graph (imports ``tensor`` and basics).
"""

from __future__ import annotations

import weakref
from sys import getrefcount
from typing import Any

import numpy as np

from ._grad_memory import sole_buffer, storage_for
from ._zero_tensor import ZeroGrad
from .memory import Storage
from .tensor import Tensor, _make, torch_strides

# References to a gradient array that only the engine holds, as ``_stolen`` counts them: the
# engine's input buffer, the arguments of ``accumulate_grad``, ``first_grad`` and ``_stolen``,
# and getrefcount's own.
_ONLY_OURS = 5


def dense(a: np.ndarray) -> bool:
    """torch's ``is_non_overlapping_and_dense``: the elements fill their memory exactly, in
    some order of the dims."""
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return True
    expect = a.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(a.strides, a.shape) if n != 1):
        if stride != expect:
            return False
        expect *= size
    return True


def obeys_layout(g: np.ndarray, var: np.ndarray) -> bool:
    """torch's gradient layout contract: ``g`` may become ``var.grad`` as it is only when
    its strides match ``var``'s (a dense ``var``) or it is contiguous."""
    if g.size == 0:  # numpy zeroes an empty array's strides: compare torch's
        gst, vst = torch_strides(g), torch_strides(var)
        return all((gs != 0) if n == 1 else gs == vs for n, gs, vs in zip(g.shape, gst, vst))
    if not dense(var):
        return bool(g.flags.c_contiguous)
    for size, gs, vs in zip(g.shape, g.strides, var.strides):
        if (gs != vs) if size != 1 else gs == 0:
            return False
    return True


def _clone_obey_contract(g: Any, var: Tensor) -> Tensor:
    """A copy of gradient ``g`` laid out as ``var``: ``empty_like(var).copy_(g)`` (version 1,
    ``CopyBackwards`` when ``g`` requires grad), or a contiguous clone for a sparse layout."""
    if isinstance(g, Tensor) and g._rg:
        if dense(var._data):
            return _make(np.empty_like(var._data), var.dtype, None).copy_(g)
        return g.clone()
    data = g._data if isinstance(g, Tensor) else g
    if not dense(var._data):
        return _make(np.array(data, dtype=var.dtype.np, order="C"), var.dtype, None)
    out = _make(np.empty_like(var._data), var.dtype, None)
    np.copyto(out._data, data, casting="unsafe")
    out._vc[0] = 1
    return out


def _stolen(g: Any, var: Tensor) -> bool:
    """Whether torch would make gradient ``g`` ``var.grad`` itself: nothing else holds it
    (views of a buffer held elsewhere count as unshared: torch counts references to the
    tensor, not to its memory), and it has ``var``'s dtype and layout."""
    return (type(g) is np.ndarray and g.dtype == var.dtype.np
            and getrefcount(g) <= _ONLY_OURS
            and obeys_layout(g, var._data))


def _fresh_buffer(g: np.ndarray) -> bool:
    """Whether view ``g`` covers, densely, a buffer nothing else refers to (a formula's
    ``(b.T @ a).T``): then it is a tensor of its own in torch, and can be kept."""
    base = sole_buffer(g)
    return base is not None and g.nbytes == base.nbytes and dense(g)


# gradient buffer (by id) -> (its weak reference, the Storage every stolen view of it shares)
_shared: dict[int, tuple[weakref.ref, Storage]] = {}


def _expanded_scalar(g: np.ndarray, var: Tensor, version: int) -> Tensor | None:
    """``var.grad`` as a view of the gradient buffer ``g`` points into, when ``g`` is a 0-d
    element of a gradient buffer (sum's backward expands, stack's unbinds): torch steals
    each such view (a 0-d tensor obeys the layout contract), so these leaves' ``.grad`` share
    memory and one version counter, and an in-place change through one shows in all."""
    if g.ndim:
        return None
    root = g.base
    while type(root) is np.ndarray and root.base is not None:
        root = root.base
    if type(root) is not np.ndarray or root.dtype != g.dtype or not root.flags.writeable:
        return None
    flat = root.ravel(order="K")  # the buffer in memory order, a view of it
    if flat.base is None:
        return None
    offset = g.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    view = flat[offset // root.itemsize, ...]  # a 0-d writable view whose base is root
    key = id(root)
    entry = _shared.get(key)
    if entry is None or entry[0]() is not root:
        ref = weakref.ref(root, lambda r, key=key: _shared.pop(key, None))
        # a counted gradient array, or a tensor's memory (a hook's return): its own count
        entry = _shared[key] = (ref, storage_for(root) or Storage(root.nbytes))
        entry[1].version = version
    return _make(view, var.dtype, None, entry[1])


def first_grad(var: Tensor, g: Any, create_graph: bool, version: int) -> tuple[Tensor, Any]:
    """The tensor that becomes ``var.grad`` when ``var`` has none yet, and ``g`` as it was
    added (in ``var``'s dtype). ``g`` is a Tensor (under ``create_graph``, or returned by a
    hook) already in ``var``'s dtype, or a numpy array whose torch version is ``version``."""
    if isinstance(g, Tensor):
        d = g._data
        if not create_graph and d.base is None and d.flags.writeable \
                and obeys_layout(d, var._data):
            return g.detach(), g
        return _clone_obey_contract(g, var), g
    if isinstance(g, np.generic):  # numpy's 0-d results: a fresh 0-d tensor in torch
        g = np.asarray(g)
    if type(g) is np.ndarray and g.dtype != var.dtype.np:  # torch's engine casts each
        g = g.astype(var.dtype.np)  # gradient to its input's dtype (a wider one is ours)
    elif type(g) is np.ndarray and any(st < 0 for st in g.strides):
        g = np.ascontiguousarray(g)  # numpy's flip is a view; torch's is a new tensor
    if type(g) is ZeroGrad and obeys_layout(g, var._data):  # a ZeroTensor kept as is
        grad = _make(np.array(g, dtype=var.dtype.np), var.dtype, None)
        grad._zero = True
        return grad, g
    if create_graph or not _stolen(g, var):
        return _clone_obey_contract(g, var), g
    # torch keeps this gradient tensor as it is, with its version
    if not g.flags.writeable or (g.base is not None and not _fresh_buffer(g)):
        grad = _expanded_scalar(g, var, version)
        if grad is not None:
            return grad, g
        g = np.array(g, copy=True)  # it aliases memory we still use
    grad = _make(g, var.dtype, None, storage=storage_for(g))  # g's bytes are counted already
    grad._vc[0] = version
    return grad, g
