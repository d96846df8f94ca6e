"""Real PyTorch tensors in the pictures: the graph mirrored, the engine's events from hooks.

``make_dot``, ``record_backward``, ``BackwardStepper`` and ``version_view`` accept a
``torch.Tensor`` wherever they accept ours. This module is the only place that knows torch;
it never imports it (a tensor is torch's when ``sys.modules["torch"]`` is loaded and the
object is one of its tensors), so ``import autograd_lab`` stays free of torch.

**The graph** (:class:`TorchGraph`) is copied, once, into the engine's own graph objects,
so every view draws it unchanged: each torch node becomes a node of a class named as
torch's (``MulBackward0``) with the same ``next_functions``, ``_sequence_nr`` and saved
values (read through torch's ``_saved_*`` attributes, in the order torch declares them); a
saved tensor changed in place since it was saved keeps the versions torch's error names;
leaves get an ``AccumulateGrad``. Tensors are copied as numpy arrays.

**The events** (:meth:`TorchGraph.backward`) come from torch's own hooks while its engine
runs, turned into the ``Listener`` calls of ``listener.py`` with the mirrored objects:

- ``on_node``: ``Node.register_prehook``, put first among the node's pre-hooks, so it sees
  the gradients after tensor hooks and before node pre-hooks, as the engine reports them.
- ``on_edge``: ``Node.register_hook`` (last among the post-hooks): one call per
  ``next_functions`` entry that is not None, with what the node sends along it.
- ``on_accumulate`` for a leaf: ``Tensor.register_post_accumulate_grad_hook`` (first),
  with the gradient added as the last pre-hook of its ``AccumulateGrad`` saw it.
- ``on_begin``: derived, before the first node runs (torch has no hook for it; its
  argument checks raise before any node runs, and then nothing is reported, as ours).
- ``on_free``: derived. Without ``retain_graph`` torch releases a node's saved tensors
  right after the node and its post-hooks run, always; so it is reported there, for the
  saved tensors the node still held.
- ``on_accumulate`` for a non-leaf with ``retain_grad()``: derived. torch stores it just
  before the node's pre-hooks run, so it is reported there -- only for the tensors the
  recording knows (the roots and ``params``): torch exposes no way to find the others.
- ``on_error``: the exception torch raised, at the node that was running.
- ``on_end``: when ``torch.autograd.backward`` returns.

Not supported (a clear error rather than a guess): ``inputs=`` (torch gives no hook for the
nodes it skips) and ``create_graph``.
"""

from __future__ import annotations

import re
import sys
import weakref
from typing import Any

import numpy as np

from .._dtype import from_numpy_dtype
from ..listener import Listener
from ..memory import Storage
from ..node import FREED, AccumulateGrad, Node, SavedTensor
from ..tensor import Tensor, _make

__all__ = ["TorchGraph", "any_torch", "is_torch_tensor", "mirror_args"]

_STALE = re.compile(r"\[torch\.(\w+) \[([\d, ]*)\]\](?:, which is output (\d+) of (\w+),)? "
                    r"is at version (\d+); expected version (\d+) instead")
_FREED_TEXT = "Trying to backward through the graph a second time"
_TYPES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
          "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16",
          "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool",
          "BFloat16Tensor": "float32"}


def is_torch_tensor(x: Any) -> bool:
    """Whether ``x`` is a ``torch.Tensor`` (without importing torch)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, getattr(torch, "Tensor", ()))


def any_torch(var: Any) -> bool:
    """Whether ``var`` (a tensor or a list/tuple of them) holds a torch tensor."""
    items = var if isinstance(var, (list, tuple)) else [var]
    return any(is_torch_tensor(t) for t in items)


def to_numpy(t: Any) -> np.ndarray:
    """A torch tensor's values as a numpy array of its own."""
    t = t.detach()
    if str(t.dtype) == "torch.bfloat16":
        t = t.float()
    return np.array(t.numpy(force=True), copy=True)  # force: a ZeroTensor, a conj view


def _grad_array(g: Any) -> np.ndarray | None:
    return None if g is None else to_numpy(g)


class _Producer(Node):
    """The node torch's version error names as a stale tensor's producer (``Mul``): torch
    shows no more of it."""

    __slots__ = ()

    def __init__(self, op: str) -> None:
        self.next_functions, self._saved, self._seq = (), {}, -1
        self.op = op

    def name(self) -> str:
        return self.op


_CLASSES: dict[tuple[str, tuple[str, ...]], type] = {}


def _node_class(name: str, saved: tuple[str, ...]) -> type:
    """A node class printed as torch's (``MulBackward0``) with these ``_saved_*`` names."""
    key = (name, saved)
    cls = _CLASSES.get(key)
    if cls is None:
        cls = _CLASSES[key] = type(name, (Node,), {"__slots__": (), "saved_names": saved})
    return cls


