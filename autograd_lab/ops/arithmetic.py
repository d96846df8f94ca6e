"""Arithmetic on two operands (tensors or Python numbers), with broadcasting: add, sub,
mul, div, floor_divide, remainder, pow, maximum, minimum; and a tensor times or over a
number recorded as a node of its own (``mul_scalar``, ``div_scalar``).

Each backward returns one gradient per edge; ``BinaryNode.reduce`` sums a gradient back
to its input's shape when the forward broadcast it, and casts it back when it promoted."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .. import _messages as msg
from .._dtype import bool_, get_default_dtype
from .._messages import broadcast_error
from . import common as c
from .common import BinaryNode, Node, Tensor, _with_scalar, binary_args, unary_data
from .comparison import choose
from .number_input import number_input
from .record import binary_fast, make, node_for, record

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def _binary(cls: type[Node], fn: Any, x: Any, y: Any, name: str) -> tuple[Tensor, Node | None]:
    if type(x) is Tensor and (type(y) is float or (type(y) is Tensor and y.dtype is x.dtype)):
        return binary_fast(cls, fn, x, y)
    a, b, dt = binary_args(x, y, name)
    try:
        data = fn(a, b)
    except ValueError:
        raise broadcast_error(np.shape(a), np.shape(b)) from None
    except OverflowError:  # torch casts an out-of-range Python int to the dtype: it wraps
        data = fn(*(np.array(v).astype(dt.np) if type(v) is int else v for v in (a, b)))
    out, node = record(cls, data, dt, x, y)
    if node is not None:
        # Keep only what backward needs to undo: broadcasting, and dtype promotion.
        shape = out._data.shape
        tx, ty = isinstance(x, Tensor), isinstance(y, Tensor)
        sx, sy = x._data.shape if tx else shape, y._data.shape if ty else shape
        if sx != shape or sy != shape:
            node.shapes = (sx, sy)
        dx, dy = x.dtype if tx else dt, y.dtype if ty else dt
        if dx is not dt or dy is not dt:
            node.casts = (dx, dy)
    return out, node


class AddBackward0(BinaryNode):
    """z = x + alpha * y;  dx = g,  dy = alpha * g"""

    saved_names = ("alpha",)

    def backward(self, g: Any) -> tuple:
        alpha = self._saved.get("alpha", 1)
        return (self.reduce(0, g) if self.needs(0) else None,
                self.reduce(1, g if alpha == 1 else g * alpha) if self.needs(1) else None)


def _check_alpha(op: str, x: Any, y: Any, alpha: Any) -> None:
    """torch's checks of ``alpha`` against the result dtype of ``x`` and ``y``."""
    if not c.is_number(alpha):
        raise TypeError(f"{op}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    dt = c.result_type(x, y)
    if isinstance(alpha, (bool, np.bool_)) and dt is not bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dt._cat < 2 and isinstance(alpha, (float, np.floating)):
        raise RuntimeError(msg.INTEGRAL_ALPHA)


def add(x: Any, y: Any, *, alpha: float = 1) -> Tensor:
    """x + alpha * y."""
    if type(x) is Tensor and type(y) is float and type(alpha) is int and alpha == 1:
        out, node = binary_fast(AddBackward0, operator.add, x, y)  # ``x + 0.5``: nothing to parse
    else:
        x = number_input(x, y)
        if type(alpha) is not int or alpha != 1:
            _check_alpha("add", x, y, alpha)
        fn = operator.add if alpha == 1 else (lambda a, b: a + alpha * b)
        out, node = _binary(AddBackward0, fn, x, y, "add")
    if node is not None:
        node._saved["alpha"] = alpha
    return out


class SubBackward0(BinaryNode):
    """z = x - alpha * y;  dx = g,  dy = -alpha * g"""

    saved_names = ("alpha",)

    def backward(self, g: Any) -> tuple:
        alpha = self._saved.get("alpha", 1)
        return (self.reduce(0, g) if self.needs(0) else None,
                self.reduce(1, -g if alpha == 1 else g * -alpha) if self.needs(1) else None)


def _is_bool(v: Any) -> bool:
    return v.dtype is bool_ if isinstance(v, Tensor) else isinstance(v, (bool, np.bool_))


def _bool_sub_error(x: Any, y: Any) -> RuntimeError:
    # a Python bool counts as a bool tensor
    return RuntimeError(msg.BOOL_SUB_BOTH if _is_bool(x) and _is_bool(y) else msg.BOOL_SUB)


def sub(x: Any, y: Any, *, alpha: float = 1) -> Tensor:
    """x - alpha * y."""
    x = number_input(x, y)
    if type(alpha) is not int or alpha != 1:
        _check_alpha("sub", x, y, alpha)
    if _is_bool(x) or _is_bool(y):
        raise _bool_sub_error(x, y)
    if alpha == 1:
        out, node = _binary(SubBackward0, operator.sub, x, y, "sub")
    else:
        out, node = _binary(SubBackward0, lambda a, b: a - alpha * b, x, y, "sub")
    if node is not None:
        node._saved["alpha"] = alpha
    return out


class RsubBackward1(Node):
    """z = other - alpha * x (other a number);  dx = -alpha * g"""

    saved_names = ("alpha",)

    def backward(self, g: Any) -> Any:
        alpha = self._saved["alpha"]
        return -g if alpha == 1 else g * -alpha


class RsubBackward0(BinaryNode):
    """z = other - alpha * x (tensors);  dx = -alpha * g,  dother = g"""

    saved_names = ("alpha",)

    def backward(self, g: Any) -> tuple:
        alpha = self._saved["alpha"]
        return (self.reduce(0, -g if alpha == 1 else g * -alpha) if self.needs(0) else None,
                self.reduce(1, g) if self.needs(1) else None)


def rsub(x: Tensor, other: Any, *, alpha: float = 1) -> Tensor:
    """``other - alpha * x`` (``1 - x`` is ``rsub(x, 1)``)."""
    if not isinstance(x, Tensor):
        raise msg.invalid_arguments("rsub", (x, other), *msg.RSUB_SIGNATURES)
    if type(alpha) is not int or alpha != 1:
        _check_alpha("rsub", x, other, alpha)
    if _is_bool(x) or _is_bool(other):
        raise _bool_sub_error(x, other)
    if isinstance(other, Tensor):
        out, node = _binary(RsubBackward0, lambda a, b: b - alpha * a, x, other, "rsub")
        if node is not None:
            node._saved["alpha"] = alpha
        return out
    a, b, dt = binary_args(x, other, "rsub")
    out, node = record(RsubBackward1, b - alpha * a if alpha != 1 else b - a, dt, x)
    if node is not None:
        node._saved["alpha"] = alpha
    return out


class MulBackward0(BinaryNode):
    """z = x * y;  dx = g * y,  dy = g * x"""

    saved_names = ("self", "other")
    wrapped_saved = ("self", "other")  # a saved Python number reads as a 0-d tensor

    def backward(self, g: Any) -> tuple:
        return (self.reduce(0, g * self.saved("other")) if self.needs(0) else None,
                self.reduce(1, g * self.saved("self")) if self.needs(1) else None)


def mul(x: Any, y: Any) -> Tensor:
    """x * y."""
    if type(x) is Tensor and type(y) is float:  # ``x * 0.5``: nothing to parse or promote
        out, node = binary_fast(MulBackward0, operator.mul, x, y)
        if node is not None:  # as _save_operand: the number only if x wants a gradient
            node._saved = {"other": y if node._fns[0] is not None else None, "self": None}
        return out
    x = number_input(x, y)
    out, node = _binary(MulBackward0, operator.mul, x, y, "mul")
    if node is not None:
        # Each factor is saved only when the *other* side needs a gradient.
        _save_operand(node, "other", y, node.needs(0))
        _save_operand(node, "self", x, node.needs(1))
    return out


def _save_operand(node: Node, name: str, v: Any, needed: bool) -> None:
    """Save operand ``v`` (a tensor, or a number as it is) if backward will read it."""
    if not needed:
        node._saved[name] = None
    elif isinstance(v, Tensor):
        node.save(name, v)
    else:
        node._saved[name] = v


class DivBackward0(BinaryNode):
    """z = x / y;  dx = g / y,  dy = -g * ((x / y) / y)  (torch's formula and order)"""

    saved_names = ("self", "other")
    wrapped_saved = ("self", "other")

    def backward(self, g: Any) -> tuple:
        y = self.saved("other")
        gx = self.reduce(0, g / y) if self.needs(0) else None
        gy = None
        if self.needs(1):
            x = self.saved("self")
            gy = self.reduce(1, -g * ((x / y) / y))
        return gx, gy


# div(x, y, rounding_mode=None) is torch's div.Tensor_mode: DivBackward2 (DivBackward0's formula)
DivModeNoneBackward = type("DivBackward2", (DivBackward0,), {
    "saved_names": ("self", "other", "rounding_mode"), "__module__": __name__})
_NO_MODE = "no rounding_mode"  # (not given at all)


def div(x: Any, y: Any, *, rounding_mode: Any = _NO_MODE) -> Tensor:
    """x / y (true division), or rounded to an integer value with ``rounding_mode``."""
    x = number_input(x, y)
    if rounding_mode is not None and rounding_mode is not _NO_MODE:
        return _div_rounded(x, y, rounding_mode)
    a, b, dt = binary_args(x, y, "div")
    if dt._cat != 2:  # true division of integers gives the default float dtype
        x = x.to(get_default_dtype()) if isinstance(x, Tensor) else float(x)
        y = y.to(get_default_dtype()) if isinstance(y, Tensor) else float(y)
    cls = DivBackward0 if rounding_mode is _NO_MODE else DivModeNoneBackward
    out, node = _binary(cls, operator.truediv, x, y, "div")
    if node is not None:
        _save_operand(node, "other", y, True)
        _save_operand(node, "self", x, True if cls is not DivBackward0 else node.needs(1))
        if cls is not DivBackward0:
            node._saved["rounding_mode"] = None
    return out


class DivBackward2(BinaryNode):
    """z = div(x, y, rounding_mode);  a step function: dx = 0,  dy = 0"""

    saved_names = ("self", "other", "rounding_mode")
    wrapped_saved = ("self", "other")

    def backward(self, g: Any) -> tuple:
        return (self.reduce(0, c.zeros_like_data(g)) if self.needs(0) else None,
                self.reduce(1, c.zeros_like_data(g)) if self.needs(1) else None)


class NotImplementedBackward(Node):
    """An op torch defines no derivative for: backward raises."""

    op = ""

    def name(self) -> str:
        return "torch::autograd::NotImplemented"

    def backward(self, *grads: Any) -> Any:
        raise RuntimeError(f"derivative for aten::{self.op} is not implemented")


# torch's node for such ops is literally named ``NotImplemented``
FloorDivideBackward = type("NotImplemented", (NotImplementedBackward,),
                           {"op": "floor_divide", "__module__": __name__})
RemainderScalarSelfBackward = type("NotImplemented", (NotImplementedBackward,),
                                   {"op": "remainder", "__module__": __name__})


def _div_rounded(x: Any, y: Any, mode: str, cls: type[Node] = DivBackward2,
                 name: str = "div") -> Tensor:
    """x / y rounded toward zero ("trunc") or down ("floor"); integers stay integers."""
    if mode not in ("trunc", "floor"):
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'"
        )
    a, b, dt = binary_args(x, y, name)
    if dt._cat == 0:
        raise msg.not_implemented_for(f"div_{mode}_cpu", dt)
    if dt._cat != 2:
        check_integer_divisor(b, dt)
    with np.errstate(all="ignore"):
        if dt._cat == 2:
            a, b = _as_float(a, dt), _as_float(b, dt)
            data = c.broadcasting(floor_divide_float if mode == "floor" else _trunc_divide, a, b)
        else:
            data = c.broadcasting(np.floor_divide if mode == "floor" else _trunc_int, a, b)
    if dt._cat != 2:
        node = None
    elif cls is DivBackward2:
        node = node_for(cls, x, y)
    else:  # NotImplemented: an edge per operand that requires grad
        node = node_for(cls, *[v for v in (x, y) if isinstance(v, Tensor) and v._rg])
    out = make(data, dt, node)
    if node is not None and cls is DivBackward2:
        _save_operand(node, "self", x, True)
        _save_operand(node, "other", y, True)
        node._saved["rounding_mode"] = mode
        sx, sy = np.shape(a), np.shape(b)
        if sx != data.shape or sy != data.shape:  # its zero gradients get their inputs' shapes
            node.shapes = (sx if isinstance(x, Tensor) else (), sy if isinstance(y, Tensor) else ())
    return out


