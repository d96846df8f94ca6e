"""Views and copies: reshape/view, transposes, (un)squeeze, expand, select, slice,
narrow, flip; clone and dtype conversion.

A view shares its base's memory and version counter. Its backward puts the
gradient back where the view came from: ``grad_scatter.embed`` scatters it into zeros.
"""

from __future__ import annotations

from math import prod
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .._dtype import dtype as DType
from .._messages import warn_once
from . import common as c
from .common import Node, Tensor, norm_dim, norm_dims
from .grad_scatter import SelectBackwardBackward0, SliceBackwardBackward0, embed
from .layout import preserve_copy, unsqueeze_empty
from .record import make, node_for, record, record_view, view_output

# ---- reshape family -------------------------------------------------------------------------

class ViewBackward0(Node):
    """y = x.view(shape);  dx = g.view(x.shape)"""

    saved_names = ("self_sym_sizes",)

    def backward(self, g: Any) -> Any:
        shape = self._saved["self_sym_sizes"]
        if g.size == 0 and not isinstance(g, Tensor) and g.shape != shape:
            return np.empty(shape, g.dtype)  # torch views an empty tensor with contiguous
            # strides whatever its own (an expanded one's included)
        return c.reshape(g, shape)


class UnsafeViewBackward0(ViewBackward0):
    """y = reshape of a fresh copy;  dx = g.view(x.shape)"""


class ReshapeAliasBackward0(ViewBackward0):
    """y = reshape of a non-contiguous x that needs no copy;  dx = g.reshape(x.shape)"""


def _infer_shape(shape: tuple, numel: int, op: str = "view") -> tuple:
    """``shape`` with its -1 worked out, checked against ``numel`` as torch does."""
    _check_ints(shape, op)
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for i, s in enumerate(shape):
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape "
                                   f"{list(shape)}")
            known *= s
    if -1 in shape:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                               "because the unspecified dimension size -1 can be any value and "
                               "is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def _check_ints(shape: tuple, op: str) -> None:
    """torch's argument errors for a shape that is not a tuple of ints."""
    for s in shape:
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            continue
        if isinstance(s, Tensor) and s._data.size == 1 and s.dtype._cat == 1:
            continue
        if op == "reshape":
            raise TypeError(f"reshape(): argument 'shape' (position 1) must be tuple of ints, "
                            f"not {type(s).__name__}")
        got = ", ".join(type(v).__name__ for v in shape)
        raise TypeError(f"{op}() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n")


def _shape_arg(shape: tuple) -> tuple:
    """Sizes given as ``f(2, 3)`` or as ``f((2, 3))``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def view(x: Tensor, *shape: Any) -> Tensor:
    """x's data seen with another shape (no copy; fails where strides forbid it)."""
    if len(shape) == 1 and isinstance(shape[0], DType):
        raise NotImplementedError("view(dtype) is not supported")
    shape = _infer_shape(_shape_arg(shape), x._data.size)
    try:
        data = np.reshape(x._data, shape, copy=False)
    except ValueError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    except TypeError:  # numpy < 2.1 has no copy=
        data = x._data.view()
        data.shape = shape
    return record_view(x, ViewBackward0, data, lambda a: a.reshape(shape),
                    self_sym_sizes=x._data.shape)


def _viewable(a: np.ndarray, shape: tuple) -> bool:
    """Whether ``a`` can take ``shape`` without a copy (the same rule for numpy and torch)."""
    try:
        np.reshape(a, shape, copy=False)
    except ValueError:
        return False
    return True


def reshape(x: Tensor, *shape: Any) -> Tensor:
    """x with another shape: a view when the strides allow it, else a copy."""
    if len(shape) == 1 and isinstance(shape[0], str):
        _check_ints(shape, "reshape")
    shape = _infer_shape(_shape_arg(shape), x._data.size, "reshape")
    if x._data.flags.c_contiguous or x._data.size <= 1:
        return view(x, shape)
    if _viewable(x._data, shape):  # torch's ``_reshape_alias``
        data = np.reshape(x._data, shape)
        return record_view(x, ReshapeAliasBackward0, data, lambda a: a.reshape(shape),
                           self_sym_sizes=x._data.shape)
    # torch: a reshape that cannot be a view copies (CloneBackward0), then views the copy
    return unsafe_view(clone_contiguous(x), shape)


