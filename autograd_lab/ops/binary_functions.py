"""Elementwise functions of two tensors beyond arithmetic: ``maximum``/``minimum``, ``atan2``,
``hypot``, ``fmod``.

Operands broadcast and promote as in arithmetic (``arithmetic._binary`` records them);
``atan2`` and ``hypot`` take Tensors only, ``fmod`` also a number as its divisor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _messages as msg
from .._dtype import bool_, get_default_dtype
from . import common as c
from .arithmetic import _binary, check_integer_divisor, div, div_scalar
from .common import BinaryNode, Node, Tensor, tensor_pair
from .comparison import choose
from .indexing import masked_fill
from .record import record

_F64 = np.dtype(np.float64)


# ---- maximum / minimum ---------------------------------------------------------------------

class MaximumBackward0(BinaryNode):
    """z = max(x, y);  the larger side gets g, a tie gives each g/2"""

    saved_names = ("self", "other")
    grad_versions = (1, 1)  # torch's formula ends with in-place steps
    _sign = 1

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("other")
        # torch masks out the losing side only, so a nan (no side loses) passes g to both
        xlose, ylose = ((x < y), (x > y)) if self._sign > 0 else ((x > y), (x < y))
        if isinstance(g, Tensor):  # create_graph: torch's where(x == y, g / 2, g).masked_fill_
            self.grad_versions = (self._version(0, g), self._version(1, g))
            return tuple(self.reduce(i, choose(x == y, div_scalar(g, 2), g).masked_fill(m, 0))
                         if self.needs(i) else None for i, m in enumerate((xlose, ylose)))
        # where(x == y, g / 2, g) then +0 on the losing side, in g's dtype
        zero = g.dtype.type(0)
        shared = np.where(x == y, g * g.dtype.type(0.5), g)
        gx = self.reduce(0, np.where(xlose, zero, shared)) if self.needs(0) else None
        gy = self.reduce(1, np.where(ylose, zero, shared)) if self.needs(1) else None
        self.grad_versions = (self._version(0, g), self._version(1, g))
        return gx, gy

    def _version(self, i: int, g: Any) -> int:
        """torch's where(...).masked_fill_(...) leaves input ``i``'s gradient at version 1,
        unless the engine then sums it down to a broadcast input's shape or casts it to the
        input's dtype (a new tensor, version 0)."""
        if self.shapes is not None and self.shapes[i] != tuple(g.shape):
            return 0
        gdt = g.dtype.np if isinstance(g, Tensor) else g.dtype
        return 0 if self.casts is not None and self.casts[i].np != gdt else 1


class MinimumBackward0(MaximumBackward0):
    """z = min(x, y);  the smaller side gets g, a tie gives each g/2"""

    _sign = -1


def _minmax(cls: type[Node], fn: Any, x: Any, y: Any, name: str) -> Tensor:
    """The elementwise max or min of two tensors (numbers are refused, as in torch)."""
    c.tensor_pair(x, y, name)
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


# ---- atan2, hypot, fmod ------------------------------------------------------------------------


def _in_f64(fn: Any) -> Any:
    """``fn`` computed in double, rounded once to the result's dtype by the caller: torch's
    float32 kernels are accurate to about an ulp, numpy's float32 loops less so."""

    def run(a: Any, b: Any) -> Any:
        return fn(np.asarray(a, dtype=_F64), np.asarray(b, dtype=_F64))

    return run


# ---- atan2 ---------------------------------------------------------------------------------

class Atan2Backward0(BinaryNode):
    """z = atan2(x, y);  dx = g * y / (x^2 + y^2),  dy = -g * x / (x^2 + y^2)
    (both 0 where x = y = 0)"""

    saved_names = ("other", "self")

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("other")
        denom = x * x + y * y
        if isinstance(denom, Tensor):
            recip = masked_fill(denom.reciprocal(), denom == 0, 0.0)
        else:
            with np.errstate(divide="ignore"):
                recip = np.where(denom == 0, denom.dtype.type(0), np.reciprocal(denom))
        if self.needs(1) and getattr(x, "dtype", None) in (bool_, np.bool_):
            raise RuntimeError(msg.BOOL_NEGATION)  # torch's formula negates x
        gx = self.reduce(0, g * y * recip) if self.needs(0) else None
        gy = self.reduce(1, g * -x * recip) if self.needs(1) else None
        return gx, gy


