"""In-place operations and item assignment.

An in-place op bumps the tensor's version counter (shared with its views), so
that a node which saved the old value can refuse to run. On a tensor in the
graph it also rewrites history: ``y.add_(1)`` makes ``y.grad_fn`` an
``AddBackward0`` whose edge leads to the old ``y.grad_fn``. Writing into a view
of a non-leaf gives the base a ``CopySlices`` node, as in PyTorch.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import _messages as msg
from .common import STATE, Node, Tensor, make, needs_grad, node_for, sum_to
from .movement import getitem


def check_inplace(t: Tensor) -> None:
    """torch refuses in-place changes to a leaf that requires grad (or a view of one)."""
    if not STATE.enabled:
        return
    base = t._base
    if base is not None and base.grad_fn is None and base._rg:
        raise RuntimeError(msg.VIEW_OF_LEAF_INPLACE)
    if t.grad_fn is None and t._rg:
        raise RuntimeError(msg.LEAF_INPLACE)


def _write(t: Tensor, data: Any) -> None:
    src = np.asarray(data)
    if src.dtype != t._data.dtype and not np.can_cast(src.dtype, t._data.dtype, "same_kind"):
        from .._dtype import from_numpy_dtype
        from .reduce import _scalar_name

        raise RuntimeError(
            f"result type {_scalar_name(from_numpy_dtype(src.dtype))} can't be cast to the "
            f"desired output type {_scalar_name(t.dtype)}"
        )
    np.copyto(t._data, src, casting="unsafe")


def _adopt_saved_outputs(node: Node, res: Tensor, t: Tensor) -> None:
    """Saved outputs of ``node`` referred to ``res``; the result now lives in ``t``."""
    for sv in node._saved.values():
        if getattr(sv, "tensor", 1) is None and sv.data is res._data:
            sv.data, sv.storage, sv.vc, sv.version = t._data, t._storage, t._vc, t._vc[0]


def apply_inplace(t: Tensor, compute: Callable[[Tensor], Tensor], *others: Any) -> Tensor:
    """Run ``compute(t)`` out of place, write the result into ``t``, rebase its history."""
    check_inplace(t)
    if not (STATE.enabled and needs_grad(t, *others)):
        res = compute(t.detach())
        _write(t, res._data)
        t._vc[0] += 1
        return t
    if t._base is not None:
        return _inplace_on_view(t, compute)
    res = compute(t)
    _write(t, res._data)
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

    def backward(self, g: Any) -> tuple:
        if isinstance(g, Tensor):
            raise NotImplementedError(
                "create_graph through an in-place change of a view is not supported"
            )
        gb = np.array(g, copy=True)
        region = self.view_fn(gb)
        fn = self.fn
        grads = fn.apply([np.array(region, copy=True)]) if fn is not None else (None,)
        region[...] = 0 if grads[0] is None else grads[0]
        return (gb, *grads[1:])


class AsStridedBackward0(Node):
    """A view whose base was changed in place: dbase = zeros with g in the view's region."""

    def backward(self, g: Any) -> Any:
        z = np.zeros(self.base_shape, dtype=np.result_type(g))
        self.view_fn(z)[...] = g
        return z


def _base_edge(base: Tensor) -> tuple:
    from .common import _edge

    return _edge(base)


def _inplace_on_view(t: Tensor, compute: Callable[[Tensor], Tensor]) -> Tensor:
    base = t._base
    view_fn = t.__dict__.get("_view_fn") or (lambda a: a)
    res = compute(t)
    _write(t, res._data)
    t._vc[0] += 1
    _rebase_view(t, base, res.grad_fn, view_fn)
    return t


def _rebase_view(t: Tensor, base: Tensor, fn: Node | None, view_fn: Callable) -> None:
    from ..node import new_node

    rest = fn.next_functions[1:] if fn is not None else ()
    cs = new_node(CopySlices, (_base_edge(base), *rest))
    cs.fn, cs.view_fn = fn, view_fn
    if fn is not None:
        fn.__dict__["_inside_copyslices"] = True
    base.grad_fn, base._rg, base._output_nr = cs, True, 0
    view_node = new_node(AsStridedBackward0, ((cs, 0),))
    view_node.base_shape, view_node.view_fn = base._data.shape, view_fn
    t.grad_fn, t._rg, t._output_nr = view_node, True, 0