def unsafe_view(x: Tensor, shape: tuple) -> Tensor:
    """A reshape of a fresh result (``UnsafeViewBackward0``), as torch's ``_unsafe_view``."""
    out, node = record(UnsafeViewBackward0, x._data.reshape(shape), x.dtype, x)
    if node is not None:
        node._saved["self_sym_sizes"] = x._data.shape
    return out


def flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Dims ``start_dim`` to ``end_dim`` merged into one."""
    nd = x._data.ndim
    if nd == 0:
        return reshape(x, (1,))
    s, e = norm_dim(start_dim, nd), norm_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return x
    shp = x._data.shape
    n = 1
    for d in shp[s:e + 1]:
        n *= d
    return reshape(x, shp[:s] + (n,) + shp[e + 1:])


def unflatten(x: Tensor, dim: int, sizes: tuple) -> Tensor:
    """Dim ``dim`` split into ``sizes``."""
    d = norm_dim(dim, x._data.ndim)
    shp = x._data.shape
    sizes = tuple(sizes)
    known = prod([s for s in sizes if s != -1])
    if (-1 not in sizes and known != shp[d]) or (-1 in sizes and (known == 0 or shp[d] % known)):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({shp[d]}) in the input tensor")
    return view(x, shp[:d] + sizes + shp[d + 1:])


# ---- transposes -----------------------------------------------------------------------------

class PermuteBackward0(Node):
    """y = x.permute(dims);  dx = g.permute(inverse(dims))"""

    saved_names = ("dims",)

    def backward(self, g: Any) -> Any:
        inv = tuple(int(i) for i in np.argsort(self._saved["dims"]))
        return g.permute(inv) if isinstance(g, Tensor) else np.transpose(g, inv)


def permute(x: Tensor, *dims: Any) -> Tensor:
    """x's dims reordered (a view)."""
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = _shape_arg(dims)
    nd = x._data.ndim
    if len(dims) != nd:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal "
            f"to len(dims) = {len(dims)}"
        )
    raw, dims = dims, tuple(norm_dim(d, nd) for d in dims)
    if len(set(dims)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return record_view(x, PermuteBackward0, np.transpose(x._data, dims),
                    lambda a: np.transpose(a, dims), {"dims": c.shown_dim(raw)}, dims=dims)


class TransposeBackward0(Node):
    """y = x.transpose(d0, d1);  dx = g.transpose(d0, d1)"""

    saved_names = ("dim0", "dim1")

    def backward(self, g: Any) -> Any:
        d0, d1 = self._saved["dim0"], self._saved["dim1"]
        if isinstance(g, Tensor):
            return g.transpose(d0, d1)
        return np.swapaxes(g, d0, d1) if g.ndim else g


def transpose(x: Tensor, dim0: int, dim1: int) -> Tensor:
    """Dims ``dim0`` and ``dim1`` swapped (a view)."""
    nd = x._data.ndim
    d0, d1 = norm_dim(dim0, nd), norm_dim(dim1, nd)
    data = np.swapaxes(x._data, d0, d1) if nd else x._data
    return record_view(x, TransposeBackward0, data,
                    lambda a: np.swapaxes(a, d0, d1) if a.ndim else a,
                    {"dim0": c.shown_dim(dim0), "dim1": c.shown_dim(dim1)}, dim0=d0, dim1=d1)


class TBackward0(Node):
    """y = x.t();  dx = g.t()"""

    def backward(self, g: Any) -> Any:
        return g.t() if isinstance(g, Tensor) else g.T


def t(x: Tensor) -> Tensor:
    """The transpose of a matrix (0-d and 1-d tensors as they are)."""
    nd = x._data.ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return record_view(x, TBackward0, x._data.T, lambda a: a.T)


def T(x: Tensor) -> Tensor:  # noqa: N802
    """``x.T``: all dims reversed (deprecated by torch except on matrices)."""
    nd = x._data.ndim
    if nd == 0:  # torch warns once per process, as for the next one
        warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
                  "cases.", stacklevel=3)
    elif nd != 2:
        warn_once(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.", stacklevel=3,
        )
    return permute(x, tuple(range(nd - 1, -1, -1)))


