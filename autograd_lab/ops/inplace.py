"""In-place operations and item assignment.

An in-place op bumps the tensor's version counter (shared with its views), so
that a node which saved the old value can refuse to run. On a tensor in the
graph it also rewrites history: ``y.add_(1)`` makes ``y.grad_fn`` an
``AddBackward0`` whose edge leads to the old ``y.grad_fn``. Writing into a view
of a non-leaf gives the base a ``CopySlices`` node, as in PyTorch.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from .. import _messages as msg
from .._dtype import check_fill, from_numpy_dtype
from .._grad_layout import dense
from ..node import SavedTensor, _strip, edge, new_node
from .common import STATE, Node, Tensor, sum_to, zeros_like_data
from .grad_scatter import _np_key
from .indexing import _is_advanced, getitem, masked_fill, sequence_key
from .layout import empty_strided
from .record import make, needs_grad, node_for, record, record_view
from .views import clone, expand, view


def check_inplace(t: Tensor) -> None:
    """torch refuses in-place changes to a leaf that requires grad (or a view of one)."""
    if t._zero:
        raise RuntimeError(msg.ZERO_TENSOR_IMMUTABLE)
    if not STATE.enabled:
        return
    custom = t.__dict__.get("_custom_fn_view")  # a view returned by an autograd.Function
    if custom:
        raise RuntimeError(custom)
    if t._nograd_view and not t._late_view:
        raise RuntimeError(msg.NO_GRAD_VIEW_INPLACE)
    base = t._base
    fn = t.grad_fn
    if base is not None and fn is not None and getattr(fn, "multi_view", False):  # unbind's
        raise RuntimeError(msg.multi_view_inplace(t._output_nr, _strip(fn.name())))
    if base is not None and base.grad_fn is None and (t._rg or base._rg):
        # a view requires grad when its base does (even one made before), and the leaf base
        # itself may not: ``x.t().requires_grad_()``
        raise RuntimeError(msg.VIEW_OF_LEAF_INPLACE)
    if t.grad_fn is None and t._rg:
        raise RuntimeError(msg.LEAF_INPLACE)


def check_overlap(t: Tensor, others: tuple, internal: bool = True) -> None:
    """torch's memory-overlap errors of an in-place kernel: the written-to tensor must not
    repeat an element (an expanded view), and an input may share its memory only exactly."""
    a = t._data
    if internal and repeats_elements(a):
        raise RuntimeError(msg.INTERNAL_OVERLAP)
    for o in others:
        if isinstance(o, Tensor) and o._storage is t._storage and _partial_overlap(a, o._data):
            raise RuntimeError(msg.PARTIAL_OVERLAP)


def repeats_elements(a: np.ndarray) -> bool:
    """torch's ``has_internal_overlap``, as far as it is sure: a stride 0 over a dim > 1."""
    return not dense(a) and any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape))


def _partial_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """torch's ``get_overlap_status(a, b) == PARTIAL``: two dense arrays whose memory ranges
    meet without being the same elements in the same order (anything else is not checked)."""
    if a.size == 0 or b.size == 0 or not dense(a) or not dense(b):
        return False
    pa, pb = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    if pa == pb and a.nbytes == b.nbytes:
        return a.strides != b.strides
    return pa < pb + b.nbytes and pb < pa + a.nbytes


def check_broadcast_into(shape: tuple, other: tuple) -> None:
    """torch's errors for an in-place op whose operand does not broadcast to ``shape``."""
    if other == shape:
        return
    try:
        b = np.broadcast_shapes(shape, other)
    except ValueError:
        raise msg.broadcast_error(shape, other) from None
    if b != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                           f"{list(b)}")


def write_into(t: Tensor, data: Any) -> None:
    """Copy ``data`` into ``t``'s buffer (broadcast, cast within its kind) with torch's
    errors; the caller bumps the version."""
    src = np.asarray(data)
    check_broadcast_into(t._data.shape, src.shape)
    if src.dtype != t._data.dtype and not np.can_cast(src.dtype, t._data.dtype, "same_kind"):
        raise RuntimeError(
            f"result type {msg.scalar_name(from_numpy_dtype(src.dtype))} can't be cast to the "
            f"desired output type {msg.scalar_name(t.dtype)}"
        )
    if t._data.size:  # an empty (maybe expanded, so read-only) buffer: nothing to write
        np.copyto(t._data, src, casting="unsafe")


