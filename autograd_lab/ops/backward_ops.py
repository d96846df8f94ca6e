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

``BackwardOp.make_op()`` makes the function the rules call. The helpers ``times``, ``over``,
``plus``, ``power`` and ``from_scalar`` are C++'s ``tensor * 2.0`` ...: on Tensors they record
the scalar ops' nodes (``MulBackward1``, ``DivBackward1``, ``AddBackward1``, ``PowBackward0``).
Where a formula has two operands that both compute, C++ evaluates the right one first; the
formulas here do too, so the nodes are created (and later run) in torch's order.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _onednn_gelu as onednn_gelu
from .._fma import fma32, fma64
from .._precision import exact
from .._vector_math import gelu_tanh_backward32, vector_part
from .._zero_tensor import zero_grad
from . import common as c
from .arithmetic import _pow_data, add_scalar, div_scalar, mul_scalar, pow_scalar, sub
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


def _mask(cond: Any, like: Any) -> Any:
    """``cond.type_as(like)``: a constant 0/1 factor."""
    if isinstance(cond, Tensor):
        return make(cond._data.astype(like.dtype.np), like.dtype, None)
    return cond.astype(like.dtype)


# ---- the node of a backward op -----------------------------------------------------------------


class BackwardOp(Node):
    """The node of a backward op (see the module docstring)."""

    args: tuple[str, ...] = ()
    consts: tuple[str, ...] = ()
    saves: tuple[str, ...] | None = None  # the args the derivatives read (default: all)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.saves is None:
            cls.saves = cls.args
        cls.saved_names = tuple(sorted(cls.saves + cls.consts))

    @staticmethod
    def compute(*args: Any, **consts: Any) -> Any:
        raise NotImplementedError

    def derivatives(self, gg: Any, *args: Any, **consts: Any) -> tuple:
        raise NotImplementedError

    def backward(self, gg: Any) -> tuple:
        values = [self.saved(n) if n in self.saves else None for n in self.args]
        consts = {k: self._saved[k] for k in self.consts}
        grads = self.derivatives(gg, *values, **consts)
        return tuple(g if fn is not None else None for g, fn in zip(grads, self._fns))

    @classmethod
    def make_op(cls) -> Any:
        """The backward op: its formula on arrays; on Tensors, also its node."""
        compute, record_op = cls.compute, cls._record

        def op(*args: Any, **consts: Any) -> Any:
            for a in args:
                if isinstance(a, Tensor):
                    return record_op(args, consts)
            return compute(*args, **consts)

        if len(cls.args) == 2 and not cls.consts:  # the common case, without the packing

            def op2(a: Any, b: Any) -> Any:
                if isinstance(a, Tensor) or isinstance(b, Tensor):
                    return record_op((a, b), {})
                return compute(a, b)

            op = op2
        elif len(cls.args) == 2:  # with constants: less packing (it runs once per node)

            def op2c(a: Any, b: Any, *rest: Any, **consts: Any) -> Any:
                if isinstance(a, Tensor) or isinstance(b, Tensor):
                    return record_op((a, b, *rest), consts)
                return compute(a, b, *rest, **consts)

            op = op2c

        op.__name__ = op.__qualname__ = cls.__name__
        op.__doc__ = cls.__doc__
        return op

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
                if name in cls.saves:
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
        return g * one_minus_square(y)

    def derivatives(self, gg: Any, g: Any, y: Any) -> tuple:
        return tanh_backward(gg, y), gg * (times(y, -2) * g)


def one_minus_square(y: np.ndarray) -> np.ndarray:
    """``1 - y * y`` rounded once: torch's kernel is compiled to a fused multiply-add (above
    the precision policy's size, numpy's two roundings)."""
    if exact(y.size):
        if y.dtype == np.float32:
            return fma32(-y, y, np.float32(1))
        if y.dtype == np.float64:
            return fma64(-y, y, 1.0)
    return 1 - y * y


class SigmoidBackwardBackward0(BackwardOp):
    """sigmoid_backward(g, y) = g * (1 - y) * y;  dg = sigmoid_backward(gg, y),
    dy = gg * g * (1 - 2 y)"""

    args = ("grad_output", "output")

    @staticmethod
    def compute(g: Any, y: Any) -> Any:
        return g * (1 - y) * y

    def derivatives(self, gg: Any, g: Any, y: Any) -> tuple:
        right = plus(times(y, -2), 1)  # C++ evaluates the right operand first
        return sigmoid_backward(gg, y), gg * g * right


