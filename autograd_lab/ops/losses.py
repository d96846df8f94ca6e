"""Loss functions: negative log-likelihood, mean squared error, and binary cross-entropy
(on probabilities, and on logits).

``nll_loss`` adds its terms in torch's own cascade (see ``summation.nll_sum``), so a mean
loss prints as torch's does. BCE on probabilities clamps each log at -100 (as torch),
so p = 0 or 1 gives a finite loss. BCE on logits is torch 2.13's
``(1 - t) x - log_sigmoid(x)``, log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)), in the target's
dtype.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._dtype import float16, float32, float64, int64, uint8
from .._messages import scalar_name
from . import backward_ops as bo
from . import common as c
from .common import Node, Tensor
from .record import make, node_for, record
from .reductions import _np_mean, _sum_data
from .summation import nll_sum
from .views import contiguous, expand, view

# ---- nll_loss ----------------------------------------------------------------------------------

class NllLossBackward0(Node):
    """loss = -sum_i w[t_i] x[i, t_i] (divided by sum_i w[t_i] for 'mean');
    dx[i, t_i] = -w[t_i] * g (/ total_weight), zero elsewhere"""

    saved_names = ("ignore_index", "reduction", "self", "target", "total_weight", "weight")
    fused_with: Node | None = None  # the LogSoftmaxBackward0 of cross_entropy, when private

    def backward(self, g: Any) -> Any:
        x = self.saved("self")  # version check, as torch
        self.saved("target")
        coef = self.coef  # -w[t_i] (0 where ignored), divided by the total weight for 'mean'
        shape, cols = self.input_shape, self.cols
        if isinstance(g, Tensor):  # create_graph: torch's NllLossBackwardBackward0
            cls = NllLoss2DBackwardBackward0 if len(shape) == 4 else NllLossBackwardBackward0
            out, node = record(cls, self.backward(g._data), g.dtype, g, x)
            if node is not None:
                node._saved.update({k: self._saved[k] for k in ("ignore_index", "reduction")})
                node.save("target", self.saved("target"))
                node.save("weight", self.saved("weight"))
                node.forward_node = self
            return out
        gv = g.reshape(-1) if g.ndim else g
        n = coef.shape[0]
        out = np.zeros((n, shape[1 if len(shape) == 4 else -1]), dtype=g.dtype)
        vals = coef * gv
        out[np.arange(n), cols] = vals
        if self.fused_with is not None:  # cross_entropy: tell its log_softmax where g is nonzero
            self.fused_with.sparse_grad = (out, cols, vals)
        if len(shape) == 4:  # rows (b, h, w) back to (N, C, H, W), laid out as torch's
            n_, c_, h_, w_ = shape
            return np.ascontiguousarray(out.reshape(n_, h_, w_, c_).transpose(0, 3, 1, 2))
        return out.reshape(shape) if len(shape) != 2 else out


class NllLoss2DBackward0(NllLossBackward0):
    """nll_loss over (N, C, H, W) log-probabilities and (N, H, W) targets: NllLossBackward0's
    formula at every pixel"""


class NllLossBackwardBackward0(Node):
    """nll_loss_backward(g, x, t) = -w[t_i] g (/ total weight) at the targets, 0 elsewhere;
    dg = nll_loss(gg, t) with the same weights and reduction,  dx = 0"""

    saved_names = ("ignore_index", "reduction", "target", "weight")

    def backward(self, gg: Any) -> tuple:
        fwd, s = self.forward_node, self._saved
        if isinstance(gg, Tensor):
            ignore = s["ignore_index"] - 2**64 if s["ignore_index"] >= 2**63 else s["ignore_index"]
            dg = nll_loss(gg, self.saved("target"), self.saved("weight"), s["reduction"], ignore)
        else:  # sum (or, for 'none', each row) of -w[t_i] gg[i, t_i] (/ total weight)
            shape = fwd.input_shape
            rows = _class_rows(gg)
            picked = rows[np.arange(rows.shape[0]), fwd.cols] * fwd.coef
            out_shape = shape[:-1] if len(shape) == 2 else (
                (shape[0],) + shape[2:] if len(shape) == 4 else ())
            dg = picked.sum() if s["reduction"] else picked.reshape(out_shape)
        return dg, c.zeros_like_data(gg)


class NllLoss2DBackwardBackward0(NllLossBackwardBackward0):
    """NllLossBackwardBackward0 of the spatial (N, C, H, W) form"""


def _class_rows(x: np.ndarray) -> np.ndarray:
    """One row of class scores per sample (per pixel, in (b, h, w) order, for 4-D input)."""
    if x.ndim == 4:
        return np.moveaxis(x, 1, -1).reshape(-1, x.shape[1])
    return x.reshape(-1, x.shape[-1])


def _nll_checks(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """torch's errors for the shapes and dtypes of ``nll_loss``'s arguments, in its order."""
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
    if target.dtype is not int64 and target.dtype is not uint8:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {scalar_name(target.dtype)}"
        )
    if nd > 2:
        _nll2d_checks(input, target, weight)
        return
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
                                  f"'{scalar_name(input.dtype)}'")


def _nll2d_checks(input: Tensor, target: Tensor, weight: Tensor | None) -> None:
    """torch's checks of nll_loss2d: (N, C, H, W) input, (N, H, W) Long target."""
    x, t = input._data, target._data
    if t.ndim != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {t.ndim}")
    if x.ndim != 4:
        raise RuntimeError("only batches of spatial inputs supported (4D tensors), but got "
                           f"input of dimension: {x.ndim}")
    if weight is not None and weight._data.size != x.shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if (x.shape[0], *x.shape[2:]) != t.shape:
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)} , target: "
                           f"{list(t.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"nll_loss2d_forward_out_frame" not implemented for '
                                  f"'{scalar_name(input.dtype)}'")
    if target.dtype is not int64:
        raise RuntimeError(f"expected scalar type Long but found {scalar_name(target.dtype)}")


