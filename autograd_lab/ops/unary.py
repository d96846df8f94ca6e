"""Elementwise functions of one tensor: y = f(x), dx = g * f'(x)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._messages import scalar_name
from . import common as c
from .binary import mul_scalar
from .common import Node, Tensor, _with_scalar, float_dtype, make, node_for, unary_data

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_LN2, _LN10 = 0.6931471805599453, 2.302585092994046


def _f64(fn: Any) -> Any:
    """``fn`` on float32 data computed in double and rounded once. torch's float32 kernels are
    accurate to about an ulp, numpy's float32 loops less so: rounded double results match
    torch's bit for bit 99% of the time (exp, tanh, log), numpy's float32 ones 60-80%."""

    def run(a: np.ndarray) -> np.ndarray:
        if a.dtype is _F32 or a.dtype == _F32:
            return fn(a.astype(_F64)).astype(_F32)
        return fn(a)

    run.__name__ = getattr(fn, "__name__", "f64")
    return run


def _float_op(cls: type[Node], fn: Any, x: Tensor, name: str, save: str) -> Tensor:
    """Run ``fn`` elementwise; save the input ("self") or the output ("result")."""
    data, dt = unary_data(x, name), float_dtype(x)
    if x.dtype._cat != 2:
        data = data.astype(dt.np)
    node = node_for(cls, x)
    out = make(fn(data), dt, node)
    if node is not None:
        if save == "self":
            node.save("self", x)
        elif save == "result":
            node.save_output("result", out)
    return out


class NegBackward0(Node):
    """y = -x;  dx = -g"""

    def backward(self, g: Any) -> Any:
        return -g


def neg(x: Tensor) -> Tensor:
    """-x."""
    data = unary_data(x, "neg")
    if x.dtype._cat == 0:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return make(np.negative(data), x.dtype, node_for(NegBackward0, x))


class ExpBackward0(Node):
    """y = exp(x);  dx = g * y"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        return g * self.saved("result")


def exp(x: Tensor) -> Tensor:
    """e^x."""
    return _float_op(ExpBackward0, _f64(np.exp), x, "exp", "result")


class LogBackward0(Node):
    """y = log(x);  dx = g / x"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g / self.saved("self")


def log(x: Tensor) -> Tensor:
    """The natural logarithm."""
    return _float_op(LogBackward0, _f64(np.log), x, "log", "self")


class SinBackward0(Node):
    """y = sin(x);  dx = g * cos(x)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g * c.cos(self.saved("self"))


def sin(x: Tensor) -> Tensor:
    """sin(x)."""
    return _float_op(SinBackward0, _f64(np.sin), x, "sin", "self")


class CosBackward0(Node):
    """y = cos(x);  dx = -g * sin(x)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g * -c.sin(self.saved("self"))


def cos(x: Tensor) -> Tensor:
    """cos(x)."""
    return _float_op(CosBackward0, _f64(np.cos), x, "cos", "self")


class TanhBackward0(Node):
    """y = tanh(x);  dx = g * (1 - y^2)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        return g * (1 - y * y)


def tanh(x: Tensor) -> Tensor:
    """tanh(x)."""
    return _float_op(TanhBackward0, _f64(np.tanh), x, "tanh", "result")


def _sigmoid(a: np.ndarray) -> np.ndarray:
    """torch's formula: exp(-a) overflows to inf for very negative a, giving exactly 0."""
    one = a.dtype.type(1)
    return one / (one + _f64(np.exp)(-a))


