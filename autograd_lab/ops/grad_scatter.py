"""Gradient scatter: zeros of a shape with a gradient added at an indexing key -- the
backward of select, slice and indexing, differentiable for create_graph, where torch names
its node after the formula it records (``SelectBackwardBackward0``, ...)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .common import Node, Tensor
from .record import make, record


class EmbedBackward0(Node):
    """z = zeros(shape) with g added at ``key``;  dg = gz[key]. torch names the node by the
    backward formula it records: ``select_backward``, ``slice_backward`` ... (subclasses)."""

    saved_names: tuple[str, ...] = ()
    into_zeros = False  # an ``index_put_``/``index_add_`` into zeros: an edge for the zeros

    def backward(self, gz: Any) -> Any:
        g = gz[self.key]
        return (None, g) if self.into_zeros else g


class SelectBackwardBackward0(EmbedBackward0):
    __doc__ = EmbedBackward0.__doc__
    saved_names = ("dim", "index")


class SliceBackwardBackward0(EmbedBackward0):
    __doc__ = EmbedBackward0.__doc__
    saved_names = ("dim", "end", "start", "step")


class IndexPutImplBackward0(EmbedBackward0):
    __doc__ = EmbedBackward0.__doc__
    saved_names = ("accumulate", "indices")
    into_zeros = True


class IndexAddBackward0(EmbedBackward0):
    __doc__ = EmbedBackward0.__doc__
    saved_names = ("alpha", "dim", "index", "source_dim")
    into_zeros = True


def embed(g: Any, shape: tuple, key: Any, cls: type[EmbedBackward0] = EmbedBackward0,
          **saved: Any) -> Any:
    """zeros(shape) with ``g`` added at ``key`` (repeated indices accumulate); on a Tensor
    recorded as ``cls`` (saving ``saved``)."""
    if isinstance(g, Tensor):
        data = np.zeros(shape, dtype=g.dtype.np)
        np.add.at(data, _np_key(key), g._data)
        if cls.into_zeros:
            out, node = record(cls, data, g.dtype, make(np.zeros(()), g.dtype, None), g)
        else:
            out, node = record(cls, data, g.dtype, g)
        if node is not None:
            node.key = key
            node._saved.update(saved)
        return out
    out = np.zeros(shape, dtype=np.result_type(g))
    np.add.at(out, key, g)
    return out


def _np_key(key: Any) -> Any:
    """An indexing key with its Tensors (and ranges) as the arrays numpy indexes with."""
    if isinstance(key, tuple):
        return tuple(k._data if isinstance(k, Tensor) else
                     np.arange(k.start, k.stop, k.step) if isinstance(k, range) else k
                     for k in key)
    if isinstance(key, range):  # ``x[range(n)]``: torch reads a range as a list of indices
        return np.arange(key.start, key.stop, key.step)
    return key._data if isinstance(key, Tensor) else key
