"""Indexing: ``x[key]`` (basic and advanced), and the index-driven reads and writes
gather, scatter, index_select, masked_fill, one_hot, nonzero (embedding: ``embedding``).

``gather`` reads ``out[i][j] = x[i][index[i][j]]`` (along ``dim``); ``scatter`` writes the
other way round. Their gradients swap roles: the gradient of a gather is a scatter-add
of ``g`` into zeros, the gradient of a scatter's source is a gather of ``g``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._arg_errors import invalid_combination
from .._dtype import bool_, check_fill, int64, uint8
from .._messages import cpp_name, invalid_arguments
from . import common as c
from .common import Node, Tensor, norm_dim
from .comparison import choose
from .grad_scatter import IndexAddBackward0, IndexPutImplBackward0, embed
from .record import make, node_for, record, record_view
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
        return key
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, (slice, Tensor, list, tuple, range)):
            _warn_sequence_key()
            return tuple(key)
    return key


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


def _check_index(x: Tensor, d: int, index: Any, op: str) -> np.ndarray:
    """``index`` as an int64 array with torch's checks for gather/scatter."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' (position 3) must be Tensor, not "
                        f"{type(index).__name__}")
    if index.dtype._cat != 1 or index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")
    idx = index._data
    xs = x._data.shape
    if idx.ndim != max(len(xs), 1) and idx.size and xs:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    return idx.astype(np.int64, copy=False)


def _check_bounds(idx: np.ndarray, size: int, d: int) -> None:
    bad = (idx < 0) | (idx >= size)
    if bad.any():
        raise RuntimeError(f"index {int(idx[bad].flat[0])} is out of bounds for dimension {d} "
                           f"with size {size}")


def _take(a: Any, d: int, idx: np.ndarray) -> Any:
    """``a`` gathered along ``d`` at ``idx`` (other dims: the leading part of ``a``)."""
    if isinstance(a, Tensor):
        return gather(a, d, make(idx, int64, None))
    if not idx.size:
        return np.zeros(idx.shape, dtype=a.dtype)
    sub = a[tuple(slice(0, n) if i != d else slice(None) for i, n in enumerate(idx.shape))]
    return np.take_along_axis(sub, idx, d)


def _put(shape: tuple, dtype: Any, d: int, idx: np.ndarray, src: Any) -> np.ndarray:
    """zeros(shape) with ``src`` added at ``idx`` along ``d`` (repeats accumulate)."""
    out = np.zeros(shape, dtype=dtype)
    if idx.size:
        np.add.at(out, _coords(idx, d), np.broadcast_to(src, idx.shape))
    return out


def _coords(idx: np.ndarray, d: int) -> tuple:
    """Full coordinates for ``out[coords] = ...``: ``idx`` along ``d``, the position elsewhere."""
    grids = np.indices(idx.shape, sparse=True)
    return tuple(idx if i == d else g for i, g in enumerate(grids))


# ---- gather ------------------------------------------------------------------------------------

class GatherBackward0(Node):
    """y = gather(x, dim, index);  dx = zeros with g added at index along dim"""

    saved_names = ("dim", "index", "self", "sparse_grad")
    grad_versions = (1,)  # torch's formula ends with in-place steps

    def backward(self, g: Any) -> Any:
        d, idx = self._saved["dim"], self.idx
        if isinstance(g, Tensor):
            zeros = make(np.zeros(self.shape, dtype=g.dtype.np), g.dtype, None)
            return scatter_add(zeros, d, make(idx, int64, None), g)
        return _put(self.shape, g.dtype, d, idx, g)