def regenerate_views(t: Tensor, skip: Any = None) -> None:
    """After an in-place change of ``t`` (and of its history): every other view recorded on
    the same version counter gets a new ``grad_fn``, ``AsStridedBackward0`` into its base's
    -- torch regenerates a view's node once its base or another alias of it was changed. One
    of the views of a multi-output op (``unbind``, ``split``) cannot be regenerated: reading
    its ``grad_fn`` raises from then on, as in torch."""
    views = getattr(t._vc, "views", None)
    if not views:
        return
    skip = t if skip is None else skip
    alive = []
    for ref in views:
        v = ref()
        if v is None:
            continue
        alive.append(ref)
        if v is skip or type(v) is not Tensor:
            continue
        fn = v.grad_fn
        if fn is None:
            continue
        if getattr(fn, "multi_view", False):
            v.__dict__["_stale"] = msg.multi_view_regenerated(v._output_nr, _strip(fn.name()))
            v.__class__ = StaleMultiView
            continue
        base = v._base
        node = new_node(AsStridedBackward0, (edge(base),))
        node.base_shape, node.view_fn = base._data.shape, v.__dict__["_view_fn"]
        v.grad_fn, v._output_nr = node, 0
    views[:] = alive


_NOTHING: Any = object()  # a ``skip`` that is no view


class StaleMultiView(Tensor):
    """One of a multi-output op's views after its base was changed in place: torch refuses
    to regenerate its node, so reading ``grad_fn`` (or using it in an op) raises."""

    __slots__ = ()

    @property
    def grad_fn(self) -> Any:
        raise RuntimeError(self.__dict__["_stale"])

    @grad_fn.setter
    def grad_fn(self, value: Any) -> None:
        Tensor.grad_fn.__set__(self, value)


StaleMultiView.__name__ = StaleMultiView.__qualname__ = "Tensor"  # ``type(t)`` as torch shows it


def _adopt_saved_outputs(node: Node, res: Tensor, t: Tensor) -> None:
    """Saved outputs of ``node`` referred to ``res``; the result now lives in ``t``."""
    for sv in node._saved.values():
        if getattr(sv, "tensor", 1) is None and sv.data is res._data:
            sv.data, sv.storage, sv.vc, sv.version = t._data, t._storage, t._vc, t._vc[0]


def _save_original(node: Node | None, t: Tensor) -> None:
    """A backward that needs ``t``'s value before the change gets a copy of it (torch saves
    ``original_self`` as a clone), since ``t`` itself is about to be overwritten. Only the
    ``self`` operand: ``t`` saved as another operand (``v.mul_(v)``) stays ``t``, so its
    version check fails in backward, as in torch."""
    if node is None:
        return
    sv = node._saved.get("self")
    if type(sv) is SavedTensor and sv.tensor is t:
        node._saved["self"] = SavedTensor(clone(t), False)


def apply_inplace(t: Tensor, compute: Callable[[Tensor], Tensor], *others: Any,
                  overlap_ok: bool = False) -> Tensor:
    """Run ``compute(t)`` out of place, write the result into ``t``, rebase its history
    (``overlap_ok``: torch's kernel writes into a ``t`` that repeats elements, as fill_)."""
    _apply_inplace(t, compute, others, overlap_ok)
    regenerate_views(t)
    return t


def _apply_inplace(t: Tensor, compute: Callable[[Tensor], Tensor], others: tuple,
                   overlap_ok: bool = False) -> Tensor:
    check_inplace(t)
    if not overlap_ok:
        check_overlap(t, others)
    if not needs_grad(t, *others):
        res = compute(t.detach())
        write_into(t, res._data)
        t._vc[0] += 1
        return t
    if t._base is not None:
        return _inplace_on_view(t, compute)
    res = compute(t)
    _save_original(res.grad_fn, t)
    write_into(t, res._data)
    t._vc[0] += 1
    node = res.grad_fn
    if node is not None:
        t.grad_fn, t._rg, t._output_nr = node, True, 0
        _adopt_saved_outputs(node, res, t)
    return t