def nll_loss_nd(input: Tensor, target: Tensor, weight: Tensor | None = None,
                reduction: int = 1, ignore_index: int = -100) -> Tensor:
    """``F.nll_loss``: (N, C) or (C,) input as ``nll_loss``, (N, C, H, W) as nll_loss2d, and
    any other (N, C, d1, ...) viewed as (N, C, 1, d1*...) first (torch's nll_loss_nd)."""
    x = input._data
    if x.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {x.ndim})")
    tshape = target._data.shape
    if x.ndim != 1 and x.shape[0] != (tshape[0] if tshape else 0):
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target "
                         f"batch_size ({tshape[0] if tshape else 0}).")
    if x.ndim in (1, 2, 4):
        return nll_loss(input, target, weight, reduction, ignore_index)
    n, n_classes = x.shape[:2]
    out_size = [n, *x.shape[2:]]
    if list(tshape[1:]) != out_size[1:]:
        raise RuntimeError(f"Expected target size {out_size}, got {list(tshape)}")
    x4 = view(contiguous(input), (n, n_classes, 1, -1) if x.size else (n, n_classes, 0, 0))
    t3 = view(contiguous(target), (n, 1, -1) if target._data.size else (n, 0, 0))
    loss = nll_loss(x4, t3, weight, reduction, ignore_index)
    return loss if reduction else view(loss, tuple(out_size))


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             reduction: int = 1, ignore_index: int = -100) -> Tensor:
    """Negative log-likelihood of the target classes; ``input`` holds log-probabilities:
    (C,) or (N, C), or (N, C, H, W) with (N, H, W) targets (torch's nll_loss2d)."""
    _nll_checks(input, target, weight)
    x = input._data
    nd = x.ndim
    n_classes = x.shape[1] if nd == 4 else x.shape[-1]
    x2 = _class_rows(x)
    tgt = target._data.reshape(-1).astype(np.int64, copy=False)
    dt = input.dtype.np
    if weight is None and reduction and _all_kept(tgt, n_classes, ignore_index):
        # the training-loop case, in fewer passes
        picked = x2[np.arange(x2.shape[0]), tgt]
        total = dt.type(tgt.shape[0])
        data = dt.type(0) - nll_sum(picked)
        one = dt.type(-1)
        if reduction == 1:
            data, one = data / total, one / total
        return _nll_result(nd, input, target, weight, data, total,
                           np.full(tgt.shape, one, dtype=dt), tgt, ignore_index, reduction)
    keep = tgt != ignore_index
    bad = keep & ((tgt < 0) | (tgt >= n_classes))
    if bad.any():
        raise IndexError(f"Target {int(tgt[np.argmax(bad)])} is out of bounds.")
    rows = np.arange(x2.shape[0])
    cols = np.where(keep, tgt, 0)
    # (nll_loss2d checks only the weight's size: any shape of C elements reads as a vector)
    w = (weight._data.reshape(-1)[cols] if weight is not None else np.ones(cols.shape, dtype=dt))
    w = np.where(keep, w, np.zeros((), dtype=dt)).astype(dt, copy=False)
    picked = x2[rows, cols]
    coef = np.where(keep, -w, np.zeros((), dtype=dt))  # ignored rows get no gradient (+0)
    if reduction == 0:
        losses = -(picked * w)
        losses[~keep] = 0
        data = losses if nd == 2 else losses.reshape(
            (x.shape[0],) + x.shape[2:] if nd == 4 else ())
        total = np.zeros((), dtype=dt)
    else:
        # torch adds -x[i, t_i] * w row by row in a cascade; the weights likewise
        total = nll_sum(w, keep) if weight is not None else dt.type(int(keep.sum()))
        data = dt.type(0) - nll_sum(picked * w if weight is not None else picked, keep)
        if reduction == 1:
            data = data / total
            coef = np.where(keep, coef / total, coef)
    return _nll_result(nd, input, target, weight, data, total, coef, cols, ignore_index,
                       reduction)


