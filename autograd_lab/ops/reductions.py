"""Reductions: sum, mean, max/min (and amax/amin, argmax/argmin), var/std, prod, norm.

Backward of a reduction puts the reduced dims back (size 1) and broadcasts.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from .._dtype import bool_, int64
from .._dtype import dtype as DType
from .._messages import scalar_name as _scalar_name
from . import common as c
from .arithmetic import div_scalar, maximum, minimum
from .common import Node, Tensor, norm_dim, norm_dims
from .comparison import choose
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
    dims = norm_dims(dim, data.ndim)
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
        return c.expand(g / n, shape)


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
        return c.expand(g / n, shape)


def _need_float(x: Tensor, name: str, dt: DType | None) -> DType:
    """The result dtype of ``mean``-like ops (``dt`` or x's), which must be floating point."""
    d = dt or x.dtype
    if not d.is_floating_point:
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating "
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
    dims = norm_dims(dim, data.ndim)
    node = node_for(MeanBackward1, x)
    out = make(_np_mean(data, dt, axis=dims, keepdims=keepdim) if data.ndim else data,
               dt, node)
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


# ---- max / min -------------------------------------------------------------------------------

class _ReturnType(NamedTuple):
    values: Tensor
    indices: Tensor


def _return_type(name: str) -> type:
    def __repr__(self: Any) -> str:  # noqa: N807
        return f"torch.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    return type(name, (_ReturnType,), {"__repr__": __repr__, "__str__": __repr__,
                                        "__module__": "torch.return_types"})

max_type, min_type = _return_type("max"), _return_type("min")


