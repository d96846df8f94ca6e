"""Elementwise functions of two operands (tensors or Python numbers), with broadcasting.

Each backward returns one gradient per edge; ``reduce`` sums a gradient back to
its input's shape when the forward broadcast it. Comparisons and logical ops
(no gradient) close the module.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

import numpy as np

from .._dtype import bool_, get_default_dtype, int64
from .._messages import scalar_name
from ..anomaly_mode import ANOMALY, record_forward_trace
from . import common as c
from .common import (
    _NO_EDGE,
    STATE,
    Node,
    Tensor,
    _edge,
    _new_node,
    _seq,
    binary_args,
    broadcast_error,
    make,
    node_for,
    sum_to,
)


def _shape(x: Any) -> tuple:
    return x._data.shape if isinstance(x, Tensor) else ()


def _binary(cls: type[Node], fn: Any, x: Any, y: Any, name: str) -> tuple[Tensor, Node | None]:
    if type(x) is Tensor and (type(y) is float or (type(y) is Tensor and y.dtype is x.dtype)):
        return _binary_fast(cls, fn, x, y)
    a, b, dt = binary_args(x, y, name)
    try:
        data = fn(a, b)
    except ValueError:
        raise broadcast_error(np.shape(a), np.shape(b)) from None
    except OverflowError:  # torch casts an out-of-range Python int to the dtype: it wraps
        data = fn(*(np.array(v).astype(dt.np) if type(v) is int else v for v in (a, b)))
    node = node_for(cls, x, y)
    out = make(data, dt, node)
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


def _binary_fast(cls: type[Node], fn: Any, x: Tensor, y: Any) -> tuple[Tensor, Node | None]:
    """The common case -- a tensor with a Python float, or two tensors of one dtype --
    with the general path's steps inlined (this runs for every scalar op of a training loop)."""
    a, dt = x._data, x.dtype
    ty = type(y) is Tensor
    b = y._data if ty else y
    if not ty and dt._cat != 2:
        dt = get_default_dtype()
    try:
        if a.ndim == 0 and (not ty or b.ndim == 0):
            data = fn(a[()], b[()] if ty else b)  # numpy scalar math is ~8x faster than 0-d
        else:
            data = fn(a, b)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    if STATE.enabled and (x._rg or (ty and y._rg)):
        node = _new_node(cls)
        node.next_functions = (_edge(x), _edge(y) if ty else _NO_EDGE)
        node._saved = {}
        node._seq = next(_seq)
        if ANOMALY.enabled:
            record_forward_trace(node)
        out = make(data, dt, node)
        if ty and (a.shape != b.shape or a.shape != out._data.shape):
            node.shapes = (a.shape, b.shape)
        elif not ty and a.shape != out._data.shape:
            node.shapes = (a.shape, out._data.shape)
        if dt is not x.dtype:
            node.casts = (x.dtype, dt)
        return out, node
    return make(data, dt, None), None


class BinaryNode(Node):
    """A two-input node: ``reduce(i, g)`` gives input i's gradient its shape and dtype back."""

    shapes: tuple | None = None  # input shapes, kept only when the forward broadcast
    casts: tuple | None = None  # input dtypes, kept only when the forward promoted

    def reduce(self, i: int, g: Any) -> Any:
        """Input ``i``'s gradient: ``g`` summed back to its shape, in its dtype."""
        if self.shapes is not None:
            g = sum_to(g, self.shapes[i])
        return g if self.casts is None else c.cast(g, self.casts[i])

    def needs(self, i: int) -> bool:
        """Whether input ``i`` wants a gradient (it has an edge)."""
        return self.next_functions[i][0] is not None


class AddBackward0(BinaryNode):
    """z = x + alpha * y;  dx = g,  dy = alpha * g"""

    saved_names = ("alpha",)

    def backward(self, g: Any) -> tuple:
        alpha = self._saved.get("alpha", 1)
        return (self.reduce(0, g) if self.needs(0) else None,
                self.reduce(1, g if alpha == 1 else g * alpha) if self.needs(1) else None)