class TorchGraph:
    """A torch graph copied into the engine's graph objects, and its backward recorded."""

    def __init__(self, roots: list[Any], params: dict[str, Any] | None = None) -> None:
        for t in roots:
            if not is_torch_tensor(t):
                raise TypeError("torch and autograd_lab tensors cannot be mixed in one "
                                f"picture: got a {type(t).__name__} among torch tensors")
        self.torch = sys.modules["torch"]
        self.torch_roots = list(roots)
        self._tensors: dict[int, tuple[Any, Tensor]] = {}  # id(torch tensor) -> (it, mirror)
        self._nodes: dict[int, tuple[Any, Node]] = {}  # id(torch node) -> (it, mirror)
        self._retained: list[tuple[Any, Tensor, Any]] = []  # (torch tensor, mirror, torch node)
        self.params: dict[str, Tensor] = {}
        for name, t in (params or {}).items():
            if not is_torch_tensor(t):
                raise TypeError(f"params[{name!r}] is a {type(t).__name__}, not a torch.Tensor")
        self.roots = [self.tensor(t) for t in roots]
        for name, t in (params or {}).items():
            self.params[name] = self.tensor(t)

    # ---- mirroring -------------------------------------------------------------------------

    def tensor(self, t: Any) -> Tensor:
        """The mirror of torch tensor ``t`` (one per tensor)."""
        hit = self._tensors.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
        data = to_numpy(t)
        fn = self.node(t.grad_fn) if t.grad_fn is not None else None
        m = _make(data, from_numpy_dtype(data.dtype), fn, Storage(0), [t._version])
        self._tensors[id(t)] = (t, m)
        if fn is not None:
            m._output_nr = t.output_nr
            if t.retains_grad:
                m._retains_grad = True
                fn._retained = {**(fn._retained or {}), t.output_nr: weakref.ref(m)}
                self._retained.append((t, m, t.grad_fn))
        elif t.requires_grad:
            m._rg = True
            acc_edge = self.torch.autograd.graph.get_gradient_edge(t)
            self.node(acc_edge.node)  # its AccumulateGrad, bound to this mirror
        if (fn is None or t.retains_grad) and t.grad is not None:
            m._grad = _make(to_numpy(t.grad), m.dtype, None, Storage(0), [0])
        if t._base is not None:
            m._base = self.tensor(t._base)
        return m

    def node(self, fn: Any) -> Node:
        """The mirror of torch node ``fn`` (one per node)."""
        hit = self._nodes.get(id(fn))
        if hit is not None and hit[0] is fn:
            return hit[1]
        if type(fn).__name__ == "AccumulateGrad":
            leaf = fn.variable
            acc = AccumulateGrad.__new__(AccumulateGrad)
            self._nodes[id(fn)] = (fn, acc)
            AccumulateGrad.__init__(acc, self.tensor(leaf))
            acc.variable._acc = weakref.ref(acc)
            return acc
        # torch declares its ``_saved_*`` attributes alphabetically, as the engine reports them
        names = tuple(sorted(k[7:] for k in type(fn).__dict__ if k.startswith("_saved_")))
        node = Node.__new__(_node_class(type(fn).__name__, names))
        self._nodes[id(fn)] = (fn, node)
        node._seq = fn._sequence_nr()
        node._saved = {name: self._saved(fn, name) for name in names}
        node._freed = any(v is FREED for v in node._saved.values())
        node._n_outputs = len(fn._input_metadata)
        node.next_functions = tuple((None, 0) if nxt is None else (self.node(nxt), nr)
                                    for nxt, nr in fn.next_functions)
        return node

    def _saved(self, fn: Any, name: str) -> Any:
        """One saved value: tensors mirrored (with their versions), freed ones ``FREED``."""
        try:
            v = getattr(fn, "_saved_" + name)
        except RuntimeError as e:
            text = str(e)
            if _FREED_TEXT in text:
                return FREED
            m = _STALE.search(text)
            if m is None:
                raise
            shape = tuple(int(s) for s in m.group(2).split(",") if s.strip())
            data = np.zeros(shape, dtype=_TYPES.get(m.group(1), "float32"))
            producer = None if m.group(4) is None else _Producer(m.group(4))
            t = _make(data, from_numpy_dtype(data.dtype), producer, Storage(0), [int(m.group(5))])
            if producer is not None:
                t._output_nr = int(m.group(3))
            st = SavedTensor(t, False)
            st.version = int(m.group(6))  # so unpacking raises torch's error, as torch does
            return st
        if is_torch_tensor(v):
            return SavedTensor(self.tensor(v), False)
        if isinstance(v, (list, tuple)) and any(is_torch_tensor(x) for x in v):
            return tuple(self.tensor(x) if is_torch_tensor(x) else x for x in v)
        return v

    def translate(self, obj: Any) -> Any:
        """A ``highlight`` item (torch tensor, node, or a pair of them) as its mirror."""
        if isinstance(obj, tuple) and len(obj) == 2:
            return (self.translate(obj[0]), self.translate(obj[1]))
        if is_torch_tensor(obj):
            return self.tensor(obj)
        if hasattr(obj, "next_functions") and not isinstance(obj, Node):
            return self.node(obj)
        return obj

    # ---- recording a backward ----------------------------------------------------------------

    def backward(self, gradient: Any, retain_graph: bool, listener: Listener) -> None:
        """Run ``torch.autograd.backward`` on the roots, reporting torch's engine to
        ``listener`` as the engine's events (see the module docstring)."""
        torch = self.torch
        grads = gradient if isinstance(gradient, (list, tuple)) else (
            None if gradient is None else [gradient])
        state = _Run(self, listener, retain_graph, grads)
        handles = state.install()
        try:
            torch.autograd.backward(self.torch_roots, grads, retain_graph=retain_graph)
        except Exception as e:
            if state.running is not None:
                listener.on_error(state.running, e)
            raise
        finally:
            for h in handles:
                h.remove()
        state.begin()  # a graph of nothing but already-finished roots still begins
        listener.on_end()
        self.sync()

    def sync(self) -> None:
        """Copy every mirrored tensor's ``.grad`` from torch."""
        for t, m in self._tensors.values():
            if m.grad_fn is None or m._retains_grad:
                g = t.grad
                m._grad = None if g is None else _make(to_numpy(g), m.dtype, None, Storage(0),
                                                       [0])