class MaxBackward1(Node):
    """y = max(x) over all elements;  the gradient is shared evenly among the maxima"""

    saved_names = ("self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        mask = x == y
        return g * mask / mask.sum()


class MinBackward1(MaxBackward1):
    """y = min(x) over all elements;  the gradient is shared evenly among the minima"""


class AmaxBackward0(Node):
    """y = amax(x, dim);  the gradient is shared evenly among the maxima of each slice"""

    saved_names = ("dim", "keepdim", "self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        dims = self._saved["dim"]
        y, g = _unreduce(self._saved["keepdim"], x.shape, dims, y, g)
        mask = x == y
        return g * mask / c.sum_keep(mask * 1.0, dims)


class AminBackward0(AmaxBackward0):
    """y = amin(x, dim);  the gradient is shared evenly among the minima of each slice"""


class MaxBackward0(Node):
    """(values, indices) = max(x, dim);  g goes to the selected index of each slice"""

    saved_names = ("dim", "keepdim", "self_sym_sizes", "indices")

    def backward(self, g: Any, g_indices: Any = None) -> Any:
        shape, d = self._saved["self_sym_sizes"], self._saved["dim"]
        if not shape:  # max over "dim 0" of a 0-d tensor is the identity
            return g
        idx = self.saved("indices")
        idx = idx._data if isinstance(idx, Tensor) else idx
        if not self._saved["keepdim"]:
            g = c.unsqueeze(g, d)
            idx = np.expand_dims(idx, d)
        ar = np.arange(shape[d]).reshape([-1 if i == d else 1 for i in range(len(shape))])
        mask = ar == idx
        if isinstance(g, Tensor):
            mask = make(mask, g.dtype, None)
        return c.expand(g, shape) * mask


class MinBackward0(MaxBackward0):
    """(values, indices) = min(x, dim);  g goes to the selected index of each slice"""


def _extreme(x: Tensor, dim: Any, keepdim: bool, largest: bool, other: Any = None) -> Any:
    if isinstance(dim, Tensor):  # torch.max(a, b) is maximum
        return (maximum if largest else minimum)(x, dim)
    if other is not None:
        return (maximum if largest else minimum)(x, other)
    name = "max" if largest else "min"
    data = c.unary_data(x, name)
    if dim is None:
        if data.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        cls = MaxBackward1 if largest else MinBackward1
        out, node = record(cls, _nan_extreme(data, None, False, largest), x.dtype, x)
        if node is not None:
            node.save("self", x)
            node.save_output("result", out)
        return out
    d = norm_dim(dim, data.ndim)
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        vals = data.copy()
    else:
        idx = _nan_arg(data, d, largest)
        vals = np.take_along_axis(data, np.expand_dims(idx, d), d)
        if not keepdim:
            vals = vals.squeeze(d)
        else:
            idx = np.expand_dims(idx, d)
    node = node_for(MaxBackward0 if largest else MinBackward0, x)
    values = make(vals, x.dtype, node)
    indices = make(idx.astype(np.int64), int64, None)
    if node is not None:
        node._saved.update(dim=d, keepdim=keepdim, self_sym_sizes=data.shape)
        node.save("indices", indices)
        c.show_saved(node, dim=c.shown_dim(dim))
    return (max_type if largest else min_type)(values, indices)


def _nan_extreme(data: np.ndarray, axis: Any, keepdims: bool, largest: bool) -> np.ndarray:
    """The max (min) over ``axis``; nan wins, in torch as in numpy."""
    return (np.max if largest else np.min)(data, axis=axis, keepdims=keepdims)


def _nan_arg(data: np.ndarray, d: int, largest: bool) -> np.ndarray:
    """Where the max (min) along ``d`` is: the first nan, if there is one."""
    if data.dtype.kind == "f" and np.isnan(data).any():
        return np.argmax(np.isnan(data), axis=d)
    return (np.argmax if largest else np.argmin)(data, axis=d)


def max(x: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:  # noqa: A001
    """The largest element; over ``dim``: (values, indices); with a tensor: ``maximum``."""
    return _extreme(x, dim, keepdim, True, other)


def min(x: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:  # noqa: A001
    """The smallest element; over ``dim``: (values, indices); with a tensor: ``minimum``."""
    return _extreme(x, dim, keepdim, False, other)


def _amaxmin(x: Tensor, dim: Any, keepdim: bool, largest: bool) -> Tensor:
    data = c.unary_data(x, "amax" if largest else "amin")
    dims = tuple(range(data.ndim)) if dim is None or dim == () else norm_dims(dim, data.ndim)
    cls = AmaxBackward0 if largest else AminBackward0
    y = _nan_extreme(data, dims if data.ndim else (), keepdim, largest)
    out, node = record(cls, y, x.dtype, x)
    if node is not None:
        node._saved.update(dim=dims, keepdim=keepdim)
        node.save("self", x)
        node.save_output("result", out)
        c.show_saved(node, dim=c.shown_dims(() if dim is None else dim))
    return out


def amax(x: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The largest element over ``dim`` (all dims by default); ties share the gradient."""
    return _amaxmin(x, dim, keepdim, True)


def amin(x: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The smallest element over ``dim`` (all dims by default); ties share the gradient."""
    return _amaxmin(x, dim, keepdim, False)


def _arg_extreme(x: Tensor, dim: int | None, keepdim: bool, largest: bool) -> Tensor:
    name = "argmax" if largest else "argmin"
    data = c.unary_data(x, name)
    if dim is None:
        flat = data.reshape(-1)
        return make(np.asarray(np.argmax(flat) if largest else np.argmin(flat)), int64, None)
    d = norm_dim(dim, data.ndim)
    idx = _nan_arg(data, d, largest) if data.ndim else np.zeros((), np.int64)
    return make(np.expand_dims(idx, d) if keepdim and data.ndim else idx, int64, None)


def argmax(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the largest element (of the flattened tensor, or along ``dim``)."""
    return _arg_extreme(x, dim, keepdim, True)


def argmin(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the smallest element (of the flattened tensor, or along ``dim``)."""
    return _arg_extreme(x, dim, keepdim, False)


# ---- variance -------------------------------------------------------------------------------

class VarBackward0(Node):
    """y = sum((x - mean)^2) / (n - correction);  dx = g * 2 (x - mean) / (n - correction)"""

    saved_names = ("self", "dim", "correction", "keepdim")

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        dims = self._saved["dim"]
        n = _count(x.shape, dims)
        if not self._saved["keepdim"]:
            g = c.reshape(g, _keepdim_shape(x.shape, dims))
        scale = np.float64(2.0) / (n - self._saved["correction"])  # inf when n == correction
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
        n = _count(x.shape, dims)
        m = c.sum_keep(x, dims) / n
        g, y = _unreduce(self._saved["keepdim"], x.shape, dims, g, y)
        scale = choose(y == 0, 0.0, g / ((n - self._saved["correction"]) * y))  # as torch
        return scale * (x - m)


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
    if n - corr <= 0:  # torch warns and divides by n - correction anyway (nan or inf)
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=3)
        dev = data - _np_mean(data, x.dtype, axis=axes, keepdims=True)
        v = (dev * dev).sum(axis=axes, keepdims=keepdim) / data.dtype.type(n - corr)
    else:  # torch accumulates in double (Welford) and rounds once at the end
        v = data.astype(np.float64).var(axis=axes, ddof=corr, keepdims=keepdim)
    if std:
        v = np.sqrt(v)
    v = np.asarray(v).astype(data.dtype, copy=False)
    out, node = record(StdBackward0 if std else VarBackward0, v, x.dtype, x)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, correction=corr, keepdim=keepdim)
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
        return g * _prod_others(x, y, d)


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


# ---- vector norm ------------------------------------------------------------------------------

class LinalgVectorNormBackward0(Node):
    """y = (sum |x|^p)^(1/p);  dx = g * sign(x) |x|^(p-1) / y^(p-1)  (0 where y = 0)"""

    saved_names = ("dim", "keepdim", "ord", "result", "self")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        p, dims = self._saved["ord"], self._saved["dim"]
        if x.shape:
            g, y = _unreduce(self._saved["keepdim"], x.shape, dims, g, y)
        if p == 0:
            return c.zeros_like_data(x)
        if p == 1:
            return g * c.sign(x)
        if p == 2:
            return choose(y == 0, 0.0, g * x / y)
        if p == float("inf") or p == float("-inf"):
            mask = (c.absolute(x) == y) * 1.0
            return g * c.sign(x) * mask / c.sum_keep(mask, dims)
        scale = choose(y == 0, 0.0, g / y ** (p - 1))
        return scale * x * c.absolute(x) ** (p - 2)


def norm(x: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: DType | None = None) -> Tensor:
    """``x.norm(p, dim)``: the vector p-norm over ``dim`` (all elements by default)."""
    data = c.unary_data(x, "norm")
    if p is None or p == "fro":
        p = 2
    elif isinstance(p, str):
        if p != "nuc":
            raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
        if data.ndim < 2:
            raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                               "dimensions.")
        raise NotImplementedError("the nuclear norm is not supported by autograd_lab")
    elif not isinstance(p, (int, float, np.number)):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, "
                        f"not {type(p).__name__}")
    if not x.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_scalar_name(x.dtype)}")
    if dtype is not None and dtype is not x.dtype:
        x = x.to(dtype)
        data = x._data
    dims = norm_dims(dim, data.ndim)
    axes = dims if data.ndim else ()
    a = np.abs(data)
    if p == 2:
        v = np.sqrt((a * a).sum(axis=axes, keepdims=keepdim))
    elif p == 1:
        v = a.sum(axis=axes, keepdims=keepdim)
    elif p == float("inf"):
        v = a.max(axis=axes, keepdims=keepdim)
    elif p == float("-inf"):
        v = a.min(axis=axes, keepdims=keepdim)
    elif p == 0:
        v = (a != 0).sum(axis=axes, keepdims=keepdim).astype(data.dtype)
    else:
        v = (a ** p).sum(axis=axes, keepdims=keepdim) ** (1.0 / p)
    out, node = record(LinalgVectorNormBackward0, v, c.float_dtype(x), x)
    if node is not None:
        node._saved.update(ord=p, dim=dims, keepdim=keepdim)
        node.save("self", x)
        node.save_output("result", out)
        c.show_saved(node, dim=c.shown_dims(dim))
    return out
