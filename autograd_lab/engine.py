"""The backward engine: runs a recorded graph in reverse. Reading guide:

``loss.backward()`` (``tensor_methods``) calls ``backward`` below, which checks its
arguments, finds where the graph starts (``_root_edge``), and hands over to ``_run``:

1. **Count** (``_dependencies``): for every node reachable from the roots, how many
   edges lead into it.
2. **Schedule** (``_run``, one screen): start from the roots with their gradients. A node
   is ready once every edge into it has delivered (``_Run.deliver`` sums gradients that
   arrive along several paths). Among ready nodes the most recently created runs first,
   and ``AccumulateGrad`` as soon as it is ready -- the order of PyTorch's engine.
3. **Run one node** (``_run_node``), as steps in this order: tensor hooks, retained
   gradients, capture and pruning for ``inputs=``, the listener, node pre-hooks, then
   either accumulation into a leaf's ``.grad`` (``accumulate_grad``, in ``node.py``) or the
   node's own backward (``Node.apply``: the op's formula, in ``ops``), node post-hooks,
   anomaly mode's nan check, freeing the saved tensors, and sending one gradient along
   each edge. Each step is a function below (or two lines, on the hot path).

``create_graph``: backward formulas run with grad mode on, on Tensors, so they record a
graph of their own; otherwise grad mode is off and they run on numpy arrays.

torch's bookkeeping sits at the edge: the ``._version`` its gradient tensors would carry
(in-place sums, formulas ending in place) is ``_grad_versions``'s, kept by ``run.versions``;
which tensor becomes a leaf's first ``.grad`` is ``_grad_layout``'s; the gradients in flight count
as allocated memory (``_grad_memory``), as torch's allocator counts them.
Anomaly mode (``anomaly_mode``): a failing node names the forward call that made it.
It is iterative (a heap and a dict, no recursion), so a 100,000-node chain is fine.

**Observable.** While it runs, the engine reports every step to a ``Listener``
(``listener.py``): the visual tools are built on these events and never re-implement
backward.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from . import _messages as msg
from ._grad_memory import track
from ._grad_versions import GradVersions
from ._zero_tensor import ZeroGrad
from .anomaly_mode import ANOMALY, check_nan, report_error
from .grad_mode import STATE
from .listener import Listener, _listeners, copy, current, listen  # noqa: F401  (re-exported)
from .node import FREED, AccumulateGrad, Node, accumulate_grad, grad_accumulator
from .tensor import Tensor, _make, _wrap_grad

# ---- entry points -----------------------------------------------------------------------------


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, grad_variables: Any = None, inputs: Any = None,
             listener: Listener | None = None) -> None:
    """Accumulate gradients of ``tensors`` into the ``.grad`` of the leaves (or of ``inputs``)."""
    outs = _as_list(tensors)
    grads = _as_list(grad_tensors if grad_tensors is not None else grad_variables)
    _check_grad_types(grads)
    if not grads:
        grads = [None] * len(outs)
    if len(grads) != len(outs):
        raise RuntimeError(f"got {len(outs)} tensors and {len(grads)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        msg.warn_once(msg.CREATE_GRAPH_BACKWARD, stacklevel=3)
    roots = [_root_edge(t, i) for i, t in enumerate(outs)]
    root_grads = _make_grads(outs, grads, create_graph)
    targets = None
    if inputs is not None:
        targets = _as_list(inputs)
        if not targets:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")

    run = _run(roots, root_grads, retain_graph, create_graph, targets, accumulate=True,
               listener=listener)
    for t, g in zip(targets or (), run.captured):
        if t.grad_fn is not None and g is not None:  # a non-leaf named in ``inputs``
            accumulate_grad(t, g, create_graph)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False,
         listener: Listener | None = None) -> tuple:
    """Return d(outputs)/d(inputs) without touching any ``.grad``."""
    outs = _as_list(outputs)
    ins = _as_list(inputs)
    grads = _as_list(grad_outputs) or [None] * len(outs)
    _check_grad_types(grads)
    if len(grads) != len(outs):
        raise RuntimeError(f"got {len(outs)} tensors and {len(grads)} gradients")
    if allow_unused is None:
        allow_unused = materialize_grads
    if retain_graph is None:
        retain_graph = create_graph
    roots = [_root_edge(t, i) for i, t in enumerate(outs)]
    for t in ins:
        if not t._rg:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    root_grads = _make_grads(outs, grads, create_graph)
    run = _run(roots, root_grads, retain_graph, create_graph, ins, accumulate=False,
               listener=listener)
    result = []
    for i, (t, g) in enumerate(zip(ins, run.captured)):
        if g is None:
            if materialize_grads:
                g = np.zeros(t._data.shape, dtype=t.dtype.np)
            elif not allow_unused:
                raise RuntimeError(msg.UNUSED_INPUT.format(i=i))
            else:
                result.append(None)
                continue
        if isinstance(g, Tensor):
            result.append(g if g.dtype is t.dtype else g.to(t.dtype))
            continue
        out = _make(np.array(g, dtype=t.dtype.np, copy=True), t.dtype, None)
        out._vc[0] = run.versions.of(g)  # the gradient as torch returns it: its version too
        out._zero = type(g) is ZeroGrad
        result.append(out)
    return tuple(result)


def _as_list(x: Any) -> list:
    """None, a Tensor, or a sequence of them, as a list."""
    if x is None:
        return []
    if isinstance(x, Tensor):
        return [x]
    return list(x)


def _check_grad_types(grads: list) -> None:
    """torch's error for a ``grad_tensors`` entry that is neither a Tensor nor None."""
    for g in grads:
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")