def mT(x: Tensor) -> Tensor:  # noqa: N802
    """``x.mT``: the last two dims swapped (a batch of matrices transposed)."""
    if x._data.ndim == 0:  # torch warns once per process and gives the tensor itself
        warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in "
                  "these cases.", stacklevel=3)
        return x
    if x._data.ndim < 2:
        raise RuntimeError(
            f"tensor.mT is only supported on matrices or batches of matrices. Got "
            f"{x._data.ndim}-D tensor."
        )
    return transpose(x, -2, -1)


# ---- size-1 dims and broadcasting -----------------------------------------------------------

class UnsqueezeBackward0(Node):
    """y = x.unsqueeze(dim);  dx = g.squeeze(dim)"""

    saved_names = ("dim",)

    def backward(self, g: Any) -> Any:
        if isinstance(g, Tensor):  # create_graph: torch records squeeze(dim), SqueezeBackward1
            return g.squeeze(self._saved["dim"])
        shape = list(g.shape)
        del shape[self._saved["dim"]]
        return c.reshape(g, tuple(shape))


def unsqueeze(x: Tensor, dim: int) -> Tensor:
    """x with a size-1 dim inserted at ``dim`` (a view)."""
    d = norm_dim(dim, x._data.ndim + 1)
    return record_view(x, UnsqueezeBackward0, np.expand_dims(x._data, d),
                    lambda a: np.expand_dims(a, d), {"dim": c.shown_dim(dim)}, dim=d)


class SqueezeBackward0(Node):
    """y = x.squeeze();  dx = g.view(x.shape)"""

    saved_names = ("self_sym_sizes",)

    def backward(self, g: Any) -> Any:
        shape = self._saved["self_sym_sizes"]
        if g.shape == shape:  # no dim squeezed: torch's unsqueeze_to returns g itself, which a
            return g  # leaf then copies (a 0-d leaf's backward() gives .grad version 1)
        if g.size == 0 and not isinstance(g, Tensor):
            return unsqueeze_empty(g, shape)
        return c.reshape(g, shape)


class SqueezeBackward1(SqueezeBackward0):
    """y = x.squeeze(dim);  dx = g.unsqueeze(dim)"""

    saved_names = ("dim", "self_sym_sizes")


class SqueezeBackward2(SqueezeBackward0):
    """y = x.squeeze(dims);  dx = g.view(x.shape)"""

    saved_names = ("dim", "self_sym_sizes")


class SqueezeBackward4(SqueezeBackward2):
    """y = x.squeeze(dims) inside matmul;  dx = g.view(x.shape)"""


def squeeze(x: Tensor, dim: Any = None, *, _cls: type[Node] | None = None) -> Tensor:
    """x without its size-1 dims (or those of ``dim`` that have size 1), a view."""
    shp = x._data.shape
    if dim is None:
        axes = tuple(i for i, s in enumerate(shp) if s == 1)
        cls = SqueezeBackward0
    else:
        dims = norm_dims(dim, len(shp)) if shp else ()
        axes = tuple(d for d in dims if shp[d] == 1)
        cls = SqueezeBackward1 if isinstance(dim, int) else SqueezeBackward2
    cls = _cls or cls
    node = node_for(cls, x)
    if node is not None:
        node._saved["self_sym_sizes"] = shp
        if dim is not None:
            node._saved["dim"] = c.shown_dim(dim)
    return view_output(x, np.squeeze(x._data, axes) if axes else x._data, node,
                 lambda a: np.squeeze(a, axes) if axes else a)


class ExpandBackward0(Node):
    """y = x.expand(shape);  dx = g summed over the expanded dims"""

    saved_names = ("self_sym_sizes",)

    def backward(self, g: Any) -> Any:
        shape = self._saved["self_sym_sizes"]
        if not shape and not g.ndim:  # torch's sum_to(g, ()) is g.sum(): a new tensor even
            return g.sum() if isinstance(g, Tensor) else np.array(g, copy=True)  # from a 0-d g
        return c.sum_to(g, shape)