# ---- writing into views: CopySlices --------------------------------------------------------

class CopySlices(Node):
    """The base of a view that was changed in place.

    Backward: the gradient of the region the view covers goes through the in-place
    op's own node (``fn``); the rest of the base's gradient passes unchanged.
    """

    grad_versions = (2,)  # the base's gradient: an empty tensor copied into, then its region

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def backward(self, g: Any) -> tuple:
        fn = self.fn
        if isinstance(g, Tensor):  # create_graph: torch's steps, recorded
            return self._recorded(g)
        gb = empty_strided(g.shape, self.base_strides, g.dtype)  # torch: new_empty_strided
        gb[...] = g  # as the base, then copy_ (version 1) ...
        region = self.view_fn(gb)
        grads = fn.apply([np.array(region, order="C", copy=True)]) if fn is not None else (None,)
        if grads[0] is not None and repeats_elements(region):
            raise RuntimeError(msg.INTERNAL_OVERLAP)  # torch copies into the region
        region[...] = 0 if grads[0] is None else grads[0]  # ... and a copy_ into the region: 2
        return (gb, *grads[1:])


def _copyslices_recorded(self: CopySlices, g: Tensor) -> tuple:
    """CopySlices' backward under create_graph, as torch runs it: ``result`` = a new tensor
    of the base's layout ``copy_``'d from g (CopyBackwards), its region (as_strided) cloned
    through the in-place op's node, and that gradient ``copy_``'d back into the region (a
    CopySlices on ``result``)."""
    fn = self.fn
    result = make(empty_strided(g.shape, self.base_strides, g.dtype.np), g.dtype, None)
    copy_(result, g)
    region = record_view(result, AsStridedBackward0, self.view_fn(result._data), self.view_fn)
    if region.grad_fn is not None:
        region.grad_fn.base_shape, region.grad_fn.view_fn = g._data.shape, self.view_fn
    grads = fn.apply([clone(region)]) if fn is not None else (None,)
    first = grads[0]
    if first is None:
        first = make(np.zeros(region._data.shape, dtype=g.dtype.np), g.dtype, None)
    elif not isinstance(first, Tensor):
        first = make(np.asarray(first), g.dtype, None)
    copy_(region, first)
    return (result, *grads[1:])


CopySlices._recorded = _copyslices_recorded  # type: ignore[attr-defined]


class AsStridedBackward0(Node):
    """A view whose base was changed in place: dbase = zeros with g in the view's region."""

    def backward(self, g: Any) -> Any:
        if isinstance(g, Tensor):
            return _put_region(g, self.view_fn, self.base_shape)
        z = np.zeros(self.base_shape, dtype=np.result_type(g))
        _scatter_region(z, self.view_fn, g)
        return z


def _scatter_region(z: np.ndarray, view_fn: Callable, g: Any) -> None:
    """Write ``g`` into the region of ``z`` (a fresh array) a view covers; where the view
    repeats elements (an expanded one) their gradients add up, as in torch."""
    region = view_fn(z)
    if not repeats_elements(region):
        region[...] = g
        return
    flat = view_fn(np.arange(z.size).reshape(z.shape))
    np.add.at(z.reshape(-1), flat, np.broadcast_to(g, flat.shape))


class AsStridedScatterBackward0(Node):
    """y = zeros with r in a view's region;  dr = g's region"""

    def backward(self, g: Any) -> Any:
        if isinstance(g, Tensor):
            return _take_region(g, self.view_fn)
        return np.array(self.view_fn(g), copy=True)


def _take_region(g: Tensor, view_fn: Callable) -> Tensor:
    """The region of ``g`` a view covers, as a new differentiable tensor (create_graph)."""
    out, node = record(AsStridedBackward0, np.array(view_fn(g._data), copy=True), g.dtype, g)
    if node is not None:
        node.base_shape, node.view_fn = g._data.shape, view_fn
    return out