def atan2(x: Tensor, y: Tensor) -> Tensor:
    """The angle of the point (y, x) from the positive x axis, in (-pi, pi]."""
    tensor_pair(x, y, "atan2")
    if c.result_type(x, y)._cat != 2:  # integers and bools: computed in the default dtype
        x, y = x.to(get_default_dtype()), y.to(get_default_dtype())
    out, node = _binary(Atan2Backward0, _in_f64(np.arctan2), x, y, "atan2")
    if node is not None:
        node.save("self", x)
        node.save("other", y)
    return out


# ---- hypot ---------------------------------------------------------------------------------

class HypotBackward0(BinaryNode):
    """z = sqrt(x^2 + y^2);  dx = g * x / z,  dy = g * y / z"""

    saved_names = ("other", "result", "self")

    def backward(self, g: Any) -> tuple:
        z = self.saved("result")
        gx = self.reduce(0, g * self.saved("self") / z) if self.needs(0) else None
        gy = self.reduce(1, g * self.saved("other") / z) if self.needs(1) else None
        return gx, gy


def hypot(x: Tensor, y: Tensor) -> Tensor:
    """sqrt(x^2 + y^2), without overflow for large x or y (floating point only)."""
    tensor_pair(x, y, "hypot")
    dt = c.result_type(x, y)
    if dt._cat != 2:
        raise msg.not_implemented_for("hypot_cpu", dt)
    out, node = _binary(HypotBackward0, _in_f64(np.hypot), x, y, "hypot")
    if node is not None:  # as torch: each input only when the other's formula needs it
        node.save("self", x if node.needs(0) else None)
        node.save("other", y if node.needs(1) else None)
        node.save_output("result", out)
    return out


# ---- fmod ----------------------------------------------------------------------------------

class FmodBackward0(Node):
    """z = fmod(x, s) (s a number);  dx = g"""

    def backward(self, g: Any) -> Any:
        return g


class FmodBackward1(BinaryNode):
    """z = x - trunc(x / y) * y;  dx = g,  dy = -g * trunc(x / y)"""

    saved_names = ("other", "self")

    def backward(self, g: Any) -> tuple:
        gy = None
        if self.needs(1):
            x, y = self.saved("self"), self.saved("other")
            if isinstance(x, Tensor) or isinstance(y, Tensor):
                q = div(x, y, rounding_mode="trunc")
            else:
                with np.errstate(all="ignore"):  # in the result's dtype, as torch divides
                    q = np.trunc(c.cast(x, self.out_dtype) / c.cast(y, self.out_dtype))
            gy = self.reduce(1, -g * q)
        return (self.reduce(0, g) if self.needs(0) else None), gy


def fmod(x: Tensor, y: Any) -> Tensor:
    """x - trunc(x / y) * y: the remainder with the sign of x (C's fmod)."""
    if not isinstance(x, Tensor) or not (isinstance(y, Tensor) or c.is_number(y)):
        raise msg.invalid_arguments("fmod", (x, y), msg.TENSOR_TENSOR, msg.TENSOR_NUMBER)
    a, b, dt = c.binary_args(x, y, "fmod")
    if dt._cat == 0:
        raise msg.not_implemented_for("fmod_cpu", dt)
    check_integer_divisor(b, dt)
    if not isinstance(y, Tensor):
        with np.errstate(all="ignore"):
            data = np.fmod(a if dt is x.dtype else a.astype(dt.np), b)
        return record(FmodBackward0, data, dt, x)[0]
    with np.errstate(all="ignore"):
        out, node = _binary(FmodBackward1, np.fmod, x, y, "fmod")
    if node is not None:
        node.out_dtype = dt
        if node.needs(1):  # as torch: only other's formula reads them
            node.save("self", x)
            node.save("other", y)
    return out