def expand(x: Tensor, *shape: Any) -> Tensor:
    """x broadcast to ``shape`` (-1 keeps a size), as a view."""
    if not shape:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    shape = _shape_arg(shape)
    src = x._data.shape
    if len(shape) < len(src):
        raise RuntimeError(
            f"expand(torch.FloatTensor{{{list(src)}}}, size={list(shape)}): the number of sizes "
            f"provided ({len(shape)}) must be greater or equal to the number of dimensions in "
            f"the tensor ({len(src)})"
        )
    lead = len(shape) - len(src)
    for i in range(lead):
        if shape[i] < 0:
            raise RuntimeError(f"The expanded size of the tensor ({shape[i]}) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
    full = tuple(src[i - lead] if (s == -1 and i >= lead) else s for i, s in enumerate(shape))
    for i, s in enumerate(src):
        if s != 1 and s != full[i + lead]:
            raise RuntimeError(
                f"The expanded size of the tensor ({full[i + lead]}) must match the existing "
                f"size ({s}) at non-singleton dimension {i + lead}.  Target sizes: "
                f"{list(shape)}.  Tensor sizes: {list(src)}"
            )
    return record_view(x, ExpandBackward0, _expanded(x._data, full),
                       lambda a: _expanded(a, full), self_sym_sizes=src)


def _expanded(a: np.ndarray, full: tuple) -> np.ndarray:
    """``a`` broadcast to ``full``, writeable as torch's expanded tensor is (numpy's
    ``broadcast_to`` is read-only); writes that repeat an element are refused by the ops."""
    b = np.broadcast_to(a, full)
    # an empty one stays read-only: nothing to write, and its zero strides say expanded
    return as_strided(a, full, b.strides) if a.flags.writeable and b.size else b


def expand_as(x: Tensor, other: Tensor) -> Tensor:
    """x broadcast to ``other``'s shape."""
    return expand(x, other.shape)


# ---- copies ------------------------------------------------------------------------------

class CloneBackward0(Node):
    """y = clone(x);  dx = g"""

    def backward(self, g: Any) -> Any:
        return g


def clone(x: Tensor, *, memory_format: Any = None) -> Tensor:
    """A copy of x with memory of its own (in the graph: its gradient passes through), laid
    out as torch's preserve_format does: x's own strides when x is dense, else dense ones in
    x's order of dims."""
    return record(CloneBackward0, preserve_copy(x._data), x.dtype, x)[0]


def clone_contiguous(x: Tensor) -> Tensor:
    """``x.clone(memory_format=torch.contiguous_format)``: a row-major copy."""
    return record(CloneBackward0, np.array(x._data, order="C", copy=True), x.dtype, x)[0]


def contiguous(x: Tensor, memory_format: Any = None) -> Tensor:
    """x itself if its memory is C-contiguous, else a contiguous copy."""
    return x if x._data.flags.c_contiguous else clone_contiguous(x)


class ToCopyBackward0(Node):
    """y = x.to(dtype);  dx = g.to(x.dtype)"""

    saved_names = ("self_sym_sizes",)

    def backward(self, g: Any) -> Any:
        return c.cast(g, self.src_dtype)


def to_dtype(x: Tensor, dt: DType, copy: bool = False) -> Tensor:
    """x converted to ``dt`` (x itself when it has that dtype already, unless ``copy``)."""
    if dt is x.dtype and not copy:
        return x
    if x._rg and not dt.is_floating_point and c.STATE.enabled:
        node = None  # integer results never require grad
    else:
        node = node_for(ToCopyBackward0, x)
    out = make(x._data.astype(dt.np), dt, node)
    if node is not None:
        node.src_dtype = x.dtype
        node._saved["self_sym_sizes"] = x._data.shape
    return out


class AliasBackward0(Node):
    """y = x[...] (an alias);  dx = g"""

    def backward(self, g: Any) -> Any:
        return g


class FlipBackward0(Node):
    """y = flip(x, dims);  dx = flip(g, dims)"""

    saved_names = ("dims",)

    def backward(self, g: Any) -> Any:
        dims = self._saved["dims"]
        if isinstance(g, Tensor):
            return g.flip(dims)
        return np.flip(g, dims).copy() if g.ndim and g.size else g  # (an empty one: as it is)


def flip(x: Tensor, dims: Any) -> Tensor:
    """A copy of x with the order of elements reversed along ``dims``."""
    raw, dims = dims, norm_dims(dims, x._data.ndim)
    node = node_for(FlipBackward0, x)
    if node is not None:
        node._saved["dims"] = dims
        c.show_saved(node, dims=c.shown_dims(raw))
    return make(np.flip(x._data, dims).copy() if x._data.ndim else x._data.copy(), x.dtype, node)


# ---- indexing -------------------------------------------------------------------------------

class SelectBackward0(Node):
    """y = x.select(dim, index);  dx = zeros with g at that index"""

    saved_names = ("dim", "index", "self_sym_sizes")

    def backward(self, g: Any) -> Any:
        d, i = self._saved["dim"], self._saved["index"]
        return embed(g, self._saved["self_sym_sizes"], (slice(None),) * d + (i,),
                     SelectBackwardBackward0, dim=d, index=i)


def select(x: Tensor, dim: int, index: int) -> Tensor:
    """The slice at ``index`` along ``dim``, which it drops (a view)."""
    shp = x._data.shape
    if not shp:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = norm_dim(dim, len(shp))
    if not -shp[d] <= index < shp[d]:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(shp)} at dimension {d}")
    return _select(x, d, index, dim)