class _Run:
    """The hooks of one recorded backward and the state they share."""

    def __init__(self, graph: TorchGraph, listener: Listener, retain_graph: bool,
                 grads: Any) -> None:
        self.g, self.listener, self.retain_graph, self.grads = graph, listener, retain_graph, grads
        self.started = False
        self.running: Node | None = None
        self.added: dict[int, np.ndarray] = {}

    def begin(self) -> None:
        if self.started:
            return
        self.started = True
        roots = []
        for t in self.g.torch_roots:
            e = self.g.torch.autograd.graph.get_gradient_edge(t)
            roots.append((self.g.node(e.node), e.output_nr))
        if self.grads is None:
            root_grads = [np.ones(np.shape(m._data), dtype=m._data.dtype) for m in self.g.roots]
        else:
            root_grads = [to_numpy(g) if is_torch_tensor(g) else np.asarray(g)
                          for g in self.grads]
        self.listener.on_begin(roots, root_grads)

    def install(self) -> list[Any]:
        handles = []
        retained: dict[int, list[tuple[Any, Tensor]]] = {}
        for t, m, fn in self.g._retained:
            retained.setdefault(id(fn), []).append((t, m))
        for fn, node in list(self.g._nodes.values()):
            h = fn.register_prehook(self._pre(node, retained.get(id(fn), [])))
            h.hooks_dict_ref().move_to_end(h.id, last=False)
            handles.append(h)
            if type(node) is AccumulateGrad:
                handles.append(fn.register_prehook(self._added(node)))
                leaf = fn.variable
                h = leaf.register_post_accumulate_grad_hook(self._accumulated(node))
                h.hooks_dict_ref().move_to_end(h.id, last=False)
                handles.append(h)
            else:
                handles.append(fn.register_hook(self._post(fn, node)))
        return handles

    def _pre(self, node: Node, retained: list[tuple[Any, Tensor]]) -> Any:
        def hook(grad_outputs: tuple) -> None:
            self.begin()
            self.running = node
            for t, m in retained:
                g = grad_outputs[m._output_nr]
                if g is not None and t.grad is not None:
                    m._grad = _make(to_numpy(t.grad), m.dtype, None, Storage(0), [0])
                    self.listener.on_accumulate(m, to_numpy(g), to_numpy(t.grad))
            self.listener.on_node(node, [_grad_array(g) for g in grad_outputs])
        return hook

    def _added(self, node: Node) -> Any:
        def hook(grad_outputs: tuple) -> None:
            g = grad_outputs[0]
            if g is not None:
                self.added[id(node)] = to_numpy(g).astype(node.variable._data.dtype, copy=False)
        return hook

    def _accumulated(self, node: Node) -> Any:
        def hook(leaf: Any) -> None:
            total = to_numpy(leaf.grad)
            m = node.variable
            m._grad = _make(total, m.dtype, None, Storage(0), [0])
            self.listener.on_accumulate(m, self.added.pop(id(node)), np.array(total, copy=True))
        return hook

    def _post(self, fn: Any, node: Node) -> Any:
        def hook(grad_inputs: tuple, grad_outputs: tuple) -> None:
            if not self.retain_graph:  # every saved tensor, lists of them (indices) too
                names = [k for k, v in node._saved.items() if type(v) is SavedTensor
                         or (isinstance(v, tuple) and any(isinstance(x, Tensor) for x in v))]
                for k in names:
                    node._saved[k] = FREED
                if names:
                    node._freed = True
                    self.listener.on_free(node, names)
            for i, (nxt, nr) in enumerate(node.next_functions):
                if nxt is not None:
                    self.listener.on_edge(node, i, nxt, nr, _grad_array(grad_inputs[i]))
        return hook


def mirror_args(var: Any, params: Any) -> tuple[Any, Any, TorchGraph | None]:
    """``var`` and ``params`` as the views take them: torch tensors mirrored (with the graph
    that mirrors them), others unchanged."""
    if not any_torch(var):
        return var, params, None
    roots = list(var) if isinstance(var, (list, tuple)) else [var]
    graph = TorchGraph(roots, params)
    out = graph.roots if isinstance(var, (list, tuple)) else graph.roots[0]
    return out, (graph.params if params is not None else None), graph