def add(x: Any, y: Any, *, alpha: float = 1) -> Tensor:
    """x + alpha * y."""
    if alpha == 1:
        out, node = _binary(AddBackward0, operator.add, x, y, "add")
    else:
        out, node = _binary(AddBackward0, lambda a, b: a + alpha * b, x, y, "add")
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
    if isinstance(x, Tensor) and isinstance(y, Tensor) and _is_bool(x) and _is_bool(y):
        return RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    return RuntimeError(
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
        "trying to invert a mask, use the `~` or `logical_not()` operator instead."
    )


def sub(x: Any, y: Any, *, alpha: float = 1) -> Tensor:
    """x - alpha * y."""
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
    if _is_bool(x) or _is_bool(other):
        raise _bool_sub_error(x, other)
    if isinstance(other, Tensor):
        out, node = _binary(RsubBackward0, lambda a, b: b - alpha * a, x, other, "rsub")
        if node is not None:
            node._saved["alpha"] = alpha
        return out
    a, b, dt = binary_args(x, other, "rsub")
    node = node_for(RsubBackward1, x)
    out = make(b - alpha * a if alpha != 1 else b - a, dt, node)
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


def div(x: Any, y: Any, *, rounding_mode: str | None = None) -> Tensor:
    """x / y (true division), or rounded to an integer value with ``rounding_mode``."""
    if rounding_mode is not None:
        return _div_rounded(x, y, rounding_mode)
    a, b, dt = binary_args(x, y, "div")
    if dt._cat != 2:  # true division of integers gives the default float dtype
        x = x.to(get_default_dtype()) if isinstance(x, Tensor) else float(x)
        y = y.to(get_default_dtype()) if isinstance(y, Tensor) else float(y)
    out, node = _binary(DivBackward0, operator.truediv, x, y, "div")
    if node is not None:
        _save_operand(node, "other", y, True)
        _save_operand(node, "self", x, node.needs(1))
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

    def backward(self, *grads: Any) -> Any:
        raise RuntimeError(f"derivative for aten::{self.op} is not implemented")


# torch's node for such ops is literally named ``NotImplemented``
FloorDivideBackward = type("NotImplemented", (NotImplementedBackward,),
                           {"op": "floor_divide", "__module__": __name__})
RemainderScalarSelfBackward = type("NotImplemented", (NotImplementedBackward,),
                                   {"op": "remainder", "__module__": __name__})


def _div_rounded(x: Any, y: Any, mode: str, cls: type[Node] = DivBackward2) -> Tensor:
    """x / y rounded toward zero ("trunc") or down ("floor"); integers stay integers."""
    if mode not in ("trunc", "floor"):
        raise RuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'"
        )
    a, b, dt = binary_args(x, y, "div")
    with np.errstate(all="ignore"):
        if dt._cat == 2:
            q = np.true_divide(a, b)
            data = np.floor(q) if mode == "floor" else np.trunc(q)
        else:
            if np.any(np.asarray(b) == 0):
                raise RuntimeError("ZeroDivisionError")
            data = np.floor_divide(a, b) if mode == "floor" else np.trunc(a / b)
    if dt._cat != 2:
        node = None
    elif cls is DivBackward2:
        node = node_for(cls, x, y)
    else:  # NotImplemented: an edge per tensor operand
        node = node_for(cls, *[v for v in (x, y) if isinstance(v, Tensor)])
    out = make(data, dt, node)
    if node is not None and cls is DivBackward2:
        _save_operand(node, "self", x, True)
        _save_operand(node, "other", y, True)
        node._saved["rounding_mode"] = mode
    return out


def floor_divide(x: Any, y: Any) -> Tensor:
    """floor(x / y); torch defines no derivative for it."""
    return _div_rounded(x, y, "floor", FloorDivideBackward)


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
            q = (x / y).floor() if isinstance(x, Tensor) else np.floor(x / y)
            gy = self.reduce(1, -g * q)
        return (self.reduce(0, g) if self.needs(0) else None, gy)