def keep_where(g: Any, keep: Any) -> Any:
    """``keep ? g : 0`` laid out as ``keep`` (torch lays threshold_backward's result out as
    its input): a bitwise and with an all-ones mask, several times faster than np.where and
    exact where a product is not (inf * 0 is nan, -1 * 0 is -0)."""
    if not keep.ndim and not g.ndim:  # scalars: no array calls
        return g if keep else np.result_type(g).type(0)
    if type(g) is np.ndarray and type(keep) is np.ndarray and g.dtype.kind == "f" \
            and g.shape == keep.shape:
        u = np.dtype(f"u{g.itemsize}")
        m = keep.astype(u)  # 0 or 1, in keep's layout
        np.negative(m, out=m)  # 0 or all ones
        np.bitwise_and(m, g.view(u), out=m)
        return m.view(g.dtype)
    return np.where(keep, g, np.zeros((), np.result_type(g)))


class ThresholdBackwardBackward0(BackwardOp):
    """threshold_backward(g, x, t) = 0 where x <= t, else g;  dg = threshold_backward(gg, x, t),
    dx = 0"""

    args = ("grad_output", "self")
    consts = ("threshold",)
    saves = ("self",)

    @staticmethod
    def compute(g: Any, x: Any, threshold: float) -> Any:
        return keep_where(g, ~(x <= threshold))

    def derivatives(self, gg: Any, g: Any, x: Any, threshold: float) -> tuple:
        return threshold_backward(gg, x, threshold), _zeros(gg)


class SgnBackward0(Node):
    """y = sgn(x) (sign(x) for real x);  dx = 0"""

    saved_names = ("result", "self")

    def backward(self, g: Any) -> Any:
        z = _zeros(g)  # torch's ``_efficientzerotensor``
        if isinstance(z, Tensor):
            z._zero = True
            return z
        return zero_grad(z.shape, z.dtype)


def sgn(x: Any) -> Any:
    """sgn(x): -1, 0 or 1 (0 for nan); the factor of abs's derivative."""
    if not isinstance(x, Tensor):
        return c.sign(x)
    out, node = record(SgnBackward0, c.sign(x._data), x.dtype, x)
    if node is not None:
        node.save("self", x)
        node.save_output("result", out)
    return out



class LeakyReluBackwardBackward0(BackwardOp):
    """leaky_relu_backward(g, x, slope) = g where x > 0, else slope * g;
    dg = leaky_relu_backward(gg, x, slope),  dx = 0"""

    args = ("grad_output", "self")
    consts = ("negative_slope",)
    saves = ("self",)

    @staticmethod
    def compute(g: Any, x: Any, negative_slope: float) -> Any:
        return np.where(x > 0, g, g * negative_slope)

    def derivatives(self, gg: Any, g: Any, x: Any, negative_slope: float) -> tuple:
        return leaky_relu_backward(gg, x, negative_slope), _zeros(gg)


_SQRT1_2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327  # 1 / sqrt(2 pi)
_SQRT_2_PI = 0.7978845608028654  # sqrt(2 / pi)
_GELU_C = 0.044715


def _tanh_parts(x: Any) -> tuple:
    """For gelu's tanh form: t = tanh(u), u = sqrt(2/pi) (x + c x^3), and u'."""
    t = c.tanh(times(x + x * x * x * _GELU_C, _SQRT_2_PI))
    du = times(plus(x * x * (3 * _GELU_C), 1), _SQRT_2_PI)
    return t, du


class GeluBackwardBackward0(BackwardOp):
    """gelu_backward(g, x) = g * (Phi(x) + x phi(x))  (Phi, phi: the normal cdf and pdf; with
    approximate='tanh', Phi ~ (1 + tanh(u)) / 2);  dg = gelu_backward(gg, x),
    dx = gg * g * gelu''(x),  gelu'' = phi(x) (2 - x^2)"""

    args = ("grad_output", "self")
    consts = ("approximate",)

    @staticmethod
    def compute(g: Any, x: Any, approximate: str) -> Any:
        if approximate == "tanh":
            if x.dtype == np.float32 and exact(x.size):  # torch's kernel, SLEEF's tanh
                return gelu_tanh_backward32(np.asarray(g, np.float32), x)
            t, du = _tanh_parts(x)
            return g * ((t + 1) * 0.5 + x * 0.5 * (1 - t * t) * du)
        if onednn_gelu.applies(x) and exact(x.size):  # torch calls oneDNN's kernel here
            return onednn_gelu.gelu_backward(np.asarray(g, np.float32), x)
        cdf = (np_erf(x * _SQRT1_2) + 1) * 0.5
        pdf = np.exp(x * x * -0.5) * _INV_SQRT_2PI
        return g * (cdf + x * pdf)

    def derivatives(self, gg: Any, g: Any, x: Any, approximate: str) -> tuple:
        if approximate == "tanh":  # (1 - t^2) (u' + x/2 (u'' - 2 t u'^2))
            t, du = _tanh_parts(x)
            ddu = times(x, 6 * _GELU_C * _SQRT_2_PI)
            d2 = from_scalar(1, t * t) * (du + times(x, 0.5) * (ddu - times(t * du * du, 2)))
        else:
            sq = x * x
            pdf = times(c.exp(times(sq, -0.5)), _INV_SQRT_2PI)
            d2 = times(pdf, 2) - sq * pdf
        return gelu_backward(gg, x, approximate), gg * g * d2


