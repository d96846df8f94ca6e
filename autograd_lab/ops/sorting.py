"""Sorting: ``sort``, ``argsort``, ``topk``.

Each returns the values and where they came from; the gradient of the values goes back
to those positions (zeros elsewhere). Ties keep their original order (a stable sort),
and nan sorts as the largest value, as in torch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import int64
from .._precision import exact
from . import common as c
from .common import Node, Tensor, norm_dim
from .extremes import _return_type
from .gather_scatter import scatter
from .record import make, node_for
from .stl_select import has_ties, topk_row

sort_type, topk_type = _return_type("sort"), _return_type("topk")


def _order(a: np.ndarray, d: int, descending: bool) -> np.ndarray:
    """Stable argsort along ``d``; descending keeps equal elements in their original order."""
    if not descending:
        return np.argsort(a, axis=d, kind="stable")
    n = a.shape[d]
    rev = np.argsort(np.flip(a, d), axis=d, kind="stable")
    return n - 1 - np.flip(rev, d)


class SortBackward0(Node):
    """values = sort(x, dim);  dx = zeros with g put back at the sorted positions"""

    saved_names = ("dim", "indices", "self_sym_sizes")
    grad_versions = (2,)  # torch's formula ends with in-place steps

    def backward(self, g: Any, g_indices: Any = None) -> Any:
        shape, d = self._saved["self_sym_sizes"], self._saved["dim"]
        if not shape:
            return g
        idx = self.saved("indices")
        if isinstance(g, Tensor):
            zeros = make(np.zeros(shape, dtype=g.dtype.np), g.dtype, None)
            return scatter(zeros, d, idx, g)
        out = np.zeros(shape, dtype=g.dtype)
        np.put_along_axis(out, idx, g, d)
        return out


class TopkBackward0(SortBackward0):
    """values = topk(x, k, dim);  dx = zeros with g put back at the chosen positions"""


def _values_and_indices(x: Tensor, dim: int, order: np.ndarray | None, cls: type[Node],
                        ret: type, k: int | None = None) -> Any:
    """``ret(values, indices)``: x's elements in ``order`` along ``dim`` (its first ``k``)."""
    data = x._data
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        vals = data.copy()
        d = 0
    else:
        d = norm_dim(dim, data.ndim)
        idx = order if k is None else np.take(order, np.arange(k), axis=d)
        vals = np.take_along_axis(data, idx, d)
    node = node_for(cls, x)
    values = make(vals, x.dtype, node)
    indices = make(idx.astype(np.int64, copy=False), int64, None)
    if node is not None:
        node._saved.update(dim=d, self_sym_sizes=data.shape)
        node.save("indices", indices)
        c.show_saved(node, dim=c.shown_dim(dim))
    return ret(values, indices)


def sort(x: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
    """(values, indices) sorted along ``dim``."""
    data = c.unary_data(x, "sort")
    if data.ndim == 0:
        return _values_and_indices(x, dim, None, SortBackward0, sort_type)
    d = norm_dim(dim, data.ndim)
    return _values_and_indices(x, dim, _order(data, d, descending), SortBackward0, sort_type)


def argsort(x: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
    """The indices that sort ``x`` along ``dim``."""
    return sort(x, dim, descending, stable=stable).indices


def topk(x: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    """(values, indices) of the ``k`` largest (or smallest) elements along ``dim``."""
    data = c.unary_data(x, "topk")
    size = data.shape[norm_dim(dim, data.ndim)] if data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if data.ndim == 0:
        return _values_and_indices(x, dim, None, TopkBackward0, topk_type)
    d = norm_dim(dim, data.ndim)
    order = _order(data, d, largest)
    if k and exact(data.size):
        return _values_and_indices(x, dim, _topk_replayed(data, order, d, k, largest, sorted),
                                   TopkBackward0, topk_type)
    return _values_and_indices(x, dim, order, TopkBackward0, topk_type, k)


def _topk_replayed(data: np.ndarray, order: np.ndarray, d: int, k: int, largest: bool,
                   sorted_: bool) -> np.ndarray:
    """The first ``k`` of ``order`` along ``d``, with rows whose order torch's selection
    decides (ties, or unsorted output) replayed by ``stl_select``."""
    rows = np.moveaxis(data, d, -1).reshape(-1, data.shape[d])
    picked = np.moveaxis(np.take(order, np.arange(k), axis=d), d, -1)
    flat = picked.reshape(-1, k).copy()
    for r, row in enumerate(rows):
        if not sorted_ or has_ties(row):
            flat[r] = topk_row(row.tolist(), k, largest, sorted_)
    return np.moveaxis(flat.reshape(picked.shape), -1, d)
