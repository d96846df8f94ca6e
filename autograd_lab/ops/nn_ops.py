"""The ops behind ``nn``: addmm/linear, the losses, and a few scalar helpers torch uses inside.

Each node is PyTorch's: ``AddmmBackward0`` (a fused ``bias + x @ W^T``),
``NllLossBackward0``, ``MseLossBackward0``; plus ``MulBackward1``/``DivBackward1``
(tensor times/over a number, as torch records them when they happen inside an op)
and ``MaskedFillBackward0``. Backward formulas run on arrays or Tensors (create_graph).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._dtype import bool_, int64, uint8
from . import common as c
from .common import Node, Tensor, make, node_for
from .inplace import apply_inplace
from .linalg import matmul
from .movement import expand, reshape, t, view
from .reduce import _scalar_name

__all__ = ["addmm", "linear", "masked_fill", "masked_fill_", "mse_loss", "mul_scalar",
           "div_scalar", "nll_loss"]


def _strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides)


# ---- addmm / linear ----------------------------------------------------------------------------

class AddmmBackward0(Node):
    """y = beta * bias + alpha * (mat1 @ mat2);
    dbias = beta * g (summed to bias's shape),  dmat1 = alpha * g @ mat2^T,
    dmat2 = alpha * mat1^T @ g"""

    saved_names = ("alpha", "beta", "mat1", "mat1_sym_sizes", "mat1_sym_strides", "mat2",
                   "mat2_sym_sizes", "mat2_sym_strides")

    def backward(self, g: Any) -> tuple:
        nf = self.next_functions
        s = self._saved
        alpha, beta = s["alpha"], s["beta"]
        gb = gm1 = gm2 = None
        if nf[0][0] is not None:
            gb = c.sum_to(g if beta == 1 else g * beta, self.bias_shape)
        if nf[1][0] is not None:
            m2 = self.saved("mat2")
            gm1 = g @ c.swap_last(m2)
            if alpha != 1:
                gm1 = gm1 * alpha
        if nf[2][0] is not None:
            m1 = self.saved("mat1")
            if isinstance(g, Tensor):
                gm2 = c.swap_last(m1) @ g
            elif s["mat2_sym_strides"][0] == 1:  # mat2 is W^T: give W's gradient W's layout
                gm2 = (g.T @ m1).T
            else:
                gm2 = m1.T @ g
            if alpha != 1:
                gm2 = gm2 * alpha
        return gb, gm1, gm2


def _mm_checks(m1: Tensor, m2: Tensor) -> None:
    if m1._data.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {m1._data.ndim}-D tensor")
    if m2._data.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {m2._data.ndim}-D tensor")
    (n, k), (k2, m) = m1._data.shape, m2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    if m1.dtype is not m2.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_scalar_name(m1.dtype)} and "
            f"{_scalar_name(m2.dtype)}"
        )


def addmm(bias: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1,
          alpha: float = 1) -> Tensor:
    """``beta * bias + alpha * mat1 @ mat2`` in one node (``AddmmBackward0``)."""
    _mm_checks(mat1, mat2)
    a, b = mat1._data, mat2._data
    out = a @ b
    if alpha != 1:
        out *= alpha
    bd = bias._data
    try:
        if beta == 1:
            out += bd
        elif beta != 0:
            out += beta * bd
    except ValueError:
        raise c.broadcast_error(bd.shape, out.shape) from None
    node = node_for(AddmmBackward0, bias, mat1, mat2)
    res = make(out, mat1.dtype, node)
    if node is not None:
        nf = node.next_functions
        s = node._saved
        s["alpha"], s["beta"] = alpha, beta
        s["mat1"] = s["mat2"] = None
        s["mat1_sym_sizes"], s["mat2_sym_sizes"] = a.shape, b.shape
        s["mat1_sym_strides"] = _strides(a) if nf[1][0] is not None else ()
        s["mat2_sym_strides"] = _strides(b) if nf[2][0] is not None else ()
        if nf[2][0] is not None:
            node.save("mat1", mat1)
        if nf[1][0] is not None:
            node.save("mat2", mat2)
        node.bias_shape = bd.shape
    return res


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y = x W^T + b``, recorded as torch's ``at::linear`` does."""
    if not isinstance(input, Tensor):
        raise TypeError(f"linear(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    nd = input._data.ndim
    if nd == 0 or weight._data.ndim == 0:
        raise RuntimeError(
            f"both arguments to linear need to be at least 1D, but they are {nd}D and "
            f"{weight._data.ndim}D"
        )
    if bias is not None:
        if nd == 2:
            return addmm(bias, input, t(weight))
        if input._data.flags.c_contiguous and bias._data.ndim == 1:
            # flatten to 2-D, one addmm, then view back (torch's _flatten_nd_linear)
            shp = input._data.shape
            rows = int(np.prod(shp[:-1], dtype=np.int64))
            out = addmm(bias, reshape(input, (rows, shp[-1])), t(weight))
            return view(out, shp[:-1] + (out._data.shape[1],))
    out = matmul(input, t(weight))
    if bias is not None:
        out.add_(bias)
    return out


# ---- scalar multiply / divide, masked_fill -------------------------------------------------

class MulBackward1(Node):
    """y = x * c (c a number);  dx = g * c"""

    saved_names = ("other",)

    def backward(self, g: Any) -> Any:
        return g * self._saved["other"]


class DivBackward1(Node):
    """y = x / c (c a number);  dx = g / c"""

    saved_names = ("other",)

    def backward(self, g: Any) -> Any:
        return g / self._saved["other"]


def _scalar_op(cls: type[Node], x: Tensor, s: Any, fn: Any) -> Tensor:
    dt = x.dtype if x.dtype.is_floating_point else c.float_dtype(x)
    node = node_for(cls, x)
    out = make(fn(x._data, s), dt, node)
    if node is not None:
        node._saved["other"] = s
    return out


def mul_scalar(x: Tensor, s: float) -> Tensor:
    """``x * s`` as a node of its own (``MulBackward1``)."""
    return _scalar_op(MulBackward1, x, s, np.multiply)


def div_scalar(x: Tensor, s: float) -> Tensor:
    """``x / s`` as a node of its own (``DivBackward1``)."""
    return _scalar_op(DivBackward1, x, s, np.true_divide)


class MaskedFillBackward0(Node):
    """y = x with ``value`` where mask;  dx = g with zeros where mask"""

    saved_names = ("mask",)

    def backward(self, g: Any) -> Any:
        mask = self.saved("mask")
        if isinstance(g, Tensor):
            return c.where(mask, 0.0, g)
        return np.where(mask, np.zeros((), dtype=g.dtype), g)


def masked_fill(x: Tensor, mask: Tensor, value: float) -> Tensor:
    if mask.dtype is not bool_:
        from .gather import masked_fill_check

        masked_fill_check(mask)
    node = node_for(MaskedFillBackward0, x)
    if mask._data.shape != x._data.shape:
        try:
            shape = np.broadcast_shapes(mask._data.shape, x._data.shape)
        except ValueError:
            raise c.broadcast_error(mask._data.shape, x._data.shape) from None
        if shape != x._data.shape:
            raise RuntimeError(f"masked_fill_: expected mask to broadcast to the input shape "
                               f"{list(x._data.shape)}, got {list(mask._data.shape)}")
    out = make(np.where(mask._data, np.asarray(value, dtype=x.dtype.np), x._data), x.dtype, node)
    if node is not None:
        node.save("mask", mask)
    return out


def masked_fill_(x: Tensor, mask: Tensor, value: float) -> Tensor:
    return apply_inplace(x, lambda a: masked_fill(a, mask, value))


# ---- nll_loss ----------------------------------------------------------------------------------

class NllLossBackward0(Node):
    """loss = -sum_i w[t_i] x[i, t_i] (divided by sum_i w[t_i] for 'mean');
    dx[i, t_i] = -w[t_i] * g (/ total_weight), zero elsewhere"""

    saved_names = ("ignore_index", "reduction", "self", "target", "total_weight", "weight")

    def backward(self, g: Any) -> Any:
        self.saved("self")  # version check, as torch
        self.saved("target")
        coef = self.coef  # -w[t_i] (0 where ignored), divided by the total weight for 'mean'
        shape, cols = self.input_shape, self.cols
        if isinstance(g, Tensor):
            if self._saved["reduction"] == 0 and g._data.ndim:
                g = g.reshape((-1,))
            dense = np.zeros((coef.shape[0], shape[-1]), dtype=g.dtype.np)
            dense[np.arange(coef.shape[0]), cols] = coef
            m = make(dense, g.dtype, None)
            gi = (c.unsqueeze(g, 1) if g._data.ndim else g) * m
            return gi.reshape(shape)
        gv = g.reshape(-1) if g.ndim else g
        out = np.zeros((coef.shape[0], shape[-1]), dtype=g.dtype)
        out[np.arange(coef.shape[0]), cols] = coef * gv
        return out.reshape(shape)


def _check_target_dtype(target: Tensor) -> None:
    if target.dtype is not int64 and target.dtype is not uint8:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_scalar_name(target.dtype)}"
        )


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             reduction: int = 1, ignore_index: int = -100) -> Tensor:
    """Negative log-likelihood of the target classes; ``input`` holds log-probabilities."""
    x = input._data
    nd = x.ndim
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    tshape = target._data.shape
    if nd != 1 and x.shape[0] != (tshape[0] if tshape else 0):
        raise ValueError(
            f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
            f"({tshape[0] if tshape else 0})."
        )
    if nd > 2:
        raise NotImplementedError(
            "nll_loss/cross_entropy on inputs with more than 2 dimensions (N, C, d1, ...) is "
            "not implemented in autograd_lab; reshape to (N*d1*..., C) first"
        )
    _check_target_dtype(target)
    if target._data.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if nd == 1 and target._data.ndim == 1 and target._data.size != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{target._data.size}")
    n_classes = x.shape[-1]
    if weight is not None and (weight._data.ndim != 1 or weight._data.size != n_classes):
        raise RuntimeError(
            f"weight tensor should be defined either for all {n_classes} classes or no classes "
            f"but got weight tensor of shape: {list(weight._data.shape)}"
        )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"nll_loss_out_frame" not implemented for '
                                  f"'{_scalar_name(input.dtype)}'")
    x2 = x.reshape(-1, n_classes)
    tgt = target._data.reshape(-1).astype(np.int64, copy=False)
    keep = tgt != ignore_index
    bad = keep & ((tgt < 0) | (tgt >= n_classes))
    if bad.any():
        raise IndexError(f"Target {int(tgt[np.argmax(bad)])} is out of bounds.")
    cols = np.where(keep, tgt, 0)
    rows = np.arange(x2.shape[0])
    dt = input.dtype.np
    w = (weight._data[cols] if weight is not None else np.ones(cols.shape, dtype=dt))
    w = np.where(keep, w, np.zeros((), dtype=dt)).astype(dt, copy=False)
    losses = -(x2[rows, cols] * w)
    losses[~keep] = 0
    coef = np.where(keep, -w, np.zeros((), dtype=dt))  # ignored rows get no gradient (+0)
    if reduction == 0:
        data = losses if nd == 2 else losses.reshape(())
        total = np.zeros((), dtype=dt)
    else:
        from .cascade import nll_sum

        # torch adds -x[i, t_i] * w row by row in a cascade; the weights likewise
        total = nll_sum(w, keep) if weight is not None else dt.type(int(keep.sum()))
        data = dt.type(0) - nll_sum(x2[rows, cols] * w if weight is not None else
                                     x2[rows, cols], keep)
        if reduction == 1:
            data = data / total
            coef = np.where(keep, coef / total, coef)
    node = node_for(NllLossBackward0, input)
    out = make(data, input.dtype, node)
    if node is not None:
        s = node._saved
        s["ignore_index"] = ignore_index % 2**64
        s["reduction"] = reduction
        node.save("self", input)
        node.save("target", target)
        node.save("weight", weight)
        node.save("total_weight", make(np.asarray(total, dtype=dt), input.dtype, None))
        node.coef, node.cols, node.input_shape = coef.astype(dt, copy=False), cols, x.shape
    return out