def _put_region(r: Tensor, view_fn: Callable, shape: tuple) -> Tensor:
    """Zeros of ``shape`` with ``r`` in a view's region, differentiable (create_graph)."""
    z = np.zeros(shape, dtype=r.dtype.np)
    _scatter_region(z, view_fn, r._data)
    out, node = record(AsStridedScatterBackward0, z, r.dtype, r)
    if node is not None:
        node.view_fn = view_fn
    return out


def _inplace_on_view(t: Tensor, compute: Callable[[Tensor], Tensor]) -> Tensor:
    """``apply_inplace`` on a view: the view changes, and its base's history is rewritten."""
    base = t._base
    view_fn = t.__dict__.get("_view_fn") or (lambda a: a)
    res = compute(t)
    _save_original(res.grad_fn, t)
    write_into(t, res._data)
    t._vc[0] += 1
    _rebase_view(t, base, res.grad_fn, view_fn)
    return t


def _rebase_view(t: Tensor, base: Tensor, fn: Node | None, view_fn: Callable) -> None:
    """After view ``t`` of ``base`` changed through node ``fn``: ``base`` gets a CopySlices
    node wrapping ``fn``, and ``t`` becomes a view of that new base."""
    rest = fn.next_functions[1:] if fn is not None else ()
    cs = new_node(CopySlices, (edge(base), *rest))
    cs.fn, cs.view_fn, cs.base_strides = fn, view_fn, base._data.strides
    if fn is not None:
        fn.__dict__["_inside_copyslices"] = True
    base.grad_fn, base._rg, base._output_nr = cs, True, 0
    view_node = new_node(AsStridedBackward0, ((cs, 0),))
    view_node.base_shape, view_node.view_fn = base._data.shape, view_fn
    t.grad_fn, t._rg, t._output_nr = view_node, True, 0


# ---- item assignment ----------------------------------------------------------------------

def _zeros_like(g: Any) -> Any:
    """torch's ``zeros_like(grad)`` in a backward formula: a constant, even under create_graph."""
    if isinstance(g, Tensor):
        return make(np.zeros(g._data.shape, dtype=g.dtype.np), g.dtype, None)
    return zeros_like_data(g)


class CopyBackwards(Node):
    """dst.copy_(src): the old dst gets no gradient, src gets g (summed to its shape)."""

    def name(self) -> str:
        return "torch::autograd::CopyBackwards"

    def backward(self, g: Any) -> tuple:
        return _zeros_like(g), (sum_to(g, self.src_shape) if self._fns[1] is not None
                       else None)


class IndexPutBackward0(Node):
    """x[indices] = values:  dx = g with the written places zeroed,  dvalues = g[indices]"""

    saved_names = ("indices",)
    freed_saved = ("indices",)

    def backward(self, g: Any) -> tuple:
        key = self._saved["indices"]
        gx = np.array(g, copy=True)
        gx[key] = 0
        gv = sum_to(np.asarray(g[key]), self.values_shape) \
            if self._fns[1] is not None else None
        return gx, gv


def _value(v: Any, t: Tensor) -> Any:
    """The value written by ``t[key] = v``: an array or a Python number."""
    if isinstance(v, Tensor):
        return v._data
    if not isinstance(v, (int, float, bool, np.number, np.bool_)):
        raise TypeError(f"can't assign a {type(v).__name__} to a torch.{t.dtype._tensor_type}")
    return v


def _check_value_shape(value: Any, slot: tuple) -> None:
    """torch's expand error when a value does not broadcast to the slots it is written to."""
    shape = np.shape(value._data if isinstance(value, Tensor) else value)
    lead = len(shape) - len(slot)
    stripped = shape[lead:] if lead > 0 and all(s == 1 for s in shape[:lead]) else shape
    if len(stripped) > len(slot):  # trailing dims that cannot be dropped (y[0:2] = ones(2, 1))
        kind = value.dtype._tensor_type if isinstance(value, Tensor) else "FloatTensor"
        raise RuntimeError(
            f"expand(torch.{kind}{{{list(stripped)}}}, size={list(slot)}): the number of sizes "
            f"provided ({len(slot)}) must be greater or equal to the number of dimensions in "
            f"the tensor ({len(stripped)})")
    for i in range(1, len(stripped) + 1):
        s, want = stripped[-i], slot[-i] if i <= len(slot) else None
        if s != 1 and s != want:
            raise RuntimeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({s}) "
                f"at non-singleton dimension {len(slot) - i}.  Target sizes: {list(slot)}.  "
                f"Tensor sizes: {list(stripped)}")