def _root_edge(t: Tensor, i: int) -> tuple[Node, int]:
    """Where backward starts for output ``t`` (a leaf starts at its AccumulateGrad)."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t._rg and not t._nograd_view:
        return (grad_accumulator(t), 0)
    raise RuntimeError(msg.NO_GRAD_FN.format(i=i))


def _make_grads(outputs: list[Tensor], grads: list, create_graph: bool) -> list:
    """The gradient each root starts with (ones for a scalar), checked as torch does."""
    out = []
    for i, (t, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if t._rg and t._data.size != 1:
                raise RuntimeError(msg.IMPLICIT_NON_SCALAR)
            g = np.ones(t._data.shape, dtype=t.dtype.np)
            out.append(_make(g, t.dtype, None) if create_graph else g)
            continue
        if g._data.shape != t._data.shape:
            raise RuntimeError(msg.shape_mismatch(i, g._data.shape, t._data.shape))
        if g.dtype is not t.dtype:  # torch casts the gradient to the output's dtype
            g = g.to(t.dtype)
        out.append(g if create_graph else g._data)
    return out


# ---- the run: count, schedule, run each node -------------------------------------------------

def _dependencies(roots: list[tuple[Node, int]]) -> dict[Node, int]:
    """Number of edges into each node reachable from the roots."""
    deps: dict[Node, int] = {}
    stack = list(dict.fromkeys(n for n, _ in roots))  # a node named twice is walked once
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt in node._fns:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


class _Run:
    """The state of one backward pass, shared by the steps of ``_run``."""

    __slots__ = ("retain_graph", "create_graph", "accumulate", "listener", "deps", "buffers",
                 "heap", "needed", "target_nodes", "capture", "captured", "versions")

    def __init__(self, deps: dict[Node, int], retain_graph: bool, create_graph: bool,
                 accumulate: bool, listener: Listener | None) -> None:
        self.deps = deps  # edges not yet delivered, per node
        self.retain_graph, self.create_graph = retain_graph, create_graph
        self.accumulate = accumulate  # backward() fills .grad; grad() only captures
        self.listener = listener
        self.buffers: dict[Node, list] = {}  # summed gradient of each output, per node
        self.heap: list[_Ready] = []  # ready nodes, most recently created first
        self.needed: set[Node] | None = None  # with ``inputs``: the nodes worth running
        self.target_nodes: set[Node] = set()
        self.capture: dict[tuple[Node, int], list[int]] = {}  # edge -> indices into inputs
        self.captured: list = []
        self.versions = GradVersions()  # torch's ``._version`` of the gradients (an edge module)

    def deliver(self, node: Node, nr: int, g: Any) -> None:
        """Add ``g`` to output ``nr`` of ``node``; queue it once every edge has delivered."""
        buf = self.buffers.get(node)
        if buf is None:
            buf = self.buffers[node] = [None] * node._n_outputs
        if g is not None:
            if buf[nr] is None:
                buf[nr] = g
            else:
                self.versions.add(buf, nr, g)  # torch's version of the sum, kept
                track(buf[nr])  # a new sum is memory in flight (``g`` was counted when made)
        left = self.deps[node] - 1
        self.deps[node] = left
        if left == 0:
            heapq.heappush(self.heap, _Ready(node))

    def start(self, node: Node, nr: int, g: Any) -> None:
        """A root's gradient: queued at once unless edges also lead into the root."""
        buf = self.buffers.get(node)
        if buf is None:
            buf = self.buffers[node] = [None] * node._n_outputs
            if self.deps.get(node, 0) == 0:
                heapq.heappush(self.heap, _Ready(node))
        buf[nr] = g if buf[nr] is None else buf[nr] + g
        track(buf[nr])