def remainder(x: Any, y: Any) -> Tensor:
    """x - floor(x / y) * y (the sign of y, as Python's %)."""
    a, b, dt = binary_args(x, y, "remainder")
    data = np.mod(a, b)
    if dt._cat != 2:
        return make(data, dt, None)
    if not isinstance(x, Tensor):
        return make(data, dt, node_for(RemainderScalarSelfBackward, y))
    if not isinstance(y, Tensor):
        return make(data, dt, node_for(RemainderBackward0, x))
    node = node_for(RemainderBackward1, x, y)
    out = make(data, dt, node)
    if node is not None:
        if x._data.shape != data.shape or y._data.shape != data.shape:
            node.shapes = (x._data.shape, y._data.shape)
        if x.dtype is not dt or y.dtype is not dt:
            node.casts = (x.dtype, y.dtype)
        node.save("self", x)
        node.save("other", y)
    return out


def true_divide_reverse(x: Tensor, other: Any) -> Tensor:
    """``other / x`` for a number ``other``: ``reciprocal(x) * other``, as torch builds it."""
    from .unary import reciprocal

    return mul(reciprocal(x), other)


def _power(a: Any, b: Any) -> Any:
    """numpy's power, but integers to negative powers give torch's integer results."""
    if np.result_type(a, b).kind in "iu" and np.any(np.asarray(b) < 0):
        pos = np.power(a, np.abs(b))
        unit = np.where(a == -1, np.where(np.asarray(b) % 2 == 0, 1, -1), (a == 1) * 1)
        return np.where(np.asarray(b) < 0, unit, pos)
    return np.power(a, b)


class PowBackward1(BinaryNode):
    """z = x ** y (tensors);  dx = g * y * x^(y-1),  dy = g * z * log(x)"""

    saved_names = ("self", "exponent", "result")

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("exponent")
        if self.casts is not None:  # compute in the result's dtype, as torch does
            x, y = c.cast(x, self.out_dtype), c.cast(y, self.out_dtype)
        gx = gy = None
        if self.needs(0):  # torch: 0 where the exponent is 0 (no 0 * inf at x == 0)
            gx = self.reduce(0, c.where(y == 0, 0.0, g * y * x ** (y - 1)))
        if self.needs(1):
            z = self.saved("result")
            # torch defines d/dy x^y = 0 where x == 0 and y >= 0
            gy = self.reduce(1, c.where((x == 0) & (y >= 0), 0.0, g * z * c.log(x)))
        return gx, gy


class PowBackward2(Node):
    """z = s ** y (s a number);  dy = g * z * log(s)"""

    saved_names = ("self", "exponent", "result")

    def backward(self, g: Any) -> Any:
        s = self._saved["self"]
        z = self.saved("result")
        if s == 0:
            y = self.saved("exponent")
            return c.where(y >= 0, 0.0, g * z * float(np.log(s)))
        return g * z * float(np.log(s))


def pow(x: Any, y: Any) -> Tensor:  # noqa: A001
    """x ** y, for tensors and numbers on either side."""
    from .unary import pow_scalar  # unary imports this module

    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        return pow_scalar(x, y)
    if not isinstance(x, Tensor):  # number ** tensor
        a, b, dt = binary_args(x, y, "pow")
        node = node_for(PowBackward2, y)
        out = make(np.power(a, b if dt._cat < 2 else b.astype(dt.np)), dt, node)
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


class MaximumBackward0(BinaryNode):
    """z = max(x, y);  the larger side gets g, a tie gives each g/2"""

    saved_names = ("self", "other")
    _sign = 1

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("other")
        xwin = (x > y) if self._sign > 0 else (x < y)
        tie = (x == y) * 0.5
        gx = self.reduce(0, g * (xwin + tie)) if self.needs(0) else None
        gy = self.reduce(1, g * ((1 - xwin * 1.0) - tie)) if self.needs(1) else None
        return gx, gy


class MinimumBackward0(MaximumBackward0):
    """z = min(x, y);  the smaller side gets g, a tie gives each g/2"""

    _sign = -1


def _minmax(cls: type[Node], fn: Any, x: Any, y: Any, name: str) -> Tensor:
    """The elementwise max or min of two tensors (numbers are refused, as in torch)."""
    if not isinstance(y, Tensor) or not isinstance(x, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(y).__name__}")
    out, node = _binary(cls, fn, x, y, name)
    if node is not None:
        node.save("self", x)
        node.save("other", y)
    return out


def maximum(x: Tensor, y: Tensor) -> Tensor:
    """The elementwise larger of x and y."""
    return _minmax(MaximumBackward0, np.maximum, x, y, "maximum")