def np_erf(a: np.ndarray) -> np.ndarray:
    """erf elementwise (numpy has none): computed in float64, returned in ``a``'s dtype."""
    return np.asarray(_ERF(a.astype(np.float64)), dtype=np.float64).astype(a.dtype)


_ERF = np.frompyfunc(math.erf, 1, 1)


class EluBackwardBackward0(BackwardOp):
    """elu_backward(g, x) = g where x > 0, else g * alpha * exp(x);
    dg = elu_backward(gg, x),  dx = elu_backward(gg * g, x) where x < 0 (else 0)"""

    args = ("grad_output", "self_or_result")
    consts = ("alpha", "input_scale", "is_result", "scale")

    @staticmethod
    def compute(g: Any, x: Any, alpha: float, input_scale: float = 1, is_result: bool = False,
                scale: float = 1) -> Any:
        out = np.where(x <= 0, g * (np.exp(x) * alpha), g)  # the scalar test: nan passes g
        if x.dtype.kind == "f" and np.isnan(x).any():  # the vector test (x > 0) sends it to exp
            vec = vector_part(x)
            if vec is not None:
                out = np.where(vec & np.isnan(x), x, out)
        return out

    def derivatives(self, gg: Any, g: Any, x: Any, alpha: float, input_scale: float = 1,
                    is_result: bool = False, scale: float = 1) -> tuple:
        consts = (alpha, input_scale, is_result, scale)
        second = elu_backward(times(gg * g, input_scale), x, *consts) * _mask(x < 0, gg)
        return elu_backward(gg, x, *consts), second


class SoftplusBackwardBackward0(BackwardOp):
    """softplus_backward(g, x) = g * sigmoid(beta x) (g where beta x > threshold);
    dg = softplus_backward(gg, x),  dx = sigmoid_backward(gg * g, sigmoid(beta x)) * beta
    where beta x < threshold (else 0)"""

    args = ("grad_output", "self")
    consts = ("beta", "threshold")

    @staticmethod
    def compute(g: Any, x: Any, beta: float, threshold: float) -> Any:
        bx = x * beta
        return np.where(bx > threshold, g, g * c.sigmoid(bx))

    def derivatives(self, gg: Any, g: Any, x: Any, beta: float, threshold: float) -> tuple:
        bx = times(x, beta)
        second = times(sigmoid_backward(gg * g, c.sigmoid(bx)) * _mask(bx < threshold, gg), beta)
        return softplus_backward(gg, x, beta, threshold), second


# ---- softmax ------------------------------------------------------------------------------------


class SoftmaxBackwardDataBackward0(BackwardOp):
    """_softmax_backward_data(g, y) = y * (g - sum(g y));  dg = _softmax_backward_data(gg, y),
    dy = g gg - sum(y g) gg - g sum(y gg)  (sums along dim, kept)"""

    args = ("grad_output", "output")
    consts = ("dim",)

    @staticmethod
    def compute(g: Any, y: Any, dim: int) -> Any:
        return y * (g - _keep(g * y, dim))

    def derivatives(self, gg: Any, g: Any, y: Any, dim: int) -> tuple:
        # C++ evaluates the right operand first: the last term, then the middle one
        last = g * _keep(y * gg, dim)
        middle = _keep(y * g, dim) * gg
        dy = g * gg - middle - last
        return softmax_backward_data(gg, y, dim), dy