def _select(x: Tensor, d: int, index: int, dim_arg: int) -> Tensor:
    """``x.select(d, index)`` with the index checked; ``dim_arg`` as the caller wrote it."""
    i = index % x._data.shape[d]
    key = (slice(None),) * d + (i, Ellipsis)  # Ellipsis keeps a 0-d result a view
    return record_view(x, SelectBackward0, x._data[key], lambda a: a[key],
                    {"dim": c.shown_dim(dim_arg), "index": c.shown_dim(index)},
                    dim=d, index=i, self_sym_sizes=x._data.shape)


class SliceBackward0(Node):
    """y = x[start:end:step] along dim;  dx = zeros with g in the slice"""

    saved_names = ("dim", "start", "end", "step", "self_sym_sizes")

    def backward(self, g: Any) -> Any:
        s = self._saved
        key = (slice(None),) * s["dim"] + (slice(s["start"], s["end"], s["step"]),)
        return embed(g, s["self_sym_sizes"], key, SliceBackwardBackward0, dim=s["dim"],
                     start=s["start"], end=s["end"], step=s["step"])

_INT64_MAX = 2**63 - 1


def slice_dim(x: Tensor, dim: int, start: Any, end: Any, step: Any) -> Tensor:
    """``x[start:end:step]`` along ``dim`` (a view)."""
    shp = x._data.shape
    d = norm_dim(dim, len(shp))
    if step is not None and step == 0:
        raise ValueError("slice step cannot be zero")
    if step is not None and step < 0:
        raise ValueError("step must be greater than zero")
    start_, end_, step_ = slice(start, end, step).indices(shp[d])
    end_ = max(end_, start_)
    key = (slice(None),) * d + (slice(start_, end_, step_),)
    shown = {"dim": c.shown_dim(dim), "start": c.shown_dim(start or 0),
             "end": _INT64_MAX if end is None else c.shown_dim(end)}
    return record_view(x, SliceBackward0, x._data[key], lambda a: a[key], shown,
                    dim=d, start=start_, end=end_, step=step_, self_sym_sizes=shp)


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """``length`` elements from ``start`` along ``dim`` (a view); ``start`` may be a 0-d
    integer tensor."""
    if isinstance(start, Tensor):
        if start._data.ndim or start.dtype._cat != 1:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start._data)
    if not x._data.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = norm_dim(dim, x._data.ndim)
    size = x._data.shape[d]
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    begin = start + size if start < 0 else start
    if begin + length > size:
        raise RuntimeError(f"start ({begin}) + length ({length}) exceeds dimension size ({size}).")
    return slice_dim(x, dim, begin, begin + length, 1)
