"""Losses on differences, with torch's own nodes: ``smooth_l1_loss`` (SmoothL1LossBackward0),
``huber_loss`` (HuberLossBackward0); and ``kl_div``'s elementwise term (``xlogy``).

Each computes the elementwise loss as torch's CPU kernel writes it, then reduces it with
torch's mean/sum (``reductions._np_mean``/``_sum_data``: torch's order of additions). The
backward of both losses is symmetric: the target's gradient is the input's formula with the
two swapped (torch's derivatives.yaml).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._messages import scalar_name
from . import common as c
from .backward_ops import BackwardOp
from .common import Node, Tensor
from .comparison import choose
from .record import make, record
from .reductions import _np_mean, _sum_data


def _reduce(loss: np.ndarray, reduction: int, dt: Any) -> np.ndarray:
    """reduction 0: none, 1: mean (sum / n), 2: sum -- adding in torch's order."""
    if reduction == 0:
        return loss
    if reduction == 1:
        return _np_mean(loss, dt)
    return _sum_data(loss, tuple(range(loss.ndim)), False, dt)


def _operands(name: str, input: Tensor, target: Tensor) -> tuple[np.ndarray, np.ndarray, Any]:
    """The two operands' data in their common floating dtype (shapes already broadcast)."""
    dt = c.result_type(input, target)
    if not dt.is_floating_point:
        raise NotImplementedError(f'"{name}" not implemented for \'{scalar_name(dt)}\'')
    x = np.asarray(input._data, dtype=dt.np)
    y = np.asarray(target._data, dtype=dt.np)
    return x, y, dt


def _piecewise_grad(g: Any, a: Any, b: Any, reduction: int, k: float, huber: bool) -> Any:
    """The gradient for ``a`` of the loss of d = a - b, on arrays, with norm = 1/n for 'mean'
    (else 1): the outside slope where d <= -k or d >= k (k the threshold), the inside one in
    between -- in the order the CPU kernel multiplies."""
    n = a.size
    norm = a.dtype.type((1.0 / n if n else float("inf")) if reduction == 1 else 1.0)
    k = a.dtype.type(k)  # the kernel's scalar_t constants
    d = a - b
    with np.errstate(invalid="ignore"):
        out = g * norm * k if huber else g * norm
        inside = d * norm * g if huber else d * norm * g / k
        return np.where(d <= -k, -out, np.where(d >= k, out, inside))


class _PiecewiseLossBackward(Node):
    """Shared backward: the input's gradient is ``<loss>_backward(g, x, y)``, the target's
    the same with the two swapped (its own node under create_graph)."""

    param = ""

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("target")
        nf = self._fns
        op, red, k = self.op, self._saved["reduction"], self._saved[self.param]
        gx = op(g, x, y, red, k) if nf[0] is not None else None
        gy = op(g, y, x, red, k) if nf[1] is not None else None
        return gx, gy


class _PiecewiseBackwardBackward(BackwardOp):
    """``<loss>_backward(g, x, t)`` (``_piecewise_grad``); dg: the same formula on gg
    (summed for a reduced loss), dx = gg g [|x - t| < k] (/ k for smooth L1, / n for
    'mean'), dt = -dx (torch's ``*_double_backward``)."""

    args = ("grad_output", "self", "target")
    consts = ("reduction", "k")
    huber = True

    def derivatives(self, gg: Any, g: Any, x: Any, t: Any, reduction: int, k: float) -> tuple:
        op = type(self).op
        if reduction == 0:
            dg = op(gg, x, t, reduction, k)
        elif self.huber:  # (huber_loss_backward(ones_like(g), x, t) * gg).sum()
            ones = make(np.ones_like(g._data), g.dtype, None) if isinstance(g, Tensor) \
                else np.ones_like(g)
            dg = (op(ones, x, t, reduction, k) * gg).sum()
        else:
            dg = op(gg, x, t, reduction, k).sum()
        ggg = gg * g
        if not self.huber and k == 0:
            dx = ggg * 0
        else:
            inside = abs(x - t) < k
            dx = ggg * _as_type(inside, ggg)
            if not self.huber:
                dx = dx / k
            if reduction == 1:
                dx = dx / (x.numel() if isinstance(x, Tensor) else x.size)
        return dg, dx, -dx


def _as_type(mask: Any, like: Any) -> Any:
    """``mask.type_as(like)``: a constant 0/1 factor."""
    if isinstance(mask, Tensor):
        mask = mask._data
    dt = like._data.dtype if isinstance(like, Tensor) else np.asarray(like).dtype
    m = mask.astype(dt)
    return make(m, like.dtype, None) if isinstance(like, Tensor) else m


