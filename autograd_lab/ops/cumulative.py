"""Cumulative ops: ``cumsum`` and ``cumprod`` along a dim.

torch accumulates float32 in double and rounds each output once (``acc_type`` of its CPU
kernel), so the running values here are computed in float64 too. Integers and bools give
int64. ``cumsum``'s gradient is the reversed cumulative sum of ``g``; ``cumprod``'s is the
reversed cumulative sum of ``g * y`` divided by ``x``, computed without division where x
has zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import dtype as DType
from . import common as c
from .common import Node, Tensor, norm_dim
from .join_split import cat
from .record import make, node_for
from .reductions import _sum_dtype


def _missing_dim(name: str) -> TypeError:
    return TypeError(f'{name}() missing 1 required positional arguments: "dim"')


def _running(fn: Any, data: np.ndarray, d: int, out: np.dtype) -> np.ndarray:
    """``fn`` (np.cumsum / np.cumprod) along ``d`` in torch's accumulator type, as ``out``."""
    if not data.ndim:
        return data.astype(out)
    acc = np.float64 if out.kind == "f" else out
    return fn(data, axis=d, dtype=acc).astype(out, copy=False)


def _reversed_cumsum(g: Any, d: int) -> Any:
    """sum_{i >= j} g_i along ``d``."""
    if isinstance(g, Tensor):
        return g.flip(d).cumsum(d).flip(d)
    return np.flip(_running(np.cumsum, np.flip(g, d), d, g.dtype), d).copy()  # (torch's flip
    # copies: a new tensor, which AccumulateGrad keeps)


class CumsumBackward0(Node):
    """y_i = sum_{j <= i} x_j;  dx_j = sum_{i >= j} g_i (a reversed cumulative sum)"""

    saved_names = ("dim",)

    def backward(self, g: Any) -> Any:
        d = self._saved["dim"]
        n = g.numel() if isinstance(g, Tensor) else g.size
        if g.ndim == 0 or n <= 1 or g.shape[d] == 1:  # torch returns grad itself
            return g
        return _reversed_cumsum(g, d)


def cumsum(x: Tensor, dim: int | None = None, *, dtype: DType | None = None) -> Tensor:
    """The running sum along ``dim``."""
    data = c.unary_data(x, "cumsum")
    if dim is None:
        raise _missing_dim("cumsum")
    dt = _sum_dtype(x, dtype)
    d = norm_dim(dim, data.ndim)
    node = node_for(CumsumBackward0, x) if dt.is_floating_point else None
    if node is not None:
        node._saved["dim"] = d
        c.show_saved(node, dim=c.shown_dim(dim))
    return make(_running(np.cumsum, data, d, dt.np), dt, node)


class CumprodBackward0(Node):
    """y_i = prod_{j <= i} x_j;  dx_j = sum_{i >= j} g_i prod_{k <= i, k != j} x_k
    (= reversed_cumsum(g * y)_j / x_j where x has no zero)"""

    saved_names = ("dim", "self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        d = self._saved["dim"]
        if not x.shape or x.shape[d] <= 1:
            return g
        # only the create_graph formula for inputs with zeros ends in place (set per call: the
        # node may run again, with retain_graph, the other way)
        self.grad_versions = None
        if isinstance(x, Tensor) or isinstance(g, Tensor):  # create_graph: torch's graph
            return self._grad_graph(g, x, y, d)
        if not (x == 0).any():  # torch's result is contiguous (a leaf laid out otherwise copies)
            out = np.empty(x.shape, dtype=np.result_type(x, g))
            return np.divide(_reversed_cumsum(y * g, d), x, out=out)
        return np.ascontiguousarray(_cumprod_grad_zeros(g, x, y, d))  # torch: zeros(sizes)

    def _grad_graph(self, g: Any, x: Any, y: Any, d: int) -> Tensor:
        """Differentiable (create_graph), as torch records it: ``reversed_cumsum(y * g) / x``
        where x has no zero, else its O(n^2) formula written slice by slice into zeros."""
        if not isinstance(x, Tensor):
            x = make(x, g.dtype, None)
        if not isinstance(g, Tensor):
            g = make(g, x.dtype, None)
        if not isinstance(y, Tensor):
            y = make(y, x.dtype, None)
        if not (x._data == 0).any():
            return _reversed_cumsum(y * g, d) / x
        self.grad_versions = (x.shape[d] + 1,)  # zeros, then one copy_ per slice (and one more)
        return _cumprod_grad_graph(g, x, d)


def _cumprod_grad_zeros(g: np.ndarray, x: np.ndarray, y: np.ndarray, d: int) -> np.ndarray:
    """The gradient where x has zeros: before a slice's first zero k as without zeros; at k
    the products that leave x_k out; after k nothing (every product holds x_k)."""
    gm, xm, ym = (np.moveaxis(a, d, -1) for a in (g, x, y))
    n = xm.shape[-1]
    out = np.zeros(xm.shape, dtype=gm.dtype)
    for pos in np.ndindex(*xm.shape[:-1]):
        xs, gs, ys = xm[pos], gm[pos], ym[pos]
        zeros = np.flatnonzero(xs == 0)
        k = int(zeros[0]) if zeros.size else n
        if k:
            # the outputs from k on are 0: they add nothing to the positions before k
            out[pos][:k] = _reversed_cumsum(ys[:k] * gs[:k], 0) / xs[:k]
        if k < n:  # x_k's gradient: g_i times the product of x_0..x_i without x_k, i >= k
            before = ys[k - 1] if k else gm.dtype.type(1)
            rest = np.cumprod(np.concatenate([[before], xs[k + 1:]]).astype(np.float64))
            out[pos][k] = np.sum(gs[k:] * rest.astype(gm.dtype))
    return np.moveaxis(out, -1, d)


def _cumprod_grad_graph(g: Tensor, x: Tensor, d: int) -> Tensor:
    """torch's differentiable formula: for each k, the products of x_0..x_j without x_k
    (j >= k: ``prod(x[:k]) * cumprod(x[k+1:j+1])``), times g, summed over j, copied into
    slice k of zeros."""
    n = x.shape[d]
    out = make(np.zeros(x.shape, dtype=g.dtype.np), g.dtype, None)
    ones_shape = tuple(1 if i == d else s for i, s in enumerate(x.shape))
    ones = make(np.ones(1, dtype=g.dtype.np), g.dtype, None).expand(*ones_shape)
    for k in range(n):
        if k == 0:
            omitted = cat([ones, x.narrow(d, 1, n - 1).cumprod(d)], d)
        else:
            until_k = x.narrow(d, 0, k).prod(d, keepdim=True)
            if k == n - 1:
                omitted = until_k
            else:
                after = x.narrow(d, k + 1, n - k - 1).cumprod(d)
                omitted = cat([until_k, until_k.expand_as(after) * after], d)
        out.select(d, k).copy_((g.narrow(d, k, n - k) * omitted).sum(d))
    return out


def cumprod(x: Tensor, dim: int | None = None, *, dtype: DType | None = None) -> Tensor:
    """The running product along ``dim``."""
    data = c.unary_data(x, "cumprod")
    if dim is None:
        raise _missing_dim("cumprod")
    dt = _sum_dtype(x, dtype)
    d = norm_dim(dim, data.ndim)
    node = node_for(CumprodBackward0, x) if dt.is_floating_point else None
    out = make(_running(np.cumprod, data, d, dt.np), dt, node)
    if node is not None:
        node._saved["dim"] = d
        node.save("self", x)
        node.save_output("result", out)
        c.show_saved(node, dim=c.shown_dim(dim))
    return out
