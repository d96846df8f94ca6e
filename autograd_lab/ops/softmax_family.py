"""The softmax family: softmax and log_softmax (logsumexp is a reduction: ``reductions``).

softmax(x)_i = exp(x_i) / sum_j exp(x_j), computed after subtracting the max (stable);
its backward is y * (g - sum(g * y)). log_softmax's is g - softmax * sum(g).

Precision (``_precision``, the one place the size policy is decided): a float32/float64
softmax or log_softmax over the last dim of fewer than ``EXACT_BELOW`` elements replays torch's
kernel: exp and log in double rounded to the dtype, row sums in torch's vector order, so
small tensors (the ones teaching code prints) match torch bit for bit. Larger tensors take
numpy's arithmetic in the tensor's own dtype: along the last dim of a contiguous array, block
by block of rows (``_BLOCK_BYTES``), so that the shifted values, their exp and the row sums of
a block stay in the CPU cache (forward: two reads of x and one write of y; backward likewise).
cross_entropy's log_softmax of such a tensor also keeps exp(x - max) and the row sums
(``log_softmax_keeping_exp``): its backward needs exp(y), which is exp / sum to a few units in
the last place, so it scales the kept array instead of taking a second exp.
"""

from __future__ import annotations

from math import prod
from typing import Any

import numpy as np

from .._dtype import dtype as DType
from .._fma import fma32, fma64
from .._messages import scalar_name as _scalar_name
from .._precision import exact
from .._scratch import scratch
from ..node import _saved_tensors_hooks
from . import backward_ops as bo
from . import common as c
from .common import Node, Tensor, norm_dim
from .record import record
from .summation import row_max, vec_sum_rows

# ---- softmax family ---------------------------------------------------------------------------

class SoftmaxBackward0(Node):
    """y = exp(x) / sum(exp(x));  dx = y * (g - sum(g * y))"""

    saved_names = ("dim", "result")

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        d = self._saved["dim"]
        if isinstance(g, Tensor):  # create_graph: torch's SoftmaxBackwardDataBackward0
            return bo.softmax_backward_data(g, y, d)
        fma = _inner_fma(y, g, d)
        if fma is not None:  # torch's kernel over a dim with inner ones: fused sums of g y
            s = np.zeros_like(np.take(y, [0], axis=d))
            for j in range(y.shape[d]):
                s = fma(np.take(g, [j], axis=d), np.take(y, [j], axis=d), s)
            return y * (g - s)
        return y * (g - c.sum_keep(g * y, (d,)))


class LogSoftmaxBackward0(Node):
    """y = x - logsumexp(x);  dx = g - exp(y) * sum(g)"""

    saved_names = ("dim", "result")
    sparse_grad: tuple | None = None  # (g, cols, vals) from cross_entropy's NllLossBackward0
    # cross_entropy's exp(x - max) and its row sums for a large input, kept by the forward
    # (``log_softmax_keeping_exp``): exp / sum stands for exp(y), so backward takes no second
    # exp over the whole input
    kept_exp: tuple[np.ndarray, np.ndarray] | None = None

    def _release(self) -> None:
        self.kept_exp = None
        super()._release()

    def backward(self, g: Any) -> Any:
        y = self.saved("result")
        d = self._saved["dim"]
        if isinstance(g, Tensor):  # create_graph: torch's LogSoftmaxBackwardDataBackward0
            return bo.log_softmax_backward_data(g, y, d)
        if not y.ndim:
            return g - c.exp(y) * c.sum_keep(g, (d,))
        fma = _inner_fma(y, g, d)
        if fma is not None:  # torch's kernel over a dim with inner ones: sum(g) in order,
            s = np.zeros_like(np.take(y, [0], axis=d))  # then g - exp(y) sum fused
            for j in range(y.shape[d]):
                s = s + np.take(g, [j], axis=d)
            return fma(-_rounded(np.exp, y), s, g)
        sp, self.sparse_grad = self.sparse_grad, None
        # g as nll_loss made it, one entry a row, seen by no one else
        from_nll = (sp is not None and sp[0] is g and y.ndim == 2 and not self._pre_hooks
                    and not self._tensor_pre_hooks and not self._retained)
        fma = _lastdim_fma(y, g, d)
        if fma is not None:  # torch's last-dim kernel: vec::reduce_all of g, then the FMA
            n = y.shape[d]   # g - exp(y) * sum (its vectorised lambda, contracted)
            if from_nll:  # a row of zeros and one value adds up to that value (-0 to +0)
                sums = sp[2] + y.dtype.type(0)
            else:
                sums = vec_sum_rows(np.ascontiguousarray(g).reshape(-1, n))
            # a fresh array of y's shape (not a view): the engine may add into it in place
            return fma(-_rounded(np.exp, y), sums.reshape(y.shape[:d] + (1,) + y.shape[d + 1:]), g)
        if _blockable(y, d) and g.dtype == y.dtype and g.flags.c_contiguous:
            if from_nll:
                # the gradient is written over g (no second 2 MB buffer to allocate and fault in)
                return _log_softmax_backward_rows(y, g, sp[1], sp[2], out=g,
                                                  kept_exp=self.kept_exp)
            return _log_softmax_backward_rows(y, g, kept_exp=self.kept_exp)
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
    d = norm_dim(dim, x.ndim)
    if x.dtype._cat != 2:  # torch's kernel for the last dim has a name of its own
        kernel = f"{name}_lastdim_kernel_impl" if d >= x.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_scalar_name(x.dtype)}'")
    return x, data, d


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


