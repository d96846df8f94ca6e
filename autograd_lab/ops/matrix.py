"""Matrix-shaped ops: ``tril``/``triu`` (keep one triangle), ``diag``, ``diagonal``.

``tril``/``triu`` zero the other triangle, so their gradient is ``g`` with the same
triangle kept. ``diagonal`` is a view; ``diag`` builds a matrix from a vector (or copies a
matrix's diagonal).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import common as c
from .common import Node, Tensor, norm_dim
from .record import make, node_for, view_output

# ---- tril / triu -------------------------------------------------------------------------------

class TrilBackward0(Node):
    """y = tril(x, k);  dx = tril(g, k)"""

    saved_names = ("diagonal",)
    _keep = staticmethod(np.tril)
    _method = "tril"

    def backward(self, g: Any) -> Any:
        k = self._saved["diagonal"]
        if isinstance(g, Tensor):
            return getattr(g, self._method)(k)
        return self._keep(g, k)


class TriuBackward0(TrilBackward0):
    """y = triu(x, k);  dx = triu(g, k)"""

    _keep = staticmethod(np.triu)
    _method = "triu"


def _triangle(x: Tensor, k: int, cls: type[Node], name: str) -> Tensor:
    """x with the other triangle zeroed (``cls._keep`` says which triangle stays)."""
    data = c.unary_data(x, name)
    if data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    node = node_for(cls, x)
    if node is not None:
        node._saved["diagonal"] = k
    return make(cls._keep(data, k), x.dtype, node)


def tril(x: Tensor, diagonal: int = 0) -> Tensor:
    """The lower triangle (elements with column - row <= diagonal); zeros above."""
    return _triangle(x, diagonal, TrilBackward0, "tril")


def triu(x: Tensor, diagonal: int = 0) -> Tensor:
    """The upper triangle (elements with column - row >= diagonal); zeros below."""
    return _triangle(x, diagonal, TriuBackward0, "triu")


# ---- diagonal / diag ---------------------------------------------------------------------------

def _diag_view(a: np.ndarray, offset: int, d1: int, d2: int) -> np.ndarray:
    """A writable strided view of ``a``'s diagonal (numpy's own is read-only)."""
    key = [slice(None)] * a.ndim
    if offset >= 0:
        key[d2] = slice(offset, None)
    else:
        key[d1] = slice(-offset, None)
    sub = a[tuple(key)]
    n = max(0, min(sub.shape[d1], sub.shape[d2]))
    rest = [i for i in range(a.ndim) if i not in (d1, d2)]
    shape = tuple(sub.shape[i] for i in rest) + (n,)
    strides = tuple(sub.strides[i] for i in rest) + (sub.strides[d1] + sub.strides[d2],)
    return np.lib.stride_tricks.as_strided(sub, shape, strides, writeable=a.flags.writeable)


class DiagonalBackward0(Node):
    """y = x.diagonal(offset, d1, d2);  dx = zeros with g on that diagonal"""

    saved_names = ("dim1", "dim2", "offset", "self_sym_sizes")

    def backward(self, g: Any) -> Any:
        s = self._saved
        if isinstance(g, Tensor):
            return diag_embed(g, s["offset"], s["dim1"], s["dim2"], s["self_sym_sizes"],
                              DiagonalBackwardBackward0)
        out = np.zeros(s["self_sym_sizes"], dtype=g.dtype)
        _diag_view(out, s["offset"], s["dim1"], s["dim2"])[...] = g
        return out


class DiagonalBackward0_copy(DiagonalBackward0):  # torch's name for the node of diag(matrix)
    """y = diag(x) (a copy of the diagonal);  dx = zeros with g on that diagonal"""


class DiagEmbedBackward0(Node):
    """y = a matrix with x on a diagonal;  dx = that diagonal of g"""

    saved_names = ("dim1", "dim2", "offset")

    def backward(self, g: Any) -> Any:
        s = self._saved
        d1, d2 = s["dim1"] % g.ndim, s["dim2"] % g.ndim
        if isinstance(g, Tensor):
            return diagonal(g, s["offset"], d1, d2)
        return _diag_view(g, s["offset"], d1, d2).copy()


class DiagonalBackwardBackward0(DiagEmbedBackward0):
    """y = diagonal_backward(x): zeros with x on a diagonal;  dx = that diagonal of g"""


def diagonal(x: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal ``x[i, i + offset]`` (over dims ``dim1``, ``dim2``), as a view."""
    data = c.unary_data(x, "diagonal")
    if data.ndim < 2:
        raise RuntimeError(f"diagonal dimensions requires ndim larger than 1, but got "
                           f"{data.ndim}")
    d1, d2 = norm_dim(dim1, data.ndim), norm_dim(dim2, data.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    node = node_for(DiagonalBackward0, x)
    if node is not None:
        node._saved.update(dim1=d1, dim2=d2, offset=offset, self_sym_sizes=data.shape)
    return view_output(x, _diag_view(data, offset, d1, d2), node,
                 lambda a: _diag_view(a, offset, d1, d2))


def diag_embed(v: Tensor, offset: int, d1: int, d2: int, shape: tuple,
               cls: type[Node] = DiagEmbedBackward0) -> Tensor:
    """zeros(shape) with ``v`` on a diagonal (differentiable: backward reads it back)."""
    out = np.zeros(shape, dtype=v.dtype.np)
    _diag_view(out, offset, d1, d2)[...] = v._data
    node = node_for(cls, v)
    if node is not None:
        node._saved.update(dim1=d1, dim2=d2, offset=offset)
    return make(out, v.dtype, node)


def diag(x: Tensor, diagonal: int = 0) -> Tensor:
    """A vector: the square matrix with it on a diagonal; a matrix: a copy of its diagonal."""
    data = c.unary_data(x, "diag")
    if data.ndim == 1:
        n = data.shape[0] + abs(diagonal)
        out = diag_embed(x, diagonal, 0, 1, (n, n))
        if out.grad_fn is not None:
            out.grad_fn._saved.update(dim1=2**64 - 2, dim2=2**64 - 1)  # -2, -1 as torch shows
        return out
    if data.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {data.ndim}D")
    node = node_for(DiagonalBackward0_copy, x)
    if node is not None:
        node._saved.update(dim1=0, dim2=1, offset=diagonal, self_sym_sizes=data.shape)
    return make(_diag_view(data, diagonal, 0, 1).copy(), x.dtype, node)


# ---- roll ----------------------------------------------------------------------------------

class RollBackward0(Node):
    """y = roll(x, shifts, dims) (elements move by ``shifts`` along ``dims``, wrapping round);
    dx = roll(g, -shifts, dims)"""

    saved_names = ("dims", "shifts")

    def backward(self, g: Any) -> Any:
        back = tuple(-s for s in self._saved["shifts"])
        dims = self._saved["dims"]
        if isinstance(g, Tensor):
            return roll(g, back, dims)
        return _roll_data(g, back, dims) if g.size else g  # torch: an empty one's clone,
        # laid out as it is


def _roll_data(a: np.ndarray, shifts: tuple, dims: tuple) -> np.ndarray:
    if not dims:  # no dims: roll the flattened tensor
        return np.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    return np.roll(a, shifts, axis=dims)


def _int_tuple(v: Any, name: str, position: int) -> tuple:
    """``shifts``/``dims`` as a tuple of ints, with torch's error for anything else."""
    items = (v,) if isinstance(v, (int, np.integer)) else v
    if isinstance(items, (tuple, list)) and all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in items):
        return tuple(int(i) for i in items)
    raise TypeError(f"roll(): argument '{name}' (position {position}) must be tuple of ints, "
                    f"not {type(v).__name__}")


