"""The ``._version`` torch's gradient tensors carry through a backward pass, replayed.

The engine passes numpy arrays, which have no version; torch's gradients are tensors, and
two things bump their version before a leaf keeps one as ``.grad`` (or ``grad()`` returns
it):

* the engine's input buffer sums a second gradient *in place* when it holds the only
  reference to a dense buffer that is no view (``add``: version + 1);
* some backward formulas end with in-place steps (``zeros(...).scatter_(...)``): a node
  class says so in ``grad_versions``, one entry per edge (``after_formula``).

``GradVersions`` remembers those versions by array identity (weakly); ``of`` reads one back.

Layer: backward (beside ``engine``, which holds one per run).
"""

from __future__ import annotations

import weakref
from sys import getrefcount
from typing import Any

import numpy as np

from ._grad_layout import dense
from .tensor import Tensor


class GradVersions:
    """The versions of the gradient arrays of one backward pass that torch would have
    changed in place (the others have version 0)."""

    __slots__ = ("vers",)

    def __init__(self) -> None:
        self.vers: dict[int, tuple] = {}  # id(array) -> (weakref, version)

    def add(self, buf: list, nr: int, g: Any) -> None:
        """``buf[nr] += g`` in an input buffer that already holds a gradient. torch adds in
        place when it holds the only reference to a dense buffer that is no view (and grad
        mode is off): the sum then has the old version + 1."""
        old = buf[nr]
        if old is not g and type(old) is np.ndarray and old.base is None and old.size \
                and getrefcount(old) <= 3 and dense(old) and np.result_type(old, g) == old.dtype \
                and np.broadcast_shapes(old.shape, np.shape(g)) == old.shape:
            np.add(old, g, out=old)  # in place, as torch: no new buffer
            self.vers[id(old)] = (weakref.ref(old), self.of(old) + 1)
            return
        new = old + g
        if old is not g and getrefcount(old) <= 3 and (  # the buffer, ``old``, getrefcount's
                isinstance(old, np.generic)
                or type(old) is np.ndarray and old.base is None and dense(old)):
            if type(new) is not np.ndarray:  # numpy's 0-d sums are scalars
                new = np.asarray(new)
            elif not new.size:  # an empty one, added to in place, keeps its torch strides
                new = old
            self.vers[id(new)] = (weakref.ref(new), self.of(old) + 1)
        buf[nr] = new

    def of(self, a: Any) -> int:
        """The version torch's gradient tensor ``a`` would have."""
        if not self.vers or type(a) is not np.ndarray:
            return 0
        for x in (a, a.base):
            e = self.vers.get(id(x))
            if e is not None and e[0]() is x:
                return e[1]
        return 0

    def after_formula(self, out: tuple, versions: tuple[int | None, ...]) -> tuple:
        """A node's fresh gradients with the versions torch's formula leaves them at
        (``versions``: the node class's ``grad_versions``; a numpy scalar becomes a 0-d
        array, which can carry one)."""
        if any(isinstance(g, np.generic) for g in out):
            out = tuple(np.asarray(g) if isinstance(g, np.generic) else g for g in out)
        for g, v in zip(out, versions):
            if v is None:  # the formula's own version is not known here: leave it
                continue
            if type(g) is np.ndarray:  # a view: its base holds the version (torch's views share)
                a = g if g.base is None else g.base
                self.vers[id(a)] = (weakref.ref(a), v)
            elif isinstance(g, Tensor):  # a view shares its base's counter, as in torch
                g._vc[0] = v
        return out
