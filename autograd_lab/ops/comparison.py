"""Comparisons, logic and selection: ``where``; ``eq``/``lt``/..., ``logical_*``,
``bitwise_*``; the predicates ``isnan``/``isinf``/``isfinite``; ``isclose``/``allclose``.

Only ``where`` has a gradient (it routes ``g`` to the operand it chose); ``choose`` is the
same selection inside backward formulas, on arrays or Tensors.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .._dtype import bool_, int64
from .._messages import broadcast_error, scalar_name
from . import common as c
from .common import BinaryNode, Tensor, binary_args
from .record import make, record


def _shape(x: Any) -> tuple:
    return x._data.shape if isinstance(x, Tensor) else ()


class WhereBackward0(BinaryNode):
    """z = where(cond, x, y);  dx = g where cond,  dy = g where not cond"""

    saved_names = ("condition",)

    def backward(self, g: Any) -> tuple:
        cond = self.saved("condition")
        return (self.reduce(0, choose(cond, g, 0.0)) if self.needs(0) else None,
                self.reduce(1, choose(cond, 0.0, g)) if self.needs(1) else None)


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
    out, node = record(WhereBackward0, data, dt, x, y)
    if node is not None:
        node.shapes = (_shape(x), _shape(y))
        if not isinstance(condition, Tensor):
            condition = make(np.asarray(cond, dtype=bool), bool_, None)
        node.save("condition", condition)
    return out


def choose(cond: Any, a: Any, b: Any) -> Any:
    """``a`` where ``cond``, else ``b``, in a backward formula: a differentiable ``where``
    when any of them is a Tensor, else numpy's."""
    if isinstance(a, Tensor) or isinstance(b, Tensor) or isinstance(cond, Tensor):
        return where(cond, a, b)
    return np.where(cond, a, b)


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
