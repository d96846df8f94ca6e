"""Comparisons, logic and selection: ``where``; ``eq``/``lt``/..., ``logical_*``,
``bitwise_*``; the predicates ``isnan``/``isinf``/``isfinite``; ``isclose``/``allclose``.

Only ``where`` has a gradient (it routes ``g`` to the operand it chose); ``choose`` is the
same selection inside backward formulas, on arrays or Tensors.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import _messages as msg
from .._dtype import bool_, get_default_dtype, int64, uint8
from .._messages import scalar_name
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


_UNSET: Any = type("Unset", (), {})()  # an argument not given (None may be given)


def where(condition: Any, x: Any = _UNSET, y: Any = _UNSET) -> Any:
    """x where ``condition``, else y; without x and y: the indices where it holds."""
    if x is _UNSET and y is _UNSET and isinstance(condition, Tensor):
        return tuple(make(i, int64, None) for i in np.nonzero(c.to_array(condition)))
    if not isinstance(condition, (Tensor, np.ndarray)) or not all(
            isinstance(v, (Tensor, np.ndarray)) or c.is_number(v) for v in (x, y)):
        given = tuple(v for v in (condition, x, y) if v is not _UNSET)
        raise msg.invalid_arguments("where", given, *msg.WHERE_SIGNATURES)
    cond = c.to_array(condition)
    if isinstance(condition, Tensor) and condition.dtype is uint8:
        msg.warn_once(msg.WHERE_UINT8, stacklevel=3)
        cond = cond.astype(bool)
    elif isinstance(condition, Tensor) and condition.dtype is not bool_:
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{scalar_name(condition.dtype)}"
        )
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):  # two numbers
        if isinstance(x, complex) or isinstance(y, complex):
            raise TypeError("complex numbers are not supported by autograd_lab")
        a, b, dt = x, y, c.result_type(x, y)
    else:
        a, b, dt = binary_args(x, y, "where")
    c.broadcast_shapes(np.shape(cond), np.shape(a), np.shape(b))  # torch's error, if any
    data = np.where(cond, a, b)
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
    if not isinstance(x, Tensor) or not (isinstance(y, Tensor) or c.is_number(y)):
        # an operand error: the operators (``t == None``) step aside, torch.eq raises
        text = str(msg.invalid_arguments(name, (x, y), msg.TENSOR_TENSOR, msg.TENSOR_NUMBER))
        raise c.OperandTypeError(text)
    a, b, dt = binary_args(x, y, name)
    t = dt.np  # torch compares in the promoted dtype (a 0-d double against floats: as float)
    if type(a) is np.ndarray and a.dtype != t:
        a = a.astype(t)
    if type(b) is np.ndarray and b.dtype != t:
        b = b.astype(t)
    return make(c.broadcasting(fn, a, b), bool_, None)


def _logical(fn: Any, x: Any, y: Any, name: str) -> Tensor:
    c.tensor_pair(x, y, name)
    return make(c.broadcasting(fn, x._data, y._data), bool_, None)


def _bitwise(fn: Any, x: Any, y: Any, name: str) -> Tensor:
    if not (isinstance(x, Tensor) or c.is_number(x)) or not (
            isinstance(y, Tensor) or c.is_number(y)):
        text = str(msg.invalid_arguments(name, (x, y), msg.TENSOR_TENSOR, msg.NUMBER_TENSOR,
                                         msg.TENSOR_NUMBER))
        raise c.OperandTypeError(text)
    a, b, dt = binary_args(x, y, name)
    c.broadcast_shapes(np.shape(a), np.shape(b))
    if dt._cat == 2:
        raise msg.not_implemented_for(f"{name}_cpu", dt)
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
logical_and = _elementwise(_logical, np.logical_and, "logical_and", "x and y, as truth values.")
logical_or = _elementwise(_logical, np.logical_or, "logical_or", "x or y, as truth values.")
logical_xor = _elementwise(_logical, np.logical_xor, "logical_xor",
                           "x xor y, as truth values.")
bitwise_and = _elementwise(_bitwise, np.bitwise_and, "bitwise_and",
                           "x & y (integer and bool tensors).")
bitwise_or = _elementwise(_bitwise, np.bitwise_or, "bitwise_or",
                          "x | y (integer and bool tensors).")
bitwise_xor = _elementwise(_bitwise, np.bitwise_xor, "bitwise_xor",
                           "x ^ y (integer and bool tensors).")


def bitwise_not(x: Tensor) -> Tensor:
    """~x (integer and bool tensors)."""
    data = c.unary_data(x, "bitwise_not")
    if x.dtype._cat == 2:
        raise msg.not_implemented_for("bitwise_not_cpu", x.dtype)
    return make(np.invert(data), x.dtype, None)


def invert(x: Tensor) -> Tensor:
    """``~x``: bitwise not, for integer and bool tensors only."""
    if x.dtype._cat == 2:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return make(np.invert(x._data), x.dtype, None)


def logical_not(x: Tensor) -> Tensor:
    """not x, as truth values."""
    return make(np.logical_not(c.unary_data(x, "logical_not")), bool_, None)


def _predicate(fn: Any, name: str, doc: str) -> Callable[[Tensor], Tensor]:
    def op(x: Tensor) -> Tensor:
        return make(fn(c.unary_data(x, name)), bool_, None)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op

isnan = _predicate(np.isnan, "isnan", "Where x is nan (bool).")
isinf = _predicate(np.isinf, "isinf", "Where x is +inf or -inf (bool).")
isfinite = _predicate(np.isfinite, "isfinite", "Where x is neither inf nor nan (bool).")


def isclose(x: Tensor, y: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """|x - y| <= atol + rtol * |y|, elementwise (bool); x and y of one dtype.

    Computed as torch does, in x's dtype, into a result that is updated in place (its
    ``_version`` counts the updates)."""
    return _isclose(x, y, rtol, atol, equal_nan, "isclose")


def _isclose(x: Tensor, y: Tensor, rtol: float, atol: float, equal_nan: bool,
             name: str) -> Tensor:
    c.tensor_pair(x, y, name)
    if x.dtype is not y.dtype:
        raise RuntimeError(f"{scalar_name(x.dtype)} did not match {scalar_name(y.dtype)}")
    for arg, v in (("rtol", rtol), ("atol", atol)):
        if v < 0:
            raise RuntimeError(f"{arg} must be greater than or equal to zero, but got {v:g}")
    a, b = x._data, y._data
    c.broadcast_shapes(a.shape, b.shape)
    close, updates = np.equal(a, b), 0
    if equal_nan and x.dtype._cat == 2:
        close, updates = close | (np.isnan(a) & np.isnan(b)), 1
    if rtol != 0 or atol != 0:
        if x.dtype._cat == 0:  # bools are compared as numbers of the default dtype
            a, b = a.astype(get_default_dtype().np), b.astype(get_default_dtype().np)
        ft = a.dtype.type if a.dtype.kind == "f" else get_default_dtype().np.type
        with np.errstate(all="ignore"):
            allowed = ft(atol) + np.abs(ft(rtol) * b.astype(ft, copy=False))
            actual = np.abs(a - b).astype(ft, copy=False)
            close = close | (np.isfinite(actual) & (actual <= allowed))
        updates += 1
    out = make(close, bool_, None)
    out._vc[0] = updates
    return out


def allclose(x: Tensor, y: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether ``isclose`` holds everywhere."""
    return bool(_isclose(x, y, rtol, atol, equal_nan, "allclose")._data.all())


def equal(x: Tensor, y: Tensor) -> bool:
    """Same shape and same elements."""
    c.tensor_pair(x, y, "equal")
    return x.shape == y.shape and bool(np.array_equal(x._data, y._data))
