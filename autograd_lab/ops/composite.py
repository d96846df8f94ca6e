"""Ops torch builds from other ops, so their graphs are made of those ops' nodes:
``hstack``/``vstack`` (cat), ``broadcast_to`` (expand), ``tile`` (repeat),
``repeat_interleave`` (unsqueeze, expand, clone, view)."""

from __future__ import annotations

from typing import Any

from .common import Tensor, norm_dim
from .movement import cat, clone, expand, flatten, repeat, reshape, unsqueeze, view


def hstack(tensors: Any) -> Tensor:
    """The tensors joined column-wise (along dim 1; dim 0 for vectors)."""
    ts = [t if t.ndim else reshape(t, (1,)) for t in tensors]
    return cat(ts, 0 if ts and ts[0].ndim == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    """The tensors joined row-wise (vectors become rows)."""
    ts = [t if t.ndim >= 2 else unsqueeze(t, 0) if t.ndim == 1 else reshape(t, (1, 1))
          for t in tensors]
    return cat(ts, 0)


def broadcast_to(x: Tensor, size: Any) -> Tensor:
    """``x.expand(size)``."""
    return expand(x, tuple(size))


def tile(x: Tensor, dims: Any) -> Tensor:
    """``x.repeat(dims)``, with ``dims`` padded by leading 1s to x's number of dims."""
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(dims) < x.ndim:  # torch pads the repetitions with leading 1s
        dims = (1,) * (x.ndim - len(dims)) + dims
    return repeat(x, dims)


def repeat_interleave(x: Tensor, repeats: Any, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element repeated ``repeats`` times in a row (along ``dim``; flattened if None)."""
    if isinstance(repeats, Tensor):
        if repeats.numel() != 1:
            raise NotImplementedError("repeat_interleave with a tensor of repeats is not "
                                      "supported by autograd_lab")
        repeats = int(repeats.item())
    if dim is None:
        x = flatten(x)
        d = 0
    else:
        d = norm_dim(dim, x.ndim)
    shape = tuple(x.shape)
    y = unsqueeze(x, d + 1)
    y = expand(y, shape[:d + 1] + (repeats,) + shape[d + 1:])
    return view(clone(y), shape[:d] + (shape[d] * repeats,) + shape[d + 1:])
