"""Indexing: ``x[key]`` (basic and advanced), masked_fill, one_hot, nonzero (gather, scatter
and index_select: ``gather_scatter``; embedding: ``embedding``)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._arg_errors import invalid_combination
from .._dtype import bool_, check_fill, int64, uint8
from .._messages import cpp_name
from . import common as c
from .common import Node, Tensor
from .comparison import choose
from .grad_scatter import IndexPutImplBackward0, embed
from .record import make, node_for, record_view
from .views import AliasBackward0, _select, slice_dim, unsqueeze


class IndexBackward0(Node):
    """y = x[indices] (advanced indexing);  dx = zeros with g added at the indices"""

    saved_names = ("indices", "self_sym_sizes")
    grad_versions = (1,)  # torch's formula ends with in-place steps
    freed_saved = ("indices",)

    def backward(self, g: Any) -> Any:
        return embed(g, self._saved["self_sym_sizes"], self._saved["indices"],
                     IndexPutImplBackward0, accumulate=True)


def _is_advanced(k: Any) -> bool:
    """Whether index ``k`` gathers (an array, a list, a mask) rather than views."""
    if isinstance(k, Tensor):
        return k._data.ndim > 0 or k.dtype._cat == 0 or k.dtype is uint8
    return isinstance(k, (list, np.ndarray, range))


def _index_array(k: Any) -> np.ndarray:
    """An advanced index as an int or bool array, with torch's checks and warnings."""
    if isinstance(k, Tensor):
        if k.dtype._cat == 2:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if k.dtype is uint8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                          "torch.bool instead.", UserWarning, stacklevel=4)
            return k._data.astype(bool)
        return k._data
    arr = np.asarray(k)
    if arr.dtype.kind == "f":  # torch makes a float list a long index
        arr = arr.astype(np.int64)
    return arr

_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
              "are valid indices (got {})")


def _warn_sequence_key() -> None:
    warnings.warn(
        "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
        "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this "
        "will be interpreted as tensor index, x[torch.tensor(seq)], which will result either "
        "in an error or a different result", UserWarning, stacklevel=4)


def sequence_key(key: Any) -> Any:
    """torch (after numpy) reads a short list holding a slice, ``...``, None, a tensor or
    another sequence as a tuple of indices, with a deprecation warning."""
    if type(key) is not list or len(key) >= 32:
        if type(key) is tuple:
            return tuple(_bool_scalar(k) for k in key)
        return _bool_scalar(key)
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, (slice, Tensor, list, tuple, range)):
            _warn_sequence_key()
            return tuple(key)
    return key


def _bool_scalar(k: Any) -> Any:
    """A 0-d bool tensor indexes as the Python bool it holds (torch's indexing reads it so)."""
    if type(k) is Tensor and k.dtype is bool_ and not k._data.ndim:
        return bool(k._data)
    return k


def _check_key(k: Any) -> None:
    """torch's error for a key of a type it cannot index with."""
    if k is None or k is Ellipsis or isinstance(k, (slice, int, Tensor, list, np.ndarray,
                                                      np.integer, np.bool_, range)):
        return
    raise IndexError(_BAD_INDEX.format(type(k).__name__))


def getitem(x: Tensor, key: Any, alias: bool = True) -> Tensor:
    """``x[key]``: ints select, slices slice, None unsqueezes, arrays and masks gather. A key
    that selects all of ``x`` gives an alias of it (``AliasBackward0``), or ``x`` itself when
    not ``alias`` (item assignment then writes into ``x``)."""
    if isinstance(key, str):  # torch reads a string as a sequence of indices, and fails
        _warn_sequence_key()
        raise TypeError("new(): invalid data type 'str'")
    key = sequence_key(key)
    lone_int = False
    if not isinstance(key, tuple):
        if isinstance(key, slice) and x._data.ndim == 0:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if isinstance(key, slice) and alias:  # a lone slice is always recorded, even ``x[:]``
            return slice_dim(x, 0, key.start, key.stop, key.step)
        lone_int = isinstance(key, (int, np.integer)) and not isinstance(key, bool)
        key = (key,)
    for k in key:
        _check_key(k)
    nd = x._data.ndim
    masks = [_index_array(k) for k in key if _is_advanced(k)]  # validates every array once
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis and not isinstance(k, bool)
                 and not _is_advanced(k))
    n_real += sum(m.ndim if m.dtype == bool else 1 for m in masks)
    if nd == 0 and n_real and lone_int:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if n_real > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    out = _index(x, key, masks, nd - n_real)
    if out is x and alias:
        return record_view(x, AliasBackward0, x._data[...], lambda a: a[...])
    return out