def _assign(x: Tensor, np_key: Any, value: Any) -> None:
    """``x._data[np_key] = value`` with torch's errors."""
    v = _value(value, x)
    try:
        x._data[np_key] = v
    except IndexError as e:
        raise IndexError(str(e).replace("axis", "dimension")) from None
    except ValueError:
        slot = np.shape(x._data[np_key])
        _check_value_shape(value, slot)
        v = np.asarray(v)
        while v.ndim > len(slot) and v.shape[0] == 1:  # torch drops the value's leading 1s
            v = v[0]
        x._data[np_key] = v


def setitem(x: Tensor, key: Any, value: Any) -> None:
    """``x[key] = value``: an in-place write, recorded when x or value requires grad."""
    if key is False:  # torch writes nothing at all
        return
    key = sequence_key(key)
    if key is True:  # torch's copy_to into x.unsqueeze(0) (a 0-d True tensor likewise)
        _copy_to(view(x, (1,) + x._data.shape), value)
        return
    _setitem(x, key, value)
    keys = key if isinstance(key, tuple) else (key,)
    # torch writes into the view ``x[key]``: a view ``x`` is regenerated too
    regenerate_views(x, None if x._base is None or any(_is_advanced(k) for k in keys)
                     else _NOTHING)


def _setitem(x: Tensor, key: Any, value: Any) -> None:
    keys = key if isinstance(key, tuple) else (key,)
    # (a bool among other indices: torch indexes a new dim with [0] or [], a gather)
    advanced = any(_is_advanced(k) or isinstance(k, bool) for k in keys)
    if not needs_grad(x, value):
        if STATE.enabled and x._rg and x.grad_fn is None:
            raise RuntimeError(msg.LEAF_INPLACE if advanced else msg.VIEW_OF_LEAF_INPLACE)
        _assign(x, _np_key(key), value)
        x._vc[0] += 1
        return
    if advanced:  # index_put_: out of place, then written in (into a view: a CopySlices)
        np_key = _np_key(key)

        def compute(t: Tensor) -> Tensor:
            data = np.array(t._data, copy=True)
            data[np_key] = _value(value, t)
            out, node = record(IndexPutBackward0, data, t.dtype, t, value)
            if node is not None:
                node._saved["indices"] = np_key
                node.values_shape = value._data.shape if isinstance(value, Tensor) else ()
            return out

        _apply_inplace(x, compute, (value,), overlap_ok=True)
        return
    slot = getitem(x, key, alias=False)  # the view the value is written into (or x itself)
    if slot is x:
        _copy_to(x, value)
        return
    if x._base is None and x.grad_fn is None and x._rg:
        raise RuntimeError(msg.VIEW_OF_LEAF_INPLACE)
    check_inplace(slot)
    _check_value_shape(value, slot._data.shape)
    if isinstance(value, Tensor) and value._data.shape != slot._data.shape:
        # torch views the value without its leading 1s, then expands it to the slots
        shape = value._data.shape
        while len(shape) > len(slot._data.shape) and shape[0] == 1:
            shape = shape[1:]
        value = view(value, shape)
        if shape != slot._data.shape:
            value = expand(value, slot._data.shape)
    fn = node_for(CopyBackwards, slot, value)
    if fn is not None:
        fn.src_shape = value._data.shape if isinstance(value, Tensor) else ()
    slot._data[...] = _value(value, x)
    x._vc[0] += 1
    base = slot._base if slot._base is not None else x
    _rebase_view(slot, base, fn, slot.__dict__.get("_view_fn") or (lambda a: a))