class _Ready:
    """A ready node in the queue. Ties (the AccumulateGrad nodes, all of the highest
    priority) are left in the order the binary heap leaves them, as in torch's
    ``std::priority_queue``, whose push and pop heapq's mirror step for step: the leaves of
    ``torch.stack([x0, x1, x2, x3])`` get their ``.grad`` in the order 0, 2, 1, 3."""

    __slots__ = ("key", "node")

    def __init__(self, node: Node) -> None:
        self.key, self.node = -node._seq, node

    def __lt__(self, other: _Ready) -> bool:
        return self.key < other.key


def _run(roots: list[tuple[Node, int]], root_grads: list, retain_graph: bool,
         create_graph: bool, targets: list[Tensor] | None, accumulate: bool,
         listener: Listener | None = None) -> _Run:
    """Run the graph backward from ``roots``; ``.captured``: the gradients of ``targets``
    that arrived."""
    listener = current(listener)
    run = _Run(_dependencies(roots), retain_graph, create_graph, accumulate, listener)
    _PARTIAL.append(targets is not None or not accumulate)
    if targets is not None:
        _prune(run, roots, targets)
    for (node, nr), g in zip(roots, root_grads):
        run.start(node, nr, g)
    if listener is not None:
        listener.on_begin(list(roots), [copy(g) for g in root_grads])

    prev_mode, prev_parent = STATE.enabled, ANOMALY.parent
    STATE.enabled = create_graph  # backward formulas record a graph only under create_graph
    try:
        heap, buffers = run.heap, run.buffers
        while heap:
            node = heapq.heappop(heap).node
            if ANOMALY.enabled:  # nodes made by this backward (create_graph) name it as parent
                ANOMALY.parent = node
            try:
                _run_node(node, buffers.pop(node), run)
            except BaseException as e:
                if ANOMALY.enabled:
                    report_error(node)  # where the failing node's forward call was
                if listener is not None:
                    listener.on_error(node, e)
                raise
    finally:
        STATE.enabled, ANOMALY.parent = prev_mode, prev_parent
        _PARTIAL.pop()
    if listener is not None:
        listener.on_end()
    return run


_PARTIAL: list[bool] = []  # per backward in progress: is it grad() or backward(inputs=...)?


def in_partial_backward() -> bool:
    """Whether the innermost backward running now computes only some gradients (``grad()``,
    ``backward(inputs=...)``): a reentrant checkpoint cannot run inside one."""
    return bool(_PARTIAL) and _PARTIAL[-1]