# ---- mse_loss ----------------------------------------------------------------------------------

class MseLossBackward0(Node):
    """loss = mean((x - y)^2) (or sum, or none);  dx = norm * (x - y) * g,
    dy = norm * (y - x) * g, norm = 2 / numel for 'mean' (else 2)"""

    saved_names = ("reduction", "self", "target")

    def backward(self, g: Any) -> tuple:
        x, y = self.saved("self"), self.saved("target")
        nf = self.next_functions
        n = x.numel() if isinstance(x, Tensor) else x.size
        norm = 2.0 / n if self._saved["reduction"] == 1 else 2.0
        if not isinstance(g, Tensor):
            norm = x.dtype.type(norm)  # torch casts the factor to the tensor's dtype first
        gx = (norm * (x - y)) * g if nf[0][0] is not None else None
        gy = (norm * (y - x)) * g if nf[1][0] is not None else None
        return gx, gy


def mse_loss(input: Tensor, target: Tensor, reduction: int = 1) -> Tensor:
    """Mean squared error; operands of different shapes are broadcast first."""
    if input._data.shape != target._data.shape:
        try:
            shape = np.broadcast_shapes(input._data.shape, target._data.shape)
        except ValueError:
            raise c.broadcast_error(input._data.shape, target._data.shape) from None
        if input._data.shape != shape:
            input = expand(input, shape)
        if target._data.shape != shape:
            target = expand(target, shape)
    dt = c.result_type(input, target)
    if not dt.is_floating_point:
        raise RuntimeError(f'"mse_cpu" not implemented for \'{_scalar_name(dt)}\'')
    x = input._data if input.dtype is dt else input._data.astype(dt.np)
    y = target._data if target.dtype is dt else target._data.astype(dt.np)
    d = x - y
    sq = np.multiply(d, d, out=d)
    if reduction:  # torch: loss.mean() is loss.sum() / numel, adding in torch's order
        from .reduce import _np_mean, _sum_data

        data = _np_mean(sq, dt) if reduction == 1 else _sum_data(sq, tuple(range(sq.ndim)),
                                                                 False, dt)
    else:
        data = sq
    node = node_for(MseLossBackward0, input, target)
    out = make(data, dt, node)
    if node is not None:
        node._saved["reduction"] = reduction
        node.save("self", input)
        node.save("target", target)
    return out


def warn_size_mismatch(input: Tensor, target: Tensor, stacklevel: int) -> None:
    if input.shape != target.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=stacklevel + 1,
        )