class SigmoidBackward0(Node):
    """y = 1 / (1 + exp(-x));  dx = g * y * (1 - y)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        return g * (1 - y) * y


def sigmoid(x: Tensor) -> Tensor:
    """1 / (1 + e^-x)."""
    return _float_op(SigmoidBackward0, _sigmoid, x, "sigmoid", "result")


_ZERO = {np.dtype(t): np.dtype(t).type(0) for t in (np.float16, np.float32, np.float64, np.int8,
                                                    np.int16, np.int32, np.int64, np.uint8)}


class ReluBackward0(Node):
    """y = max(x, 0);  dx = g unless y <= 0 (so relu'(0) = 0, and nan passes g)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        return g * ~(self.saved("result") <= 0)


def relu(x: Tensor) -> Tensor:
    """max(x, 0)."""
    data = unary_data(x, "relu")
    if x.dtype._cat == 0:
        raise RuntimeError("Boolean inputs not supported for relu")
    node = node_for(ReluBackward0, x)
    if data.ndim == 0:  # scalar fast path; keeps -0.0 and nan as torch does
        v = data[()]
        out = make(_ZERO.get(data.dtype, 0) if v < 0 else v, x.dtype, node)
    else:  # zero first: numpy then keeps x on a tie, so relu(-0.0) = -0.0 as in torch
        out = make(np.maximum(_ZERO.get(data.dtype, 0), data), x.dtype, node)
    if node is not None:
        node.save_output("result", out)
    return out


class AbsBackward0(Node):
    """y = |x|;  dx = g * sign(x) (so abs'(0) = 0, and sign(nan) = 0)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g * c.sign(self.saved("self"))


def abs(x: Tensor) -> Tensor:  # noqa: A001
    """|x|."""
    data = unary_data(x, "abs")
    if x.dtype._cat == 0:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    node = node_for(AbsBackward0, x)
    out = make(np.abs(data), x.dtype, node)
    if node is not None:
        node.save("self", x)
    return out


class SqrtBackward0(Node):
    """y = sqrt(x);  dx = g / (2 y) (so sqrt'(0) = inf)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        if isinstance(y, Tensor):  # torch's graph: grad / (2 * result), a MulBackward1
            return g / mul_scalar(y, 2)
        return g / (2 * y)


def sqrt(x: Tensor) -> Tensor:
    """The square root."""
    return _float_op(SqrtBackward0, np.sqrt, x, "sqrt", "result")


class RsqrtBackward0(Node):
    """y = 1/sqrt(x);  dx = -g * y^3 / 2"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        return -0.5 * g * y * y * y


def rsqrt(x: Tensor) -> Tensor:
    """1 / sqrt(x)."""
    return _float_op(RsqrtBackward0, lambda a: 1 / np.sqrt(a), x, "rsqrt", "result")


class ReciprocalBackward0(Node):
    """y = 1/x;  dx = -g * y^2"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        return -g * (y * y)


def reciprocal(x: Tensor) -> Tensor:
    """1 / x."""
    return _float_op(ReciprocalBackward0, np.reciprocal, x, "reciprocal", "result")


class SignBackward0(Node):
    """y = sign(x);  dx = 0"""

    def backward(self, g: Any) -> Any:
        return c.zeros_like_data(g)


def sign(x: Tensor) -> Tensor:
    """-1, 0 or 1 by the sign of x (0 for nan)."""
    data = unary_data(x, "sign")
    if x.dtype._cat == 0:
        return make(data.copy(), x.dtype, None)
    return make(c.sign(data), x.dtype, node_for(SignBackward0, x))


class Log2Backward0(Node):
    """y = log2(x);  dx = g / (x ln 2)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g / (self.saved("self") * _LN2)


def log2(x: Tensor) -> Tensor:
    """The base-2 logarithm."""
    return _float_op(Log2Backward0, _f64(np.log2), x, "log2", "self")


class Log1PBackward0(Node):
    """y = log(1 + x);  dx = g / (1 + x)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g / (self.saved("self") + 1)


def log1p(x: Tensor) -> Tensor:
    """log(1 + x), accurate near 0."""
    return _float_op(Log1PBackward0, _f64(np.log1p), x, "log1p", "self")


class Expm1Backward0(Node):
    """y = exp(x) - 1;  dx = g * (y + 1)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        return g * (self.saved("result") + 1)


def expm1(x: Tensor) -> Tensor:
    """e^x - 1, accurate near 0."""
    return _float_op(Expm1Backward0, _f64(np.expm1), x, "expm1", "result")


class TanBackward0(Node):
    """y = tan(x);  dx = g * (1 + y^2)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        return g * (1 + y * y)


def tan(x: Tensor) -> Tensor:
    """tan(x)."""
    return _float_op(TanBackward0, _f64(np.tan), x, "tan", "result")


class PowBackward0(Node):
    """y = x^p (p a number);  dx = g * p * x^(p-1)"""

    saved_names = ("self", "exponent")

    def backward(self, g: Any) -> Any:
        p = self.saved("exponent")
        if p == 0:
            return c.zeros_like_data(g)
        x = self.saved("self")
        if isinstance(x, Tensor):  # torch's graph: grad * (p * x.pow(p - 1)), a MulBackward1
            return g * mul_scalar(x ** (p - 1), p)
        # torch: grad * (p * x.pow(p - 1)), that pow computed as the forward computes it
        return g * (p * (_pow_data(x, p - 1) if x.dtype is _F32 else x ** (p - 1)))


def _pow_data(a: np.ndarray, p: Any) -> np.ndarray:
    """float32 ``a ** p`` as torch computes it: products for small integer powers,
    (r)sqrt for halves, otherwise a pow rounded once (here: from double)."""
    if type(p) is bool or not isinstance(p, (int, float)):
        return np.power(a, p)
    if p == 2:
        return a * a
    if p == 3:
        return a * a * a
    if p == 0.5:
        return np.sqrt(a)
    if p == -0.5:
        return 1 / np.sqrt(a)
    if p == -1:
        return 1 / a
    if p == -2:
        return 1 / (a * a)
    return np.power(a.astype(_F64), p).astype(_F32)


def pow_scalar(x: Tensor, p: float) -> Tensor:
    """x ** p for a Python number p."""
    data = unary_data(x, "pow")
    c._check_scalar(p, "pow")
    dt = _with_scalar(x.dtype, p)
    if x.dtype._cat == 1 and isinstance(p, int) and p < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    node = node_for(PowBackward0, x)
    out = make(_pow_data(data, p) if data.dtype is _F32 else np.power(data, p), dt, node)
    if node is not None:
        node.save("self", x)
        node._saved["exponent"] = p
    return out


class ClampBackward1(Node):
    """y = clamp(x, min, max);  dx = g where min <= x <= max"""

    saved_names = ("self", "min", "max")

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        lo, hi = self._saved["min"], self._saved["max"]
        mask = True
        if lo is not None:
            mask = x >= lo
        if hi is not None:
            mask = (x <= hi) if mask is True else mask & (x <= hi)
        return g * mask


class ClampMinBackward0(ClampBackward1):
    """y = max(x, min);  dx = g where x >= min"""


class ClampMaxBackward0(ClampBackward1):
    """y = min(x, max);  dx = g where x <= max"""


def clamp(x: Tensor, min: float | None = None, max: float | None = None,  # noqa: A002
          *, _cls: type[Node] = ClampBackward1) -> Tensor:
    """x limited to [min, max] (either bound may be None)."""
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        from .binary import clamp_tensor

        return clamp_tensor(x, min, max)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    data = unary_data(x, "clamp")
    out_data = data
    if min is not None:
        out_data = np.maximum(out_data, min)
    if max is not None:
        out_data = np.minimum(out_data, max)
    dt = x.dtype
    for b in (min, max):
        if b is not None:
            dt = _with_scalar(dt, b) if dt._cat < 2 else dt
    node = node_for(_cls, x)
    out = make(out_data, dt, node)
    if node is not None:
        node.save("self", x)
        node._saved["min"], node._saved["max"] = min, max
    return out


def clamp_min(x: Tensor, min: float) -> Tensor:  # noqa: A002
    """max(x, min)."""
    return clamp(x, min, None, _cls=ClampMinBackward0)


def clamp_max(x: Tensor, max: float) -> Tensor:  # noqa: A002
    """min(x, max)."""
    return clamp(x, None, max, _cls=ClampMaxBackward0)


def square(x: Tensor) -> Tensor:
    """x * x."""
    return pow_scalar(x, 2)


# ---- more elementwise functions ---------------------------------------------------------------

def _call(x: Any, name: str, np_fn: Any) -> Any:
    """``x.<name>()`` on a Tensor (create_graph), ``np_fn(x)`` on an array."""
    return getattr(x, name)() if isinstance(x, Tensor) else np_fn(x)


class Exp2Backward0(Node):
    """y = 2^x;  dx = g * y * ln 2"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        return g * (self.saved("result") * _LN2)


def exp2(x: Tensor) -> Tensor:
    """2^x."""
    return _float_op(Exp2Backward0, _f64(np.exp2), x, "exp2", "result")


class Log10Backward0(Node):
    """y = log10(x);  dx = g / (x ln 10)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g / (self.saved("self") * _LN10)


def log10(x: Tensor) -> Tensor:
    """The base-10 logarithm."""
    return _float_op(Log10Backward0, _f64(np.log10), x, "log10", "self")


class SinhBackward0(Node):
    """y = sinh(x);  dx = g * cosh(x)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g * _call(self.saved("self"), "cosh", np.cosh)


def sinh(x: Tensor) -> Tensor:
    """sinh(x)."""
    return _float_op(SinhBackward0, _f64(np.sinh), x, "sinh", "self")


class CoshBackward0(Node):
    """y = cosh(x);  dx = g * sinh(x)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g * _call(self.saved("self"), "sinh", np.sinh)


def cosh(x: Tensor) -> Tensor:
    """cosh(x)."""
    return _float_op(CoshBackward0, _f64(np.cosh), x, "cosh", "self")


class AsinBackward0(Node):
    """y = asin(x);  dx = g / sqrt(1 - x^2)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        return g * _call(-x * x + 1, "rsqrt", lambda a: 1 / np.sqrt(a))


def asin(x: Tensor) -> Tensor:
    """arcsin(x)."""
    return _float_op(AsinBackward0, _f64(np.arcsin), x, "asin", "self")


class AcosBackward0(Node):
    """y = acos(x);  dx = -g / sqrt(1 - x^2)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        return g * -_call(-x * x + 1, "rsqrt", lambda a: 1 / np.sqrt(a))


def acos(x: Tensor) -> Tensor:
    """arccos(x)."""
    return _float_op(AcosBackward0, _f64(np.arccos), x, "acos", "self")


class AtanBackward0(Node):
    """y = atan(x);  dx = g / (1 + x^2)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        return g / (x * x + 1)


def atan(x: Tensor) -> Tensor:
    """arctan(x)."""
    return _float_op(AtanBackward0, _f64(np.arctan), x, "atan", "self")


# ---- rounding: step functions, zero gradient --------------------------------------------------

class FloorBackward0(Node):
    """y = floor(x);  dx = 0"""

    def backward(self, g: Any) -> Any:
        return c.zeros_like_data(g)


class CeilBackward0(FloorBackward0):
    """y = ceil(x);  dx = 0"""


class RoundBackward0(FloorBackward0):
    """y = round(x) (half to even);  dx = 0"""


class RoundBackward1(FloorBackward0):
    """y = round(x, decimals);  dx = 0"""

    saved_names = ("decimals",)


class TruncBackward0(FloorBackward0):
    """y = trunc(x);  dx = 0"""


def _rounding(cls: type[Node], fn: Any, x: Tensor, name: str) -> Tensor:
    """``fn(x)`` for a rounding function (on integers: a copy, with no node)."""
    data = unary_data(x, name)
    if x.dtype._cat < 2:  # integers are already whole: a copy, as torch
        if x.dtype._cat == 0:
            raise NotImplementedError(f'"{name}_vml_cpu" not implemented for \'Bool\'')
        return make(data.copy(), x.dtype, None)
    return make(fn(data), x.dtype, node_for(cls, x))


def floor(x: Tensor) -> Tensor:
    """The largest integer <= x."""
    return _rounding(FloorBackward0, np.floor, x, "floor")


def ceil(x: Tensor) -> Tensor:
    """The smallest integer >= x."""
    return _rounding(CeilBackward0, np.ceil, x, "ceil")


def trunc(x: Tensor) -> Tensor:
    """x rounded toward zero."""
    return _rounding(TruncBackward0, np.trunc, x, "trunc")


def round(x: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001
    """x rounded half to even (to ``decimals`` decimal places)."""
    if decimals == 0:
        return _rounding(RoundBackward0, np.rint, x, "round")
    if x.dtype._cat < 2:
        raise NotImplementedError(f"\"round_cpu\" not implemented for '{scalar_name(x.dtype)}'")
    ten = x.dtype.np.type(10.0) ** (decimals if decimals > 0 else -decimals)
    data = unary_data(x, "round")
    out = np.rint(data * ten) / ten if decimals > 0 else np.rint(data / ten) * ten
    node = node_for(RoundBackward1, x)
    if node is not None:
        node._saved["decimals"] = decimals
    return make(out, x.dtype, node)
