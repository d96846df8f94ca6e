"""Gradients in flight count as allocated memory, as in torch's CPU allocator.

During a plain backward (no ``create_graph``) gradients travel between nodes as numpy
arrays, not Tensors, so no ``Storage`` counts them. torch allocates them like any tensor, so
its memory profile has a peak *inside* backward: a node's output gradient is allocated before
the node's saved tensors are released and before its incoming gradient is dropped
(``ReluBackward0`` on 4 MiB: +4 MiB, then -4 MiB saved, then -4 MiB incoming).

``track(g)`` counts a gradient array that owns fresh memory from the moment the engine sees
it until numpy frees it (a weak reference's callback). A view of memory that others hold
(the incoming gradient reshaped or expanded, a saved tensor) allocates nothing and is not
counted; a view of a fresh buffer only it refers to counts that buffer. When such an array
becomes a tensor -- the leaf's ``.grad`` stealing it (``AccumulateGrad`` keeps the buffer
instead of copying), or the tensor a hook sees -- the tensor gets ``storage_for(g)``: a
Storage that reports the bytes but does not count them again, since the array is already
counted for as long as it lives.
"""

from __future__ import annotations

import weakref
from sys import getrefcount
from typing import Any

import numpy as np

from .memory import _MEM, Storage

_live: dict[int, weakref.ref] = {}  # id of each counted array -> its weak reference


def _released(ref: weakref.ref, nbytes: int, key: int) -> None:
    _MEM.allocated -= nbytes
    if _live.get(key) is ref:
        del _live[key]


def track(g: Any) -> None:
    """Count ``g`` (a gradient array the engine now holds) if it owns memory not yet counted:
    itself, or the fresh buffer it is a view of (a formula that ends with a reshape or a dtype
    view) when nothing but ``g`` refers to that buffer."""
    if type(g) is not np.ndarray:
        return
    if g.base is not None:
        g = sole_buffer(g)
        if g is None:  # someone else's memory (a saved tensor, the incoming gradient): not new
            return
    n = g.nbytes
    key = id(g)
    if not n or key in _live:
        return
    m = _MEM
    m.allocated += n
    if m.allocated > m.peak:
        m.peak = m.allocated
    _live[key] = weakref.ref(g, lambda ref, n=n, key=key: _released(ref, n, key))


def sole_buffer(g: np.ndarray) -> np.ndarray | None:
    """The buffer view ``g`` is of, when nothing but ``g`` refers to it (a formula's
    ``(b.T @ a).T``, a dtype view of a fresh mask); else None."""
    base = g.base  # numpy points a view's base at the array that owns the memory
    if type(base) is np.ndarray and base.base is None and getrefcount(base) <= 3:
        return base  # references: g.base, this name, getrefcount's argument
    return None


def is_tracked(g: Any) -> bool:
    """Whether ``g`` (or the buffer it is a view of) is a gradient array counted here."""
    root = g if g.base is None else g.base
    ref = _live.get(id(root))
    return ref is not None and ref() is root


class _TrackedStorage(Storage):
    """The storage of a tensor around a counted gradient array: its bytes, not counted twice."""

    __slots__ = ()

    def __init__(self, nbytes: int) -> None:
        self.nbytes = nbytes
        self.version = 0

    def __del__(self) -> None:
        pass  # the array's weak reference uncounts it when numpy frees it


def storage_for(g: np.ndarray) -> Storage | None:
    """The Storage a tensor wrapping ``g`` should use: None (a counting one) unless ``g`` is
    counted here already."""
    return _TrackedStorage(g.nbytes) if type(g) is np.ndarray and is_tracked(g) else None