def _run_node(node: Node, grads: list, run: _Run) -> None:
    """Run one ready node: the steps of the reading guide, in order."""
    listener, needed = run.listener, run.needed
    if node._tensor_pre_hooks:  # hooks of the tensors this node made (Tensor.register_hook)
        grads = _tensor_hooks(node, grads)
    if node._retained:  # outputs that asked for retain_grad()
        _retain(node, grads, run.create_graph, listener)
    if run.capture:  # grad() / backward(inputs=): keep the gradients of the targets
        _capture(node, grads, run)
    is_acc = type(node) is AccumulateGrad
    if needed is not None and node not in needed and not (run.accumulate and is_acc):
        return  # a target reached: its gradient was captured, nothing beyond it is wanted
    if listener is not None:
        listener.on_node(node, [copy(g) for g in grads])
    if node._pre_hooks:
        grads = _node_pre_hooks(node, grads)
    if is_acc:
        if run.accumulate and grads[0] is not None:
            added = accumulate_grad(node.variable, grads[0], run.create_graph,
                                    run.versions.of(grads[0]))
            if listener is not None:
                listener.on_accumulate(node.variable, copy(added), copy(node.variable._grad))
            post = node.variable.__dict__.get("_post_accumulate_hooks")
            if post:
                _post_accumulate_hooks(node.variable, post)
        if node._post_hooks:
            _node_post_hooks(node, (), grads)
        return
    if grads[0] is None and all(g is None for g in grads):
        out: tuple = (None,) * len(node._fns)
    else:  # the node's backward: the op's formula, one gradient per edge
        out = node.apply(_materialize(node, grads) if node._n_outputs > 1 else grads)
        if len(out) != len(node._fns):
            raise _wrong_count(node, out)
        if node.grad_versions is not None:  # formulas ending in place: torch's versions
            out = run.versions.after_formula(out, node.grad_versions)
    if node._post_hooks:
        out = _node_post_hooks(node, out, grads)
    for g in out:  # gradients in flight count as allocated memory, as in torch's allocator:
        track(g)  # from now on, before the saved tensors go (torch's memory profile)
    if ANOMALY.enabled and ANOMALY.check_nan:
        check_nan(node, out)
    if not run.retain_graph:  # free the saved tensors
        if listener is None:
            node._release()
        else:
            _free(node, listener)
    grads = None  # as torch's: only the outputs hold the inputs once the node has run (so an
    out = list(out)  # input buffer may be summed in place), and each output moves on its edge
    nrs = node._nrs
    for i, nxt in enumerate(node._fns):
        g, out[i] = out[i], None
        if nxt is None or (needed is not None and nxt not in needed
                           and nxt not in run.target_nodes):
            continue
        nr = nrs[i]
        if listener is not None:
            listener.on_edge(node, i, nxt, nr, copy(g))
        run.deliver(nxt, nr, g)


# ---- the named steps -------------------------------------------------------------------------

def _wrong_count(node: Node, out: tuple) -> RuntimeError:
    """torch's error for a backward that returned a gradient too many or too few."""
    return RuntimeError(
        f"function {node.name()} returned an incorrect number of gradients (expected "
        f"{len(node.next_functions)}, got {len(out)})"
    )


def _materialize(node: Node, grads: list) -> list:
    """Multi-output nodes get zeros for outputs that received no gradient."""
    metas = getattr(node, "output_meta", None)
    if metas is None:
        return grads
    out = []
    for g, (shape, dt) in zip(grads, metas):
        if g is None:
            z = np.zeros(shape, dtype=dt.np)
            g = _make(z, dt, None) if STATE.enabled else z
        out.append(g)
    return out


def _free(node: Node, listener: Listener) -> None:
    """Without ``retain_graph``: release the node's saved tensors once it has run, and tell
    the listener which ones, by name in torch's order (alphabetical, as its ``_saved_*``
    attributes are declared; torch releases them all at once). A saved Python number is one
    of them: torch saves it as a 0-d tensor and frees it too."""
    held = {k for k, v in node._saved.items() if v is not FREED}
    node._release()
    names = sorted(k for k in held if node._saved[k] is FREED)
    if names:
        listener.on_free(node, names)


def _retain(node: Node, grads: list, create_graph: bool, listener: Listener | None) -> None:
    """Store the gradients of outputs that asked for ``retain_grad()``."""
    for nr, ref in node._retained.items():
        t = ref()
        if t is None or grads[nr] is None:
            continue
        g = grads[nr]
        if isinstance(g, Tensor):
            g = g if g.dtype is t.dtype else g.to(t.dtype)
            g = g if create_graph else g.detach()
            if t._grad is None:
                t._grad = g if create_graph else _make(np.array(g._data, copy=True), t.dtype, None)
            else:
                t._grad = t._grad + g
        else:
            if t._grad is None:
                t._grad = _make(np.array(g, dtype=t.dtype.np, copy=True), t.dtype, None)
            else:
                t._grad = _make((t._grad._data + g).astype(t.dtype.np, copy=False), t.dtype,
                                None)
        if listener is not None:
            listener.on_accumulate(t, copy(g), copy(t._grad))


# ``inputs=`` pruning: only nodes on a path to a target run; the targets' gradients are kept.

