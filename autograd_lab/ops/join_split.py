"""Joining and splitting: cat, stack, repeat; unbind, split, chunk (views of their input);
and what torch builds from them, so their graphs are made of those ops' nodes:
``hstack``/``vstack`` (cat), ``broadcast_to`` (expand), ``tile`` (repeat),
``repeat_interleave`` (unsqueeze, expand, clone, view).
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .. import _messages as msg
from . import common as c
from .common import Node, Tensor, norm_dim
from .gather_scatter import index_select
from .record import make, node_for, view_output
from .views import _shape_arg, clone_contiguous, expand, flatten, reshape, unsqueeze, view


class CatBackward0(Node):
    """y = cat(xs, dim);  each dx_i = g's slice of that input's size"""

    saved_names = ("dim",)

    legacy: tuple[bool, ...] | None = None  # per input: a legacy empty (0,) tensor

    def backward(self, g: Any) -> tuple:
        d = self._saved["dim"]
        out, start = [], 0
        for n in self.sizes:
            out.append(g[(slice(None),) * d + (slice(start, start + n),)])
            start += n
        if self.legacy is not None:  # torch's formula gives those at::zeros({0}): version 1
            for i, old in enumerate(self.legacy):
                if old:
                    out[i] = np.zeros((0,), g.dtype) if not isinstance(g, Tensor) else \
                        g.new_zeros((0,))
            self.grad_versions = tuple(1 if old else None for old in self.legacy)
        return tuple(out)


def _promoted(ts: list[Tensor]) -> Any:
    """The dtype every tensor of ``ts`` is converted to."""
    dt = ts[0].dtype
    return dt if all(t_.dtype is dt for t_ in ts) else c.result_type(*ts)


def cat(tensors: Any, dim: int = 0) -> Tensor:
    """The tensors joined along ``dim`` (which must exist in each)."""
    if isinstance(tensors, Tensor):
        raise TypeError("cat(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        "Tensor")
    ts = list(tensors)
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t_ in enumerate(ts):
        if not isinstance(t_, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t_).__name__}")
    for i, t_ in enumerate(ts):
        if not t_._data.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
    nd = max(t_._data.ndim for t_ in ts)
    d = norm_dim(dim, nd)
    dt = _promoted(ts)
    parts = [t_._data for t_ in ts if not (t_._data.ndim == 1 and t_._data.shape[0] == 0)]
    parts = parts or [t_._data for t_ in ts]  # only legacy empty tensors: an empty result
    try:
        # torch's cat writes a row-major result whatever its inputs' layouts
        data = np.ascontiguousarray(np.concatenate([p.astype(dt.np, copy=False) for p in parts],
                                                   axis=d))
    except ValueError:
        ref = ts[0]._data.shape
        for i, t_ in enumerate(ts):
            s = t_._data.shape
            if len(s) != len(ref):
                raise RuntimeError(
                    f"Tensors must have same number of dimensions: got {len(ref)} and {len(s)}"
                ) from None
            for j in range(len(ref)):
                if j != d and s[j] != ref[j]:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {d}. Expected size "
                        f"{ref[j]} but got size {s[j]} for tensor number {i} in the list."
                    ) from None
        raise
    node = node_for(CatBackward0, *ts)
    if node is not None:
        node._saved["dim"] = d
        node.sizes = [0 if t_._data.shape == (0,) else t_._data.shape[d] for t_ in ts]
        if any(t_._data.shape == (0,) for t_ in ts):
            node.legacy = tuple(t_._data.shape == (0,) for t_ in ts)
    return make(data, dt, node)


class StackBackward0(Node):
    """y = stack(xs, dim);  each dx_i = g.select(dim, i)"""

    saved_names = ("dim",)

    def backward(self, g: Any) -> tuple:
        d = self._saved["dim"]
        # torch's unbind: views of g (with ``...`` numpy gives a 0-d view, not a scalar)
        return tuple(g[(slice(None),) * d + (i, Ellipsis)] for i in range(self.n))


def stack(tensors: Any, dim: int = 0) -> Tensor:
    """The tensors (of one shape) joined along a new dim ``dim``."""
    ts = list(tensors)
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = ts[0]._data.shape
    for i, t_ in enumerate(ts):
        if t_._data.shape != ref:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(ref)} at entry 0 "
                f"and {list(t_._data.shape)} at entry {i}"
            )
    d = norm_dim(dim, len(ref) + 1)
    dt = _promoted(ts)
    data = np.ascontiguousarray(np.stack([t_._data.astype(dt.np, copy=False) for t_ in ts],
                                         axis=d))  # row-major, as torch's cat writes it
    node = node_for(StackBackward0, *ts)
    if node is not None:
        node._saved["dim"] = d
        node.n = len(ts)
    return make(data, dt, node)


class RepeatBackward0(Node):
    """y = x.repeat(reps);  dx = g summed over the repeated tiles"""

    saved_names = ("repeats", "self_sym_sizes")

    def backward(self, g: Any) -> Any:
        reps, shp = self._saved["repeats"], self._saved["self_sym_sizes"]
        lead = len(reps) - len(shp)
        full = (1,) * lead + tuple(shp)
        split = []
        for r, s in zip(reps, full):
            split += [r, s]
        g = c.reshape(g, tuple(split))
        g = c.sum_keep(g, tuple(range(0, 2 * len(reps), 2)))
        return c.reshape(g, tuple(shp))


def repeat(x: Tensor, *reps: Any) -> Tensor:
    """x tiled ``reps[i]`` times along each dim (a copy)."""
    reps = _shape_arg(reps)
    if len(reps) < x._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    node = node_for(RepeatBackward0, x)
    if node is not None:
        node._saved.update(repeats=tuple(reps), self_sym_sizes=x._data.shape)
    return make(np.tile(x._data, reps), x.dtype, node)


class UnbindBackward0(Node):
    """(y_0, ..., y_n-1) = unbind(x, dim);  dx = stack(g_i, dim), zeros for unused outputs"""

    saved_names = ("dim",)

    def backward(self, *grads: Any) -> Any:
        d = self._saved["dim"]
        return stack(grads, d) if isinstance(grads[0], Tensor) else np.stack(grads, d)


class SplitBackward0(Node):
    """(y_0, ...) = split(x, size, dim);  dx = cat(g_i, dim), zeros for unused outputs"""

    saved_names = ("dim", "self_sym_sizes", "split_size")

    def backward(self, *grads: Any) -> Any:
        d = self._saved["dim"]
        return cat(grads, d) if isinstance(grads[0], Tensor) else np.concatenate(grads, d)


class SplitWithSizesBackward0(SplitBackward0):
    """(y_0, ...) = split(x, [sizes], dim);  dx = cat(g_i, dim), zeros for unused outputs"""

    saved_names = ("dim", "self_sym_sizes", "split_sizes")


def _multi_view(x: Tensor, cls: type[Node], keys: list, dim_arg: Any, **saved: Any) -> tuple:
    """The views ``x[key]`` as the outputs of one node (output_nr 0, 1, ...)."""
    node = node_for(cls, x)
    outs = []
    for i, key in enumerate(keys):
        out = view_output(x, x._data[key], node, lambda a, k=key: a[k])
        if node is not None:
            out._output_nr = i
        outs.append(out)
    if node is not None:
        node._n_outputs = len(outs)
        node.multi_view = True  # torch's CreationMeta::MULTI_OUTPUT_NODE, even for one output
        node.output_meta = [(o._data.shape, o.dtype) for o in outs]
        node._saved.update(saved)
        c.show_saved(node, dim=c.shown_dim(dim_arg))
    return tuple(outs)


def _at_least_1d(x: Tensor, name: str) -> None:
    if not x._data.ndim:
        raise RuntimeError(f"{name} expects at least a 1-dimensional tensor")


def unbind(x: Tensor, dim: int = 0) -> tuple:
    """The slices along ``dim``, each a view."""
    if x._data.ndim == 0:  # -1 and 0 name the one dim a 0-d tensor does not have
        norm_dim(dim, 0)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = norm_dim(dim, x._data.ndim)
    if not x._data.ndim:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    keys = [(slice(None),) * d + (i, Ellipsis) for i in range(x._data.shape[d])]
    return _multi_view(x, UnbindBackward0, keys, dim, dim=d)


def split(x: Tensor, split_size: Any, dim: int = 0) -> tuple:
    """Views of consecutive pieces along ``dim``: of ``split_size`` each, or of given sizes."""
    _at_least_1d(x, "split")
    d = norm_dim(dim, x._data.ndim)
    n = x._data.shape[d]
    if isinstance(split_size, int):
        if split_size < 0:
            raise RuntimeError("split expects split_size be non-negative, but got "
                               f"split_size={split_size}")
        if split_size == 0 and n:
            raise RuntimeError("split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {n}")
        step = split_size or 1
        sizes = [min(step, n - s) for s in range(0, n, step)] or [0]
        cls, extra = SplitBackward0, {"split_size": split_size}
    else:
        sizes = [int(s) for s in split_size]
        if builtins.sum(sizes) != n:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
                f"at dimension {d}), but got split_sizes={sizes}")
        cls, extra = SplitWithSizesBackward0, {"split_sizes": tuple(sizes)}
    keys, start = [], 0
    for s in sizes:
        keys.append((slice(None),) * d + (slice(start, start + s),))
        start += s
    return _multi_view(x, cls, keys, dim, dim=d, self_sym_sizes=x._data.shape, **extra)


def chunk(x: Tensor, chunks: int, dim: int = 0) -> tuple:
    """At most ``chunks`` equal pieces along ``dim`` (the last may be smaller); of an empty
    dim: ``chunks`` empty pieces."""
    _at_least_1d(x, "chunk")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = norm_dim(dim, x._data.ndim)
    n = x._data.shape[d]
    if n == 0:  # torch: split_with_sizes, so that the number of pieces is kept
        return split(x, [0] * chunks, dim)
    return split(x, -(-n // chunks), dim)


def hstack(tensors: Any) -> Tensor:
    """The tensors joined column-wise (along dim 1; dim 0 for vectors)."""
    if not len(tensors):
        raise RuntimeError("hstack expects a non-empty TensorList")
    ts = [t if t.ndim else reshape(t, (1,)) for t in tensors]
    return cat(ts, 0 if ts and ts[0].ndim == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    """The tensors joined row-wise (vectors become rows)."""
    if not len(tensors):
        raise RuntimeError("vstack expects a non-empty TensorList")
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


def repeat_interleave(x: Tensor, repeats: Any = None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element repeated ``repeats`` times in a row (along ``dim``; flattened if None).
    A tensor of repeats (one per element, or one for all) selects with ``index_select``,
    as torch does; ``repeat_interleave(counts)`` alone gives the indices 0, 1... repeated."""
    if repeats is None:  # torch.repeat_interleave(repeats): the indices, repeated
        return _repeat_indices(x, output_size)
    if isinstance(repeats, Tensor):
        src = flatten(x) if dim is None else x
        d = 0 if dim is None else norm_dim(dim, x.ndim)
        n = src.shape[d] if src.ndim else 1
        if repeats.ndim == 0 or repeats.ndim == 1 and repeats.shape[0] == 1:
            repeats = expand(reshape(repeats, (1,)), (n,))
        elif repeats.ndim == 1:
            if repeats.shape[0] != n:
                raise RuntimeError(f"repeats must have the same size as input along dim, but "
                                   f"got repeats.size(0) = {repeats.shape[0]} and "
                                   f"input.size({d}) = {n}")
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return index_select(src, d, _repeat_indices(repeats, output_size))
    if dim is None:
        x = flatten(x)
        d = 0
    else:
        d = norm_dim(dim, x.ndim)
    shape = tuple(x.shape)
    y = unsqueeze(x, d + 1)
    y = expand(y, shape[:d + 1] + (repeats,) + shape[d + 1:])
    return view(clone_contiguous(y), shape[:d] + (shape[d] * repeats,) + shape[d + 1:])


def _repeat_indices(repeats: Tensor, output_size: int | None) -> Tensor:
    """0 repeated repeats[0] times, 1 repeats[1] times... (torch's repeat_interleave_cpu),
    in the dtype of ``repeats``."""
    if repeats.dtype._cat != 1 or repeats.dtype.name not in ("int32", "int64"):
        raise msg.not_implemented_for("repeat_interleave_cpu", repeats.dtype)
    r = repeats._data
    if r.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if output_size is None and (r < 0).any():
        raise RuntimeError("repeats can not be negative")
    total = int(r.sum()) if output_size is None else output_size
    if r.size and total != int(np.maximum(r, 0).sum()):
        raise RuntimeError("allocated size does not match required size")
    out = np.repeat(np.arange(r.size, dtype=r.dtype), np.maximum(r, 0)) if r.size else r.copy()
    return make(out, repeats.dtype, None)
