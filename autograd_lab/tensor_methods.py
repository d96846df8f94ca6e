"""Tensor methods and operators, each forwarding to the op that implements it, and
``Tensor.backward`` (to the engine).

``tensor.py`` defines the data structure; the methods that are operations live here, above
``ops`` and ``engine``, and are set onto the class when the package is imported (``METHODS``
below is the whole list: method name -> the function that implements it).
"""

from __future__ import annotations

import warnings
from typing import Any

from . import random
from ._arg_errors import method_error
from ._device import check_cpu
from ._dtype import ALL, bool_, dtype, float16, float32, float64, int8, int16, int32, int64, uint8
from ._messages import must_be_tensor
from .engine import backward as _engine_backward
from .factories import _filled, check_number_arg, tensor
from .ops import activation as A
from .ops import arithmetic as Ar
from .ops import binary_functions as B
from .ops import comparison as Cm
from .ops import cumulative as Cu
from .ops import elementwise as E
from .ops import extremes as Ex
from .ops import gather_scatter as G
from .ops import indexing as Ix
from .ops import inplace as I
from .ops import join_split as J
from .ops import linalg as L
from .ops import matrix as X
from .ops import norms as N
from .ops import reductions as R
from .ops import softmax_family as Sm
from .ops import sorting as S
from .ops import views as V
from .ops.common import OperandTypeError, check_inplace_operands, is_number, numpy_aliases
from .tensor import Tensor, refuse_deletes


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
            check_cpu(a)  # a device: only the CPU exists
    return V.to_dtype(self, dt or self.dtype, copy)


def _type(self: Tensor, dt: Any = None) -> Any:
    """``t.type()`` names the tensor type; ``t.type(dtype or name)`` casts."""
    if dt is None:
        return f"torch.{self.dtype._tensor_type}"
    if isinstance(dt, str):
        by_name = {d._tensor_type: d for d in ALL}
        dt = by_name[dt.split(".")[-1]]
    return V.to_dtype(self, dt)


def _other_tensor(op: str, other: Any) -> None:
    """A method whose one argument must be a Tensor (``type_as``, ``view_as``...)."""
    if not isinstance(other, Tensor):
        raise must_be_tensor(op, other, 1, "other")


def _type_as(self: Tensor, other: Tensor) -> Tensor:
    _other_tensor("type_as", other)
    return V.to_dtype(self, other.dtype)


def _cast(dt: dtype) -> Any:
    """The method ``t.float()``, ``t.long()`` ... for ``dt``."""

    def method(self: Tensor, memory_format: Any = None) -> Tensor:
        return V.to_dtype(self, dt)

    return method


# ---- reflected operators (``2 ** t``, ``1 / t`` ...) ----------------------------------------

def _rpow(self: Tensor, other: Any) -> Tensor:
    return Ar.pow(other, self)


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return E.true_divide_reverse(self, other)


def _rmatmul(self: Tensor, other: Any) -> Tensor:
    return L.matmul(other, self)


def _rfloordiv(self: Tensor, other: Any) -> Tensor:
    return Ar.floor_divide(other, self)


def _rmod(self: Tensor, other: Any) -> Tensor:
    return Ar.remainder(other, self)


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

_FLOAT_RESULT = (Ar.div, B.atan2)  # ops whose integer operands give a float result


def _iop(fn: Any) -> Any:
    """The in-place method of a binary op (``add`` -> ``add_``)."""

    float_result = fn in _FLOAT_RESULT

    def method(self: Tensor, other: Any, **kw: Any) -> Tensor:
        def compute(x: Tensor) -> Tensor:
            if fn is not Ar.sub or not (Ar._is_bool(self) or Ar._is_bool(other)):
                check_inplace_operands(self, other, float_result and "rounding_mode" not in kw)
            return fn(x, other, **kw)

        return I.apply_inplace(self, compute, other)

    method.__name__ = fn.__name__ + "_"
    return method


def _iunary(fn: Any) -> Any:
    """The in-place method of a one-tensor op (``exp`` -> ``exp_``)."""

    def method(self: Tensor, *args: Any, **kw: Any) -> Tensor:
        return I.apply_inplace(self, lambda x: fn(x, *args, **kw))

    method.__name__ = fn.__name__ + "_"
    return method