def _all_kept(tgt: np.ndarray, n_classes: int, ignore_index: int) -> bool:
    """Whether every target is a class (none out of bounds, none ignored): two reductions
    instead of the general path's masks."""
    if not tgt.size:
        return False
    lo, hi = np.minimum.reduce(tgt), np.maximum.reduce(tgt)  # (not .min(): a Python wrapper)
    return 0 <= lo and hi < n_classes and not lo <= ignore_index <= hi


def _nll_result(nd: int, input: Tensor, target: Tensor, weight: Tensor | None, data: Any,
                total: Any, coef: np.ndarray, cols: np.ndarray, ignore_index: int,
                reduction: int) -> Tensor:
    """nll_loss's output and node: ``coef`` is each row's gradient factor, ``cols`` its
    target column."""
    x = input._data
    dt = input.dtype.np
    out, node = record(NllLoss2DBackward0 if nd == 4 else NllLossBackward0, data, input.dtype,
                       input)
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
        nf, red = self._fns, self._saved["reduction"]
        gx = bo.mse_loss_backward(g, x, y, red) if nf[0] is not None else None
        gy = bo.mse_loss_backward(g, y, x, red) if nf[1] is not None else None
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
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{scalar_name(dt)}\'')
    x = input._data if input.dtype is dt else input._data.astype(dt.np)
    y = target._data if target.dtype is dt else target._data.astype(dt.np)
    d = np.asarray(x - y)  # (0-d operands give a numpy scalar)
    sq = np.multiply(d, d, out=d)
    if reduction:  # torch: loss.mean() is loss.sum() / numel, adding in torch's order
        data = _np_mean(sq, dt) if reduction == 1 else _sum_data(sq, tuple(range(sq.ndim)),
                                                                 False, dt)
    else:
        data = sq
    out, node = record(MseLossBackward0, data, dt, input, target)
    if node is not None:
        node._saved["reduction"] = reduction
        node.save("self", input)
        node.save("target", target)
    return out


