"""The vector norm ``x.norm(p, dim)`` (torch's ``linalg_vector_norm``) and its backward,
``norm_backward``: numpy formulas in a plain backward, torch's recorded steps under
create_graph."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import dtype as DType
from .._messages import scalar_name as _scalar_name
from . import common as c
from .arithmetic import _pow_data
from .common import Node, Tensor, norm_dims
from .comparison import choose
from .nuclear_norm import nuclear_norm
from .record import record
from .reductions import _unreduce

# ---- vector norm ------------------------------------------------------------------------------

class LinalgVectorNormBackward0(Node):
    """y = (sum |x|^p)^(1/p);  dx = g * sign(x) |x|^(p-1) / y^(p-1)  (0 where y = 0)"""

    saved_names = ("dim", "keepdim", "ord", "result", "self")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        p, dims = self._saved["ord"], self._saved["dim"]
        if p == 0:  # torch returns no gradient at all: x.grad stays None
            return None
        if isinstance(x, Tensor) or isinstance(g, Tensor):  # torch's norm_backward, recorded
            if x.shape and not self.all_dims:  # (no dims given: nothing to unsqueeze)
                g, y = _unreduce(self._saved["keepdim"], x.shape, dims, g, y)
            return _norm_backward(g, x, y, p, dims)
        if x.shape:
            g, y = _unreduce(self._saved["keepdim"], x.shape, dims, g, y)
        # torch's norm_backward, in its order of operations
        if p == 1:
            return g * c.sign(x)
        if p == 2:
            with np.errstate(divide="ignore", invalid="ignore"):
                return g * choose(y == 0, 0.0, x / y)
        if p == float("inf") or p == float("-inf"):
            ax = c.absolute(x)
            mask = (ax == y) | np.isnan(ax)
            count = c.sum_keep(mask, dims).astype(g.dtype)
            return c.sign(x) * ((g / count) * mask)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if p < 1:  # torch: sign(x) |x|^(p-1), 0 where x = 0, times g y^(1-p)
                scaled = choose(x == 0, 0.0, c.sign(x) * _pw(c.absolute(x), p - 1))
                return scaled * g * _pw(y, 1 - p)
            scale = choose(y == 0, 0.0, g / _pw(y, p - 1))
            if p < 2:
                return c.sign(x) * _pw(c.absolute(x), p - 1) * scale
            return x * _pw(c.absolute(x), p - 2) * scale


def _pw(a: np.ndarray, p: float) -> np.ndarray:
    """``a ** p`` as torch's pow kernel rounds it."""
    return _pow_data(a, p) if a.dtype == np.float32 else a ** p


def _norm_backward(g: Tensor, x: Tensor, y: Tensor, p: float, dims: tuple) -> Tensor:
    """torch's ``norm_backward`` on Tensors (create_graph), step by step as it records."""
    if p == 1:
        return x.sgn() * g
    if p == 2:
        return g * (x / y).masked_fill_(y == 0, 0)
    if p == float("inf") or p == float("-inf"):
        ax = x.abs()
        mask = ax.eq(y).logical_or(ax.isnan())
        return x.sgn() * ((g / mask.sum(dims, True)) * mask)
    if p < 1:
        scaled = x.sgn() * x.abs().pow_(p - 1).masked_fill_(x == 0, 0)
        return scaled * g * y.pow(1 - p)
    scaled = x.sgn() * x.abs().pow_(p - 1) if p < 2 else x * x.abs().pow_(p - 2)
    scale = g / y.pow(p - 1)
    scale.masked_fill_(y == 0, 0)
    return scaled * scale


def _norm_data(a: np.ndarray, p: Any, axes: tuple, keepdim: bool) -> np.ndarray:
    """(sum |x|^p)^(1/p) over ``axes`` of ``a`` = |x| (max, min, count for inf, -inf, 0)."""
    if p == 2:
        return np.sqrt((a * a).sum(axis=axes, keepdims=keepdim))
    if p == 1:
        return a.sum(axis=axes, keepdims=keepdim)
    if p == float("inf"):
        return a.max(axis=axes, keepdims=keepdim)
    if p == float("-inf"):
        return a.min(axis=axes, keepdims=keepdim)
    if p == 0:
        return (a != 0).sum(axis=axes, keepdims=keepdim).astype(a.dtype)
    return (a ** p).sum(axis=axes, keepdims=keepdim) ** (1.0 / p)


def _no_identity(p: Any, shape: tuple, dim: Any, axes: tuple) -> None:
    """torch's error for a norm without an identity (max/min-like) over an empty dim."""
    if dim is None:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on an empty "
                           "tensor because the operation does not have an identity")
    given = (dim,) if isinstance(dim, int) else tuple(dim)
    for d in given:
        if shape[d] == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on the "
                               f"dimension {d}because this dimension is empty and the operation "
                               "does not have an identity")


def norm(x: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: DType | None = None) -> Tensor:
    """``x.norm(p, dim)``: the vector p-norm over ``dim`` (all elements by default)."""
    data = c.unary_data(x, "norm")
    if p is None or p == "fro":
        p = 2
    elif isinstance(p, str):
        if p != "nuc":
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        if dtype is not None and dtype is not x.dtype:
            x = x.to(dtype)
        # torch.norm(x, 'nuc') spans every dim (an error unless x is a matrix)
        return nuclear_norm(x, tuple(range(data.ndim)) if dim is None else dim, keepdim)
    elif not isinstance(p, (int, float, np.number)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type(p).__name__}")
    if not x.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_scalar_name(x.dtype)}")
    if dtype is not None and dtype is not x.dtype:
        x = x.to(dtype)
        data = x._data
    dims = norm_dims(dim, data.ndim)
    axes = dims if data.ndim else ()
    if data.size == 0 and (p < 0 or p == float("inf")):
        _no_identity(p, data.shape, dim, axes)
    a = np.abs(data)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        v = _norm_data(a, p, axes, keepdim)
    out, node = record(LinalgVectorNormBackward0, v, c.float_dtype(x), x)
    if node is not None:
        node._saved.update(ord=p, dim=dims, keepdim=keepdim)
        node.all_dims = dim is None
        node.save("self", x)
        node.save_output("result", out)
        c.show_saved(node, dim=c.shown_dims(dim))
    return out