def _index(x: Tensor, key: tuple, masks: list[np.ndarray], ellipsis_dims: int) -> Tensor:
    """``x[key]`` for a checked key: ints select, slices slice and None unsqueezes, one view
    at a time, in torch's order; then one gather for the index arrays (``masks``)."""
    out, dim, advanced, arrays = x, 0, [], iter(masks)
    pos = 0  # position in the indexed tensor (with new dims), for torch's error messages
    for k in key:
        if k is Ellipsis:
            skip = ellipsis_dims
            advanced.extend([slice(None)] * skip)
            dim += skip
            pos += skip
        elif k is None or isinstance(k, bool):  # True: a new dim, indexed by [0]
            out = unsqueeze(out, dim)
            advanced.append(slice(None) if k is None else np.arange(int(k), dtype=np.int64))
            dim += 1
            pos += 1
        elif isinstance(k, slice):
            if not _whole(k, out._data.shape[dim] if dim < out._data.ndim else 0):
                out = slice_dim(out, dim, k.start, k.stop, k.step)
            advanced.append(slice(None))
            dim += 1
            pos += 1
        elif _is_advanced(k):
            arr = next(arrays)
            if arr.dtype == bool:
                _check_mask(arr, out._data.shape, dim)
            advanced.append(arr)
            step = arr.ndim if arr.dtype == bool else 1
            dim += step
            pos += step
        else:
            i, size = int(k), out._data.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {pos} with size "
                                 f"{size}")
            out = _select(out, dim, i, dim)
            pos += 1
    while advanced and isinstance(advanced[-1], slice):
        advanced.pop()  # trailing full slices index nothing
    if advanced:
        return _advanced(out, tuple(advanced))
    return out


def _whole(k: slice, size: int) -> bool:
    """torch skips a slice in a key that keeps a whole dim: start 0, stop past the end, step 1
    (``x[-3:, 0]`` is still sliced)."""
    start, stop, step = (None if v is None else int(v) for v in (k.start, k.stop, k.step))
    return start in (None, 0) and (stop is None or stop >= size) and step in (None, 1)


def _check_mask(mask: np.ndarray, shape: tuple, dim: int) -> None:
    """A bool mask must match the shape of the dims it indexes."""
    for j, s in enumerate(mask.shape):
        if shape[dim + j] != s:
            raise IndexError(
                f"The shape of the mask {list(mask.shape)} at index {j} does not match the shape "
                f"of the indexed tensor {list(shape[dim:dim + mask.ndim])} at index {dim + j}"
            )


def _check_array_bounds(key: tuple, shape: tuple) -> tuple:
    """torch's error for an index array out of range: its dim is counted among the index
    arrays only, and an empty dim has a message of its own. An empty tensor is not read,
    so other indices pass (clipped here: numpy would check them)."""
    empty = 0 in shape
    axis, j, out = 0, 0, []
    for k in key:
        out.append(k)
        if isinstance(k, slice):
            axis += 1
            continue
        if k.dtype == bool:
            axis += k.ndim
            j += 1
            continue
        n = shape[axis]
        bad = (k >= n) | (k < -n)
        if bad.any():
            if n == 0:
                raise IndexError("index is out of bounds for dimension with size 0")
            if not empty:
                raise IndexError(f"index {int(k[bad].flat[0])} is out of bounds for dimension "
                                 f"{j} with size {n}")
            out[-1] = np.clip(k, -n, n - 1)
        axis += 1
        j += 1
    return tuple(out)


def _advanced(x: Tensor, key: tuple) -> Tensor:
    """``x[key]`` for a key with arrays in it: a copy (``IndexBackward0``)."""
    shp = x._data.shape
    key = _check_array_bounds(key, shp)
    try:
        data = x._data[key]
    except IndexError as e:
        err = str(e)  # numpy: "... out of bounds for axis 0 ..."; torch says "dimension"
        raise IndexError(err.replace("axis", "dimension") if "out of bounds" in err else err) \
            from None
    if data.strides != _c_strides(data):  # torch's index result is a fresh contiguous tensor
        data = np.array(data, order="C")
    node = node_for(IndexBackward0, x)
    if node is not None:
        node._saved.update(indices=key, self_sym_sizes=shp)
        c.show_saved(node, indices=tuple(
            None if isinstance(k, slice) else
            make(k, bool_ if k.dtype == bool else int64, None) for k in key))
    return make(data, x.dtype, node)


def _c_strides(a: np.ndarray) -> tuple:
    """The strides of a C-contiguous array shaped as ``a`` (as a fresh one has them)."""
    out, step = [], a.itemsize
    for n in reversed(a.shape):
        out.append(step)
        step *= max(n, 1)
    return tuple(reversed(out))