_BLOCK_BYTES = 1 << 20  # rows of a block, their exp and sums fit in L2 together


def _blockable(a: np.ndarray, d: int) -> bool:
    """Whether ``a`` is a contiguous float array reduced along its last dim, large enough
    to take the blocked numpy kernels (see the module docstring)."""
    return (d == a.ndim - 1 and a.dtype.kind == "f" and a.dtype.itemsize >= 4
            and not exact(a.size) and a.flags.c_contiguous)


def _block_rows(a: np.ndarray) -> int:
    """Rows per block for a (rows, n) array."""
    return max(1, _BLOCK_BYTES // (a.shape[1] * a.itemsize))


def _row_bufsize(k: int) -> int:
    """A ufunc buffer size for row-by-row kernels over rows of ``k`` elements: at most one
    row. With numpy's default (8192 elements) an array minus a (rows, 1) column goes
    through the buffered iterator and takes twice as long; the results are the same."""
    return max(16, min(8192, -(-k // 16) * 16))


def _log_softmax_rows(x: np.ndarray, kept_exp: tuple[np.ndarray, np.ndarray] | None = None
                      ) -> np.ndarray:
    """(x - max) - log(sum(exp(x - max))) along the last dim of a C-contiguous float array;
    the whole-array form's arithmetic, a block of rows at a time. With ``kept_exp`` (an array
    of x's shape and one of a sum per row), exp(x - max) and its row sums are written there
    instead of into scratch buffers."""
    shape = x.shape
    k = shape[-1]
    x = x.reshape(-1, k)
    n = x.shape[0]
    res = np.empty(shape, x.dtype)
    y = res.reshape(n, k)
    if kept_exp is not None:  # exp(x - max) and the row sums go to the caller's arrays
        e_all, s = kept_exp[0].reshape(n, k), kept_exp[1]
    else:
        e_all = None
        s = np.empty((n, 1), x.dtype)
    step = _block_rows(x)
    rows = min(step, n)
    # the shifted block and its exp stay in the cache, and in the scratch cache between
    # calls: never seen outside this function
    shifted = scratch("log_softmax.shifted", (rows, k), x.dtype)
    ex = scratch("log_softmax.exp", (rows, k), x.dtype) if e_all is None else None
    ls = np.empty((n, 1), x.dtype)  # log of the sums
    ones = np.ones(k, x.dtype)
    sub, exp, log, mv, amax = np.subtract, np.exp, np.log, np.matmul, np.maximum.reduce
    old = np.setbufsize(_row_bufsize(k))
    try:
        for i in range(0, n, step):
            j = i + step
            yb, sb, lb, xb = y[i:j], s[i:j], ls[i:j], x[i:j]
            t = shifted[:yb.shape[0]]
            e = ex[:yb.shape[0]] if e_all is None else e_all[i:j]
            sub(xb, amax(xb, axis=1, keepdims=True), out=t)
            exp(t, out=e)
            mv(e, ones, out=sb[:, 0])  # BLAS row sums (as ``_rowsum``)
            log(sb, out=lb)
            sub(t, lb, out=yb)  # y is written once
    finally:
        np.setbufsize(old)
    return res


def _log_softmax_backward_rows(y: np.ndarray, g: np.ndarray, cols: np.ndarray | None = None,
                               vals: np.ndarray | None = None, out: np.ndarray | None = None,
                               kept_exp: tuple | None = None) -> np.ndarray:
    """g - exp(y) * sum(g) along the last dim, a block of rows at a time, into ``out`` (else
    a new array). With ``cols`` and ``vals``, ``g`` is known to be zero but for
    g[i, cols[i]] = vals[i] (nll_loss's gradient): sum(g) is ``vals`` and adding g touches
    one entry a row (then ``out`` may be ``g`` itself). With ``kept_exp``, the forward's
    exp(x - max) and row sums, exp(y) is taken as exp / sum (equal to a few units in the
    last place: the large-size policy) and the sum is divided into the per-row factor."""
    n = y.shape[-1]
    y2, g2 = y.reshape(-1, n), g.reshape(-1, n)
    e2 = sums = None
    if kept_exp is not None:
        e2, sums = kept_exp[0].reshape(-1, n), kept_exp[1]
    negate = False
    if vals is None:
        s = -(g2 @ np.ones(n, dtype=g.dtype))[:, None]
    else:
        zero = y.dtype.type(0)
        with np.errstate(invalid="ignore"):
            positive = bool((vals < zero).all())
        if positive:
            # exp(y) * -v with every -v > 0: 0 - exp(y) * v bit for bit (rounding is
            # symmetric; a zero product is +0 both ways), one pass fewer
            s = (-vals)[:, None]
        else:  # exp(y) * v, then 0 - that: the signs of zeros that exp(y) * -v + 0 gives
            s, negate = vals[:, None], True
    if sums is not None:
        s = s / sums
    # a new result is returned as allocated: AccumulateGrad can keep it without a copy
    res = np.empty_like(y) if out is None else out
    o2 = res.reshape(-1, n)
    step = _block_rows(y2)
    exp, mul, add = np.exp, np.multiply, np.add
    old = np.setbufsize(_row_bufsize(n))
    if e2 is not None:  # one pass: no exp to keep in the cache
        step = o2.shape[0]
    try:
        for i in range(0, o2.shape[0], step):
            j = i + step
            ob = o2[i:j]
            if e2 is None:
                exp(y2[i:j], out=ob)
                mul(ob, s[i:j], out=ob)
            else:
                mul(e2[i:j], s[i:j], out=ob)
            if vals is None:
                add(ob, g2[i:j], out=ob)
            elif negate:
                np.subtract(zero, ob, out=ob)
    finally:
        np.setbufsize(old)
    if vals is not None:  # g's one entry a row: exp(y) * -sum(g) + g there, as dense
        rows = np.arange(o2.shape[0])
        ey = np.exp(y2[rows, cols]) if e2 is None else e2[rows, cols] / sums[:, 0]
        o2[rows, cols] = ey * -(vals + zero) + vals
    return res


def _inner_fma(y: np.ndarray, g: Any, d: int) -> Any:
    """The fused multiply-add for torch's softmax backward kernel over a dim followed by dims
    of more than one element (where it accumulates with FMAs), else None (the last-dim
    kernel, or above the precision policy's size)."""
    if (not isinstance(g, np.ndarray) or g.dtype != y.dtype or y.dtype.kind != "f"
            or prod(y.shape[d + 1:]) <= 1 or not y.size or not exact(y.size)):
        return None
    return fma32 if y.dtype == np.float32 else fma64 if y.dtype == np.float64 else None


def _lastdim_fma(y: np.ndarray, g: Any, d: int) -> Any:
    """The fused multiply-add of torch's last-dim log_softmax backward kernel (``d`` is
    followed by no dim of more than one element), for tensors small enough to replay it;
    else None."""
    if (not isinstance(g, np.ndarray) or g.dtype != y.dtype or y.dtype.kind != "f"
            or prod(y.shape[d + 1:]) != 1 or not y.size or not exact(y.size)):
        return None
    return fma32 if y.dtype == np.float32 else fma64 if y.dtype == np.float64 else None


def _lastdim_rows(data: np.ndarray, d: int) -> np.ndarray | None:
    """``data`` as (rows, n) when torch's last-dim softmax kernel applies and the tensor is
    small enough to replay its arithmetic here (float32/float64 over the last dim)."""
    if (d == data.ndim - 1 and data.dtype.kind == "f" and data.dtype.itemsize >= 4
            and data.size and exact(data.size)):
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
        t = np.subtract(rows, row_max(rows), order="C")  # as torch's
        ls = _rounded(np.log, vec_sum_rows(_rounded(np.exp, t)))
        return (t - ls[:, None]).reshape(data.shape)
    if _blockable(data, d):
        return _log_softmax_rows(data)
    m = data.max(axis=d, keepdims=True)
    # always shift by the max, as torch: without it log(sum(exp)) loses the precision of
    # log-probabilities near 0 (log_softmax([-2, 5]) was off by 2e-4 relative)
    out = np.subtract(data, m, order="C")  # torch's result is contiguous whatever x's layout
    out -= np.log(_rowsum(np.exp(out), d))
    return out


def log_softmax_keeping_exp(x: Tensor, dim: int) -> Tensor:
    """``log_softmax(x, dim)`` for cross_entropy, whose backward needs exp(y): for an input
    the large-size policy covers, the node also keeps the exp(x - max) and row sums the
    forward computes on the way (backward scales them, instead of taking a second exp).
    Not under saved-tensor hooks, which must see all that is kept."""
    x, data, d = _softmax_input(x, dim, None, "log_softmax")
    if not data.ndim or not _blockable(data, d) or not c.STATE.enabled or not x._rg \
            or _saved_tensors_hooks:
        return _softmax_result(LogSoftmaxBackward0, x, _log_softmax_data(data, d), d)
    rows = data.size // data.shape[-1]
    kept = (np.empty(data.shape, data.dtype), np.empty((rows, 1), data.dtype))
    out = _softmax_result(LogSoftmaxBackward0, x, _log_softmax_rows(data, kept), d)
    out.grad_fn.kept_exp = kept
    return out


def softmax(x: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim``."""
    x, data, d = _softmax_input(x, dim, dtype, "softmax")
    rows = _lastdim_rows(data, d) if data.ndim and data.size else None
    if not data.size:
        y = data.copy()
    elif rows is not None:  # torch: exp(x - max) * (1 / sum), its order of additions
        e = _rounded(np.exp, np.subtract(rows, row_max(rows), order="C"))
        y = (e * (data.dtype.type(1) / vec_sum_rows(e))[:, None]).reshape(data.shape)
    elif data.ndim:  # contiguous, as torch's result whatever x's layout
        e = np.exp(np.subtract(data, data.max(axis=d, keepdims=True), order="C"))
        y = e / e.sum(axis=d, keepdims=True)
    else:  # a 0-d tensor: exp(x - x) / itself, so inf and nan give nan as in torch
        with np.errstate(invalid="ignore"):
            e = np.exp(data - data)
            y = e / e
    return _softmax_result(SoftmaxBackward0, x, y, d)


def log_softmax(x: Tensor, dim: Any = None, dtype: DType | None = None) -> Tensor:
    """x - log(sum(exp(x))) along ``dim``."""
    x, data, d = _softmax_input(x, dim, dtype, "log_softmax")
    return _softmax_result(LogSoftmaxBackward0, x, _log_softmax_data(data, d), d)
