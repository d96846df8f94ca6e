"""Selecting reductions: max/min (and amax/amin, argmax/argmin) and median.

NaN wins, as in torch: a slice holding a NaN has NaN as its max, min and median, and the
index of its first NaN. Ties pick the first index (max, min), or the middle element of a
stable sort (median). Backward: ``max(dim)``/``median(dim)`` send the gradient to the chosen
index; the full reductions share it evenly among the elements equal to the result (the
NaNs, when the result is NaN); ``amax``/``amin`` share it among each slice's maxima.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _messages as msg
from .._dtype import bool_, int64
from . import common as c
from .binary_functions import maximum, minimum
from .common import Node, Tensor, norm_dim, norm_dims
from .record import make, node_for, record


def _keepdim_shape(shape: tuple, dims: tuple) -> tuple:
    """``shape`` with the reduced ``dims`` kept as size 1."""
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def _unreduce(keepdim: bool, shape: tuple, dims: tuple, *ts: Any) -> tuple:
    """``ts`` (a gradient, the result ...) with the reduced ``dims`` back as size 1."""
    if keepdim:
        return ts
    kept = _keepdim_shape(shape, dims)
    return tuple(c.reshape(t, kept) for t in ts)


class _ReturnType(NamedTuple):
    values: Tensor
    indices: Tensor


def _return_type(name: str) -> type:
    """torch's ``torch.return_types.<name>``: a read-only (values, indices) pair whose
    attribute errors name it in full."""
    full = f"torch.return_types.{name}"

    def __repr__(self: Any) -> str:  # noqa: N807
        return f"{full}(\nvalues={self.values!r},\nindices={self.indices!r})"

    def __getattr__(self: Any, attr: str) -> Any:  # noqa: N807  (only for unknown names)
        raise AttributeError(f"'{full}' object has no attribute '{attr}'")

    def __setattr__(self: Any, attr: str, value: Any) -> None:  # noqa: N807
        if attr in self._fields:
            raise AttributeError("readonly attribute")
        raise AttributeError(f"'{full}' object has no attribute '{attr}'")

    def __delattr__(self: Any, attr: str) -> None:  # noqa: N807
        __setattr__(self, attr, None)

    return type(name, (_ReturnType,), {
        "__repr__": __repr__, "__str__": __repr__, "__getattr__": __getattr__,
        "__setattr__": __setattr__, "__delattr__": __delattr__, "__slots__": (),
        "__module__": "torch.return_types"})


max_type, min_type, median_type = (_return_type(n) for n in ("max", "min", "median"))


# ---- errors on empty input (torch's texts, never numpy's) ----------------------------------

def _no_dim_error(name: str, exc: type = RuntimeError, hint: bool = True) -> Exception:
    return exc(f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
               + (" Specify the reduction dim with the 'dim' argument." if hint else ""))


def _check_nonempty(name: str, shape: tuple, dims: tuple, shown: Any) -> None:
    """torch's IndexError when a reduced dim of ``shape`` has size 0 (``shown``: the dim as
    the message names it)."""
    for d in dims:
        if shape and shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {shown(d)} to have non-zero "
                             "size.")


# ---- the data ---------------------------------------------------------------------------

def _extreme_data(data: np.ndarray, axis: Any, keepdims: bool, largest: bool) -> np.ndarray:
    """The max (min) over ``axis``; NaN wins, in torch as in numpy."""
    return (np.max if largest else np.min)(data, axis=axis, keepdims=keepdims)


def _first_zero_sign(data: np.ndarray, dims: tuple, y: Any) -> Any:
    """amax/amin's zeros signed as the first zero each slice meets in memory order: torch's
    kernel keeps the earlier of two equal candidates (``0.0 == -0.0``), numpy the later."""
    if data.dtype.kind != "f" or not dims or not np.any(np.equal(y, 0)):
        return y  # (only a zero result can have the other sign: the input is not scanned)
    if not (np.signbit(data) & (data == 0)).any():
        return y
    order = sorted(dims, key=lambda d: -abs(data.strides[d]))  # outermost first, as read
    kept = [d for d in range(data.ndim) if d not in dims]
    rows = data.transpose(kept + order).reshape(tuple(data.shape[d] for d in kept) + (-1,))
    first = np.argmax(rows == 0, axis=-1)[..., None]
    neg = np.signbit(np.take_along_axis(rows, first, -1)[..., 0])
    yk = np.reshape(y, neg.shape)
    zero = np.where(neg, -0.0, 0.0).astype(data.dtype)
    return np.where(yk == 0, zero, yk).reshape(np.shape(y))


def _arg_data(data: np.ndarray, d: int, largest: bool) -> np.ndarray:
    """Where the max (min) along ``d`` is: the first NaN of a slice that has one, else the
    first extreme (numpy's argmax/argmin follow the same two rules)."""
    return (np.argmax if largest else np.argmin)(data, axis=d)


def _median_arg(data: np.ndarray, d: int) -> np.ndarray:
    """The index of each slice's median along ``d``: its first NaN, else the element at
    (n - 1) // 2 in a stable sort (torch's nth_element orders ties by index)."""
    n = data.shape[d]
    order = np.argsort(data, axis=d, kind="stable")
    idx = np.take(order, (n - 1) // 2, axis=d)
    if data.dtype.kind == "f":
        nan = np.isnan(data)
        has = nan.any(axis=d)
        if has.any():
            idx = np.where(has, np.argmax(nan, axis=d), idx)
    return idx


# ---- nodes ------------------------------------------------------------------------------

def _evenly(g: Any, x: Any, y: Any) -> Any:
    """torch's evenly_distribute_backward: g shared among the elements equal to y (the NaNs
    of x when y is NaN)."""
    xd = x._data if isinstance(x, Tensor) else x
    yd = y._data if isinstance(y, Tensor) else y
    mask = np.isnan(xd) if xd.dtype.kind == "f" and np.isnan(yd) else xd == yd
    if isinstance(g, Tensor):
        return g * make(mask, g.dtype, None) / float(mask.sum())
    return g * mask / mask.sum().astype(g.dtype)


class MaxBackward1(Node):
    """y = max(x) over all elements;  the gradient is shared evenly among the maxima"""

    saved_names = ("self", "result")
    grad_versions = (1,)  # torch's formula ends with in-place steps

    def backward(self, g: Any) -> Any:
        return _evenly(g, self.saved("self"), self.saved("result"))


class MinBackward1(MaxBackward1):
    """y = min(x) over all elements;  the gradient is shared evenly among the minima"""


class MedianBackward0(MaxBackward1):
    """y = median(x) over all elements;  the gradient is shared evenly among the elements
    equal to the median"""


class AmaxBackward0(Node):
    """y = amax(x, dim);  the gradient is shared evenly among the maxima of each slice
    (a slice whose max is NaN gets NaN: no element equals it)"""

    saved_names = ("dim", "keepdim", "self", "result")

    def backward(self, g: Any) -> Any:
        x, y = self.saved("self"), self.saved("result")
        dims = self._saved["dim"]
        if isinstance(g, Tensor) or isinstance(x, Tensor):  # torch's scale_grad_by_count
            if not self._saved["keepdim"]:  # restore_reduced_dims: a reshape
                shape = tuple(1 if i in dims else s for i, s in enumerate(x.shape))
                g, y = g.reshape(shape), y.reshape(shape)
            mask = y == x
            return (g / mask.sum(dims, keepdim=True)) * mask
        y, g = _unreduce(self._saved["keepdim"], x.shape, dims, y, g)
        mask = x == y
        out = np.empty_like(x)  # laid out like x, as torch's elementwise result
        with np.errstate(invalid="ignore", divide="ignore"):  # (a NaN slice: 0 / 0)
            np.multiply(g / c.sum_keep(mask.astype(x.dtype), dims), mask, out=out)
        return out


class AminBackward0(AmaxBackward0):
    """y = amin(x, dim);  the gradient is shared evenly among the minima of each slice"""


class MaxBackward0(Node):
    """(values, indices) = max(x, dim);  g goes to the selected index of each slice"""

    saved_names = ("dim", "keepdim", "self_sym_sizes", "indices")
    grad_versions = (2,)  # torch's formula ends with in-place steps

    def backward(self, g: Any, g_indices: Any = None) -> Any:
        shape, d = self._saved["self_sym_sizes"], self._saved["dim"]
        if not shape:  # max over "dim 0" of a 0-d tensor is the identity; torch still
            # scatters g into zeros (version 2): a new tensor
            if isinstance(g, Tensor):
                return g if g.requires_grad else g.clone()
            return np.array(g, copy=True)
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


class MedianBackward1(MaxBackward0):
    """(values, indices) = median(x, dim);  g goes to the median's index of each slice"""


# ---- max / min / median with values and indices --------------------------------------------

def _full(cls: type[Node], x: Tensor, y: Any) -> Tensor:
    out, node = record(cls, y, x.dtype, x)
    if node is not None:
        node.save("self", x)
        node.save_output("result", out)
    return out


def _with_indices(x: Tensor, data: np.ndarray, dim: Any, keepdim: bool, cls: type[Node],
                  ret: type, name: str, arg: Any) -> Any:
    """``ret(values, indices)`` of a reduction along ``dim`` picking index ``arg(data, d)``."""
    d = norm_dim(dim, data.ndim)
    _check_nonempty(name, data.shape, (d,), lambda k: k)
    if data.ndim == 0:
        idx = np.zeros((), dtype=np.int64)
        vals = data.copy()
    else:
        idx = np.expand_dims(arg(data, d), d)
        vals = np.take_along_axis(data, idx, d)
        if not keepdim:
            vals, idx = vals.squeeze(d), idx.squeeze(d)
    node = node_for(cls, x)
    values = make(vals, x.dtype, node)
    indices = make(idx.astype(np.int64, copy=False), int64, None)
    if node is not None:
        node._saved.update(dim=d, keepdim=keepdim, self_sym_sizes=data.shape)
        node.save("indices", indices)
        c.show_saved(node, dim=c.shown_dim(dim))
    return ret(values, indices)


def _extreme(x: Tensor, dim: Any, keepdim: bool, largest: bool, other: Any = None) -> Any:
    if not isinstance(x, Tensor):
        got = (x,) + (() if dim is None else (dim,))
        raise msg.invalid_arguments("max" if largest else "min", got, *_EXTREME_SIGNATURES)
    if isinstance(dim, Tensor):  # torch.max(a, b) is maximum
        return (maximum if largest else minimum)(x, dim)
    if other is not None:
        return (maximum if largest else minimum)(x, other)
    name = "max" if largest else "min"
    data = c.unary_data(x, name)
    if dim is None:
        if data.size == 0:
            raise _no_dim_error(name)
        return _full(MaxBackward1 if largest else MinBackward1, x,
                     _extreme_data(data, None, False, largest))
    return _with_indices(x, data, dim, keepdim, MaxBackward0 if largest else MinBackward0,
                         max_type if largest else min_type, name,
                         lambda a, d: _arg_data(a, d, largest))


_EXTREME_SIGNATURES = (
    "(Tensor input, *, Tensor out = None)", "(Tensor input, Tensor other, *, Tensor out = None)",
    "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)")


def max(x: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:  # noqa: A001
    """The largest element; over ``dim``: (values, indices); with a tensor: ``maximum``."""
    return _extreme(x, dim, keepdim, True, other)


def min(x: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:  # noqa: A001
    """The smallest element; over ``dim``: (values, indices); with a tensor: ``minimum``."""
    return _extreme(x, dim, keepdim, False, other)


def median(x: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    """The lower median of all elements; over ``dim``: (values, indices)."""
    data = c.unary_data(x, "median")
    if x.dtype is bool_:
        raise NotImplementedError("\"median_cpu\" not implemented for 'Bool'")
    if dim is not None:
        return _with_indices(x, data, dim, keepdim, MedianBackward1, median_type, "median",
                             _median_arg)
    flat = data.reshape(-1)
    if flat.size == 0:  # torch: a NaN, cast to x's dtype
        y = np.asarray(np.nan).astype(data.dtype) if data.dtype.kind == "f" else \
            np.asarray(np.iinfo(data.dtype).min, dtype=data.dtype)
    else:
        y = flat[_median_arg(flat, 0)]
    return _full(MedianBackward0, x, y)


# ---- amax / amin / argmax / argmin ---------------------------------------------------------

def _amaxmin(x: Tensor, dim: Any, keepdim: bool, largest: bool) -> Tensor:
    name = "amax" if largest else "amin"
    data = c.unary_data(x, name)
    full = dim is None or dim == () or dim == []
    dims = tuple(range(data.ndim)) if full else norm_dims(dim, data.ndim)
    if data.size == 0:
        if full:
            raise _no_dim_error(name)
        given = (dim,) if isinstance(dim, int) else tuple(dim)
        _check_nonempty(name, data.shape, dims,
                        lambda k: next(g for g in given if g % data.ndim == k))
    y = _extreme_data(data, dims if data.ndim else (), keepdim, largest)
    y = _first_zero_sign(data, dims if data.ndim else (), y)
    out, node = record(AmaxBackward0 if largest else AminBackward0, y, x.dtype, x)
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
    if x.dtype is bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if data.size == 0:
            raise _no_dim_error(name, IndexError, hint=False)
        idx = np.asarray(_arg_data(data.reshape(-1), 0, largest))
        return make(idx.reshape((1,) * data.ndim) if keepdim else idx, int64, None)
    d = norm_dim(dim, data.ndim)
    _check_nonempty(name, data.shape, (d,), lambda k: k)
    idx = _arg_data(data, d, largest) if data.ndim else np.zeros((), np.int64)
    return make(np.expand_dims(idx, d) if keepdim and data.ndim else idx, int64, None)


def argmax(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the largest element (of the flattened tensor, or along ``dim``)."""
    return _arg_extreme(x, dim, keepdim, True)


def argmin(x: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the smallest element (of the flattened tensor, or along ``dim``)."""
    return _arg_extreme(x, dim, keepdim, False)

