"""Reductions: sum, mean, var/std, prod (the vector norm: ``norms``; max/min and median:
``extremes``).

Backward of a reduction puts the reduced dims back (size 1) and broadcasts.
"""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from .._arg_errors import invalid_combination
from .._dtype import bool_, from_numpy_dtype, int64, uint8
from .._dtype import dtype as DType
from .._messages import scalar_name as _scalar_name
from . import common as c
from .arithmetic import div_scalar, mul_scalar
from .common import Node, Tensor, norm_dim, norm_dims
from .comparison import choose
from .indexing import masked_fill
from .join_split import cat
from .record import make, node_for, record
from .summation import torch_sum


def _keepdim_shape(shape: tuple, dims: tuple) -> tuple:
    """``shape`` with the reduced ``dims`` kept as size 1."""
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def _unreduce(keepdim: bool, shape: tuple, dims: tuple, *ts: Any) -> tuple:
    """``ts`` (a gradient, the result ...) with the reduced ``dims`` back as size 1."""
    if keepdim:
        return ts
    return tuple(_restore(t, shape, dims) for t in ts)


def _restore(g: Any, shape: tuple, dims: tuple) -> Any:
    """``g`` with the reduced ``dims`` back as size 1: a reshape of an array; on a Tensor
    one ``unsqueeze`` per dim, as torch's ``sum_backward`` records it."""
    if not isinstance(g, Tensor):
        return c.reshape(g, _keepdim_shape(shape, dims))
    if shape:
        for d in dims:
            g = g.unsqueeze(d)
    return g


def _reduced_shape(shape: tuple, axes: tuple, keepdim: bool) -> tuple:
    """The shape of a reduction of ``shape`` over ``axes``."""
    if keepdim:
        return _keepdim_shape(shape, axes)
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def _reduce_dims(dim: Any, ndim: int) -> tuple:
    """The dims a ``dim`` argument reduces: an empty list or tuple means all of them."""
    if not isinstance(dim, int) and len(dim) == 0:
        return tuple(range(ndim))
    return norm_dims(dim, ndim)


def _count(shape: tuple, dims: tuple) -> int:
    """How many elements a reduction over ``dims`` combines (1 for a 0-d tensor)."""
    n = 1
    for d in dims if shape else ():
        n *= shape[d]
    return n


class SumBackward0(Node):
    """y = sum(x);  dx = g broadcast to x's shape"""

    saved_names = ("self_sym_sizes",)

    def backward(self, g: Any) -> Any:
        return c.expand(g, self._saved["self_sym_sizes"])


class SumBackward1(Node):
    """y = sum(x, dim);  dx = g with dim restored, broadcast to x's shape"""

    saved_names = ("dim", "keepdim", "self_sym_sizes")

    def backward(self, g: Any) -> Any:
        shape = self._saved["self_sym_sizes"]
        if not self._saved["keepdim"]:
            g = _restore(g, shape, self._saved["dim"])
        if g.shape == shape and not isinstance(g, Tensor):  # only size-1 dims summed: torch's
            return g.view()  # expand, a new view keeping g's strides (numpy zeroes them)
        return c.expand(g, shape)


def _sum_dtype(x: Tensor, dt: DType | None) -> DType:
    """A sum's dtype: ``dt`` if given, else int64 for integers and bools, else x's."""
    if dt is not None:
        return dt
    return int64 if x.dtype._cat < 2 else x.dtype


def sum(x: Tensor, dim: Any = None, keepdim: bool = False, *,  # noqa: A001
        dtype: DType | None = None) -> Tensor:
    """The sum of all elements, or over ``dim``."""
    data = c.unary_data(x, "sum")
    dt = _sum_dtype(x, dtype)
    if dim is None:
        out, node = record(SumBackward0, _sum_data(data, tuple(range(data.ndim)), False, dt), dt, x)
        if node is not None:
            node._saved["self_sym_sizes"] = data.shape
        return out
    dims = _reduce_dims(dim, data.ndim)
    node = node_for(SumBackward1, x)
    out = make(_sum_data(data, dims, keepdim, dt) if data.ndim else data.astype(dt.np), dt,
               node)
    if node is not None:
        node._saved.update(dim=dims, keepdim=keepdim, self_sym_sizes=data.shape)
        c.show_saved(node, dim=c.shown_dims(dim))
    return out


