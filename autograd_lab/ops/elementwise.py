"""Elementwise functions of one tensor: y = f(x), dx = g * f'(x); and clamp."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _messages as msg
from .._messages import scalar_name
from .._precision import exact
from .._vector_math import sigmoid32
from . import backward_ops as bo
from . import common as c
from .arithmetic import _save_operand, mul, mul_scalar, pow_scalar
from .common import Node, Tensor, float_dtype, sum_to, unary_data
from .comparison import _shape, choose
from .record import make, node_for, record

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
    out, node = record(cls, fn(data), dt, x)
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
    return record(NegBackward0, np.negative(data), x.dtype, x)[0]


def _sigmoid(a: np.ndarray) -> np.ndarray:
    """torch's formula: exp(-a) overflows to inf for very negative a, giving exactly 0.
    float32 replays torch's kernel (its vectorised exp) below the precision policy's size."""
    if a.dtype == _F32 and exact(a.size):
        return sigmoid32(a)
    one = a.dtype.type(1)
    return one / (one + _f64(np.exp)(-a))

_ZERO = {np.dtype(t): np.dtype(t).type(0) for t in (np.float16, np.float32, np.float64, np.int8,
                                                    np.int16, np.int32, np.int64, np.uint8)}


class ReluBackward0(Node):
    """y = max(x, 0);  dx = g unless y <= 0 (so relu'(0) = 0, and nan passes g)"""

    saved_names = ("result",)

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        if isinstance(g, Tensor) or type(y) is not np.ndarray or y.dtype != g.dtype:
            return bo.threshold_backward(g, y, 0)
        # y is relu's output (>= 0 or nan), so "not y <= 0" is "y != 0": one comparison
        return bo.keep_where(g, y != 0)


def relu(x: Tensor) -> Tensor:
    """max(x, 0)."""
    if type(x) is Tensor:
        data, dt = x._data, x._dtype
    else:
        data, dt = unary_data(x, "relu"), x.dtype
    if dt._cat == 0:
        raise RuntimeError("Boolean inputs not supported for relu")
    node = node_for(ReluBackward0, x)
    if data.ndim == 0:  # scalar fast path; keeps -0.0 and nan as torch does
        v = data[()]
        out = make(_ZERO.get(data.dtype, 0) if v < 0 else v, dt, node)
    else:  # zero first: numpy then keeps x on a tie, so relu(-0.0) = -0.0 as in torch
        out = make(np.maximum(_ZERO.get(data.dtype, 0), data), dt, node)
    if node is not None:
        node.save_output("result", out)
    return out


class AbsBackward0(Node):
    """y = |x|;  dx = g * sgn(x) (so abs'(0) = 0, and sgn(nan) = 0)"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        return g * bo.sgn(self.saved("self"))


def abs(x: Tensor) -> Tensor:  # noqa: A001
    """|x|."""
    data = unary_data(x, "abs")
    if x.dtype._cat == 0:
        raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
    out, node = record(AbsBackward0, np.abs(data), x.dtype, x)
    if node is not None:
        node.save("self", x)
    return out


class SignBackward0(Node):
    """y = sign(x);  dx = 0"""

    def backward(self, g: Any) -> Any:
        return c.zeros_like_data(g)


def sign(x: Tensor) -> Tensor:
    """-1, 0 or 1 by the sign of x (0 for nan)."""
    data = unary_data(x, "sign")
    if x.dtype._cat == 0:
        return make(data.copy(), x.dtype, None)
    return record(SignBackward0, c.sign(data), x.dtype, x)[0]


def sgn(x: Tensor) -> Tensor:
    """sign(x) for real tensors (x / |x| for complex ones, which this engine has not); its node,
    ``SgnBackward0``, is the one abs's derivative records too (``backward_ops.sgn``)."""
    data = unary_data(x, "sgn")
    if x.dtype._cat == 0:
        return make(data.copy(), x.dtype, None)
    return bo.sgn(x)


class FracBackward0(Node):
    """y = x - trunc(x);  dx = g"""

    def backward(self, g: Any) -> Any:
        return g


def frac(x: Tensor) -> Tensor:
    """The fractional part, x - trunc(x), with the sign of x (floating point only)."""
    data = unary_data(x, "frac")
    if x.dtype._cat != 2:
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{scalar_name(x.dtype)}'")
    with np.errstate(invalid="ignore"):
        return record(FracBackward0, data - np.trunc(data), x.dtype, x)[0]


class NanToNumBackward0(Node):
    """y = x with nan, inf, -inf replaced by numbers;  dx = g where x is finite, else 0"""

    saved_names = ("self",)

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        finite = x.isfinite() if isinstance(x, Tensor) else np.isfinite(x)
        return g * finite


def nan_to_num(x: Tensor, nan: float | None = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """x with nan -> ``nan`` (0), inf -> ``posinf`` and -inf -> ``neginf`` (default: the
    dtype's largest and lowest finite values); integer and bool tensors are copied."""
    data = unary_data(x, "nan_to_num")
    for name, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if v is not None and not c.is_number(v):
            raise TypeError(f"nan_to_num(): argument '{name}' must be float, not "
                            f"{type(v).__name__}")
    if x.dtype._cat != 2:
        return make(data.copy(), x.dtype, None)
    info = np.finfo(data.dtype)
    with np.errstate(over="ignore"):
        fill = [data.dtype.type(d if v is None else v)
                for v, d in ((nan, 0.0), (posinf, info.max), (neginf, info.min))]
    out_data = np.where(np.isnan(data), fill[0],
                        np.where(data == np.inf, fill[1], np.where(data == -np.inf, fill[2], data)))
    out, node = record(NanToNumBackward0, out_data, x.dtype, x)
    if node is not None:
        node.save("self", x)
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


_CLAMP_NAMES: dict[type[Node], str] = {}  # node class -> the op's name (filled below)


def clamp(x: Tensor, min: float | None = None, max: float | None = None,  # noqa: A002
          *, _cls: type[Node] = ClampBackward1) -> Tensor:
    """x limited to [min, max] (either bound may be None)."""
    name = _CLAMP_NAMES[_cls]
    min, max = clamp_bounds(name, x, (min, max))  # noqa: A001
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return clamp_tensor(x, min, max, _cls is not ClampBackward1)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    dt = clamp_dtype(x, min, max)
    if dt._cat == 0:  # the kernel is named by the bounds given
        kernel = "clamp" if min is not None and max is not None else \
            "clamp_min" if min is not None else "clamp_max"
        raise msg.not_implemented_for(f"{kernel}_scalar_cpu", dt)
    out, node = record(_cls, _clamp_data(x._data, min, max), dt, x)
    if node is not None:
        node.save("self", x)
        node._saved["min"], node._saved["max"] = min, max
    return out


def _clamp_data(data: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    """min(max(x, lo), hi) as torch computes it: x itself on a tie (so -0.0 stays), and a nan
    in x or in a bound gives nan."""
    if lo is not None:
        data = np.where((data < lo) | (lo != lo), lo, data)
    if hi is not None:
        data = np.where((data > hi) | (hi != hi), hi, data)
    return data


def clamp_dtype(x: Tensor, *bounds: Any) -> Any:
    """The result dtype of clamping ``x`` (numbers never widen a float tensor)."""
    return c.result_type(x, *(b for b in bounds if b is not None))


_CLAMP_SIGNATURES = {"clamp": ("Tensor min = None, Tensor max = None",
                               "Number min = None, Number max = None"),
                     "clamp_min": ("Tensor min", "Number min"),
                     "clamp_max": ("Tensor max", "Number max")}


def clamp_bounds(name: str, x: Any, bounds: tuple, method: bool = False) -> tuple:
    """The bounds as torch reads them: all Tensors or all numbers (a 0-d tensor that needs
    no gradient reads as a number); torch's overload error for anything else."""
    given = tuple(b for b in bounds if b is not None)
    tensors = [b for b in given if isinstance(b, Tensor)]
    if isinstance(x, Tensor) and all(isinstance(b, Tensor) or c.is_number(b) for b in given):
        if len(tensors) in (0, len(given)):
            return bounds
        if all(t._data.ndim == 0 and not t._rg for t in tensors):
            return tuple(b.item() if isinstance(b, Tensor) else b for b in bounds)
    if method:
        raise msg.invalid_arguments(name, given, *(f"({p})" for p in _CLAMP_SIGNATURES[name]))
    raise msg.invalid_arguments(name, (x, *given), *(f"(Tensor input, {p}, *, Tensor out = None)"
                                                     for p in _CLAMP_SIGNATURES[name]))


def check_clamp_inplace(x: Tensor, *bounds: Any) -> None:
    """``clamp_`` refuses number bounds whose type ``x`` cannot hold, naming the C++ type
    (tensor bounds are refused where the result is written, with torch's other text)."""
    if any(isinstance(b, Tensor) for b in bounds):
        return
    dt = clamp_dtype(x, *bounds)
    if dt._cat > x.dtype._cat:
        raise RuntimeError(f"result type {scalar_name(dt)} can't be cast to the desired output "
                           f"type {msg.cpp_name(x.dtype)}")


def clamp_method(name: str) -> Any:
    """The Tensor method ``name`` (``clamp``, ``clamp_min``, ``clamp_max``), whose type errors
    list the method's signatures."""
    fn = {"clamp": clamp, "clamp_min": clamp_min, "clamp_max": clamp_max}[name]

    def method(self: Tensor, *bounds: Any, **kw: Any) -> Tensor:
        clamp_bounds(name, self, bounds + tuple(kw.values()), method=True)
        return fn(self, *bounds, **kw)

    method.__name__ = name
    return method


def clamp_min(x: Tensor, min: float) -> Tensor:  # noqa: A002
    """max(x, min)."""
    return clamp(x, min, None, _cls=ClampMinBackward0)


def clamp_max(x: Tensor, max: float) -> Tensor:  # noqa: A002
    """min(x, max)."""
    return clamp(x, None, max, _cls=ClampMaxBackward0)


_CLAMP_NAMES.update({ClampBackward1: "clamp", ClampMinBackward0: "clamp_min",
                     ClampMaxBackward0: "clamp_max"})


def square(x: Tensor) -> Tensor:
    """x * x."""
    unary_data(x, "square")
    return pow_scalar(x, 2)


# ---- more elementwise functions ---------------------------------------------------------------

def _call(x: Any, name: str, np_fn: Any) -> Any:
    """``x.<name>()`` on a Tensor (create_graph), ``np_fn(x)`` on an array."""
    return getattr(x, name)() if isinstance(x, Tensor) else np_fn(x)


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
    return record(cls, fn(data), x.dtype, x)[0]


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


class ClampBackward0(Node):
    """y = clamp(x, min, max) with tensor bounds;  dx = g where min <= x <= max,
    dmin = g where x < min (< max),  dmax = g where x > max (or max < min)"""

    saved_names = ("self", "min", "max")

    def backward(self, g: Any) -> tuple:
        x = self.saved("self")
        lo, hi = self.saved("min"), self.saved("max")
        nf = self._fns
        mask = True
        if lo is not None:
            mask = x >= lo
        if hi is not None:
            mask = (x <= hi) if mask is True else mask & (x <= hi)
        glo = ghi = None
        if nf[1] is not None:
            m = x < lo if hi is None else (x < lo) & (lo < hi)
            glo = sum_to(g * m, self.shapes[1])
        if nf[2] is not None:
            m = x > hi if lo is None else (x > hi) | (hi < lo)
            ghi = sum_to(g * m, self.shapes[2])
        return sum_to(g * mask, self.shapes[0]), glo, ghi


class ClampMinBackward1(Node):
    """y = clamp_min(x, min) with a tensor min;  dx = g where x >= min,  dmin = g where x < min"""

    saved_names = ("self", "min")
    bound = "min"

    def backward(self, g: Any) -> tuple:
        x, b = self.saved("self"), self.saved(self.bound)
        keep, past = (x >= b, x < b) if self.bound == "min" else (x <= b, x > b)
        # two comparisons, not one and its negation: a nan on either side sends nothing back
        gx = sum_to(choose(keep, g, 0), self.shapes[0]) if self._fns[0] else None
        gb = sum_to(choose(past, g, 0), self.shapes[1]) if self._fns[1] else None
        return gx, gb


class ClampMaxBackward1(ClampMinBackward1):
    """y = clamp_max(x, max) with a tensor max;  dx = g where x <= max,  dmax = g where x > max"""

    saved_names = ("self", "max")
    bound = "max"


def clamp_tensor(x: Tensor, lo: Any, hi: Any, one_bound: bool = False) -> Tensor:
    """``clamp`` with tensor bounds (each bound gets a gradient too); ``clamp_min`` and
    ``clamp_max`` (``one_bound``) record torch's one-bound nodes."""
    dt = clamp_dtype(x, lo, hi)
    arrays = [c.to_array(v) for v in (x, lo, hi)]
    c.broadcast_shapes(*(np.shape(a) for a in arrays if a is not None))
    data = _clamp_data(*arrays)
    if one_bound:
        cls, bound = (ClampMinBackward1, lo) if hi is None else (ClampMaxBackward1, hi)
        out, node = record(cls, data, dt, x, bound)
        if node is not None:
            node.shapes = (x._data.shape, _shape(bound))
            node.save("self", x)
            node.save(cls.bound, bound)
        return out
    out, node = record(ClampBackward0, data, dt, x, lo, hi)
    if node is not None:
        node.shapes = (x._data.shape, _shape(lo), _shape(hi))
        node.save("self", x)
        _save_operand(node, "min", lo, True)
        _save_operand(node, "max", hi, True)
    return out


def true_divide_reverse(x: Tensor, other: Any) -> Tensor:
    """``other / x`` for a number ``other``: ``reciprocal(x) * other``, as torch builds it."""
    return mul(reciprocal(x), other)


# ---- the regular family: one row per function ------------------------------------------------
#
# Each row: the function's name, torch's node name (``Exp`` -> ``ExpBackward0``), the numpy
# forward, what backward reads ("self": the input x; "result": the output y), the derivative
# dx = f(g, x or y), and the maths. ``_float_op`` runs the forward (ints become floats).

class UnaryNode(Node):
    """The node of a table row: ``dx = derivative(g, saved value)``."""

    saves = "self"

    @staticmethod
    def derivative(g: Any, v: Any) -> Any:
        raise NotImplementedError

    def backward(self, g: Any) -> Any:
        return self.derivative(g, self.saved(self.saves))


def _unary(name: str, node: str, fn: Any, saves: str, derivative: Any, maths: str,
           doc: str) -> Any:
    """The op ``name`` and its node class ``<node>Backward0``, from one table row."""
    cls = type(f"{node}Backward0", (UnaryNode,), {
        "__doc__": maths, "saved_names": (saves,), "saves": saves,
        "derivative": staticmethod(derivative)})

    def op(x: Tensor) -> Tensor:
        return _float_op(cls, fn, x, name, saves)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    op.node = cls  # type: ignore[attr-defined]
    return op


def _rsqrt(a: Any) -> Any:
    return 1 / np.sqrt(a)


def _sqrt_grad(g: Any, y: Any) -> Any:
    if isinstance(y, Tensor):  # torch's graph: grad / (2 * result), a MulBackward1
        return g / mul_scalar(y, 2)
    return g / (2 * y)


exp = _unary("exp", "Exp", _f64(np.exp), "result",
              lambda g, y: g * y,
              "y = exp(x);  dx = g * y", "e^x.")
exp2 = _unary("exp2", "Exp2", _f64(np.exp2), "result",
               lambda g, y: bo.times(g * y, _LN2),
               "y = 2^x;  dx = g * y * ln 2", "2^x.")
expm1 = _unary("expm1", "Expm1", _f64(np.expm1), "result",
                lambda g, y: g * bo.plus(y, 1),
                "y = exp(x) - 1;  dx = g * (y + 1)", "e^x - 1, accurate near 0.")
log = _unary("log", "Log", _f64(np.log), "self",
              lambda g, x: g / x,
              "y = log(x);  dx = g / x", "The natural logarithm.")
log2 = _unary("log2", "Log2", _f64(np.log2), "self",
               lambda g, x: g / bo.times(x, _LN2),
               "y = log2(x);  dx = g / (x ln 2)", "The base-2 logarithm.")
log10 = _unary("log10", "Log10", _f64(np.log10), "self",
                lambda g, x: g / bo.times(x, _LN10),
                "y = log10(x);  dx = g / (x ln 10)", "The base-10 logarithm.")
log1p = _unary("log1p", "Log1P", _f64(np.log1p), "self",
                lambda g, x: g / bo.plus(x, 1),
                "y = log(1 + x);  dx = g / (1 + x)", "log(1 + x), accurate near 0.")
sqrt = _unary("sqrt", "Sqrt", np.sqrt, "result",
               _sqrt_grad,
               "y = sqrt(x);  dx = g / (2 y) (so sqrt'(0) = inf)", "The square root.")
rsqrt = _unary("rsqrt", "Rsqrt", _rsqrt, "result",
                lambda g, y: bo.times(g, -0.5) * bo.power(y, 3),
                "y = 1/sqrt(x);  dx = -g * y^3 / 2", "1 / sqrt(x).")
reciprocal = _unary("reciprocal", "Reciprocal", np.reciprocal, "result",
                     lambda g, y: -g * (y * y),
                     "y = 1/x;  dx = -g * y^2", "1 / x.")
sin = _unary("sin", "Sin", _f64(np.sin), "self",
              lambda g, x: g * c.cos(x),
              "y = sin(x);  dx = g * cos(x)", "sin(x).")
cos = _unary("cos", "Cos", _f64(np.cos), "self",
              lambda g, x: g * -c.sin(x),
              "y = cos(x);  dx = -g * sin(x)", "cos(x).")
tan = _unary("tan", "Tan", _f64(np.tan), "result",
              lambda g, y: g * bo.plus(bo.power(y, 2), 1),
              "y = tan(x);  dx = g * (1 + y^2)", "tan(x).")
asin = _unary("asin", "Asin", _f64(np.arcsin), "self",
               lambda g, x: g * _call(bo.plus(-x * x, 1), "rsqrt", _rsqrt),
               "y = asin(x);  dx = g / sqrt(1 - x^2)", "arcsin(x).")
acos = _unary("acos", "Acos", _f64(np.arccos), "self",
               lambda g, x: g * -_call(bo.plus(-x * x, 1), "rsqrt", _rsqrt),
               "y = acos(x);  dx = -g / sqrt(1 - x^2)", "arccos(x).")
atan = _unary("atan", "Atan", _f64(np.arctan), "self",
               lambda g, x: g / bo.plus(x * x, 1),
               "y = atan(x);  dx = g / (1 + x^2)", "arctan(x).")
sinh = _unary("sinh", "Sinh", _f64(np.sinh), "self",
               lambda g, x: g * _call(x, "cosh", np.cosh),
               "y = sinh(x);  dx = g * cosh(x)", "sinh(x).")
cosh = _unary("cosh", "Cosh", _f64(np.cosh), "self",
               lambda g, x: g * _call(x, "sinh", np.sinh),
               "y = cosh(x);  dx = g * sinh(x)", "cosh(x).")
tanh = _unary("tanh", "Tanh", _f64(np.tanh), "result",
               bo.tanh_backward,
               "y = tanh(x);  dx = g * (1 - y^2)", "tanh(x).")
sigmoid = _unary("sigmoid", "Sigmoid", _sigmoid, "result",
                  bo.sigmoid_backward,
                  "y = 1 / (1 + exp(-x));  dx = g * y * (1 - y)", "1 / (1 + e^-x).")
