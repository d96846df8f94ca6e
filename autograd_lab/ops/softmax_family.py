"""The softmax family: softmax, log_softmax, logsumexp.

softmax(x)_i = exp(x_i) / sum_j exp(x_j), computed after subtracting the max (stable);
its backward is y * (g - sum(g * y)). log_softmax's is g - softmax * sum(g).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import dtype as DType
from .._messages import scalar_name as _scalar_name
from . import backward_ops as bo
from . import common as c
from .common import Node, Tensor, norm_dim, norm_dims
from .record import record
from .reductions import _unreduce
from .summation import GRAIN_SIZE, vec_sum_rows

# ---- softmax family ---------------------------------------------------------------------------

class SoftmaxBackward0(Node):
    """y = exp(x) / sum(exp(x));  dx = y * (g - sum(g * y))"""

    saved_names = ("dim", "result")

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        d = self._saved["dim"]
        if isinstance(g, Tensor):  # create_graph: torch's SoftmaxBackwardDataBackward0
            return bo.softmax_backward_data(g, y, d)
        return y * (g - c.sum_keep(g * y, (d,)))


class LogSoftmaxBackward0(Node):
    """y = x - logsumexp(x);  dx = g - exp(y) * sum(g)"""

    saved_names = ("dim", "result")

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        d = self._saved["dim"]
        if isinstance(g, Tensor):  # create_graph: torch's LogSoftmaxBackwardDataBackward0
            return bo.log_softmax_backward_data(g, y, d)
        if not y.ndim:
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
    out, node = record(cls, y, x.dtype, x)
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
    out, node = record(LogsumexpBackward0, r, dt, x)
    if node is not None:
        node.save("self", x)
        node._saved.update(dim=dims, keepdim=keepdim)
        node.save_output("result", out)
    return out