def minimum(x: Tensor, y: Tensor) -> Tensor:
    """The elementwise smaller of x and y."""
    return _minmax(MinimumBackward0, np.minimum, x, y, "minimum")


class ClampBackward0(Node):
    """y = clamp(x, min, max) with tensor bounds;  dx = g where min <= x <= max,
    dmin = g where x < min (< max),  dmax = g where x > max (or max < min)"""

    saved_names = ("self", "min", "max")

    def backward(self, g: Any) -> tuple:
        x = self.saved("self")
        lo, hi = self.saved("min"), self.saved("max")
        nf = self.next_functions
        mask = True
        if lo is not None:
            mask = x >= lo
        if hi is not None:
            mask = (x <= hi) if mask is True else mask & (x <= hi)
        glo = ghi = None
        if nf[1][0] is not None:
            m = x < lo if hi is None else (x < lo) & (lo < hi)
            glo = sum_to(g * m, self.shapes[1])
        if nf[2][0] is not None:
            m = x > hi if lo is None else (x > hi) | (hi < lo)
            ghi = sum_to(g * m, self.shapes[2])
        return sum_to(g * mask, self.shapes[0]), glo, ghi


def clamp_tensor(x: Tensor, lo: Any, hi: Any) -> Tensor:
    """``clamp`` with tensor bounds (each bound gets a gradient too)."""
    data = x._data
    if lo is not None:
        data = np.maximum(data, c.to_array(lo))
    if hi is not None:
        data = np.minimum(data, c.to_array(hi))
    node = node_for(ClampBackward0, x, lo, hi)
    out = make(data, x.dtype, node)
    if node is not None:
        node.shapes = (x._data.shape, _shape(lo), _shape(hi))
        node.save("self", x)
        _save_operand(node, "min", lo, True)
        _save_operand(node, "max", hi, True)
    return out


class WhereBackward0(BinaryNode):
    """z = where(cond, x, y);  dx = g where cond,  dy = g where not cond"""

    saved_names = ("condition",)

    def backward(self, g: Any) -> tuple:
        cond = self.saved("condition")
        return (self.reduce(0, c.where(cond, g, 0.0)) if self.needs(0) else None,
                self.reduce(1, c.where(cond, 0.0, g)) if self.needs(1) else None)


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """x where ``condition``, else y; without x and y: the indices where it holds."""
    if x is None and y is None:
        return tuple(make(i, int64, None) for i in np.nonzero(c.to_array(condition)))
    cond = c.to_array(condition)
    if isinstance(condition, Tensor) and condition.dtype is not bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{scalar_name(condition.dtype)}"
        )
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):  # two numbers
        a, b, dt = x, y, c.result_type(x, y)
    else:
        a, b, dt = binary_args(x, y, "where")
    try:
        data = np.where(cond, a, b)
    except ValueError:
        raise broadcast_error(np.shape(cond), np.broadcast_shapes(np.shape(a), np.shape(b))) \
            from None
    node = node_for(WhereBackward0, x, y)
    out = make(data, dt, node)
    if node is not None:
        node.shapes = (_shape(x), _shape(y))
        if not isinstance(condition, Tensor):
            condition = make(np.asarray(cond, dtype=bool), bool_, None)
        node.save("condition", condition)
    return out


# ---- a tensor times or over a number, as a node of its own ----------------------------

class MulBackward1(Node):
    """y = x * c (c a number);  dx = g * c"""

    saved_names = ("other",)

    def backward(self, g: Any) -> Any:
        return g * self._saved["other"]


class DivBackward1(Node):
    """y = x / c (c a number);  dx = g / c"""

    saved_names = ("other",)

    def backward(self, g: Any) -> Any:
        return g / self._saved["other"]


def _scalar_op(cls: type[Node], x: Tensor, s: Any, fn: Any) -> Tensor:
    node = node_for(cls, x)
    out = make(fn(x._data, s), c.float_dtype(x), node)
    if node is not None:
        node._saved["other"] = s
    return out


def mul_scalar(x: Tensor, s: float) -> Tensor:
    """``x * s`` recorded as torch records it inside other ops (``MulBackward1``)."""
    return _scalar_op(MulBackward1, x, s, np.multiply)


