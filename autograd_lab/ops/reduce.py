"""Reductions: sum, mean, max/min, var/std, softmax and friends.

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
from .binary import div_scalar
from .common import Node, Tensor, make, node_for, norm_dim, norm_dims
from .summation import GRAIN_SIZE, torch_sum, vec_sum_rows


def _keepdim_shape(shape: tuple, dims: tuple) -> tuple:
    """``shape`` with the reduced ``dims`` kept as size 1."""
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def _unreduce(keepdim: bool, shape: tuple, dims: tuple, *ts: Any) -> tuple:
    """``ts`` (a gradient, the result ...) with the reduced ``dims`` back as size 1."""
    if keepdim:
        return ts
    kept = _keepdim_shape(shape, dims)
    return tuple(c.reshape(t, kept) for t in ts)


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
            g = c.reshape(g, _keepdim_shape(shape, self._saved["dim"]))
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
        node = node_for(SumBackward0, x)
        out = make(_sum_data(data, tuple(range(data.ndim)), False, dt), dt, node)
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
            g = c.reshape(g, _keepdim_shape(shape, dims))
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
        node = node_for(MeanBackward0, x)
        out = make(_np_mean(data, dt), dt, node)
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
    from .binary import maximum, minimum

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
        node = node_for(MaxBackward1 if largest else MinBackward1, x)
        out = make(_nan_extreme(data, None, False, largest), x.dtype, node)
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
    node = node_for(AmaxBackward0 if largest else AminBackward0, x)
    out = make(_nan_extreme(data, dims if data.ndim else (), keepdim, largest), x.dtype, node)
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
        scale = c.where(y == 0, 0.0, g / ((n - self._saved["correction"]) * y))  # as torch
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
    node = node_for(StdBackward0 if std else VarBackward0, x)
    out = make(v, x.dtype, node)
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
        from .movement import cat

        parts = []
        for i in range(n):
            hot = (np.arange(n) == i).reshape([-1 if k == d else 1 for k in range(x.ndim)])
            parts.append(c.where(make(hot, bool_, None), 1.0, x).prod(d, keepdim=True))
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
        node = node_for(ProdBackward0, x)
        out = make(data.prod(dtype=dt.np), dt, node)
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


# ---- softmax family ---------------------------------------------------------------------------

class SoftmaxBackward0(Node):
    """y = exp(x) / sum(exp(x));  dx = y * (g - sum(g * y))"""

    saved_names = ("dim", "result")

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        d = self._saved["dim"]
        return y * (g - c.sum_keep(g * y, (d,)))


class LogSoftmaxBackward0(Node):
    """y = x - logsumexp(x);  dx = g - exp(y) * sum(g)"""

    saved_names = ("dim", "result")

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        d = self._saved["dim"]
        if isinstance(g, Tensor) or not y.ndim:
            return g - c.exp(y) * c.sum_keep(g, (d,))
        out = np.exp(y)  # in place from here: one temporary instead of three
        out *= -_rowsum(g, d)
        out += g
        return out


def _softmax_input(x: Tensor, dim: Any, dtype: DType | None,
                   name: str) -> tuple[Tensor, np.ndarray, int]:
    """``x`` (cast to ``dtype``), its data and the softmax dim, with torch's checks."""
    if dtype is not None:
        x = x.to(dtype)
    data = c.unary_data(x, name)
    if dim is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if x.dtype._cat != 2:
        raise NotImplementedError(f'"{name}_lastdim_kernel_impl" not implemented for '
                                  f"'{_scalar_name(x.dtype)}'")
    return x, data, norm_dim(dim, x.ndim)


def _softmax_result(cls: type[Node], x: Tensor, y: np.ndarray, d: int) -> Tensor:
    """The output of softmax/log_softmax, its node saving it (both backwards read y)."""
    node = node_for(cls, x)
    out = make(y, x.dtype, node)
    if node is not None:
        node._saved["dim"] = d
        node.save_output("result", out)
    return out


def _rowsum(a: np.ndarray, d: int) -> np.ndarray:
    """``a.sum(d, keepdims=True)``; along the last axis of a float array as a BLAS
    matrix-vector product (several times faster than numpy's reduction there)."""
    if d == a.ndim - 1 and a.dtype.kind == "f" and a.flags.c_contiguous and a.size:
        n = a.shape[-1]
        return (a.reshape(-1, n) @ np.ones(n, dtype=a.dtype)).reshape(a.shape[:-1] + (1,))
    return a.sum(axis=d, keepdims=True)