class MeanBackward0(Node):
    """y = mean(x);  dx = g / n broadcast"""

    saved_names = ("self_sym_sizes", "self_sym_numel")

    def backward(self, g: Any) -> Any:
        n, shape = self._saved["self_sym_numel"], self._saved["self_sym_sizes"]
        if isinstance(g, Tensor):  # torch's graph: grad.expand(sizes) / numel (DivBackward1)
            return div_scalar(c.expand(g, shape), n)
        return c.expand(g, shape) / n  # a new array, as torch's (not a broadcast view)


class MeanBackward1(Node):
    """y = mean(x, dim);  dx = g / n with dim restored, broadcast"""

    saved_names = ("dim", "keepdim", "self_sym_sizes", "self_sym_numel")

    def backward(self, g: Any) -> Any:
        shape, dims = self._saved["self_sym_sizes"], self._saved["dim"]
        n = _count(shape, dims)
        if not self._saved["keepdim"]:
            g = _restore(g, shape, dims)
        if isinstance(g, Tensor):
            return div_scalar(c.expand(g, shape), n)
        return c.expand(g, shape) / n  # a new array, as torch's (not a broadcast view)


def _need_float(x: Tensor, name: str, dt: DType | None) -> DType:
    """The result dtype of ``mean``-like ops (``dt`` or x's), which must be floating point."""
    d = dt or x.dtype
    if not d.is_floating_point:
        which = "Optional" if dt is not None else "Input"
        raise RuntimeError(
            f"{name}(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {_scalar_name(d)}"
        )
    return d


def mean(x: Tensor, dim: Any = None, keepdim: bool = False, *,
         dtype: DType | None = None) -> Tensor:
    """The mean of all elements, or over ``dim``."""
    data = c.unary_data(x, "mean")
    dt = _need_float(x, "mean", dtype)
    if dim is None:
        out, node = record(MeanBackward0, _np_mean(data, dt), dt, x)
        if node is not None:
            node._saved.update(self_sym_sizes=data.shape, self_sym_numel=data.size)
        return out
    dims = _reduce_dims(dim, data.ndim)
    node = node_for(MeanBackward1, x)
    out = make(_np_mean(data, dt, axis=dims, keepdims=keepdim) if data.ndim
               else np.array(data, dtype=dt.np), dt, node)  # a new tensor, even of a 0-d one
    if node is not None:
        node._saved.update(dim=dims, keepdim=keepdim, self_sym_sizes=data.shape,
                           self_sym_numel=data.size)
        c.show_saved(node, dim=c.shown_dims(dim))
    return out


def _sum_data(data: np.ndarray, axes: tuple, keepdims: bool, dt: DType) -> Any:
    """The sum in ``dt``; float32/float64 adding in torch's order (so it rounds as torch)."""
    if dt.np.kind == "f" and dt.np.itemsize >= 4:
        return torch_sum(data if data.dtype == dt.np else data.astype(dt.np), axes, keepdims)
    return data.sum(axis=axes, keepdims=keepdims, dtype=dt.np)


def _np_mean(data: np.ndarray, dt: DType, axis: Any = None, keepdims: bool = False) -> Any:
    """torch's mean: the sum divided by the count (of no elements: nan, without numpy's
    "Mean of empty slice" warning)."""
    axes = tuple(range(data.ndim)) if axis is None else tuple(axis)
    n = _count(data.shape, axes)
    if data.size and dt.np.kind == "f" and dt.np.itemsize >= 4:
        return _sum_data(data, axes, keepdims, dt) / dt.np.type(n)
    if data.size:
        return data.mean(axis=axis, dtype=dt.np, keepdims=keepdims)
    return data.sum(axis=axis, dtype=dt.np, keepdims=keepdims) / dt.np.type(0)


# ---- variance -------------------------------------------------------------------------------

