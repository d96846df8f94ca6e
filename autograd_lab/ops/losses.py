"""Binary cross-entropy (on probabilities, and on logits) and the embedding lookup.

BCE on probabilities clamps each log at -100 (as torch), so p = 0 or 1 gives a finite
loss. BCE on logits uses the stable form ``(1 - t) x + log(1 + exp(-x))`` computed
through ``max(-x, 0)``. An embedding lookup is a row gather; its gradient adds ``g``'s
rows into the rows of the weight that were used (zero for ``padding_idx``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import bool_
from . import common as c
from .common import Node, Tensor, make, node_for
from .reduce import _scalar_name

_EPS = 1e-12


def _reduce(loss: np.ndarray, reduction: int) -> np.ndarray:
    if reduction == 0:
        return loss
    return loss.mean() if reduction == 1 else loss.sum()


def _grad_scale(g: Any, n: int, reduction: int) -> Any:
    return g / n if reduction == 1 else g


def _weighted(v: Any, w: Any) -> Any:
    return v if w is None else v * w


class BinaryCrossEntropyBackward0(Node):
    """loss = -w (t log p + (1 - t) log(1 - p));  dp = g w (p - t) / max(p (1 - p), 1e-12)"""

    saved_names = ("reduction", "self", "target", "weight")

    def backward(self, g: Any) -> tuple:
        p, t = self.saved("self"), self.saved("target")
        w = self.saved("weight")
        red = self._saved["reduction"]
        g = _grad_scale(g, p.size if not isinstance(p, Tensor) else p.numel(), red)
        denom = (-p + 1) * p
        denom = denom.clamp_min(_EPS) if isinstance(denom, Tensor) else np.maximum(denom, _EPS)
        gp = _weighted(g * (p - t) / denom, w) if self.next_functions[0][0] is not None \
            else None
        gt = None
        if self.next_functions[1][0] is not None:  # d/dt = -w (log p - log(1 - p))
            lp = c.log(p) if isinstance(p, Tensor) else np.log(p)
            l1p = c.log(-p + 1) if isinstance(p, Tensor) else np.log1p(-p)
            gt = _weighted(g * (l1p - lp), w)
        return gp, gt


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         reduction: int = 1) -> Tensor:
    p, t = input._data, target._data
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_scalar_name(target.dtype)} but expected "
                           f"{_scalar_name(input.dtype)}")
    if ((p < 0) | (p > 1)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    one = p.dtype.type(1)
    log_p = np.maximum(np.log(p), p.dtype.type(-100))
    log_1p = np.maximum(np.log(one - p), p.dtype.type(-100))
    loss = -((t * log_p) + (one - t) * log_1p)
    if weight is not None:
        loss = loss * weight._data
    node = node_for(BinaryCrossEntropyBackward0, input, target)
    out = make(_reduce(loss.astype(p.dtype, copy=False), reduction), input.dtype, node)
    if node is not None:
        node._saved["reduction"] = reduction
        node.save("self", input)
        node.save("target", target)
        node.save("weight", weight)
    return out


class BinaryCrossEntropyWithLogitsBackward0(Node):
    """loss = (1 - t) x + (1 + (pw - 1) t) log(1 + exp(-x)) (times w);
    dx = g w ((pw t + 1 - t) sigmoid(x) - pw t)  (pw = 1 without pos_weight)"""

    saved_names = ("pos_weight", "reduction", "self", "target", "weight")

    def backward(self, g: Any) -> tuple:
        x, t = self.saved("self"), self.saved("target")
        w, pw = self.saved("weight"), self.saved("pos_weight")
        red = self._saved["reduction"]
        g = _grad_scale(g, x.size if not isinstance(x, Tensor) else x.numel(), red)
        s = x.sigmoid() if isinstance(x, Tensor) else 1 / (1 + np.exp(-x))
        gx = gt = None
        if self.next_functions[0][0] is not None:
            if pw is None:
                gx = _weighted(g * (s - t), w)
            else:
                pt = pw * t
                gx = _weighted(g * ((pt + 1 - t) * s - pt), w)
        if self.next_functions[1][0] is not None:  # d/dt = -w (x + pw-weighted log-sigmoid term)
            if pw is None:
                gt = _weighted(g * -x, w)
            else:
                ls = -(c.log(s) if isinstance(s, Tensor) else np.log(s))
                gt = _weighted(g * (-x + (pw - 1) * ls), w)
        return gx, gt


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None, reduction: int = 1,
                                     pos_weight: Tensor | None = None) -> Tensor:
    x = input._data
    if target.dtype._cat < input.dtype._cat:  # torch computes in place in target's dtype
        raise RuntimeError(f"result type {_scalar_name(input.dtype)} can't be cast to the "
                           f"desired output type {_scalar_name(target.dtype)}")
    t = target._data.astype(x.dtype, copy=False)
    one = x.dtype.type(1)
    max_val = np.maximum(-x, x.dtype.type(0))
    log_term = np.log(np.exp(-max_val) + np.exp(-x - max_val)) + max_val  # log(1 + exp(-x))
    if pos_weight is not None:
        log_weight = (pos_weight._data - one) * t + one
        loss = (one - t) * x + log_weight * log_term
    else:
        loss = (one - t) * x + log_term
    if weight is not None:
        loss = loss * weight._data
    node = node_for(BinaryCrossEntropyWithLogitsBackward0, input, target)
    out = make(_reduce(loss.astype(x.dtype, copy=False), reduction), input.dtype, node)
    if node is not None:
        node._saved["reduction"] = reduction
        node.save("self", input)
        node.save("target", target)
        node.save("weight", weight)
        node.save("pos_weight", pos_weight)
    return out


# ---- embedding ----------------------------------------------------------------------------------

class EmbeddingBackward0(Node):
    """y = weight[indices];  dweight = zeros with g's rows added at the used rows
    (rows at padding_idx get none)"""

    saved_names = ("indices", "padding_idx", "scale_grad_by_freq", "sparse",
                   "weight_sym_argsize_0")

    def backward(self, g: Any) -> Any:
        from .movement import embed

        idx = self.saved("indices")
        idx = idx._data if isinstance(idx, Tensor) else idx
        n = self._saved["weight_sym_argsize_0"]
        shape = (n,) + tuple(g.shape[idx.ndim:])
        flat = idx.reshape(-1)
        gi = g.reshape((flat.shape[0],) + shape[1:])
        pad = self._saved["padding_idx"]
        if 0 <= pad < n:
            keep = flat != pad
            flat = flat[keep]
            gi = gi[make(keep, bool_, None)] if isinstance(gi, Tensor) else gi[keep]
        return embed(gi, shape, (flat,))


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None) -> Tensor:
    if input.dtype.name not in ("int64", "int32"):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{input.dtype._tensor_type} instead (while "
            "checking arguments for embedding)")
    idx = input._data
    n = weight._data.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    node = node_for(EmbeddingBackward0, weight)
    out = make(weight._data[idx], weight.dtype, node)
    if node is not None:
        node._saved.update(padding_idx=-1 if padding_idx is None else padding_idx % n,
                           scale_grad_by_freq=False, sparse=False, weight_sym_argsize_0=n)
        node.save("indices", input)
    return out
