"""Op recording: how every op makes its output Tensor and, when a graph is recorded, its node.

An op computes its result with numpy, then ``record(cls, data, dtype, *inputs)`` returns
``(output, node)``: the output Tensor, and a new node of ``cls`` with one edge per input --
or None when grad mode is off or no input requires grad (``node_for``). The op then saves
what its backward needs on the node (``node.save``/``save_output``).

``make`` and ``node_for`` are the two halves of ``record``, for ops that must compute
something between making the node and the output. Both inline the plain constructors
(``tensor._make``, ``node.new_node``): they run once per op. An op whose output has no
gradient (comparisons, integer results) uses ``make`` alone.

Views: ``record_view(cls, x, data, fn)`` is ``record`` for an output that shares ``x``'s
memory and version counter (``view_output``), and remembers how to redo the view (``fn``).

Fast path: ``binary_fast`` handles the most common call of a training loop -- a tensor with
a Python float, or two tensors of one dtype -- with the general path's steps inlined, and
0-d operands computed as numpy scalars (~8x faster than 0-d arrays).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from .._dtype import dtype, get_default_dtype
from .._messages import broadcast_error
from .._saved_display import show_saved
from ..anomaly_mode import ANOMALY, record_forward_trace
from ..grad_mode import STATE
from ..memory import _MEM, Storage
from ..node import _NRS, Node, _seq, grad_accumulator
from ..tensor import Tensor, _init, _make

ndarray = np.ndarray


def record(cls: type[Node], data: Any, dt: dtype, *inputs: Any) -> tuple[Tensor, Node | None]:
    """The output of an op on ``inputs`` (``data`` as a ``dt`` Tensor) and its node."""
    node = node_for(cls, *inputs)
    return make(data, dt, node), node


def make(data: Any, dt: dtype, node: Node | None) -> Tensor:
    """Wrap an op's result; numpy's 0-d scalars become arrays of the torch dtype."""
    if type(data) is not ndarray or data.dtype is not dt.np:
        data = np.asarray(data, dtype=dt.np)
    # the bodies of tensor._make and Storage(), inlined: this runs once per op
    t = _new_tensor(Tensor)
    t._data = data
    t._dtype = dt
    t._grad_fn = node
    t._rg = node is not None
    st = _new_tensor(Storage)
    st.nbytes = n = data.nbytes
    st.version = 0
    m = _MEM
    m.allocated += n
    if m.allocated > m.peak:
        m.peak = m.allocated
    t._vc = t._storage = st
    return t


def needs_grad(*xs: Any) -> bool:
    """Whether an op on ``xs`` records a graph: grad mode is on and some tensor requires grad."""
    if not STATE.enabled:
        return False
    for x in xs:
        if isinstance(x, Tensor) and x._rg:
            return True
    return False


def node_for(cls: type[Node], *inputs: Any) -> Node | None:
    """A new node of ``cls`` with an edge per input, or None when no grad is needed."""
    if not STATE.enabled:
        return None
    for x in inputs:
        if isinstance(x, Tensor) and x._rg:
            break
    else:
        return None
    node = _new_node(cls)
    if len(inputs) == 1:
        x = inputs[0]
        # ``grad_fn`` by its property: a stale multi-output view raises there
        fn = x._grad_fn if type(x) is Tensor else x.grad_fn if isinstance(x, Tensor) else None
        if fn is not None and not x._output_nr:
            node._fns, node._nrs = (fn,), _NR1
        else:
            node._fns, node._nrs = _edges(inputs)
    else:
        node._fns, node._nrs = _edges(inputs)
    node._saved = {}
    node._seq = next(_seq)
    if ANOMALY.enabled:
        record_forward_trace(node)
    return node


def _edge_fn(x: Any) -> Node | None:
    """The node an edge to input ``x`` leads to (``node.edge`` for the ops' hot path)."""
    if isinstance(x, Tensor):
        fn = x.grad_fn
        if fn is not None:
            return fn
        if x._rg and not x._nograd_view:
            return grad_accumulator(x)
    return None


def _edges(inputs: tuple) -> tuple[tuple, tuple]:
    """A node's ``_fns`` and ``_nrs`` for ``inputs`` (the nrs shared when all are 0)."""
    fns = tuple([_edge_fn(x) for x in inputs])
    nrs = tuple([x._output_nr if isinstance(x, Tensor) and x.grad_fn is not None else 0
                 for x in inputs])
    return fns, (_NRS.get(len(nrs), nrs) if not any(nrs) else nrs)

_NR1, _NR2 = _NRS[1], _NRS[2]
_new_tensor = object.__new__
_new_node = object.__new__


def binary_fast(cls: type[Node], fn: Any, x: Tensor, y: Any) -> tuple[Tensor, Node | None]:
    """The common case -- a tensor with a Python float, or two tensors of one dtype --
    with the general path's steps inlined (this runs for every scalar op of a training loop)."""
    a, dt = x._data, x._dtype
    ty = type(y) is Tensor
    b = y._data if ty else y
    if not ty and dt._cat != 2:
        dt = get_default_dtype()
    try:
        if a.ndim == 0 and (not ty or b.ndim == 0):
            data = fn(a[()], b[()] if ty else b)  # numpy scalar math is ~8x faster than 0-d
        else:
            data = fn(a, b)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    if STATE.enabled and (x._rg or (ty and y._rg)):
        node = _new_node(cls)
        if ty or x._output_nr:
            node._fns, node._nrs = _edges((x, y) if ty else (x, None))
        else:
            fn = x._grad_fn
            if fn is None:  # x requires grad: a leaf (or a view made under no_grad)
                fn = None if x._nograd_view else grad_accumulator(x)
            node._fns, node._nrs = (fn, None), _NR2
        node._saved = {}
        node._seq = next(_seq)
        if ANOMALY.enabled:
            record_forward_trace(node)
        out = make(data, dt, node)
        if ty and (a.shape != b.shape or a.shape != out._data.shape):
            node.shapes = (a.shape, b.shape)
        elif not ty and a.shape != out._data.shape:
            node.shapes = (a.shape, out._data.shape)
        if dt is not x._dtype:
            node.casts = (x._dtype, dt)
        return out, node
    return make(data, dt, None), None


# ---- views: outputs that share their input's memory ------------------------------------

def view_output(x: Tensor, data: np.ndarray, node: Node | None, fn: Callable,
                into: Tensor | None = None) -> Tensor:
    """A result that aliases ``x``: same storage and version counter, base recorded (built in
    ``into``, a tensor being initialised, when given: ``torch.Tensor(x)``)."""
    if into is None:
        out = _make(data, x._dtype, node, x._storage, x._vc)
    else:
        out = into
        _init(out, data, x._dtype, x._storage, x._vc, node)
    base = x._base if x._base is not None else x
    if node is not None:
        remember_view(out)
    else:
        if x._rg:  # made under no_grad: requires grad, but no gradient flows back
            out._rg = out._nograd_view = True
        elif not base._rg and base.grad_fn is None:
            # torch's view requires grad once its base does (``base.requires_grad_()`` later)
            _remember(base, "_plain_views", out)
    out._base = base
    if x._zero:
        out._zero = True
    prev = x.__dict__.get("_view_fn")
    out._view_fn = fn if prev is None else (lambda a, p=prev, f=fn: f(p(a)))
    return out


def record_view(x: Tensor, cls: type[Node], data: np.ndarray, fn: Callable,
                shown: dict | None = None, into: Tensor | None = None, **saved: Any) -> Tensor:
    """The view ``data`` of ``x`` (``fn`` redoes it on x's array), recorded as a ``cls`` node
    that saves ``saved`` (and shows ``shown`` as its ``_saved_<name>`` values)."""
    node = node_for(cls, x)
    if node is None:
        return view_output(x, data, node, fn, into)
    node._saved.update(saved)
    if shown:
        show_saved(node, **shown)
    return view_output(x, data, node, fn, into)


def remember_view(out: Tensor) -> None:
    """Remember a recorded view on its version counter, so that an in-place change through
    any alias (the base, another view, a ``detach()``) regenerates its node."""
    vc = out._vc
    try:
        views = vc.views
    except AttributeError:
        views = vc.views = []
    _prune(views)
    views.append(weakref.ref(out))


def _remember(base: Tensor, key: str, view: Tensor) -> None:
    """Add ``view`` to the base's weak list ``key``."""
    views = base.__dict__.get(key)
    if views is None:
        views = base.__dict__[key] = []
    _prune(views)
    views.append(weakref.ref(view))


def _prune(views: list) -> None:
    """Drop dead references from a weak list as it grows (at each power of two from 64)."""
    n = len(views)
    if n >= 64 and not n & (n - 1):
        views[:] = [r for r in views if r() is not None]