def check_integer_divisor(b: Any, dt: Any) -> None:
    """Integer division or modulo by zero: torch's error (floats give inf or nan)."""
    if dt._cat == 1 and np.any(np.asarray(b) == 0):
        raise RuntimeError(msg.ZERO_DIVISION)


def _as_float(v: Any, dt: Any) -> Any:
    """An integer operand of a floating-point op in the result's dtype."""
    return v.astype(dt.np) if isinstance(v, np.ndarray) and v.dtype.kind in "biu" else v


def _trunc_divide(a: Any, b: Any) -> Any:
    return np.trunc(np.true_divide(a, b))


def _trunc_int(a: Any, b: Any) -> Any:
    """Integer division rounded toward zero (numpy's ``//`` rounds down)."""
    q = np.floor_divide(a, b)
    return q + ((q < 0) & (np.remainder(a, b) != 0))


def floor_divide_float(a: Any, b: Any) -> Any:
    """torch's floating-point floor division: through fmod, so that it agrees with
    ``remainder`` (``1.5 // 0.1`` is 14, not 15; ``inf // 2`` is nan; ``1 // -inf`` is -1)."""
    mod = np.fmod(a, b)
    q = (a - mod) / b
    q = q - ((mod != 0) & ((b < 0) != (mod < 0)))
    fl = np.floor(q)
    fl = fl + (q - fl > 0.5)
    out = np.where(q != 0, fl, np.copysign(np.zeros_like(q), np.true_divide(a, b)))
    return np.where(np.asarray(b) == 0, np.true_divide(a, b), out)