def _copy_to(x: Tensor, value: Any) -> None:
    """``x[key] = value`` for a key that selects all of ``x``: torch's ``copy_to`` -- ``copy_``
    for a value of x's shape, ``fill_`` for a 0-d one (a number), else ``copy_`` of the value
    viewed without its leading 1s and expanded."""
    if not isinstance(value, Tensor):
        _value(value, x)  # torch's TypeError for a value that is not a number
        value = make(np.asarray(value, dtype=_number_dtype(value, x).np), _number_dtype(value, x),
                     None)
    if value._data.shape == x._data.shape:
        copy_(x, value)
    elif value._data.ndim == 0:
        _constant_fill(x, value, FillBackward2)
    else:
        _check_value_shape(value, x._data.shape)
        shape = value._data.shape
        while len(shape) > x._data.ndim and shape[0] == 1:
            shape = shape[1:]
        copy_(x, expand(view(value, shape), x._data.shape))


def _number_dtype(v: Any, x: Tensor) -> Any:
    """The dtype torch wraps a Python number in for ``x[...] = v``: x's own."""
    return x.dtype


# ---- the in-place methods ----------------------------------------------------------------

class ZeroBackward0(Node):
    """x.zero_();  dx = 0"""

    def backward(self, g: Any) -> Any:
        return _zeros_like(g)


class FillBackward2(ZeroBackward0):
    """x.fill_(number);  dx = 0"""


class FillBackward3(Node):
    """x.fill_(v) with a 0-d tensor v;  dx = 0,  dv = sum(g)"""

    def backward(self, g: Any) -> tuple:
        gv = None
        if self._fns[1] is not None:
            gv = g.sum() if isinstance(g, Tensor) else np.asarray(g.sum())
        return _zeros_like(g), gv


def _constant_fill(t: Tensor, value: Any, cls: type[Node]) -> Tensor:
    """Fill ``t`` with ``value`` in place (a 0-d tensor value gets a gradient too)."""

    def compute(x: Tensor) -> Tensor:
        data = np.full(x._data.shape, _value(value, x), dtype=x.dtype.np)
        if isinstance(value, Tensor):
            return record(FillBackward3, data, x.dtype, x, value)[0]
        return record(cls, data, x.dtype, x)[0]

    return apply_inplace(t, compute, value, overlap_ok=True)


def zero_(t: Tensor) -> Tensor:
    """Fill with zeros, in place."""
    return _constant_fill(t, 0, ZeroBackward0)


def fill_(t: Tensor, value: Any) -> Tensor:
    """Fill with ``value``, in place."""
    if not isinstance(value, Tensor):
        check_fill(value, t.dtype)
    return _constant_fill(t, value, FillBackward2)


def copy_(t: Tensor, src: Tensor) -> Tensor:
    """Copy ``src`` (broadcast, cast) into ``t``, in place."""

    if t._zero:
        raise RuntimeError(msg.ZERO_TENSOR_COPY)
    check_inplace(t)  # torch's order of checks: autograd's, overlap, then shapes
    same = src is t  # torch's copy_ skips the kernel (and its overlap check) for itself
    if not same:
        check_overlap(t, (src,))
    check_broadcast_into(t._data.shape, np.shape(src._data if isinstance(src, Tensor) else src))

    def compute(x: Tensor) -> Tensor:
        data = np.broadcast_to(src._data if isinstance(src, Tensor) else src, x._data.shape)
        node = node_for(CopyBackwards, x, src)
        if node is not None:
            node.src_shape = src._data.shape if isinstance(src, Tensor) else ()
        return make(np.array(data, dtype=x.dtype.np), x.dtype, node)

    return apply_inplace(t, compute, src, overlap_ok=same)


def masked_fill_(x: Tensor, mask: Tensor, value: float) -> Tensor:
    """``masked_fill`` in place."""
    expanded = repeats_elements(x._data)
    if isinstance(mask, Tensor):
        check_inplace(x)
        if expanded:  # allowed, with torch's warning (each time)
            warnings.warn(msg.MASKED_FILL_EXPANDED, UserWarning, stacklevel=3)
        check_overlap(x, (mask,), internal=False)
        check_broadcast_into(x._data.shape, mask._data.shape)
    if not expanded:
        check_overlap(x, ())
    # a tensor value is an input (it gets a gradient) but torch reads it as a number: no
    # overlap check against it
    return apply_inplace(x, lambda a: masked_fill(a, mask, value, _inplace=True),
                         *([value] if isinstance(value, Tensor) else []), overlap_ok=True)