_UNSET: Any = type("Unset", (), {})()  # an argument not given


def roll(x: Tensor, shifts: Any = _UNSET, dims: Any = (), *, _first: int = 2) -> Tensor:
    """Elements shifted by ``shifts`` along ``dims`` (the last ones wrap round to the
    front); with no ``dims``, along the flattened tensor. (``_first``: the position of
    ``shifts`` in torch's errors, 1 for the method.)"""
    data = c.unary_data(x, "roll")
    if shifts is _UNSET:
        raise TypeError('roll() missing 1 required positional arguments: "shifts"')
    sh, dm = _int_tuple(shifts, "shifts", _first), _int_tuple(dims, "dims", _first + 1)
    if not sh:
        raise RuntimeError("`shifts` required")
    if dm and len(sh) != len(dm) or not dm and len(sh) != 1:
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:"
                           f"{len(dm)}")
    if dm and data.ndim == 0:
        raise IndexError(f"Dimension specified as {dm[0]} but tensor has no dimensions")
    axes = tuple(norm_dim(d, data.ndim) for d in dm)
    node = node_for(RollBackward0, x)
    if node is not None:
        node._saved.update(shifts=sh, dims=dm)
        c.show_saved(node, shifts=c.shown_dims(sh), dims=c.shown_dims(dm))
    return make(_roll_data(data, sh, axes), x.dtype, node)


def roll_method(self: Tensor, shifts: Any = _UNSET, dims: Any = ()) -> Tensor:
    """``Tensor.roll``: ``roll`` with the method's argument positions in its errors."""
    return roll(self, shifts, dims, _first=1)