def remainder_float(a: Any, b: Any) -> Any:
    """torch's floating-point remainder: fmod, moved to the sign of the divisor."""
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


def floor_divide(x: Any, y: Any) -> Tensor:
    """floor(x / y); torch defines no derivative for it."""
    x = number_input(x, y)
    return _div_rounded(x, y, "floor", FloorDivideBackward, "floor_divide")


class RemainderBackward0(Node):
    """z = x mod s (s a number);  dx = g"""

    def backward(self, g: Any) -> Any:
        return g


class RemainderBackward1(BinaryNode):
    """z = x - floor(x / y) * y;  dx = g,  dy = -g * floor(x / y)"""

    saved_names = ("self", "other")

    def backward(self, g: Any) -> tuple:
        gy = None
        if self.needs(1):
            x, y = self.saved("self"), self.saved("other")
            if isinstance(x, Tensor):  # torch: self.div(other, rounding_mode="floor")
                q = div(x, y, rounding_mode="floor")
            else:
                with np.errstate(all="ignore"):  # in the result's dtype, as torch divides
                    q = floor_divide_float(*(c.cast(v, self.out_dtype) for v in (x, y)))
            gy = self.reduce(1, -g * q)
        return (self.reduce(0, g) if self.needs(0) else None, gy)


def remainder(x: Any, y: Any) -> Tensor:
    """x - floor(x / y) * y (the sign of y, as Python's %)."""
    a, b, dt = binary_args(x, y, "remainder")
    if dt._cat == 0:
        raise msg.not_implemented_for("remainder_cpu", dt)
    check_integer_divisor(b, dt)
    with np.errstate(all="ignore"):
        if dt._cat == 2:
            data = c.broadcasting(remainder_float, _as_float(a, dt), _as_float(b, dt))
        else:
            data = c.broadcasting(np.remainder, a, b)
    if dt._cat != 2:
        return make(data, dt, None)
    if not isinstance(x, Tensor):
        return record(RemainderScalarSelfBackward, data, dt, y)[0]
    if not isinstance(y, Tensor):
        return record(RemainderBackward0, data, dt, x)[0]
    out, node = record(RemainderBackward1, data, dt, x, y)
    if node is not None:
        if x._data.shape != data.shape or y._data.shape != data.shape:
            node.shapes = (x._data.shape, y._data.shape)
        if x.dtype is not dt or y.dtype is not dt:
            node.casts = (x.dtype, y.dtype)
        node.out_dtype = dt
        node.save("self", x)
        node.save("other", y)
    return out