def _lastdim_rows(data: np.ndarray, d: int) -> np.ndarray | None:
    """``data`` as (rows, n) when torch's last-dim softmax kernel applies and the tensor is
    small enough to replay its arithmetic here (float32/float64 over the last dim)."""
    if (d == data.ndim - 1 and data.dtype.kind == "f" and data.dtype.itemsize >= 4
            and 0 < data.size < GRAIN_SIZE):
        return data.reshape(-1, data.shape[-1])
    return None


def _rounded(fn: Any, a: np.ndarray) -> np.ndarray:
    """``fn`` in double rounded to float32 (torch's float32 exp/log agree 98-99% of the time)."""
    return fn(a.astype(np.float64)).astype(a.dtype) if a.dtype.itemsize == 4 else fn(a)


def _log_softmax_data(data: np.ndarray, d: int) -> np.ndarray:
    """log_softmax along ``d``, adding up as torch does where its kernel can be replayed."""
    if not data.ndim or not data.size:
        return data - data
    rows = _lastdim_rows(data, d)
    if rows is not None:  # torch: (x - max) - log(sum(exp(x - max))), its order of additions
        t = rows - rows.max(axis=1, keepdims=True)
        ls = _rounded(np.log, vec_sum_rows(_rounded(np.exp, t)))
        return (t - ls[:, None]).reshape(data.shape)
    m = data.max(axis=d, keepdims=True)
    # always shift by the max, as torch: without it log(sum(exp)) loses the precision of
    # log-probabilities near 0 (log_softmax([-2, 5]) was off by 2e-4 relative)
    out = data - m
    out -= np.log(_rowsum(np.exp(out), d))
    return out


def softmax(x: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim``."""
    x, data, d = _softmax_input(x, dim, dtype, "softmax")
    rows = _lastdim_rows(data, d) if data.ndim else None
    if rows is not None:  # torch: exp(x - max) * (1 / sum), its order of additions
        e = _rounded(np.exp, rows - rows.max(axis=1, keepdims=True))
        y = (e * (data.dtype.type(1) / vec_sum_rows(e))[:, None]).reshape(data.shape)
    elif data.ndim:
        e = np.exp(data - data.max(axis=d, keepdims=True))
        y = e / e.sum(axis=d, keepdims=True)
    else:
        y = np.ones_like(data)
    return _softmax_result(SoftmaxBackward0, x, y, d)


def log_softmax(x: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """x - log(sum(exp(x))) along ``dim``."""
    x, data, d = _softmax_input(x, dim, dtype, "log_softmax")
    return _softmax_result(LogSoftmaxBackward0, x, _log_softmax_data(data, d), d)


class LogsumexpBackward0(Node):
    """y = log(sum(exp(x)));  dx = g * exp(x - y)"""

    saved_names = ("self", "dim", "keepdim", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        g, y = _unreduce(self._saved["keepdim"], x.shape, self._saved["dim"], g, y)
        return g * c.exp(x - y)


def logsumexp(x: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """log(sum(exp(x))) over ``dim``, shifted by the max for stability."""
    data = c.unary_data(x, "logsumexp")
    dims = norm_dims(dim, data.ndim)
    ax = dims if data.ndim else ()  # numpy has no axis 0 on a 0-d array
    m = data.max(axis=ax, keepdims=True) if data.size else data
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.exp(data - m).sum(axis=ax, keepdims=True)) + m
    if not keepdim:
        r = r.squeeze(ax)
    dt = c.float_dtype(x)
    node = node_for(LogsumexpBackward0, x)
    out = make(r, dt, node)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, keepdim=keepdim)
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
            return c.where(y == 0, 0.0, g * x / y)
        if p == float("inf") or p == float("-inf"):
            mask = (c.absolute(x) == y) * 1.0
            return g * c.sign(x) * mask / c.sum_keep(mask, dims)
        scale = c.where(y == 0, 0.0, g / y ** (p - 1))
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
    node = node_for(LinalgVectorNormBackward0, x)
    out = make(v, c.float_dtype(x), node)
    if node is not None:
        node._saved.update(ord=p, dim=dims, keepdim=keepdim)
        node.save("self", x)
        node.save_output("result", out)
        c.show_saved(node, dim=c.shown_dims(dim))
    return out