def warn_size_mismatch(input: Tensor, target: Tensor, stacklevel: int) -> None:
    """torch's warning for a loss whose target will be broadcast against the input."""
    if input.shape != target.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=stacklevel + 1,
        )


# ---- binary cross-entropy ------------------------------------------------------------------

_EPS = 1e-12
_FLOATS = {d.np: d for d in (float16, float32, float64)}


def _reduce(loss: np.ndarray, reduction: int) -> np.ndarray:
    """reduction 0: none, 1: mean (of nothing: nan), 2: sum -- adding in torch's order."""
    if reduction == 0:
        return loss
    dt = _FLOATS[loss.dtype]
    if reduction == 1:
        return _np_mean(loss, dt)
    return _sum_data(loss, tuple(range(loss.ndim)), False, dt)


def _grad_scale(g: Any, n: int, reduction: int) -> Any:
    """``g`` divided by the element count for a mean."""
    return g / n if reduction == 1 else g


def _weighted(v: Any, w: Any) -> Any:
    """``v`` times the optional weight ``w``."""
    return v if w is None else v * w


def _bce_result(cls: type[Node], loss: np.ndarray, input: Tensor, target: Tensor,
                weight: Tensor | None, reduction: int, dt: Any,
                **more: Tensor | None) -> Tensor:
    """The weighted, reduced loss (of dtype ``dt``), its node saving what backward reads."""
    if weight is not None:
        loss = loss * weight._data
    node = node_for(cls, input, target)
    out = make(_reduce(loss.astype(dt.np, copy=False), reduction), dt, node)
    if node is not None:
        node._saved["reduction"] = reduction
        node.save("self", input)
        node.save("target", target)
        node.save("weight", weight)
        for name, t in more.items():
            node.save(name, t)
    return out