# ---- item assignment ----------------------------------------------------------------------

class CopyBackwards(Node):
    """dst.copy_(src): the old dst gets no gradient, src gets g (summed to its shape)."""

    def backward(self, g: Any) -> tuple:
        return g * 0, (sum_to(g, self.src_shape) if self.next_functions[1][0] is not None
                       else None)


class IndexPutBackward0(Node):
    """x[indices] = values:  dx = g with the written places zeroed,  dvalues = g[indices]"""

    saved_names = ("indices",)

    def backward(self, g: Any) -> tuple:
        key = self._saved["indices"]
        gx = np.array(g, copy=True)
        gx[key] = 0
        gv = sum_to(np.asarray(g[key]), self.values_shape) \
            if self.next_functions[1][0] is not None else None
        return gx, gv


def _value(v: Any, t: Tensor) -> Any:
    return v._data if isinstance(v, Tensor) else v


def setitem(x: Tensor, key: Any, value: Any) -> None:
    from .movement import _is_advanced, _np_key

    keys = key if isinstance(key, tuple) else (key,)
    advanced = any(_is_advanced(k) for k in keys)
    if not (STATE.enabled and needs_grad(x, value)):
        if STATE.enabled and x._rg and x.grad_fn is None:
            raise RuntimeError(msg.LEAF_INPLACE if advanced else msg.VIEW_OF_LEAF_INPLACE)
        x._data[_np_key(key)] = _value(value, x)
        x._vc[0] += 1
        return
    if advanced:
        check_inplace(x)
        np_key = _np_key(key)
        from .common import _edge

        node = node_for(IndexPutBackward0, x, value)
        x._data[np_key] = _value(value, x)
        x._vc[0] += 1
        node._saved["indices"] = np_key
        node.values_shape = value._data.shape if isinstance(value, Tensor) else ()
        x.grad_fn, x._rg, x._output_nr = node, True, 0
        _ = _edge
        return
    if x._base is None and x.grad_fn is None and x._rg:
        raise RuntimeError(msg.VIEW_OF_LEAF_INPLACE)
    view = getitem(x, key)
    check_inplace(view)
    fn = node_for(CopyBackwards, view, value)
    if fn is not None:
        fn.src_shape = value._data.shape if isinstance(value, Tensor) else ()
    view._data[...] = _value(value, x)
    x._vc[0] += 1
    base = view._base if view._base is not None else x
    _rebase_view(view, base, fn, view.__dict__.get("_view_fn") or (lambda a: a))


# ---- the in-place methods ----------------------------------------------------------------

class ZeroBackward0(Node):
    """x.zero_();  dx = 0"""

    def backward(self, g: Any) -> Any:
        return g * 0


class FillBackward0(ZeroBackward0):
    """x.fill_(v);  dx = 0"""


def _constant_fill(t: Tensor, value: Any, cls: type[Node]) -> Tensor:
    def compute(x: Tensor) -> Tensor:
        data = np.full(x._data.shape, _value(value, x), dtype=x.dtype.np)
        return make(data, x.dtype, node_for(cls, x))

    return apply_inplace(t, compute)


def zero_(t: Tensor) -> Tensor:
    return _constant_fill(t, 0, ZeroBackward0)


def fill_(t: Tensor, value: Any) -> Tensor:
    return _constant_fill(t, value, FillBackward0)


def copy_(t: Tensor, src: Tensor) -> Tensor:
    def compute(x: Tensor) -> Tensor:
        data = np.broadcast_to(src._data if isinstance(src, Tensor) else src, x._data.shape)
        node = node_for(CopyBackwards, x, src)
        if node is not None:
            node.src_shape = src._data.shape if isinstance(src, Tensor) else ()
        return make(np.array(data, dtype=x.dtype.np), x.dtype, node)

    return apply_inplace(t, compute, src)