def div_scalar(x: Tensor, s: float) -> Tensor:
    """``x / s`` recorded as torch records it inside other ops (``DivBackward1``)."""
    return _scalar_op(DivBackward1, x, s, np.true_divide)


# ---- comparisons and logic (no gradient) ---------------------------------------------------

def _compare(fn: Any, x: Any, y: Any, name: str) -> Tensor:
    a, b, _ = binary_args(x, y, name)
    try:
        return make(fn(a, b), bool_, None)
    except ValueError:
        raise broadcast_error(np.shape(a), np.shape(b)) from None


def _bitwise(fn: Any, x: Any, y: Any, name: str) -> Tensor:
    a, b, dt = binary_args(x, y, name)
    if dt._cat == 2:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'Float\'')
    return make(fn(a, b), dt, None)


def _elementwise(kind: Callable, fn: Any, name: str, doc: str) -> Callable[[Any, Any], Tensor]:
    """The op ``name``: ``kind(fn, x, y, name)`` (``_compare`` or ``_bitwise``)."""

    def op(x: Any, y: Any) -> Tensor:
        return kind(fn, x, y, name)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


eq = _elementwise(_compare, np.equal, "eq", "x == y, elementwise (bool).")
ne = _elementwise(_compare, np.not_equal, "ne", "x != y, elementwise (bool).")
lt = _elementwise(_compare, np.less, "lt", "x < y, elementwise (bool).")
le = _elementwise(_compare, np.less_equal, "le", "x <= y, elementwise (bool).")
gt = _elementwise(_compare, np.greater, "gt", "x > y, elementwise (bool).")
ge = _elementwise(_compare, np.greater_equal, "ge", "x >= y, elementwise (bool).")
logical_and = _elementwise(_compare, np.logical_and, "logical_and", "x and y, as truth values.")
logical_or = _elementwise(_compare, np.logical_or, "logical_or", "x or y, as truth values.")
logical_xor = _elementwise(_compare, np.logical_xor, "logical_xor",
                           "x xor y, as truth values.")
bitwise_and = _elementwise(_bitwise, np.bitwise_and, "bitwise_and",
                           "x & y (integer and bool tensors).")
bitwise_or = _elementwise(_bitwise, np.bitwise_or, "bitwise_or",
                          "x | y (integer and bool tensors).")
bitwise_xor = _elementwise(_bitwise, np.bitwise_xor, "bitwise_xor",
                           "x ^ y (integer and bool tensors).")


def bitwise_not(x: Tensor) -> Tensor:
    """~x (integer and bool tensors)."""
    if x.dtype._cat == 2:
        raise NotImplementedError("\"bitwise_not_cpu\" not implemented for 'Float'")
    return make(np.invert(x._data), x.dtype, None)


def invert(x: Tensor) -> Tensor:
    """``~x``: bitwise not, for integer and bool tensors only."""
    if x.dtype._cat == 2:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return make(np.invert(x._data), x.dtype, None)


def logical_not(x: Tensor) -> Tensor:
    """not x, as truth values."""
    return make(np.logical_not(x._data), bool_, None)


def _predicate(fn: Any, name: str, doc: str) -> Callable[[Tensor], Tensor]:
    def op(x: Tensor) -> Tensor:
        return make(fn(c.unary_data(x, name)), bool_, None)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


isnan = _predicate(np.isnan, "isnan", "Where x is nan (bool).")
isinf = _predicate(np.isinf, "isinf", "Where x is +inf or -inf (bool).")
isfinite = _predicate(np.isfinite, "isfinite", "Where x is neither inf nor nan (bool).")


def isclose(x: Tensor, y: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """|x - y| <= atol + rtol * |y|, elementwise (bool)."""
    return make(np.isclose(x._data, c.to_array(y), rtol, atol, equal_nan), bool_, None)


def allclose(x: Tensor, y: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether ``isclose`` holds everywhere."""
    return bool(np.allclose(x._data, c.to_array(y), rtol, atol, equal_nan))


def equal(x: Tensor, y: Tensor) -> bool:
    """Same shape and same elements."""
    return x.shape == y.shape and bool(np.array_equal(x._data, y._data))