class HuberLossBackwardBackward0(_PiecewiseBackwardBackward):
    __doc__ = _PiecewiseBackwardBackward.__doc__

    @staticmethod
    def compute(g: Any, x: Any, t: Any, reduction: int, k: float) -> Any:
        return _piecewise_grad(g, x, t, reduction, k, True)


class SmoothL1LossBackwardBackward0(_PiecewiseBackwardBackward):
    __doc__ = _PiecewiseBackwardBackward.__doc__
    huber = False

    @staticmethod
    def compute(g: Any, x: Any, t: Any, reduction: int, k: float) -> Any:
        return _piecewise_grad(g, x, t, reduction, k, False)


huber_loss_backward = HuberLossBackwardBackward0.make_op()
smooth_l1_loss_backward = SmoothL1LossBackwardBackward0.make_op()
HuberLossBackwardBackward0.op = staticmethod(huber_loss_backward)
SmoothL1LossBackwardBackward0.op = staticmethod(smooth_l1_loss_backward)


class SmoothL1LossBackward0(_PiecewiseLossBackward):
    """loss = 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta  (d = x - y);
    dx = g sign(d) outside, g d / beta inside (divided by n for 'mean')"""

    saved_names = ("beta", "reduction", "self", "target")
    param = "beta"
    op = staticmethod(smooth_l1_loss_backward)


class HuberLossBackward0(_PiecewiseLossBackward):
    """loss = 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta)  (d = x - y);
    dx = g delta sign(d) outside, g d inside (divided by n for 'mean')"""

    saved_names = ("delta", "reduction", "self", "target")
    param = "delta"
    op = staticmethod(huber_loss_backward)

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("target")
        if x.dtype != y.dtype:  # torch's backward kernel wants one dtype
            raise RuntimeError(f"Found dtype {_name(y.dtype)} but expected {_name(x.dtype)}")
        return super().backward(g)


def _name(dt: Any) -> str:
    """torch's scalar type name of a numpy or torch dtype."""
    return scalar_name(dt) if not isinstance(dt, np.dtype) else \
        {"float16": "Half", "float32": "Float", "float64": "Double"}[dt.name]


def _piecewise(cls: type[Node], name: str, input: Tensor, target: Tensor, reduction: int,
               k: float, huber: bool) -> Tensor:
    x, y, dt = _operands(name, input, target)
    kk = dt.np.type(k)
    half = dt.np.type(0.5)
    with np.errstate(invalid="ignore", over="ignore"):
        z = np.abs(np.asarray(x - y))
        if huber:
            loss = np.where(z < kk, half * z * z, kk * (z - half * kk))
        else:
            loss = np.where(z < kk, half * z * z / kk, z - half * kk)
    if huber:  # torch writes huber's loss into a tensor like the input
        dt = input.dtype
    out, node = record(cls, _reduce(loss.astype(dt.np, copy=False), reduction, dt), dt,
                       input, target)
    if node is not None:
        node._saved.update({cls.param: float(k), "reduction": reduction})
        node.save("self", input)
        node.save("target", target)
    return out


def smooth_l1_loss(input: Tensor, target: Tensor, reduction: int = 1,
                   beta: float = 1.0) -> Tensor:
    """Smooth L1: quadratic (0.5 d^2 / beta) for |d| < beta, linear beyond."""
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return _piecewise(SmoothL1LossBackward0, "smooth_l1_cpu", input, target, reduction, beta,
                      False)


def huber_loss(input: Tensor, target: Tensor, reduction: int = 1, delta: float = 1.0) -> Tensor:
    """Huber: quadratic (0.5 d^2) for |d| < delta, linear (delta (|d| - delta / 2)) beyond."""
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return _piecewise(HuberLossBackward0, "huber_cpu", input, target, reduction, delta, True)


# ---- xlogy (kl_div's t log t) ------------------------------------------------------------------

class XlogyBackward0(Node):
    """z = x log y (0 where x = 0);  dx = g xlogy(x != 0, y), dy = g x / y"""

    saved_names = ("self", "other")

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("other")
        nf = self._fns
        gx = gy = None
        if nf[0] is not None:
            gx = g * choose(x == 0, 0.0, c.log(y))
        if nf[1] is not None:
            gy = g * x / y
        return gx, gy


def xlogy(x: Tensor, y: Tensor) -> Tensor:
    """x * log(y), 0 where x = 0 (unless y is nan)."""
    a, b = x._data, y._data
    with np.errstate(divide="ignore", invalid="ignore"):
        data = np.where((a == 0) & ~np.isnan(b), a.dtype.type(0), a * np.log(b))
    out, node = record(XlogyBackward0, data.astype(c.result_type(x, y).np, copy=False),
                       c.result_type(x, y), x, y)
    if node is not None:
        node.save("self", x)
        node.save("other", y)
    return out

