"""Tensor methods and operators, each forwarding to the op that implements it, and
``Tensor.backward`` (to the engine).

``tensor.py`` defines the data structure; the methods that are operations live here, above
``ops`` and ``engine``, and are set onto the class when the package is imported (``METHODS``
below is the whole list: method name -> the function that implements it).
"""

from __future__ import annotations

from typing import Any

from . import random
from ._dtype import ALL, bool_, dtype, float16, float32, float64, int8, int16, int32, int64, uint8
from .engine import backward as _engine_backward
from .factories import _filled, device, tensor
from .ops import activation as A
from .ops import binary as B
from .ops import composite as K
from .ops import indexing as G
from .ops import inplace as I
from .ops import linalg as L
from .ops import matrix as X
from .ops import movement as M
from .ops import reduce as R
from .ops import sorting as S
from .ops import unary as U
from .ops.common import OperandTypeError, make, numpy_aliases
from .tensor import Tensor


def _to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``to(dtype)``, ``to(device)``, ``to(other)``; a no-op when nothing changes."""
    dt = kwargs.get("dtype")
    copy = kwargs.get("copy", False)
    for a in args:
        if isinstance(a, dtype):
            dt = a
        elif isinstance(a, Tensor):
            dt = a.dtype
        else:
            device(a)  # validates it (only the CPU exists)
    return M.to_dtype(self, dt or self.dtype, copy)


def _type(self: Tensor, dt: Any = None) -> Any:
    """``t.type()`` names the tensor type; ``t.type(dtype or name)`` casts."""
    if dt is None:
        return f"torch.{self.dtype._tensor_type}"
    if isinstance(dt, str):
        by_name = {d._tensor_type: d for d in ALL}
        dt = by_name[dt.split(".")[-1]]
    return M.to_dtype(self, dt)


def _type_as(self: Tensor, other: Tensor) -> Tensor:
    return M.to_dtype(self, other.dtype)


def _cast(dt: dtype) -> Any:
    """The method ``t.float()``, ``t.long()`` ... for ``dt``."""

    def method(self: Tensor, memory_format: Any = None) -> Tensor:
        return M.to_dtype(self, dt)

    return method


# ---- reflected operators (``2 ** t``, ``1 / t`` ...) ----------------------------------------

def _rpow(self: Tensor, other: Any) -> Tensor:
    return B.pow(other, self)


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return B.true_divide_reverse(self, other)


def _rmatmul(self: Tensor, other: Any) -> Tensor:
    return L.matmul(other, self)


def _rfloordiv(self: Tensor, other: Any) -> Tensor:
    return B.floor_divide(other, self)


def _rmod(self: Tensor, other: Any) -> Tensor:
    return B.remainder(other, self)


def _operator(fn: Any) -> Any:
    """An operator method: an operand of another type gives ``NotImplemented``, so Python
    tries the reflected method or raises its own TypeError (``t == None`` is False)."""

    def method(self: Tensor, other: Any) -> Any:
        try:
            return fn(self, other)
        except OperandTypeError:
            return NotImplemented

    method.__name__ = getattr(fn, "__name__", "operator")
    return method


# ---- in-place variants ----------------------------------------------------------------------

def _iop(fn: Any) -> Any:
    """The in-place method of a binary op (``add`` -> ``add_``)."""

    def method(self: Tensor, other: Any, **kw: Any) -> Tensor:
        return I.apply_inplace(self, lambda x: fn(x, other, **kw), other)

    method.__name__ = fn.__name__ + "_"
    return method


def _iunary(fn: Any) -> Any:
    """The in-place method of a one-tensor op (``exp`` -> ``exp_``)."""

    def method(self: Tensor, *args: Any, **kw: Any) -> Tensor:
        return I.apply_inplace(self, lambda x: fn(x, *args, **kw))

    method.__name__ = fn.__name__ + "_"
    return method


def _scatter_(self: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
              reduce: str | None = None) -> Tensor:
    s = value if src is None else src
    return I.apply_inplace(self, lambda x: G.scatter(x, dim, index, s, reduce=reduce), s)


def _scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add_(): argument 'src' (position 3) must be Tensor, not "
                        f"{type(src).__name__}")
    return I.apply_inplace(self, lambda x: G.scatter_add(x, dim, index, src), src)


def _uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator: Any = None) -> Tensor:
    return random.uniform_(self, a, b, generator=generator)


def _normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
             generator: Any = None) -> Tensor:
    return random.normal_(self, mean, std, generator=generator)


def _backward(self: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
              create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate d(self)/d(leaf) into every leaf's ``.grad`` (``engine.backward``)."""
    _engine_backward(self, gradient, retain_graph, create_graph, inputs=inputs)


# ---- methods whose signature differs from the op's ------------------------------------------