class LogSoftmaxBackwardDataBackward0(BackwardOp):
    """_log_softmax_backward_data(g, y) = g - exp(y) sum(g);  dg = gg - sum(gg exp(y)),
    dy = -sum(g) exp(y) gg  (sums along dim, kept)"""

    args = ("grad_output", "output")
    consts = ("dim",)

    @staticmethod
    def compute(g: Any, y: Any, dim: int) -> Any:
        return g - np.exp(y) * _keep(g, dim)

    def derivatives(self, gg: Any, g: Any, y: Any, dim: int) -> tuple:
        return gg - _keep(gg * c.exp(y), dim), -_keep(g, dim) * c.exp(y) * gg


# ---- losses -------------------------------------------------------------------------------------


class MseLossBackwardBackward0(BackwardOp):
    """mse_loss_backward(g, x, t) = norm (x - t) g, norm = 2 / numel for 'mean' (else 2);
    dg = mse_loss_backward(gg, x, t) (summed to g's shape),
    dx = 2 gg g (/ numel),  dt = -dx"""

    args = ("grad_output", "self", "target")
    consts = ("reduction",)

    @staticmethod
    def compute(g: Any, x: Any, t: Any, reduction: int) -> Any:
        n = x.size if reduction == 1 else 1
        norm = x.dtype.type(2.0 / n if n else np.inf)  # a mean of nothing: torch's 2 / 0
        return (norm * (x - t)) * g

    def derivatives(self, gg: Any, g: Any, x: Any, t: Any, reduction: int) -> tuple:
        dg = c.sum_to(mse_loss_backward(gg, x, t, reduction), g.shape)
        dx = times(gg * g, 2)
        if reduction == 1:
            dx = over(dx, x.numel() if isinstance(x, Tensor) else x.size)
        return dg, dx, -dx


_EPS = 1e-12


class BinaryCrossEntropyBackwardBackward0(BackwardOp):
    """bce_backward(g, p, t) = g w (p - t) / max(p (1 - p), 1e-12) (/ numel for a mean);
    dg = sum of gg w (p - t) / ((p + eps)(1 - p + eps)),
    dp = gg g w (p^2 - 2 p t + t) / ((p + eps)^2 (1 - p + eps)^2),
    dt = -gg g w / max(p (1 - p), eps)  (each / numel for a mean)"""

    args = ("grad_output", "self", "target")
    consts = ("weight", "reduction")

    @staticmethod
    def compute(g: Any, p: Any, t: Any, weight: Any, reduction: int) -> Any:
        out = g * (p - t) / np.maximum((1 - p) * p, _EPS)
        if weight is not None:
            out = out * c.to_array(weight)
        return out / p.size if reduction == 1 else out

    def derivatives(self, gg: Any, g: Any, p: Any, t: Any, weight: Any,
                    reduction: int) -> tuple:
        n = p.numel() if isinstance(p, Tensor) else p.size
        w = None if weight is None else (weight if isinstance(p, Tensor) else c.to_array(weight))
        one_m = plus(from_scalar(1, p), _EPS)
        dp = (p * p - times(p, 2) * t + t) / (power(plus(p, _EPS), 2) * power(one_m, 2))
        dp = dp * (gg * g)
        dg = (p - t) / (plus(p, _EPS) * plus(from_scalar(1, p), _EPS))
        denom = p * from_scalar(1, p)
        denom = denom.detach().clamp_min(_EPS) if isinstance(denom, Tensor) else \
            np.maximum(denom, _EPS)
        dt = -gg * g
        dg = dg * gg
        if w is not None:
            dp, dg, dt = dp * w, dg * w, dt * w
        dt = dt / denom
        if reduction == 1:
            dg, dp, dt = over(dg, n), over(dp, n), over(dt, n)
        if reduction != 0:
            dg = dg.sum()
        return dg, dp, dt


tanh_backward = TanhBackwardBackward0.make_op()
sigmoid_backward = SigmoidBackwardBackward0.make_op()
threshold_backward = ThresholdBackwardBackward0.make_op()
leaky_relu_backward = LeakyReluBackwardBackward0.make_op()
gelu_backward = GeluBackwardBackward0.make_op()
elu_backward = EluBackwardBackward0.make_op()
softplus_backward = SoftplusBackwardBackward0.make_op()
softmax_backward_data = SoftmaxBackwardDataBackward0.make_op()
log_softmax_backward_data = LogSoftmaxBackwardDataBackward0.make_op()
mse_loss_backward = MseLossBackwardBackward0.make_op()
binary_cross_entropy_backward = BinaryCrossEntropyBackwardBackward0.make_op()
