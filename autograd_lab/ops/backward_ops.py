"""Backward ops: the functions torch's backward formulas are written in (``tanh_backward``,
``mse_loss_backward`` ...), each an op with a node of its own.

A backward rule calls them on whatever it has: in a plain backward, on numpy arrays (the
op is just its formula, no node); under ``create_graph=True``, on Tensors, and then the op
records its node -- ``TanhBackwardBackward0`` for ``tanh_backward`` -- so the gradient's
graph has torch's nodes, and differentiating it again runs that node's backward, the
derivative of the formula (torch's ``derivatives.yaml``).

A backward op is a ``BackwardOp`` subclass named for its node, with

- ``args``: its tensor arguments, one edge each, saved under these names;
- ``consts``: its other arguments (a dim, a reduction), saved as they are;
- ``compute(*args, **consts)``: the formula, on arrays;
- ``derivatives(gg, *args, **consts)``: one gradient per argument (None where unused),
  written with the helpers below, which record torch's nodes on Tensors.

``BackwardOp.op`` is the function the rules call. The helpers ``times``/``over``/``plus``
/``power`` are C++'s ``tensor * 2.0`` ...: on Tensors they record the scalar ops' nodes
(``MulBackward1``, ``DivBackward1``, ``AddBackward1``, ``PowBackward0``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import common as c
from .arithmetic import (
    _pow_data, add_scalar, div_scalar, mul_scalar, pow_scalar, sub, sub_scalar,
)
from .common import Node, Tensor
from .record import make, record

# ---- scalar arithmetic as torch's C++ formulas record it --------------------------------------


def times(x: Any, s: float) -> Any:
    """``x * s`` (``MulBackward1`` on a Tensor)."""
    return mul_scalar(x, s) if isinstance(x, Tensor) else x * s


def over(x: Any, s: float) -> Any:
    """``x / s`` (``DivBackward1`` on a Tensor)."""
    return div_scalar(x, s) if isinstance(x, Tensor) else x / s


def plus(x: Any, s: float) -> Any:
    """``x + s`` (``AddBackward1`` on a Tensor)."""
    return add_scalar(x, s) if isinstance(x, Tensor) else x + s


def minus(x: Any, s: float) -> Any:
    """``x - s`` (``SubBackward1`` on a Tensor)."""
    return sub_scalar(x, s) if isinstance(x, Tensor) else x - s


def from_scalar(s: float, x: Any) -> Any:
    """``s - x`` as C++ computes it (a filled tensor minus x: ``SubBackward0``, no edge for s)."""
    if isinstance(x, Tensor):
        return sub(make(np.full_like(x._data, s), x.dtype, None), x)
    return s - x


def power(x: Any, p: float) -> Any:
    """``x.pow(p)`` (``PowBackward0`` on a Tensor)."""
    if isinstance(x, Tensor):
        return pow_scalar(x, p)
    return _pow_data(x, p) if x.dtype == np.float32 else x ** p  # as torch's kernel rounds


def _zeros(g: Any) -> Any:
    """zeros_like(g): a constant."""
    return c.zeros_like_data(g)


# ---- the node of a backward op -----------------------------------------------------------------


class BackwardOp(Node):
    """The node of a backward op (see the module docstring)."""

    args: tuple[str, ...] = ()
    consts: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.saved_names = tuple(sorted(cls.args + cls.consts))

    @staticmethod
    def compute(*args: Any, **consts: Any) -> Any:
        raise NotImplementedError

    def derivatives(self, gg: Any, *args: Any, **consts: Any) -> tuple:
        raise NotImplementedError

    def backward(self, gg: Any) -> tuple:
        values = [self.saved(n) for n in self.args]
        consts = {k: self._saved[k] for k in self.consts}
        grads = self.derivatives(gg, *values, **consts)
        return tuple(g if nf[0] is not None else None for g, nf in zip(grads, self.next_functions))

    @classmethod
    def op(cls, *args: Any, **consts: Any) -> Any:
        """The backward op: its formula on arrays; on Tensors, also its node."""
        for a in args:
            if isinstance(a, Tensor):
                return cls._record(args, consts)
        return cls.compute(*args, **consts)

    @classmethod
    def _record(cls, args: tuple, consts: dict) -> Tensor:
        n = len(cls.args)
        if len(args) > n:  # constants given by position
            consts = {**dict(zip(cls.consts, args[n:])), **consts}
            args = args[:n]
        dt = next(a.dtype for a in args if isinstance(a, Tensor))
        ts = [a if isinstance(a, Tensor) else make(a, dt, None) for a in args]
        data = cls.compute(*[t._data for t in ts], **consts)
        out, node = record(cls, data, ts[0].dtype, *ts)
        if node is not None:
            for name, t in zip(cls.args, ts):
                node.save(name, t)
            node._saved.update(consts)
        return out


def _keep(x: Any, dim: int) -> Any:
    return c.sum_keep(x, (dim,))


# ---- activations -------------------------------------------------------------------------------


class TanhBackwardBackward0(BackwardOp):
    """tanh_backward(g, y) = g * (1 - y^2);  dg = tanh_backward(gg, y),  dy = gg * (-2 y g)"""

    args = ("grad_output", "output")

    @staticmethod
    def compute(g: Any, y: Any) -> Any:
        return g * (1 - y * y)

    def derivatives(self, gg: Any, g: Any, y: Any) -> tuple:
        return tanh_backward(gg, y), gg * (times(y, -2) * g)


class SigmoidBackwardBackward0(BackwardOp):
    """sigmoid_backward(g, y) = g * (1 - y) * y;  dg = sigmoid_backward(gg, y),
    dy = gg * g * (1 - 2 y)"""

    args = ("grad_output", "output")

    @staticmethod
    def compute(g: Any, y: Any) -> Any:
        return g * (1 - y) * y

    def derivatives(self, gg: Any, g: Any, y: Any) -> tuple:
        return sigmoid_backward(gg, y), gg * g * plus(times(y, -2), 1)


class ThresholdBackwardBackward0(BackwardOp):
    """threshold_backward(g, x, t) = 0 where x <= t, else g;  dg = threshold_backward(gg, x, t),
    dx = 0"""

    args = ("grad_output", "self")
    consts = ("threshold",)

    @staticmethod
    def compute(g: Any, x: Any, threshold: float) -> Any:
        return np.where(x <= threshold, g.dtype.type(0), g)

    def derivatives(self, gg: Any, g: Any, x: Any, threshold: float) -> tuple:
        return threshold_backward(gg, x, threshold), _zeros(gg)


class SgnBackward0(Node):
    """y = sgn(x) (sign(x) for real x);  dx = 0"""

    saved_names = ("result", "self")

    def backward(self, g: Any) -> Any:
        return _zeros(g)


def sgn(x: Any) -> Any:
    """sgn(x): -1, 0 or 1 (0 for nan); the factor of abs's derivative."""
    if not isinstance(x, Tensor):
        return c.sign(x)
    out, node = record(SgnBackward0, c.sign(x._data), x.dtype, x)
    if node is not None:
        node.save("self", x)
        node.save_output("result", out)
    return out


tanh_backward = TanhBackwardBackward0.op
sigmoid_backward = SigmoidBackwardBackward0.op
threshold_backward = ThresholdBackwardBackward0.op