def _power(a: Any, b: Any) -> Any:
    """numpy's power; integers to negative powers give torch's integer results."""
    if (rt := np.result_type(a, b)) == _F32:  # from double: numpy's is often an ulp off
        return np.power(np.asarray(a, _F64), np.asarray(b, _F64)).astype(_F32)
    if rt.kind in "iu" and np.any(np.asarray(b) < 0):
        pos = np.power(a, np.abs(b))
        unit = np.where(a == -1, np.where(np.asarray(b) % 2 == 0, 1, -1), (a == 1) * 1)
        return np.where(np.asarray(b) < 0, unit, pos)
    return np.power(a, b)


class PowBackward1(BinaryNode):
    """z = x ** y (tensors);  dx = g * y * x^(y-1),  dy = g * z * log(x)"""

    saved_names = ("self", "exponent", "result")

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("exponent")
        if self.needs(0) and getattr(y, "dtype", None) in (bool_, np.bool_):
            raise _bool_sub_error(x, y)  # torch's formula computes exponent - 1
        if self.casts is not None:  # compute in the result's dtype, as torch does
            x, y = c.cast(x, self.out_dtype), c.cast(y, self.out_dtype)
        gx = gy = None
        if self.needs(0):  # torch: 0 where the exponent is 0 (no 0 * inf at x == 0)
            y1 = sub_scalar(y, 1) if isinstance(y, Tensor) else y - 1
            gx = self.reduce(0, choose(y == 0, 0.0, g * (y * (
                x ** y1 if isinstance(x, Tensor) else _power(x, y1)))))
        if self.needs(1):
            z = self.saved("result")
            # torch defines d/dy x^y = 0 where x == 0 and y >= 0
            gy = self.reduce(1, g * choose((x == 0) & (y >= 0), 0.0, z * c.log(x)))
        return gx, gy