def gather(x: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """``out[i][j] = x[i][index[i][j]]`` along ``dim`` (here dim 1)."""
    data = c.unary_data(x, "gather")
    d = norm_dim(dim, data.ndim)
    idx = _check_index(x, d, index, "gather")
    xs = data.shape
    if data.ndim:
        for i, n in enumerate(idx.shape):
            if i != d and n > xs[i]:
                raise RuntimeError(
                    f"Size does not match at dimension {i} expected index {list(idx.shape)} to "
                    f"be no larger than self {list(xs)} apart from dimension {d}")
        _check_bounds(idx, xs[d], d)
        out_data = _take(data, d, idx)
    else:
        _check_bounds(idx, 1, d)
        out_data = np.broadcast_to(data, idx.shape).copy()
        idx = np.zeros_like(idx)
    out, node = record(GatherBackward0, out_data, x.dtype, x)
    if node is not None:
        node._saved.update(dim=d, sparse_grad=sparse_grad)
        node.save("self", x)
        node.save("index", index)
        c.show_saved(node, dim=c.shown_dim(dim))
        node.idx, node.shape = idx, xs
    return out


# ---- scatter -----------------------------------------------------------------------------------

class ScatterBackward0(Node):
    """y = x.scatter(dim, index, src);  dx = g with zeros at index,  dsrc = gather(g, index)"""

    saved_names = ("dim", "index")

    def backward(self, g: Any) -> tuple:
        d, idx = self._saved["dim"], self.idx
        gx = gsrc = None
        if self.next_functions[0][0] is not None:
            gx = _zero_at(g, d, idx)
        if len(self.next_functions) > 1 and self.next_functions[1][0] is not None:
            gsrc = _src_grad(self, _take(g, d, idx))
        return (gx, gsrc) if len(self.next_functions) > 1 else gx


class ScatterBackward1(ScatterBackward0):
    """y = x.scatter(dim, index, value);  dx = g with zeros at index"""


class ScatterAddBackward0(Node):
    """y = x.scatter_add(dim, index, src);  dx = g,  dsrc = gather(g, index)"""

    saved_names = ("dim", "index")

    def backward(self, g: Any) -> tuple:  # ``index`` is saved only when src needs a gradient
        gsrc = _src_grad(self, _take(g, self._saved["dim"], self.idx)) \
            if self.next_functions[1][0] is not None else None
        return g, gsrc


def _src_grad(node: Node, g: Any) -> Any:
    """The gradient of scatter's ``src`` (index-shaped), checked against src's shape as
    torch's engine checks every gradient: summed when src broadcast, else its error."""
    shape = node.src_shape
    if tuple(g.shape) == shape:
        return g
    try:
        if np.broadcast_shapes(shape, tuple(g.shape)) == tuple(g.shape):
            return c.sum_to(g, shape)
    except ValueError:
        pass
    raise RuntimeError(f"Function {node.name()} returned an invalid gradient at index 1 - got "
                       f"{list(g.shape)} but expected shape compatible with {list(shape)}")


def _zero_at(g: Any, d: int, idx: np.ndarray) -> Any:
    """``g`` with zeros written at ``idx`` along ``d``."""
    if isinstance(g, Tensor):
        return scatter(g, d, make(idx, int64, None), 0.0)
    out = np.array(g, copy=True)
    if idx.size:
        out[_coords(idx, d)] = 0
    return out


def _scatter(x: Tensor, dim: int, index: Tensor, src: Any, add: bool, op: str) -> Tensor:
    data = c.unary_data(x, op)
    d = norm_dim(dim, data.ndim)
    idx = _check_index(x, d, index, op)
    if isinstance(src, Tensor):
        if src.dtype is not x.dtype:
            raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
    elif add:
        raise TypeError(f"{op}(): argument 'src' (position 4) must be Tensor, not "
                        f"{type(src).__name__}")
    if data.ndim:
        _check_bounds(idx, data.shape[d], d)
    out_data = np.array(data, copy=True)
    if idx.size:
        coords = _coords(idx, d) if data.ndim else ()
        if isinstance(src, Tensor):
            sd = src._data  # torch reads src[i][j] at each index position: its leading part
            vals = sd[tuple(slice(0, n) for n in idx.shape)] if sd.ndim else sd
        else:
            vals = np.asarray(src, dtype=x.dtype.np)
        if add:
            np.add.at(out_data, coords, np.broadcast_to(vals, idx.shape))
        else:
            out_data[coords] = np.broadcast_to(vals, idx.shape)
    tensor_src = isinstance(src, Tensor)
    cls = ScatterAddBackward0 if add else ScatterBackward0 if tensor_src else ScatterBackward1
    inputs = (x, src) if tensor_src else (x,)
    out, node = record(cls, out_data, x.dtype, *inputs)
    if node is not None:
        node._saved["dim"] = d
        if tensor_src:
            node.src_shape = src._data.shape
        needed = not add or node.next_functions[1][0] is not None
        node.save("index", index if needed else None)
        c.show_saved(node, dim=c.shown_dim(dim))
        node.idx = idx
    return out


def scatter(x: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """A copy of ``x`` with ``src`` (a tensor or a number) written at ``index`` along ``dim``."""
    if reduce is not None:
        raise NotImplementedError("scatter(..., reduce=) is not supported by autograd_lab")
    s = value if src is None else src
    if not isinstance(s, Tensor) and not c.is_number(s):
        raise invalid_arguments("scatter", (x, dim, index, s), *(
            f"(Tensor input, int dim, Tensor index, {v}, *, {r}Tensor out = None)"
            for v in ("Tensor src", "Number value") for r in ("", "str reduce, ")))
    return _scatter(x, dim, index, s, False, "scatter")


def scatter_add(x: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``x`` with ``src`` added at ``index`` along ``dim`` (repeats accumulate)."""
    return _scatter(x, dim, index, src, True, "scatter_add")


# ---- index_select ------------------------------------------------------------------------------

class IndexSelectBackward0(Node):
    """y = index_select(x, dim, index);  dx = zeros with g added at index along dim"""

    saved_names = ("dim", "index", "self_sym_sizes")
    grad_versions = (1,)  # torch's formula ends with in-place steps

    def backward(self, g: Any) -> Any:
        d = self._saved["dim"]
        key = (slice(None),) * d + (self.idx,)
        return embed(g, self._saved["self_sym_sizes"], key, IndexAddBackward0, dim=d, alpha=1)


def index_select(x: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices of ``x`` at ``index`` (a vector) along ``dim``."""
    data = c.unary_data(x, "index_select")
    d = norm_dim(dim, data.ndim)
    if not isinstance(index, Tensor):
        raise TypeError(f"index_select(): argument 'index' (position 3) must be Tensor, not "
                        f"{type(index).__name__}")
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index._data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    idx = index._data.reshape(-1).astype(np.int64, copy=False)
    size = data.shape[d] if data.ndim else 1
    bad = (idx < 0) | (idx >= size)
    if bad.any():
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(idx[bad][0])} "
                           f"axis_dim={size}")
    out_data = np.take(data, idx, axis=d) if data.ndim else data.reshape(-1)[idx].reshape(
        index._data.shape)
    out, node = record(IndexSelectBackward0, out_data, x.dtype, x)
    if node is not None:
        node._saved.update(dim=d, self_sym_sizes=data.shape)
        node.save("index", index)
        c.show_saved(node, dim=c.shown_dim(dim))
        node.idx = idx
    return out


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
        if isinstance(g, Tensor):
            gx = choose(mask, 0.0, g)
        else:
            # torch's masked_fill: a contiguous clone of g, filled in place
            gx = np.asarray(np.where(mask, np.zeros((), dtype=g.dtype), g), order="C")
        return gx if self.in_shape is None else c.sum_to(gx, self.in_shape)


class MaskedFillBackward1(MaskedFillBackward0):
    """y = x with the 0-d tensor ``value`` where mask;  dx = g with zeros where mask,
    dvalue = the sum of g over the mask (torch's masked_select(g, mask).sum())"""

    def backward(self, g: Any) -> Any:
        gx = super().backward(g) if self.next_functions[0][0] is not None else None
        if self.next_functions[1][0] is None:
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
        node = node_for(MaskedFillBackward0, x)
        fill = np.array(value).astype(x.dtype.np)  # an int wraps into an unsigned type
    out = make(np.asarray(np.where(mask._data, fill, x._data), order="C"), x.dtype, node)
    if node is not None and shape != x._data.shape:
        node.in_shape = x._data.shape
    if node is not None:
        node.save("mask", mask)
    return out
