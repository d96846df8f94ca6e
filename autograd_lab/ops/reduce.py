"""Reductions: sum, mean, max/min, var/std, softmax and friends.

Backward of a reduction puts the reduced dims back (size 1) and broadcasts.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._dtype import dtype as DType
from .._dtype import float32, get_default_dtype, int64
from . import common as c
from .common import Node, Tensor, make, node_for, norm_dims


def _keepdim_shape(shape: tuple, dims: tuple) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


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
    if dt is not None:
        return dt
    return int64 if x.dtype._cat < 2 else x.dtype


def sum(x: Tensor, dim: Any = None, keepdim: bool = False, *,  # noqa: A001
        dtype: DType | None = None) -> Tensor:
    data = c.unary_data(x, "sum")
    dt = _sum_dtype(x, dtype)
    if dim is None:
        node = node_for(SumBackward0, x)
        out = make(data.sum(dtype=dt.np), dt, node)
        if node is not None:
            node._saved["self_sym_sizes"] = data.shape
        return out
    dims = norm_dims(dim, data.ndim)
    node = node_for(SumBackward1, x)
    out = make(data.sum(axis=dims, keepdims=keepdim, dtype=dt.np) if data.ndim else
               data.astype(dt.np), dt, node)
    if node is not None:
        node._saved.update(dim=dims, keepdim=keepdim, self_sym_sizes=data.shape)
    return out


class MeanBackward0(Node):
    """y = mean(x);  dx = g / n broadcast"""

    saved_names = ("self_sym_sizes", "self_sym_numel")

    def backward(self, g: Any) -> Any:
        return c.expand(g / self._saved["self_sym_numel"], self._saved["self_sym_sizes"])


class MeanBackward1(Node):
    """y = mean(x, dim);  dx = g / n with dim restored, broadcast"""

    saved_names = ("dim", "keepdim", "self_sym_sizes", "self_sym_numel")

    def backward(self, g: Any) -> Any:
        shape, dims = self._saved["self_sym_sizes"], self._saved["dim"]
        n = 1
        for d in dims:
            n *= shape[d]
        if not self._saved["keepdim"]:
            g = c.reshape(g, _keepdim_shape(shape, dims))
        return c.expand(g / n, shape)


def _need_float(x: Tensor, name: str, dt: DType | None) -> DType:
    d = dt or x.dtype
    if not d.is_floating_point:
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {_scalar_name(d)}"
        )
    return d


def _scalar_name(d: DType) -> str:
    return {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool", "float32": "Float", "float64": "Double", "float16": "Half"}[d.name]


def mean(x: Tensor, dim: Any = None, keepdim: bool = False, *,
         dtype: DType | None = None) -> Tensor:
    data = c.unary_data(x, "mean")
    dt = _need_float(x, "mean", dtype)
    if dim is None:
        node = node_for(MeanBackward0, x)
        out = make(data.mean(dtype=dt.np), dt, node)
        if node is not None:
            node._saved.update(self_sym_sizes=data.shape, self_sym_numel=data.size)
        return out
    dims = norm_dims(dim, data.ndim)
    node = node_for(MeanBackward1, x)
    out = make(data.mean(axis=dims, keepdims=keepdim, dtype=dt.np) if data.ndim else data,
               dt, node)
    if node is not None:
        node._saved.update(dim=dims, keepdim=keepdim, self_sym_sizes=data.shape,
                           self_sym_numel=data.size)
    return out


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
sort_type = _return_type("sort")
topk_type = _return_type("topk")


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
        if not self._saved["keepdim"]:
            y = c.reshape(y, _keepdim_shape(x.shape, dims))
            g = c.reshape(g, _keepdim_shape(x.shape, dims))
        mask = x == y
        return g * mask / c.sum_keep(mask * 1.0, dims)


class AminBackward0(AmaxBackward0):
    """y = amin(x, dim);  the gradient is shared evenly among the minima of each slice"""


class MaxBackward0(Node):
    """(values, indices) = max(x, dim);  g goes to the selected index of each slice"""

    saved_names = ("dim", "keepdim", "self_sym_sizes", "indices")

    def backward(self, g: Any, g_indices: Any = None) -> Any:
        shape, d = self._saved["self_sym_sizes"], self._saved["dim"]
        idx = self._saved["indices"]
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
    data = c.unary_data(x, "max" if largest else "min")
    name = "max" if largest else "min"
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
    (d,) = norm_dims(dim, data.ndim)
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
        node._saved.update(dim=d, keepdim=keepdim, self_sym_sizes=data.shape,
                           indices=idx if keepdim or data.ndim == 0 else idx)
    return (max_type if largest else min_type)(values, indices)


def _nan_extreme(data: np.ndarray, axis: Any, keepdims: bool, largest: bool) -> np.ndarray:
    # torch propagates nan like numpy's max/min
    return (np.max if largest else np.min)(data, axis=axis, keepdims=keepdims)


def _nan_arg(data: np.ndarray, d: int, largest: bool) -> np.ndarray:
    if data.dtype.kind == "f" and np.isnan(data).any():
        return np.argmax(np.isnan(data), axis=d)
    return (np.argmax if largest else np.argmin)(data, axis=d)


def max(x: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:  # noqa: A001
    return _extreme(x, dim, keepdim, True, other)


def min(x: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:  # noqa: A001
    return _extreme(x, dim, keepdim, False, other)


def _amaxmin(x: Tensor, dim: Any, keepdim: bool, largest: bool) -> Tensor:
    data = c.unary_data(x, "amax" if largest else "amin")
    dims = norm_dims(() if dim is None or dim == () else dim, data.ndim) if dim not in (None, ()) \
        else tuple(range(data.ndim))
    node = node_for(AmaxBackward0 if largest else AminBackward0, x)
    out = make(_nan_extreme(data, dims, keepdim, largest), x.dtype, node)
    if node is not None:
        node._saved.update(dim=dims, keepdim=keepdim)
        node.save("self", x)
        node.save_output("result", out)
    return out


def amax(x: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    return _amaxmin(x, dim, keepdim, True)


def amin(x: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    return _amaxmin(x, dim, keepdim, False)


def argmax(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    data = c.unary_data(x, "argmax")
    if dim is None:
        return make(np.asarray(np.argmax(data.reshape(-1))), int64, None)
    (d,) = norm_dims(dim, data.ndim)
    idx = _nan_arg(data, d, True) if data.ndim else np.zeros((), np.int64)
    return make(np.expand_dims(idx, d) if keepdim and data.ndim else idx, int64, None)


def argmin(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    data = c.unary_data(x, "argmin")
    if dim is None:
        return make(np.asarray(np.argmin(data.reshape(-1))), int64, None)
    (d,) = norm_dims(dim, data.ndim)
    idx = _nan_arg(data, d, False) if data.ndim else np.zeros((), np.int64)
    return make(np.expand_dims(idx, d) if keepdim and data.ndim else idx, int64, None)


# ---- variance -------------------------------------------------------------------------------

class VarBackward0(Node):
    """y = sum((x - mean)^2) / (n - correction);  dx = g * 2 (x - mean) / (n - correction)"""

    saved_names = ("self", "dim", "correction", "keepdim")

    def backward(self, g: Any) -> Any:
        x = self.saved("self")
        dims = self._saved["dim"]
        n = 1
        for d in dims:
            n *= x.shape[d]
        m = c.sum_keep(x, dims) / n
        if not self._saved["keepdim"]:
            g = c.reshape(g, _keepdim_shape(x.shape, dims))
        return g * (x - m) * (2.0 / (n - self._saved["correction"]))


class StdBackward0(Node):
    """y = sqrt(var(x));  dx = g * (x - mean) / ((n - correction) * y)"""

    saved_names = ("self", "dim", "correction", "keepdim", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        dims = self._saved["dim"]
        n = 1
        for d in dims:
            n *= x.shape[d]
        m = c.sum_keep(x, dims) / n
        if not self._saved["keepdim"]:
            g = c.reshape(g, _keepdim_shape(x.shape, dims))
            y = c.reshape(y, _keepdim_shape(x.shape, dims))
        return g * (x - m) / ((n - self._saved["correction"]) * y)


def _var(x: Tensor, dim: Any, unbiased: Any, keepdim: bool, correction: Any, std: bool) -> Tensor:
    data = c.unary_data(x, "std" if std else "var")
    _need_float(x, "std" if std else "var", None)
    if isinstance(dim, bool):  # var(unbiased) positional form
        unbiased, dim = dim, None
    corr = correction if correction is not None else (1 if unbiased in (None, True) else 0)
    dims = norm_dims(dim, data.ndim)
    v = data.var(axis=dims, ddof=corr, keepdims=keepdim)
    if std:
        v = np.sqrt(v)
    node = node_for(StdBackward0 if std else VarBackward0, x)
    out = make(v, x.dtype, node)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, correction=corr, keepdim=keepdim)
        if std:
            node.save_output("result", out)
    return out


def var(x: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    return _var(x, dim, unbiased, keepdim, correction, False)


def std(x: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    return _var(x, dim, unbiased, keepdim, correction, True)


class ProdBackward0(Node):
    """y = prod(x);  dx = g * y / x (where no element is zero)"""

    saved_names = ("self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        if isinstance(x, Tensor):
            return g * y / x
        if np.any(x == 0):
            flat = x.reshape(-1)
            out = np.empty_like(flat)
            for i in range(flat.size):
                out[i] = np.prod(np.delete(flat, i))
            return g * out.reshape(x.shape)
        return g * y / x


def prod(x: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    data = c.unary_data(x, "prod")
    dt = int64 if x.dtype._cat < 2 else x.dtype
    if dim is not None:
        raise NotImplementedError("prod(dim) is not supported; use prod() over all elements")
    node = node_for(ProdBackward0, x)
    out = make(data.prod(dtype=dt.np), dt, node)
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
        return g - c.exp(y) * c.sum_keep(g, (d,))


def _softmax_dim(x: Tensor, dim: Any) -> int:
    if dim is None:
        dim = 0 if x.ndim in (0, 1, 3) else 1  # torch's legacy implicit choice
    (d,) = norm_dims(dim, x.ndim)
    return d


def _log_softmax_data(data: np.ndarray, d: int) -> np.ndarray:
    m = data.max(axis=d, keepdims=True) if data.ndim else data
    shifted = data - m
    return shifted - np.log(np.exp(shifted).sum(axis=d, keepdims=True) if data.ndim
                            else np.exp(shifted))


def softmax(x: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    if dtype is not None:
        x = x.to(dtype)
    data = c.unary_data(x, "softmax")
    if x.dtype._cat != 2:
        raise RuntimeError('"softmax_lastdim_kernel_impl" not implemented for '
                           f"'{_scalar_name(x.dtype)}'")
    d = _softmax_dim(x, dim)
    if data.ndim:
        e = np.exp(data - data.max(axis=d, keepdims=True))
        y = e / e.sum(axis=d, keepdims=True)
    else:
        y = np.ones_like(data)
    node = node_for(SoftmaxBackward0, x)
    out = make(y, x.dtype, node)
    if node is not None:
        node._saved["dim"] = d
        node.save_output("result", out)
    return out


def log_softmax(x: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    if dtype is not None:
        x = x.to(dtype)
    data = c.unary_data(x, "log_softmax")
    if x.dtype._cat != 2:
        raise RuntimeError('"log_softmax_lastdim_kernel_impl" not implemented for '
                           f"'{_scalar_name(x.dtype)}'")
    d = _softmax_dim(x, dim)
    node = node_for(LogSoftmaxBackward0, x)
    out = make(_log_softmax_data(data, d), x.dtype, node)
    if node is not None:
        node._saved["dim"] = d
        node.save_output("result", out)
    return out


class LogsumexpBackward0(Node):
    """y = log(sum(exp(x)));  dx = g * exp(x - y)"""

    saved_names = ("self", "dim", "keepdim", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        dims = self._saved["dim"]
        if not self._saved["keepdim"]:
            g = c.reshape(g, _keepdim_shape(x.shape, dims))
            y = c.reshape(y, _keepdim_shape(x.shape, dims))
        return g * c.exp(x - y)


def logsumexp(x: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    data = c.unary_data(x, "logsumexp")
    dims = norm_dims(dim, data.ndim)
    m = data.max(axis=dims, keepdims=True) if data.size else data
    m = np.where(np.isfinite(m), m, 0)
    r = np.log(np.exp(data - m).sum(axis=dims, keepdims=True)) + m
    if not keepdim:
        r = r.squeeze(dims)
    dt = x.dtype if x.dtype._cat == 2 else get_default_dtype()
    node = node_for(LogsumexpBackward0, x)
    out = make(r, dt, node)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, keepdim=keepdim)
        node.save_output("result", out)
    return out


_ = float32