class PowBackward2(Node):
    """z = s ** y (s a number);  dy = g * z * log(s)"""

    saved_names = ("self", "exponent", "result")

    def backward(self, g: Any) -> Any:
        s = self._saved["self"]
        z = self.saved("result")
        with np.errstate(divide="ignore"):
            log_s = float(np.log(s))
        zlog = mul_scalar(z, log_s) if isinstance(z, Tensor) else z * log_s
        if s == 0:
            return g * choose(self.saved("exponent") >= 0, 0.0, zlog)
        return g * zlog


def pow(x: Any, y: Any) -> Tensor:  # noqa: A001
    """x ** y, for tensors and numbers on either side."""
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        return pow_scalar(x, y)
    if not isinstance(x, Tensor):  # number ** tensor
        a, b, dt = binary_args(x, y, "pow")
        if dt._cat == 0:
            raise msg.not_implemented_for("pow", dt)
        out, node = record(PowBackward2, _power(a, b) if dt._cat < 2 else
                           np.power(a, b.astype(dt.np)), dt, y)
        if node is not None:
            node._saved["self"] = x
            node.save("exponent", y)
            node.save_output("result", out)
        return out
    if x.dtype is bool_ and y.dtype is bool_:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    out, node = _binary(PowBackward1, _power, x, y, "pow")
    if node is not None:
        node.out_dtype = out.dtype
        node.save("self", x)
        node.save("exponent", y)
        node.save_output("result", out)
    return out


