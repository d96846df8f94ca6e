"""gather, scatter (and scatter_add) and index_select: the index-driven reads and writes.

``gather`` reads ``out[i][j] = x[i][index[i][j]]`` (along ``dim``); ``scatter`` writes the
other way round. Their gradients swap roles: the gradient of a gather is a scatter-add
of ``g`` into zeros, the gradient of a scatter's source is a gather of ``g``. A 0-d
tensor behaves as a tensor of one element along a dim of size 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _messages as msg
from .._dtype import int64
from .._messages import invalid_arguments
from . import common as c
from .arithmetic import NotImplementedBackward
from .common import Node, Tensor, norm_dim
from .grad_scatter import IndexAddBackward0, embed
from .layout import preserve_copy
from .record import make, node_for, record


def _check_index(x: Tensor, d: int, index: Any, op: str) -> np.ndarray:
    """``index`` as an int64 array with torch's checks for gather/scatter."""
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' (position 3) must be Tensor, not "
                        f"{type(index).__name__}")
    if index._data.size and (index.dtype._cat != 1 or index.dtype.name not in ("int64",
                                                                             "int32")):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index")  # empty: any dtype
    idx = index._data
    if op == "gather" and idx.size and max(idx.ndim, 1) != max(x._data.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    return idx.astype(np.int64, copy=False)


def _scatter_shape_check(x: Tensor, d: int, idx: np.ndarray, src: Any) -> None:
    """torch's scatter_shape_check (a 0-d tensor counts as one dim of size 1)."""
    if not idx.size:
        return

    def sizes(a: np.ndarray) -> tuple:
        return a.shape or (1,)

    xs, ixs = sizes(x._data), sizes(idx)
    if len(xs) != len(ixs):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    wrong = any(n > xs[i] for i, n in enumerate(ixs) if i != d)
    if not wrong and isinstance(src, Tensor):
        ss = sizes(src._data)
        if len(ss) != len(ixs):
            raise RuntimeError("Index tensor must have the same number of dimensions as src "
                               "tensor")
        wrong = any(n > ss[i] for i, n in enumerate(ixs))
    if wrong:
        text = (f"Expected index {list(idx.shape)} to be no larger than self "
                f"{list(x._data.shape)} apart from dimension {d}")
        if isinstance(src, Tensor):
            text += f" and to be no larger size than src {list(src._data.shape)}"
        raise RuntimeError(text)


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
    if a.ndim == 0:  # a 0-d tensor is one element along its one (implicit) dim
        return np.broadcast_to(a, idx.shape).copy()
    sub = a[tuple(slice(0, n) if i != d else slice(None) for i, n in enumerate(idx.shape))]
    return np.take_along_axis(sub, idx, d)


def _put(shape: tuple, dtype: Any, d: int, idx: np.ndarray, src: Any) -> np.ndarray:
    """zeros(shape) with ``src`` added at ``idx`` along ``d`` (repeats accumulate)."""
    out = np.zeros(shape, dtype=dtype)
    if idx.size:
        np.add.at(*_flat_at(out, idx, d), np.broadcast_to(src, idx.shape).reshape(-1)
                  if not shape else np.broadcast_to(src, idx.shape))
    return out


def _flat_at(out: np.ndarray, idx: np.ndarray, d: int) -> tuple:
    """``(array, coordinates)`` writing at ``idx`` along ``d`` into ``out``; a 0-d ``out``
    is written through a one-element view (every index is 0 there)."""
    if out.ndim == 0:
        return out.reshape(1), (idx.reshape(-1),)
    return out, _coords(idx, d)


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
    if not idx.size:  # torch checks nothing else for an empty index: an empty result
        out_data = np.empty(idx.shape, dtype=data.dtype)
        idx = idx.astype(np.int64)
    elif data.ndim:
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
        if self._fns[0] is not None:
            gx = _zero_at(g, d, idx)
        if len(self._fns) > 1 and self._fns[1] is not None:
            gsrc = _src_grad(self, _take(g, d, idx))
        return (gx, gsrc) if len(self._fns) > 1 else gx


class ScatterBackward1(ScatterBackward0):
    """y = x.scatter(dim, index, value);  dx = g with zeros at index"""


class ScatterAddBackward0(Node):
    """y = x.scatter_add(dim, index, src);  dx = g,  dsrc = gather(g, index)"""

    saved_names = ("dim", "index")

    def backward(self, g: Any) -> tuple:  # ``index`` is saved only when src needs a gradient
        gsrc = _src_grad(self, _take(g, self._saved["dim"], self.idx)) \
            if self._fns[1] is not None else None
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
    out = np.array(g, order="C", copy=True)
    if idx.size:
        arr, at = _flat_at(out, idx, d)
        arr[at] = 0
    return out


def _scatter(x: Tensor, dim: int, index: Tensor, src: Any, add: bool, op: str,
             reduce: str | None = None) -> Tensor:
    data = c.unary_data(x, op)
    d = norm_dim(dim, data.ndim)
    idx = _check_index(x, d, index, op)
    if isinstance(src, Tensor):
        if src.dtype is not x.dtype:
            raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
    elif add:
        raise TypeError(f"{op}(): argument 'src' (position 4) must be Tensor, not "
                        f"{type(src).__name__}")
    _scatter_shape_check(x, d, idx, src)
    _check_bounds(idx, data.shape[d] if data.ndim else 1, d)  # a 0-d x holds one element
    out_data = np.array(data, order="C", copy=True)  # torch's scatter: always row-major
    if idx.size:
        arr, coords = _flat_at(out_data, idx, d)
        if isinstance(src, Tensor):
            sd = src._data  # torch reads src[i][j] at each index position: its leading part
            vals = sd[tuple(slice(0, n) for n in idx.shape)] if sd.ndim else sd
        else:
            vals = np.asarray(src, dtype=x.dtype.np)
        vals = np.broadcast_to(vals, idx.shape)
        if arr is not out_data:  # a 0-d x, written through its one-element view
            vals = vals.reshape(-1)
        if add or reduce is not None:
            ufunc = np.multiply if reduce == "multiply" else np.add
            ufunc.at(arr, coords, vals)
        else:
            arr[coords] = vals
    tensor_src = isinstance(src, Tensor)
    if reduce is not None:  # torch defines no derivative: a NotImplemented node
        return make(out_data, x.dtype, node_for(ScatterReduceBackward, *[
            v for v in (x, src) if isinstance(v, Tensor) and v.requires_grad]))
    cls = ScatterAddBackward0 if add else ScatterBackward0 if tensor_src else ScatterBackward1
    inputs = (x, src) if tensor_src else (x,)
    out, node = record(cls, out_data, x.dtype, *inputs)
    if node is not None:
        node._saved["dim"] = d
        if tensor_src:
            node.src_shape = src._data.shape
        needed = not add or node._fns[1] is not None
        node.save("index", index if needed else None)
        c.show_saved(node, dim=c.shown_dim(dim))
        node.idx = idx
    return out


ScatterReduceBackward = type("NotImplemented", (NotImplementedBackward,),
                             {"op": "scatter", "__module__": __name__})


def scatter(x: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """A copy of ``x`` with ``src`` (a tensor or a number) written at ``index`` along ``dim``
    (or added, multiplied in, with ``reduce``)."""
    if reduce is not None:
        if isinstance(src, Tensor):  # torch warns before it checks the name
            msg.warn_once(msg.SCATTER_REDUCE_DEPRECATED, stacklevel=3)
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
    s = value if src is None else src
    if not isinstance(s, Tensor) and not c.is_number(s):
        raise invalid_arguments("scatter", (x, dim, index, s), *(
            f"(Tensor input, int dim, Tensor index, {v}, *, {r}Tensor out = None)"
            for v in ("Tensor src", "Number value") for r in ("", "str reduce, ")))
    return _scatter(x, dim, index, s, False, "scatter", reduce)


def scatter_add(x: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``x`` with ``src`` added at ``index`` along ``dim`` (repeats accumulate)."""
    return _scatter(x, dim, index, src, True, "scatter_add")


# ---- index_select ------------------------------------------------------------------------------

class IndexSelectBackward0(Node):
    """y = index_select(x, dim, index);  dx = zeros with g added at index along dim"""

    saved_names = ("dim", "index", "self_sym_sizes")
    grad_versions = (1,)  # torch's formula ends with in-place steps

    def backward(self, g: Any) -> Any:
        d, shape = self._saved["dim"], self._saved["self_sym_sizes"]
        key = (slice(None),) * d + (self.idx,)
        if not shape:  # a 0-d x: its one element gets every g (through a one-element view)
            flat = g.reshape(-1) if isinstance(g, Tensor) else np.reshape(g, -1)
            out = embed(flat, (1,), (self.idx,), IndexAddBackward0, dim=d, alpha=1)
            return out.reshape(())
        return embed(g, shape, key, IndexAddBackward0, dim=d, alpha=1)


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
    if not data.ndim and idx.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                           f"{idx.size} value(s)")
    size = data.shape[d] if data.ndim else 1
    bad = (idx < 0) | (idx >= size)
    if bad.any():  # torch checks dim 1 in its own kernel, with its own words
        if data.ndim > 1 and d == 1:
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(idx[bad][0])} "
                               f"axis_dim={size}")
        raise IndexError("index out of range in self")
    out_data = np.take(data, idx, axis=d) if data.ndim else data.copy()  # a scalar stays one
    out, node = record(IndexSelectBackward0, out_data, x.dtype, x)
    if node is not None:
        node._saved.update(dim=d, self_sym_sizes=data.shape)
        node.save("index", index)
        c.show_saved(node, dim=c.shown_dim(dim))
        node.idx = idx
    return out


# ---- index_fill ---------------------------------------------------------------------------------

class IndexFillBackward0(Node):
    """y = x.index_fill(dim, index, number);  dx = g with the filled slices zeroed"""

    saved_names = ("dim", "index")

    def _gx(self, g: Any) -> Any:
        d, idx = self._saved["dim"], self.idx
        if isinstance(g, Tensor):
            return index_fill(g, d, make(idx, int64, None), 0)
        out = preserve_copy(g)
        if out.ndim:
            out[(slice(None),) * d + (idx,)] = 0
        elif idx.size:
            out[()] = 0
        return out

    def backward(self, g: Any) -> Any:
        return self._gx(g)


class IndexFillBackward1(IndexFillBackward0):
    """y = x.index_fill(dim, index, v) with a 0-d tensor v;  dx = g with the filled slices
    zeroed,  dv = the sum of g over the filled slices (each once)"""

    def backward(self, g: Any) -> tuple:
        gx = self._gx(g) if self._fns[0] is not None else None
        gv = None
        if self._fns[1] is not None:
            d, uniq = self._saved["dim"], np.unique(self.idx)
            if isinstance(g, Tensor):
                gv = index_select(g, d, make(uniq, int64, None)).sum()
            else:
                picked = np.take(g, uniq, axis=d) if g.ndim else np.reshape(g, -1)[uniq]
                gv = np.asarray(picked.sum(), dtype=g.dtype)
        return gx, gv


def index_fill(x: Tensor, dim: int, index: Tensor, value: Any, *, _inplace: bool = False) -> Tensor:
    """A copy of ``x`` with the slices at ``index`` along ``dim`` set to ``value`` (a number or
    a 0-d tensor, which then gets the gradient of the filled slices)."""
    data = c.unary_data(x, "index_fill")
    if not isinstance(index, Tensor) or index.dtype is not int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    d = norm_dim(dim, data.ndim)
    if index._data.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._data.ndim} dimension(s).")
    size = data.shape[d] if data.ndim else 1
    idx = index._data.reshape(-1)
    bad = (idx < -size) | (idx >= size)
    if bad.any():
        raise IndexError(f"index {int(idx[bad][0])} is out of bounds for dimension {d} with "
                         f"size {size}")
    idx = np.where(idx < 0, idx + size, idx)
    fill = np.array(value._data if isinstance(value, Tensor) else value).astype(x.dtype.np)
    out_data = preserve_copy(data)  # torch's index_fill clones x: its layout when dense
    if out_data.ndim:
        out_data[(slice(None),) * d + (idx,)] = fill
    elif idx.size:
        out_data[()] = fill
    tensor_value = isinstance(value, Tensor)
    out, node = record(IndexFillBackward1 if tensor_value else IndexFillBackward0, out_data,
                       x.dtype, *((x, value) if tensor_value else (x,)))
    if node is not None:
        node._saved["dim"] = d
        node.save("index", index)
        c.show_saved(node, dim=c.shown_dim(dim))
        node.idx = idx
    return out