# ---- one_hot, nonzero --------------------------------------------------------------------------

def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 rows with a 1 at each index: shape ``tensor.shape + (num_classes,)``."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"one_hot(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(tensor).__name__}")
    if tensor.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    idx = tensor._data
    if num_classes == -1:
        if not idx.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(idx.max()) + 1
    if idx.size:
        if idx.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if idx.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = (idx[..., None] == np.arange(num_classes)).astype(np.int64)
    return make(out, int64, None)


def nonzero(x: Tensor, *, as_tuple: bool = False) -> Any:
    """Indices of the nonzero elements: one row per element (or one tensor per dim)."""
    data = c.unary_data(x, "nonzero")
    if as_tuple:
        return tuple(make(i, int64, None) for i in np.nonzero(np.atleast_1d(data)))
    if data.ndim == 0:
        return make(np.zeros((int(data != 0), 0), dtype=np.int64), int64, None)
    return make(np.argwhere(data).astype(np.int64), int64, None)


# ---- masked_fill -------------------------------------------------------------------------------

class MaskedFillBackward0(Node):
    """y = x with ``value`` where mask;  dx = g with zeros where mask"""

    saved_names = ("mask",)

    in_shape: tuple | None = None  # x's shape, when x broadcast to the mask's

    def backward(self, g: Any) -> Any:
        mask = self.saved("mask")
        if isinstance(g, Tensor):  # torch's formula: grad.masked_fill(mask, 0)
            gx = masked_fill(g, mask, 0.0)
        else:
            # torch's masked_fill: a contiguous clone of g, filled in place
            gx = np.asarray(np.where(mask, np.zeros((), dtype=g.dtype), g), order="C")
        return gx if self.in_shape is None else c.sum_to(gx, self.in_shape)


class MaskedFillBackward1(MaskedFillBackward0):
    """y = x with the 0-d tensor ``value`` where mask;  dx = g with zeros where mask,
    dvalue = the sum of g over the mask (torch's masked_select(g, mask).sum())"""

    def backward(self, g: Any) -> Any:
        gx = super().backward(g) if self._fns[0] is not None else None
        if self._fns[1] is None:
            return gx, None
        mask = self.saved("mask")
        if isinstance(g, Tensor):  # torch's form for subclass-like tensors: where(...).sum()
            return gx, choose(mask, g, 0.0).sum()
        gb, mb = np.broadcast_arrays(g, mask._data if isinstance(mask, Tensor) else mask)
        picked = np.ascontiguousarray(gb[mb])
        total = c.torch_sum(picked, (0,)) if picked.dtype.kind == "f" else picked.sum()
        return gx, np.asarray(total, dtype=g.dtype)


def _is_tensor(v: Any) -> bool:
    return isinstance(v, Tensor)


_MASKED_FILL = [("input", _is_tensor), ("mask", _is_tensor), ("value", _is_tensor),
                ("value", c.is_number)]


def masked_fill(x: Tensor, mask: Tensor, value: Any, *, _inplace: bool = False) -> Tensor:
    """x with ``value`` where ``mask`` is True (x and the bool ``mask`` broadcast); a 0-d
    tensor ``value`` gets the gradient of the filled entries."""
    if not isinstance(mask, Tensor) or not (isinstance(value, Tensor) or c.is_number(value)):
        raise invalid_combination("masked_fill", [
            ("(Tensor input, Tensor mask, Tensor value)", _MASKED_FILL[:2] + [_MASKED_FILL[2]]),
            ("(Tensor input, Tensor mask, Number value)", _MASKED_FILL[:2] + [_MASKED_FILL[3]]),
        ], (x, mask, value), {})
    if mask.dtype is not bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{cpp_name(mask.dtype)}")
    shapes = (x._data.shape, mask._data.shape)  # torch names them in this order in place
    shape = c.broadcast_shapes(*(shapes if _inplace else shapes[::-1]))
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value._data.ndim} dimension(s).")
        node = node_for(MaskedFillBackward1, x, value)
        fill = np.array(value._data).astype(x.dtype.np)
    else:
        check_fill(value, x.dtype)
        if isinstance(value, complex):  # a real one (check_fill refused any other)
            value = value.real
        node = node_for(MaskedFillBackward0, x)
        fill = np.array(value).astype(x.dtype.np)  # an int wraps into an unsigned type
    out = make(np.asarray(np.where(mask._data, fill, x._data), order="C"), x.dtype, node)
    if node is not None and shape != x._data.shape:
        node.in_shape = x._data.shape
    if node is not None:
        node.save("mask", mask)
    return out