def _prune(run: _Run, roots: list[tuple[Node, int]], targets: list[Tensor]) -> None:
    """Set up the capture of the targets' gradients and the set of nodes worth running."""
    for i, t in enumerate(targets):
        e = _target_edge(t)
        if e[0] is not None:
            run.capture.setdefault(e, []).append(i)
    run.target_nodes = {n for n, _ in run.capture}
    run.needed = _needed(roots, run.deps, run.target_nodes)
    run.captured = [None] * len(targets)


def _target_edge(t: Tensor) -> tuple[Node | None, int]:
    """Where an ``inputs`` tensor's gradient arrives (None: a leaf never used in a graph)."""
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    acc = t._acc() if t._acc is not None else None
    return (acc, 0)


def _needed(roots: list[tuple[Node, int]], deps: dict[Node, int], targets: set[Node]) -> set[Node]:
    """Nodes worth running: those with an edge into a target or into another such node."""
    indeg = dict(deps)
    ready = list({n for n, _ in roots if indeg.get(n, 0) == 0})
    order: list[Node] = []
    while ready:  # Kahn's topological order, then decide in reverse
        node = ready.pop()
        order.append(node)
        for nxt in node._fns:
            if nxt is not None:
                indeg[nxt] -= 1
                if indeg[nxt] == 0:
                    ready.append(nxt)
    needed: set[Node] = set()
    for node in reversed(order):
        for nxt in node._fns:
            if nxt is not None and (nxt in needed or nxt in targets):
                needed.add(node)
                break
    return needed


def _capture(node: Node, grads: list, run: _Run) -> None:
    """Keep the gradient of each target tensor that is an output of ``node``."""
    for nr, g in enumerate(grads):
        for i in run.capture.get((node, nr), ()):
            run.captured[i] = g


# Hooks see gradients as Tensors; the engine carries arrays unless ``create_graph``.

def _as_tensor(g: Any) -> Tensor | None:
    """A gradient as hooks see it: a Tensor (or None)."""
    if g is None or isinstance(g, Tensor):
        return g
    return _wrap_grad(g)


def _unwrap(g: Any, create_graph: bool) -> Any:
    """A gradient back in the engine's form: a Tensor under create_graph, else an array."""
    if g is None or not isinstance(g, Tensor):
        return g
    return g if create_graph else g._data


def _tensor_hooks(node: Node, grads: list) -> list:
    """Run the ``Tensor.register_hook`` hooks of the node's outputs; a return replaces g.
    An output that got no gradient (another output of unbind) shows its hooks None."""
    grads = list(grads)
    leaf = node.variable if type(node) is AccumulateGrad else None
    for nr, hooks in node._tensor_pre_hooks.items():
        dt = leaf.dtype if leaf is not None else node.__dict__.get("_hook_dtypes", {}).get(nr)
        g = _as_tensor(grads[nr])
        if g is not None and dt is not None and g.dtype is not dt:
            g = g.to(dt)  # torch's engine casts a gradient to its tensor's dtype first
        for h in list(hooks):
            r = h(g)
            if r is not None:
                if not isinstance(r, Tensor):
                    raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
                if g is not None and r._data.shape != g._data.shape:
                    name = getattr(h, "__name__", type(h).__name__)
                    raise RuntimeError(f"hook '{name}' has changed the size of value")
                g = r
        grads[nr] = _unwrap(g, STATE.enabled)
    return grads


def _post_accumulate_hooks(leaf: Tensor, hooks: list) -> None:
    """``Tensor.register_post_accumulate_grad_hook``: ``hook(leaf)`` once ``.grad`` holds the
    sum; a hook may only return None."""
    for h in list(hooks):
        r = h(leaf)
        if r is not None:
            raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")


def _node_pre_hooks(node: Node, grads: list) -> list:
    """Run ``node.register_prehook`` hooks on the gradients of its outputs."""
    gs = tuple(_as_tensor(g) for g in grads)
    for h in list(node._pre_hooks):
        r = h(gs)
        if r is not None:
            gs = tuple(r)
    return [_unwrap(g, STATE.enabled) for g in gs]


def _node_post_hooks(node: Node, out: tuple, grads: list) -> tuple:
    """Run ``node.register_hook`` hooks on (grad_inputs, grad_outputs)."""
    gi = tuple(_as_tensor(g) for g in out)
    go = tuple(_as_tensor(g) for g in grads)
    for h in list(node._post_hooks):
        r = h(gi, go)
        if r is not None:
            gi = tuple(r)
    return tuple(_unwrap(g, STATE.enabled) for g in gi)