class VarBackward0(Node):
    """y = sum((x - mean)^2) / (n - correction);  dx = g * 2 (x - mean) / (n - correction)"""

    saved_names = ("self", "dim", "correction", "keepdim")

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        dims = self._saved["dim"]
        if isinstance(x, Tensor) or isinstance(g, Tensor):
            return _var_backward(g, x, dims, self._saved["correction"], self._saved["keepdim"],
                                 self.full)
        n = _count(x.shape, dims)
        if not self._saved["keepdim"]:
            g = c.reshape(g, _keepdim_shape(x.shape, dims))
        dof = n - self._saved["correction"]
        if self.full and dof <= 0:  # torch: nan where x equals the mean, else inf
            m = x.mean() if isinstance(x, Tensor) else _np_mean(x, from_numpy_dtype(x.dtype))
            return g * choose(x == m, float("nan"), float("inf"))
        scale = np.float64(2.0) / dof  # inf when n == correction
        if isinstance(x, Tensor):  # torch's graph: (2 / (n - c)) * grad * (x - x.mean(...))
            m = x.mean() if len(dims) == x.ndim else x.mean(dims, keepdim=True)
            return (g * float(scale)) * (x - m)
        return (g * scale.astype(x.dtype)) * (x - c.sum_keep(x, dims) / n)


class StdBackward0(Node):
    """y = sqrt(var(x));  dx = g * (x - mean) / ((n - correction) * y), 0 where y = 0"""

    saved_names = ("self", "dim", "correction", "keepdim", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        dims = self._saved["dim"]
        if isinstance(x, Tensor) or isinstance(g, Tensor):  # torch's std_backward, recorded
            two_y = mul_scalar(y, 2.0)
            gv = masked_fill(g / two_y, y == 0, 0)
            return _var_backward(gv, x, dims, self._saved["correction"], self._saved["keepdim"],
                                 self.full)
        n = _count(x.shape, dims)
        m = c.sum_keep(x, dims) / n
        g, y = _unreduce(self._saved["keepdim"], x.shape, dims, g, y)
        scale = choose(y == 0, 0.0, g / ((n - self._saved["correction"]) * y))  # as torch
        return scale * (x - m)


def _var_backward(g: Tensor, x: Tensor, dims: tuple, correction: Any, keepdim: bool,
                  full: bool) -> Tensor:
    """torch's ``var_backward`` on Tensors (create_graph): (2 / (n - correction)) * g *
    (x - mean), with g's reduced dims unsqueezed back; nan/inf when n <= correction."""
    if full:
        dof = x.numel() - correction
        if dof <= 0:
            return g * choose(x == x.mean(), float("nan"), float("inf"))
        diff = x - x.mean()  # C++ evaluates the right operand first
        return mul_scalar(g, 2.0 / dof) * diff
    if not keepdim and x.ndim > 1:
        g = _restore(g, x.shape, dims)
    diff = x - x.mean(dims, keepdim=True)
    dof = _count(x.shape, dims) - correction
    return mul_scalar(g, 2.0 / dof if dof else float("inf")) * diff  # C++'s 2.0 / 0: inf


def _var(x: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any, std: bool) -> Tensor:
    name = "std" if std else "var"
    data = c.unary_data(x, name)
    if not x.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):  # var(unbiased) positional form
        unbiased, dim = dim, None
    corr = correction if correction is not None else (1 if unbiased in (None, True) else 0)
    dims = norm_dims(dim, data.ndim)
    axes = dims if data.ndim else ()
    n = _count(data.shape, dims)
    # torch warns and divides by max(0, n - correction): nan or inf (its n is numel over the
    # result's numel: 0 for an empty input, whatever the dims)
    if (n if data.size else 0) - corr <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=3)
    if n == 0:  # nothing to average: nan, as 0 / 0
        v = np.full(_reduced_shape(data.shape, axes, keepdim), np.nan)
    else:  # torch accumulates in double (Welford) and rounds once at the end
        d64 = data.astype(np.float64)
        dev = d64 - d64.mean(axis=axes, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = (dev * dev).sum(axis=axes, keepdims=keepdim) / np.float64(builtins.max(n - corr,
                                                                                     0))
    if std:
        v = np.sqrt(v)
    v = np.asarray(v).astype(data.dtype, copy=False)
    out, node = record(StdBackward0 if std else VarBackward0, v, x.dtype, x)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, correction=corr, keepdim=keepdim)
        node.full = dim is None or data.ndim == 0  # torch's backward special-cases these
        c.show_saved(node, dim=c.shown_dims(dim), correction=correction)
        if std:
            node.save_output("result", out)
    return out