def _where(self: Tensor, condition: Any, other: Any) -> Tensor:
    return B.where(condition, self, other)


def _max(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return R.max(self, dim, keepdim)


def _min(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return R.min(self, dim, keepdim)


def _all(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Whether every element (over ``dim``) is nonzero, as a bool tensor."""
    return make(self._data.all(axis=dim, keepdims=keepdim), bool_, None)


def _any(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Whether some element (over ``dim``) is nonzero, as a bool tensor."""
    return make(self._data.any(axis=dim, keepdims=keepdim), bool_, None)


def _view_as(self: Tensor, other: Tensor) -> Tensor:
    return M.view(self, other.shape)


def _reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return M.reshape(self, other.shape)


def _new(value: int) -> Any:
    """``new_zeros``/``new_ones``: a tensor of ``size`` filled with ``value``."""

    def method(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False,
               device: Any = None) -> Tensor:
        return _filled(value, size, dtype or self.dtype, requires_grad)

    return method


def _new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None,
              requires_grad: bool = False, device: Any = None) -> Tensor:
    return _filled(fill_value, tuple(size), dtype or self.dtype, requires_grad)


def _new_tensor(self: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False,
                device: Any = None) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


METHODS: dict[str, Any] = {
    # arithmetic
    "add": B.add, "sub": B.sub, "subtract": B.sub, "mul": B.mul, "multiply": B.mul,
    "div": B.div, "divide": B.div, "true_divide": B.div, "pow": B.pow, "neg": U.neg,
    "negative": U.neg, "maximum": B.maximum, "minimum": B.minimum, "floor_divide": B.floor_divide,
    "remainder": B.remainder,
    "__add__": B.add, "__radd__": B.add, "__sub__": B.sub, "__rsub__": B.rsub,
    "__mul__": B.mul, "__rmul__": B.mul, "__truediv__": B.div, "__rtruediv__": _rtruediv,
    "__pow__": B.pow, "__rpow__": _rpow, "__neg__": U.neg, "__abs__": U.abs,
    "__matmul__": L.matmul, "__rmatmul__": _rmatmul, "__floordiv__": B.floor_divide,
    "__mod__": B.remainder, "__rfloordiv__": _rfloordiv, "__rmod__": _rmod,
    # comparison and logic
    "__eq__": B.eq, "__ne__": B.ne, "__lt__": B.lt, "__le__": B.le, "__gt__": B.gt,
    "__ge__": B.ge, "eq": B.eq, "ne": B.ne, "lt": B.lt, "le": B.le, "gt": B.gt, "ge": B.ge,
    "__and__": B.bitwise_and, "__or__": B.bitwise_or, "__xor__": B.bitwise_xor,
    "__rand__": B.bitwise_and, "__ror__": B.bitwise_or, "__rxor__": B.bitwise_xor,
    "__invert__": B.invert, "bitwise_and": B.bitwise_and, "bitwise_or": B.bitwise_or,
    "bitwise_xor": B.bitwise_xor, "bitwise_not": B.bitwise_not, "where": _where,
    "logical_not": B.logical_not, "logical_and": B.logical_and, "logical_or": B.logical_or,
    "logical_xor": B.logical_xor, "isnan": B.isnan, "isinf": B.isinf, "isfinite": B.isfinite,
    "isclose": B.isclose, "allclose": B.allclose, "equal": B.equal,
    # unary
    "exp": U.exp, "log": U.log, "log2": U.log2, "log1p": U.log1p, "expm1": U.expm1,
    "sin": U.sin, "cos": U.cos, "tan": U.tan, "tanh": U.tanh, "sigmoid": U.sigmoid,
    "relu": U.relu, "abs": U.abs, "sqrt": U.sqrt, "rsqrt": U.rsqrt, "reciprocal": U.reciprocal,
    "sign": U.sign, "square": U.square, "clamp": U.clamp, "clip": U.clamp,
    "clamp_min": U.clamp_min, "clamp_max": U.clamp_max, "exp2": U.exp2, "log10": U.log10,
    "sinh": U.sinh, "cosh": U.cosh, "asin": U.asin, "acos": U.acos, "atan": U.atan,
    "arcsin": U.asin, "arccos": U.acos, "arctan": U.atan, "erf": A.erf,
    "floor": U.floor, "ceil": U.ceil, "round": U.round, "trunc": U.trunc, "fix": U.trunc,
    # reductions
    "sum": R.sum, "mean": R.mean, "max": _max, "min": _min, "amax": R.amax, "amin": R.amin,
    "argmax": R.argmax, "argmin": R.argmin, "var": R.var, "std": R.std, "prod": R.prod,
    "softmax": R.softmax, "log_softmax": R.log_softmax, "logsumexp": R.logsumexp,
    "all": _all, "any": _any, "norm": R.norm, "cumsum": X.cumsum,
    # linear algebra and matrix structure
    "matmul": L.matmul, "mm": L.mm, "mv": L.mv, "dot": L.dot, "bmm": L.bmm, "trace": L.trace,
    "outer": L.outer, "tril": X.tril, "triu": X.triu, "diag": X.diag, "diagonal": X.diagonal,
    # movement
    "view": M.view, "reshape": M.reshape, "view_as": _view_as, "reshape_as": _reshape_as,
    "flatten": M.flatten, "unflatten": M.unflatten, "permute": M.permute,
    "transpose": M.transpose, "swapaxes": M.transpose, "t": M.t, "unsqueeze": M.unsqueeze,
    "squeeze": M.squeeze, "expand": M.expand, "expand_as": M.expand_as, "clone": M.clone,
    "contiguous": M.contiguous, "flip": M.flip, "narrow": M.narrow, "select": M.select,
    "repeat": M.repeat, "unbind": M.unbind, "split": M.split, "chunk": M.chunk,
    "tile": K.tile, "repeat_interleave": K.repeat_interleave,
    "__getitem__": M.getitem, "__setitem__": I.setitem,
    # indexing, sorting
    "gather": G.gather, "scatter": G.scatter, "scatter_add": G.scatter_add,
    "index_select": G.index_select, "nonzero": G.nonzero, "count_nonzero": G.count_nonzero,
    "masked_fill": G.masked_fill, "sort": S.sort, "argsort": S.argsort, "topk": S.topk,
    # dtype
    "to": _to, "type": _type, "type_as": _type_as, "float": _cast(float32),
    "double": _cast(float64), "half": _cast(float16), "long": _cast(int64), "int": _cast(int32),
    "short": _cast(int16), "char": _cast(int8), "byte": _cast(uint8), "bool": _cast(bool_),
    # construction
    "new_zeros": _new(0), "new_ones": _new(1), "new_empty": _new(0), "new_full": _new_full,
    "new_tensor": _new_tensor,
    # in-place
    "add_": _iop(B.add), "sub_": _iop(B.sub), "mul_": _iop(B.mul), "div_": _iop(B.div),
    "pow_": _iop(B.pow), "__iadd__": _iop(B.add), "__isub__": _iop(B.sub),
    "__imul__": _iop(B.mul), "__itruediv__": _iop(B.div), "__ipow__": _iop(B.pow),
    "neg_": _iunary(U.neg), "exp_": _iunary(U.exp), "log_": _iunary(U.log),
    "sin_": _iunary(U.sin), "cos_": _iunary(U.cos), "tanh_": _iunary(U.tanh),
    "sigmoid_": _iunary(U.sigmoid), "relu_": _iunary(U.relu), "abs_": _iunary(U.abs),
    "sqrt_": _iunary(U.sqrt), "square_": _iunary(U.square), "clamp_": _iunary(U.clamp),
    "clip_": _iunary(U.clamp), "clamp_min_": _iunary(U.clamp_min),
    "clamp_max_": _iunary(U.clamp_max), "floor_": _iunary(U.floor), "ceil_": _iunary(U.ceil),
    "round_": _iunary(U.round), "trunc_": _iunary(U.trunc), "tril_": _iunary(X.tril),
    "triu_": _iunary(X.triu), "cumsum_": _iunary(X.cumsum), "scatter_": _scatter_,
    "scatter_add_": _scatter_add_, "masked_fill_": G.masked_fill_,
    "zero_": I.zero_, "fill_": I.fill_, "copy_": I.copy_,
    "uniform_": _uniform_, "normal_": _normal_,
    # autograd
    "backward": _backward,
}

# torch reads numpy's ``axis``/``keepdims`` as ``dim``/``keepdim``
for _name in ("sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
              "prod", "logsumexp", "norm", "softmax", "log_softmax", "all", "any", "cumsum",
              "squeeze", "unsqueeze", "sort", "argsort", "topk", "gather", "index_select",
              "count_nonzero"):
    METHODS[_name] = numpy_aliases(METHODS[_name])

# Python operators (not the named methods) step aside for operands of other types.
for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "pow", "rpow",
              "matmul", "rmatmul", "floordiv", "rfloordiv", "mod", "rmod", "eq", "ne", "lt", "le",
              "gt", "ge", "and", "or", "xor", "rand", "ror", "rxor", "iadd", "isub", "imul",
              "itruediv", "ipow"):
    METHODS[f"__{_name}__"] = _operator(METHODS[f"__{_name}__"])

for _name, _fn in METHODS.items():
    setattr(Tensor, _name, _fn)


Tensor.T = property(M.T)  # type: ignore[attr-defined]
Tensor.mT = property(M.mT)  # type: ignore[attr-defined]