class PowBackward0(Node):
    """y = x^p (p a number);  dx = g * p * x^(p-1)"""

    saved_names = ("self", "exponent")

    def backward(self, g: Any) -> Any:
        p = self.saved("exponent")
        if p == 0:  # torch: zeros_like(self), contiguous
            return g.new_zeros(g.shape) if isinstance(g, Tensor) else np.zeros(g.shape, g.dtype)
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
    if x.dtype._cat <= 1 and isinstance(p, int) and not isinstance(p, bool) and p < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    out, node = record(
        PowBackward0, _pow_data(data, p) if data.dtype is _F32 else np.power(data, p), dt, x)
    if node is not None:
        node.save("self", x)
        node._saved["exponent"] = p
    return out


# ---- a tensor times or over a number, as a node of its own ----------------------------

class MulBackward1(Node):
    """y = x * c (c a number);  dx = g * c"""

    saved_names = ("other",)

    def backward(self, g: Any) -> Any:
        s = self._saved["other"]
        return mul_scalar(g, s) if isinstance(g, Tensor) else g * s  # torch: MulBackward1 again


class DivBackward1(Node):
    """y = x / c (c a number);  dx = g / c"""

    saved_names = ("other",)

    def backward(self, g: Any) -> Any:
        s = self._saved["other"]
        return div_scalar(g, s) if isinstance(g, Tensor) else g / s  # torch: DivBackward1 again


def _scalar_op(cls: type[Node], x: Tensor, s: Any, fn: Any) -> Tensor:
    out, node = record(cls, fn(x._data, s), c.float_dtype(x), x)
    if node is not None:
        node._saved["other"] = s
    return out


def mul_scalar(x: Tensor, s: float) -> Tensor:
    """``x * s`` recorded as torch records it inside other ops (``MulBackward1``)."""
    return _scalar_op(MulBackward1, x, s, np.multiply)


def div_scalar(x: Tensor, s: float) -> Tensor:
    """``x / s`` recorded as torch records it inside other ops (``DivBackward1``)."""
    return _scalar_op(DivBackward1, x, s, np.true_divide)


class AddBackward1(Node):
    """y = x + s (s a number, in a backward formula);  dx = g"""

    saved_names = ("alpha",)

    def backward(self, g: Any) -> Any:
        return g


class SubBackward1(AddBackward1):
    """y = x - s (s a number, in a backward formula);  dx = g"""


def add_scalar(x: Tensor, s: float) -> Tensor:
    """``x + s`` recorded as torch records it inside other ops (``AddBackward1``)."""
    out = _scalar_op(AddBackward1, x, s, np.add)
    if out.grad_fn is not None:
        out.grad_fn._saved = {"alpha": 1}
    return out


def sub_scalar(x: Tensor, s: float) -> Tensor:
    """``x - s`` recorded as torch records it inside other ops (``SubBackward1``)."""
    out = _scalar_op(SubBackward1, x, s, np.subtract)
    if out.grad_fn is not None:
        out.grad_fn._saved = {"alpha": 1}
    return out