def _clamp_(fn: Any) -> Any:
    """The in-place method of a clamp op, with torch's check of number bounds first."""
    inner = _iunary(fn)

    def method(self: Tensor, *bounds: Any, **kw: Any) -> Tensor:
        E.check_clamp_inplace(self, *bounds, *kw.values())
        return inner(self, *bounds, **kw)

    method.__name__ = inner.__name__
    return method


def _scatter_(self: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
              reduce: str | None = None) -> Tensor:
    s = value if src is None else src
    return I.apply_inplace(self, lambda x: G.scatter(x, dim, index, s, reduce=reduce), s)


def _index_fill_(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    others = (value,) if isinstance(value, Tensor) else ()
    return I.apply_inplace(self, lambda x: G.index_fill(x, dim, index, value), *others,
                           overlap_ok=True)


def _scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    if not isinstance(src, Tensor):
        raise TypeError(f"scatter_add_(): argument 'src' (position 4) must be Tensor, not "
                        f"{type(src).__name__}")
    return I.apply_inplace(self, lambda x: G.scatter_add(x, dim, index, src), src)


def _uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator: Any = None) -> Tensor:
    return random.uniform_(self, a, b, generator=generator)


def _normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
             generator: Any = None) -> Tensor:
    return random.normal_(self, mean, std, generator=generator)


def _bernoulli(self: Tensor, p: Any = None, *, generator: Any = None) -> Tensor:
    return random.bernoulli(self, p, generator=generator)