def var(x: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    """The variance over ``dim``, divided by n - correction (Bessel's correction: 1)."""
    return _var(x, dim, unbiased, keepdim, correction, False)


def std(x: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    """The square root of ``var``."""
    return _var(x, dim, unbiased, keepdim, correction, True)


def _prod_others(x: Any, y: Any, d: int) -> Any:
    """The product along ``d`` leaving out each element in turn (``y``: the product, dim kept).

    That is ``y / x`` when no element is zero; with zeros it is computed without division.
    """
    if not ((x._data if isinstance(x, Tensor) else x) == 0).any():
        return y / x
    n = x.shape[d]
    if isinstance(x, Tensor):  # differentiable (create_graph): replace each element by 1
        parts = []
        for i in range(n):
            hot = (np.arange(n) == i).reshape([-1 if k == d else 1 for k in range(x.ndim)])
            parts.append(choose(make(hot, bool_, None), 1.0, x).prod(d, keepdim=True))
        return cat(parts, d)
    ones = np.ones_like(np.take(x, [0], axis=d))
    left = np.cumprod(np.concatenate([ones, np.take(x, range(n - 1), axis=d)], d), axis=d)
    rev = np.flip(x, d)
    right = np.cumprod(np.concatenate([ones, np.take(rev, range(n - 1), axis=d)], d), axis=d)
    return left * np.flip(right, d)


class ProdBackward0(Node):
    """y = prod(x);  dx_i = g * prod_{j != i} x_j (= g * y / x_i where no element is zero)"""

    saved_names = ("self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        if isinstance(x, Tensor) or isinstance(g, Tensor):  # torch's prod_backward, recorded
            if not x.ndim:
                return g
            if not (x._data == 0).any():
                return g * (y / x)
            return _prod_safe_zeros_backward(g, x.contiguous().view(-1), 0).view_as(x)
        others = _prod_others(c.reshape(x, (-1,)), c.reshape(y, (1,)), 0)
        return g * c.reshape(others, x.shape)


class ProdBackward1(Node):
    """y = prod(x, dim);  dx_i = g * (product of the other elements of x_i's slice)"""

    saved_names = ("dim", "keepdim", "self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        d = self._saved["dim"]
        if not x.shape:  # prod over "dim 0" of a 0-d tensor is the identity
            return g
        if not self._saved["keepdim"]:
            g, y = c.unsqueeze(g, d), c.unsqueeze(y, d)
        if isinstance(x, Tensor) or isinstance(g, Tensor):  # torch's prod_backward, recorded
            if not (x._data == 0).any():
                return g * (y / x)
            return _prod_safe_zeros_backward(g, x, d)
        if x.shape[d] == 1 and (x == 0).any():
            return g  # torch's prod_safe_zeros_backward: the gradient itself, not a product
        return g * _prod_others(x, y, d)


def _prod_safe_zeros_backward(g: Tensor, x: Tensor, d: int) -> Tensor:
    """torch's ``prod_safe_zeros_backward``: g times the product of the elements before each
    one (a shifted cumprod) and of those after it (the same, flipped) -- no division."""
    if not x.numel():
        return g.expand_as(x)
    shape = list(x.shape)
    shape[d] = 1
    ones = make(np.ones(shape, dtype=x.dtype.np), x.dtype, None)
    n = x.shape[d]
    before = cat([ones, x.narrow(d, 0, n - 1)], d).cumprod(d)
    after = cat([ones, x.narrow(d, 1, n - 1).flip(d)], d).cumprod(d).flip(d)
    return g * (before * after)


def prod(x: Tensor, dim: Any = None, keepdim: bool = False, *,
         dtype: DType | None = None) -> Tensor:
    """The product of all elements, or along ``dim``."""
    data = c.unary_data(x, "prod")
    dt = _sum_dtype(x, dtype)
    if dim is None:
        out, node = record(ProdBackward0, data.prod(dtype=dt.np), dt, x)
    else:
        d = norm_dim(dim, data.ndim)
        node = node_for(ProdBackward1, x)
        out = make(data.prod(axis=d if data.ndim else (), keepdims=keepdim, dtype=dt.np), dt,
                   node)
        if node is not None:
            node._saved.update(dim=d, keepdim=keepdim)
    if node is not None:
        node.save("self", x)
        node.save_output("result", out)
    return out


# ---- logsumexp ------------------------------------------------------------------------------

class LogsumexpBackward0(Node):
    """y = log(sum(exp(x)));  dx = g * exp(x - y)"""

    saved_names = ("self", "dim", "keepdim", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        g, y = _unreduce(self._saved["keepdim"], x.shape, self._saved["dim"], g, y)
        return g * c.exp(x - y)


_MISSING: Any = object()


def logsumexp(x: Tensor, dim: Any = _MISSING, keepdim: bool = False) -> Tensor:
    """log(sum(exp(x))) over ``dim``: m + log(sum(exp(x - m))), m the max (0 where infinite);
    of no elements: -inf."""
    data = c.unary_data(x, "logsumexp")
    if dim is _MISSING:
        raise TypeError('logsumexp() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    dims = norm_dims(dim, data.ndim)
    axes = dims if data.ndim else ()
    dt = c.float_dtype(x)
    a = data.astype(dt.np, copy=False)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if a.size:
            m = a.max(axis=axes, keepdims=True)
            m = np.where(np.abs(m) == np.inf, a.dtype.type(0), m)
            r = np.log(_sum_data(np.exp(a - m), axes, True, dt)) + m
        else:
            r = np.full(_keepdim_shape(a.shape, axes), -np.inf, dtype=dt.np)
    if not keepdim:
        r = r.reshape(_reduced_shape(a.shape, axes, False))
    out, node = record(LogsumexpBackward0, r, dt, x)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, keepdim=keepdim)
        node.save_output("result", out)
    return out


# ---- count_nonzero, all, any ------------------------------------------------------------------

def _int_dim(v: Any) -> bool:
    return v is None or (isinstance(v, (int, np.integer, Tensor)) and not isinstance(v, bool))


def _int_dims(v: Any) -> bool:
    return isinstance(v, (tuple, list)) and builtins.all(
        isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in v)


def _count_nonzero_overloads(method: bool) -> list:
    first = [] if method else [("input", lambda v: isinstance(v, Tensor))]
    pre = "" if method else "Tensor input, "
    # torch's parser reads the name of a defaulted parameter as "dim = None", so a keyword
    # ``dim`` never matches it in the explanation
    return [(f"({pre}int dim = None)", first + [("dim = None", _int_dim)]),
            (f"({pre}tuple of ints dim)", first + [("dim", _int_dims)])]


def _count_nonzero(x: Any, args: tuple, kwargs: dict, method: bool) -> Tensor:
    """``count_nonzero`` with torch's argument checks (``args``: what came after ``x``)."""
    names = ["dim"] if method else ["input", "dim"]
    given = args if method else (x, *args)
    bound = dict(zip(names, given))
    ok = len(given) <= len(names) and not (set(kwargs) - set(names)) \
        and not (set(kwargs) & set(bound))
    bound.update(kwargs)
    dim = bound.get("dim")
    if not ok or not (_int_dim(dim) or _int_dims(dim)):
        raise invalid_combination("count_nonzero", _count_nonzero_overloads(method), given,
                                  kwargs)
    x = bound.get("input", x)
    if not isinstance(x, Tensor):
        raise TypeError("count_nonzero(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    if isinstance(dim, Tensor):
        dim = int(dim.item())
    data = x._data
    axes = None if dim is None else norm_dims(dim, data.ndim) if data.ndim else ()
    return make(np.asarray(np.count_nonzero(data, axis=axes), dtype=np.int64), int64, None)


def count_nonzero(*args: Any, **kwargs: Any) -> Tensor:
    """How many elements are not zero (over ``dim``): ``torch.count_nonzero(input, dim)``."""
    x = args[0] if args else kwargs.pop("input", None)
    return _count_nonzero(x, args[1:], kwargs, False)


def count_nonzero_method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``x.count_nonzero(dim)``."""
    return _count_nonzero(self, args, kwargs, True)


def _logical(x: Tensor, dim: Any, keepdim: bool, fn: Any) -> Tensor:
    """``fn`` (np.all / np.any) over ``dim``: bool, or uint8 for uint8 input (as torch)."""
    data = x._data
    axes = None if dim is None else norm_dims(dim, data.ndim) if data.ndim else ()
    out = fn(data, axis=axes, keepdims=keepdim and dim is not None)
    dt = uint8 if x.dtype is uint8 else bool_
    return make(np.asarray(out, dtype=dt.np), dt, None)


def all(x: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether every element (over ``dim``) is nonzero."""
    return _logical(x, dim, keepdim, np.all)


def any(x: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """Whether some element (over ``dim``) is nonzero."""
    return _logical(x, dim, keepdim, np.any)