class BinaryCrossEntropyBackward0(Node):
    """loss = -w (t log p + (1 - t) log(1 - p));  dp = g w (p - t) / max(p (1 - p), 1e-12)"""

    saved_names = ("reduction", "self", "target", "weight")

    def backward(self, g: Any) -> tuple:
        p, t = self.saved("self"), self.saved("target")
        w = self.saved("weight")
        red = self._saved["reduction"]
        n = p.size if not isinstance(p, Tensor) else p.numel()
        gp = gt = None
        if self._fns[0] is not None:  # torch's binary_cross_entropy_backward
            gp = bo.binary_cross_entropy_backward(g, p, t, w, red)
        if self._fns[1] is not None:  # d/dt = -logit(p) g, then w, then / n
            if isinstance(p, Tensor):
                gt = -c.log(p / (-p + 1)) * g
            else:
                with np.errstate(divide="ignore"):  # logit: the log in double, rounded once
                    gt = -np.log((p / (1 - p)).astype(np.float64)).astype(p.dtype) * g
            gt = _weighted(gt, w)
            gt = _grad_scale(gt, n, red)
        return gp, gt


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: int = 1) -> Tensor:
    """-w (t log p + (1 - t) log(1 - p)) for probabilities p; reduction 0 none, 1 mean, 2 sum."""
    p, t = input._data, target._data
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {scalar_name(target.dtype)} but expected "
                           f"{scalar_name(input.dtype)}")
    if not ((p >= 0) & (p <= 1)).all():  # nan fails too
        raise RuntimeError("all elements of input should be between 0 and 1")
    one = p.dtype.type(1)
    with np.errstate(divide="ignore"):  # log(0) = -inf, clamped
        log_p = np.maximum(np.log(p), p.dtype.type(-100))
        log_1p = np.maximum(np.log(one - p), p.dtype.type(-100))
    loss = -((t * log_p) + (one - t) * log_1p)
    return _bce_result(BinaryCrossEntropyBackward0, loss, input, target, weight, reduction,
                       input.dtype)


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """loss = (1 - t) x + (1 + (pw - 1) t) log(1 + exp(-x)) (times w);
    dx = g w ((pw t + 1 - t) sigmoid(x) - pw t)  (pw = 1 without pos_weight)"""

    saved_names = ("pos_weight", "reduction", "self", "target", "weight")

    def backward(self, g: Any) -> tuple:
        x, t = self.saved("self"), self.saved("target")
        w, pw = self.saved("weight"), self.saved("pos_weight")
        red = self._saved["reduction"]
        # torch's in-place steps: the mean's div_ on both; mul_(w) and two mul_ of the
        # pos_weight term on t's; without create_graph also (sigmoid(x) - t).mul_(g) and the
        # mul_(w) on x's, and x.mul(g).neg_() on t's
        extra = (red == 1) + (w is not None) + 2 * (pw is not None)
        if isinstance(g, Tensor):
            self.grad_versions = (int(red == 1), extra)
            return self._grad_graph(g, x, t, w, pw, red)
        self.grad_versions = (2 + extra, extra)
        n = x.size
        s = c.sigmoid(x)
        gx = gt = None
        # torch's order: the formula, times g, times w, then / numel for a mean
        if self._fns[0] is not None:
            if pw is None:
                gx = (s - t) * g
            else:
                pt = pw * t
                gx = (((pt + 1) - t) * s - pt) * g
            gx = _grad_scale(_weighted(gx, w), n, red)
        if self._fns[1] is not None:  # d/dt = -w (x + pw-weighted log-sigmoid term)
            if pw is None:
                gt = -(x * g)
            else:  # log_sigmoid(-x) - log_sigmoid(x) * pw, as torch's kernel computes them
                gt = (_log_sigmoid(-x) - _log_sigmoid(x) * pw) * g
            gt = _grad_scale(_weighted(gt, w), n, red)
        return gx, gt

    def _grad_graph(self, g: Tensor, x: Tensor, t: Tensor, w: Any, pw: Any,
                    red: int) -> tuple:
        """Differentiable (create_graph), as torch records it: the formula times g, times w,
        then / numel (``DivBackward1``) for a mean."""
        def scaled(v: Tensor) -> Tensor:
            v = _weighted(v, w)
            return bo.over(v, x.numel()) if red == 1 else v

        gx = gt = None
        if self._fns[0] is not None:
            if pw is None:
                gx = scaled((c.sigmoid(x) - t) * g)
            else:
                pt = pw * t
                gx = scaled(((bo.plus(pt, 1) - t) * c.sigmoid(x) - pt) * g)
        if self._fns[1] is not None:
            if pw is None:
                gt = scaled(-x * g)
            else:  # (torch's: log_sigmoid(-x) - log_sigmoid(x) * pw, a LogSigmoidBackward0)
                gt = scaled((-x + (pw - 1) * -c.log(c.sigmoid(x))) * g)
        return gx, gt


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """torch's log_sigmoid kernel: min(0, x) - log1p(exp(-|x|))."""
    return np.minimum(x.dtype.type(0), x) - np.log1p(np.exp(-np.abs(x)))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None, reduction: int = 1,
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy of sigmoid(input), computed stably from the logits."""
    x = input._data
    if target.dtype._cat < input.dtype._cat:  # torch computes in place in target's dtype
        raise RuntimeError(f"result type {scalar_name(input.dtype)} can't be cast to the "
                           f"desired output type {scalar_name(target.dtype)}")
    t = target._data
    with np.errstate(over="ignore", invalid="ignore"):  # torch 2.13: (1 - t) x - log_sigmoid(x)
        log_sigmoid = np.minimum(x, x.dtype.type(0)) - np.log1p(np.exp(-np.abs(x)))
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight._data - 1) * t + 1)
        loss = ((1 - t) * x - log_sigmoid).astype(t.dtype, copy=False)  # in target's dtype
    return _bce_result(BinaryCrossEntropyWithLogitsBackward0, loss, input, target, weight,
                       reduction, target.dtype, pos_weight=pos_weight)