def _backward(self: Tensor, gradient: Tensor | None = None, retain_graph: bool | None = None,
              create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate d(self)/d(leaf) into every leaf's ``.grad`` (``engine.backward``)."""
    _engine_backward(self, gradient, retain_graph, create_graph, inputs=inputs)


# ---- methods whose signature differs from the op's ------------------------------------------

def _where(self: Tensor, condition: Any, other: Any) -> Tensor:
    return Cm.where(condition, self, other)


def _max(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return Ex.max(self, dim, keepdim)


def _min(self: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    return Ex.min(self, dim, keepdim)


def _all(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Whether every element (over ``dim``) is nonzero, as a bool tensor."""
    return R.all(self, dim, keepdim)


def _any(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """Whether some element (over ``dim``) is nonzero, as a bool tensor."""
    return R.any(self, dim, keepdim)


def _expand_as(self: Tensor, other: Tensor) -> Tensor:
    _other_tensor("expand_as", other)
    return V.expand_as(self, other)


def _view_as(self: Tensor, other: Tensor) -> Tensor:
    _other_tensor("view_as", other)
    return V.view(self, other.shape)


def _reshape_as(self: Tensor, other: Tensor) -> Tensor:
    _other_tensor("reshape_as", other)
    return V.reshape(self, other.shape)


def _new(value: int) -> Any:
    """``new_zeros``/``new_ones``: a tensor of ``size`` filled with ``value``."""

    def method(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False,
               device: Any = None) -> Tensor:
        return _filled(value, size, dtype or self.dtype, requires_grad)

    return method


def _new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None,
              requires_grad: bool = False, device: Any = None) -> Tensor:
    check_number_arg("new_full", "fill_value", 2, fill_value)
    return _filled(fill_value, tuple(size), dtype or self.dtype, requires_grad)


def _new_tensor(self: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False,
                device: Any = None) -> Tensor:
    if isinstance(data, Tensor):  # torch's warning names new_tensor; the copy is the same
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data._data
    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


METHODS: dict[str, Any] = {
    # arithmetic
    "add": Ar.add, "sub": Ar.sub, "subtract": Ar.sub, "mul": Ar.mul, "multiply": Ar.mul,
    "div": Ar.div, "divide": Ar.div, "true_divide": Ar.div, "pow": Ar.pow, "neg": E.neg,
    "negative": E.neg, "maximum": B.maximum, "minimum": B.minimum,
    "floor_divide": Ar.floor_divide, "remainder": Ar.remainder,
    "__add__": Ar.add, "__radd__": Ar.add, "__sub__": Ar.sub, "__rsub__": Ar.rsub,
    "__mul__": Ar.mul, "__rmul__": Ar.mul, "__truediv__": Ar.div, "__rtruediv__": _rtruediv,
    "__pow__": Ar.pow, "__rpow__": _rpow, "__neg__": E.neg, "__abs__": E.abs,
    "__matmul__": L.matmul, "__rmatmul__": _rmatmul, "__floordiv__": Ar.floor_divide,
    "__mod__": Ar.remainder, "__rfloordiv__": _rfloordiv, "__rmod__": _rmod,
    # comparison and logic
    "__eq__": Cm.eq, "__ne__": Cm.ne, "__lt__": Cm.lt, "__le__": Cm.le, "__gt__": Cm.gt,
    "__ge__": Cm.ge, "eq": Cm.eq, "ne": Cm.ne, "lt": Cm.lt, "le": Cm.le, "gt": Cm.gt, "ge": Cm.ge,
    "__and__": Cm.bitwise_and, "__or__": Cm.bitwise_or, "__xor__": Cm.bitwise_xor,
    "__rand__": Cm.bitwise_and, "__ror__": Cm.bitwise_or, "__rxor__": Cm.bitwise_xor,
    "__invert__": Cm.invert, "bitwise_and": Cm.bitwise_and, "bitwise_or": Cm.bitwise_or,
    "bitwise_xor": Cm.bitwise_xor, "bitwise_not": Cm.bitwise_not, "where": _where,
    "logical_not": Cm.logical_not, "logical_and": Cm.logical_and, "logical_or": Cm.logical_or,
    "logical_xor": Cm.logical_xor, "isnan": Cm.isnan, "isinf": Cm.isinf, "isfinite": Cm.isfinite,
    "isclose": Cm.isclose, "allclose": Cm.allclose, "equal": Cm.equal,
    # unary
    "exp": E.exp, "log": E.log, "log2": E.log2, "log1p": E.log1p, "expm1": E.expm1,
    "sin": E.sin, "cos": E.cos, "tan": E.tan, "tanh": E.tanh, "sigmoid": E.sigmoid,
    "relu": E.relu, "abs": E.abs, "sqrt": E.sqrt, "rsqrt": E.rsqrt, "reciprocal": E.reciprocal,
    "sign": E.sign, "square": E.square, "clamp": E.clamp_method("clamp"),
    "clip": E.clamp_method("clamp"), "clamp_min": E.clamp_method("clamp_min"),
    "clamp_max": E.clamp_method("clamp_max"), "exp2": E.exp2, "log10": E.log10,
    "sinh": E.sinh, "cosh": E.cosh, "asin": E.asin, "acos": E.acos, "atan": E.atan,
    "arcsin": E.asin, "arccos": E.acos, "arctan": E.atan, "erf": A.erf,
    "floor": E.floor, "ceil": E.ceil, "round": E.round, "trunc": E.trunc, "fix": E.trunc,
    # reductions
    "sum": R.sum, "mean": R.mean, "max": _max, "min": _min, "amax": Ex.amax, "amin": Ex.amin,
    "argmax": Ex.argmax, "argmin": Ex.argmin, "median": Ex.median, "var": R.var, "std": R.std,
    "prod": R.prod,
    "softmax": Sm.softmax, "log_softmax": Sm.log_softmax, "logsumexp": R.logsumexp,
    "all": _all, "any": _any, "norm": N.norm, "cumsum": Cu.cumsum,
    "cumprod": Cu.cumprod,
    # linear algebra and matrix structure
    "matmul": L.matmul, "mm": L.mm, "mv": L.mv, "dot": L.dot, "bmm": L.bmm, "trace": L.trace,
    "outer": L.outer, "tril": X.tril, "triu": X.triu, "diag": X.diag, "diagonal": X.diagonal,
    # movement
    "view": V.view, "reshape": V.reshape, "view_as": _view_as, "reshape_as": _reshape_as,
    "flatten": V.flatten, "unflatten": V.unflatten, "permute": V.permute,
    "transpose": V.transpose, "swapaxes": V.transpose, "t": V.t, "unsqueeze": V.unsqueeze,
    "squeeze": V.squeeze, "expand": V.expand, "expand_as": _expand_as, "clone": V.clone,
    "contiguous": V.contiguous, "flip": V.flip, "narrow": V.narrow, "select": V.select,
    "repeat": J.repeat, "unbind": J.unbind, "split": J.split, "chunk": J.chunk,
    "tile": J.tile, "repeat_interleave": J.repeat_interleave,
    "__getitem__": Ix.getitem, "__setitem__": I.setitem,
    # indexing, sorting
    "gather": G.gather, "scatter": G.scatter, "scatter_add": G.scatter_add,
    "index_select": G.index_select, "index_fill": G.index_fill, "index_fill_": _index_fill_,
    "nonzero": Ix.nonzero, "count_nonzero": R.count_nonzero_method,
    "masked_fill": Ix.masked_fill, "sort": S.sort, "argsort": S.argsort, "topk": S.topk,
    # dtype
    "to": _to, "type": _type, "type_as": _type_as, "float": _cast(float32),
    "double": _cast(float64), "half": _cast(float16), "long": _cast(int64), "int": _cast(int32),
    "short": _cast(int16), "char": _cast(int8), "byte": _cast(uint8), "bool": _cast(bool_),
    # construction
    "new_zeros": _new(0), "new_ones": _new(1), "new_empty": _new(0), "new_full": _new_full,
    "new_tensor": _new_tensor,
    # in-place
    "add_": _iop(Ar.add), "sub_": _iop(Ar.sub), "mul_": _iop(Ar.mul), "div_": _iop(Ar.div),
    "pow_": _iop(Ar.pow), "__iadd__": _iop(Ar.add), "__isub__": _iop(Ar.sub),
    "__imul__": _iop(Ar.mul), "__itruediv__": _iop(Ar.div), "__ipow__": _iop(Ar.pow),
    "neg_": _iunary(E.neg), "exp_": _iunary(E.exp), "log_": _iunary(E.log),
    "sin_": _iunary(E.sin), "cos_": _iunary(E.cos), "tanh_": _iunary(E.tanh),
    "sigmoid_": _iunary(E.sigmoid), "relu_": _iunary(E.relu), "abs_": _iunary(E.abs),
    "sqrt_": _iunary(E.sqrt), "square_": _iunary(E.square), "clamp_": _clamp_(E.clamp),
    "clip_": _clamp_(E.clamp), "clamp_min_": _clamp_(E.clamp_min),
    "clamp_max_": _clamp_(E.clamp_max), "floor_": _iunary(E.floor), "ceil_": _iunary(E.ceil),
    "round_": _iunary(E.round), "trunc_": _iunary(E.trunc), "tril_": _iunary(X.tril),
    "triu_": _iunary(X.triu), "cumsum_": _iunary(Cu.cumsum),
    "cumprod_": _iunary(Cu.cumprod), "scatter_": _scatter_,
    "scatter_add_": _scatter_add_, "masked_fill_": I.masked_fill_,
    "zero_": I.zero_, "fill_": I.fill_, "copy_": I.copy_,
    "uniform_": _uniform_, "normal_": _normal_, "bernoulli": _bernoulli,
    # autograd
    "backward": _backward,
}
# elementwise functions of one or two tensors, and roll (with their in-place forms)
for _name, _fn in {"atan2": B.atan2, "arctan2": B.atan2, "hypot": B.hypot, "fmod": B.fmod,
                   "frac": E.frac, "sgn": E.sgn, "nan_to_num": E.nan_to_num}.items():
    METHODS[_name] = _fn
    METHODS[_name + "_"] = _iop(_fn) if _fn in (B.atan2, B.hypot, B.fmod) else _iunary(_fn)
METHODS["roll"] = X.roll_method
for _name in ("reciprocal", "rsqrt", "log1p", "expm1", "sign", "exp2", "log2", "log10", "sinh",
              "cosh", "asin", "acos", "atan", "tan", "arcsin", "arccos", "arctan", "fix", "erf",
              "bitwise_not", "logical_not"):
    METHODS[_name + "_"] = _iunary(METHODS[_name])
for _name in ("remainder", "floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor"):
    METHODS[_name + "_"] = _iop(METHODS[_name])
for _name, _fn in (("ifloordiv", Ar.floor_divide), ("imod", Ar.remainder),
                   ("iand", Cm.bitwise_and), ("ior", Cm.bitwise_or), ("ixor", Cm.bitwise_xor)):
    METHODS[f"__{_name}__"] = _operator(_iop(_fn))

# torch reads numpy's ``axis``/``keepdims`` as ``dim``/``keepdim``
for _name in ("sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
              "median", "prod", "logsumexp", "norm", "softmax", "log_softmax", "all", "any",
              "cumsum", "cumprod",
              "squeeze", "unsqueeze", "sort", "argsort", "topk", "gather", "index_select",
              "count_nonzero"):
    METHODS[_name] = numpy_aliases(METHODS[_name])

# Python operators (not the named methods) step aside for operands of other types.
for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "pow", "rpow",
              "matmul", "rmatmul", "floordiv", "rfloordiv", "mod", "rmod", "eq", "ne", "lt", "le",
              "gt", "ge", "and", "or", "xor", "rand", "ror", "rxor", "iadd", "isub", "imul",
              "itruediv", "ipow"):
    METHODS[f"__{_name}__"] = _operator(METHODS[f"__{_name}__"])

# torch's argument errors through a method: positions and signatures without ``self``; an
# argument is marked as not fitting by its Python type's name (``Number`` fits no type)
_PARAM_TYPES: dict[str, Any] = {
    "Tensor": lambda v: isinstance(v, Tensor),
    "Number": lambda v: False,
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "float": lambda v: is_number(v) and not isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "torch.dtype": lambda v: isinstance(v, dtype),
    "tuple of ints": lambda v: isinstance(v, int) or isinstance(v, (tuple, list)) and all(
        isinstance(i, int) for i in v),
}


def _as_method(fn: Any, name: str) -> Any:
    """``fn`` as method ``name``: a TypeError of its arguments is told as torch's method
    parser tells it."""

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(self, Tensor):  # ``Tensor.add(2, t)``
            raise TypeError(f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't "
                            f"apply to a '{type(self).__name__}' object")
        try:
            return fn(self, *args, **kwargs)
        except TypeError as e:
            err = method_error(e, name, args, kwargs, _PARAM_TYPES)
            if err is e:
                raise
            raise err from None

    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    return method


for _name in ("add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide",
              "pow", "maximum", "minimum", "floor_divide", "remainder", "fmod", "atan2",
              "arctan2", "hypot", "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and",
              "bitwise_or", "bitwise_xor", "logical_and", "logical_or", "logical_xor", "where",
              "isclose", "allclose", "equal", "matmul", "mm", "mv", "dot", "bmm", "outer",
              "gather", "scatter", "scatter_add", "index_select", "clamp", "clip", "clamp_min",
              "clamp_max", "max", "min", "isclose", "logical_not", "bitwise_not",
              "masked_fill", "softmax", "log_softmax", "unsqueeze", "cumsum",
              "cumprod", "topk", "transpose", "select", "narrow", "flip", "permute"):
    METHODS[_name] = _as_method(METHODS[_name], _name)
    if _name + "_" in METHODS:
        METHODS[_name + "_"] = _as_method(METHODS[_name + "_"], _name + "_")

for _name in ("radd", "rmul", "rand", "ror", "rxor", "rsub", "rtruediv", "rpow", "rmatmul",
              "rfloordiv", "rmod"):
    METHODS[f"__{_name}__"] = _as_method(METHODS[f"__{_name}__"], f"__{_name}__")

for _name, _fn in METHODS.items():
    setattr(Tensor, _name, _fn)


Tensor.T = property(V.T)  # type: ignore[attr-defined]
Tensor.mT = property(V.mT)  # type: ignore[attr-defined]
refuse_deletes(Tensor)
