"""The event log of a real backward pass: one :class:`Frame` per ``Listener`` event.

:class:`BackwardLog` runs the engine's own ``backward`` with a listener and keeps every
event as a :class:`Frame`, in the engine's order and with the engine's arrays: ``begin``
(roots and their gradients), ``node`` (a node about to run, with its summed incoming
gradients), ``edge`` (a gradient sent along ``next_functions[i]``), ``accumulate`` (added
into a leaf's or a retained tensor's ``.grad``), ``free`` (saved tensors released),
``error`` and ``end``. Nothing here computes a gradient. It also indexes each run (which
node ran at which frame, which edge carried what) so that ``frame_state`` can say what any
frame shows without walking the log again.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import engine
from ..node import AccumulateGrad, Node
from ..tensor import Tensor
from ._labels import fmt_array, node_title
from .dot import build_graph
from .graph_spec import GraphSpec
from .torch_bridge import mirror_args

__all__ = ["BackwardLog", "Frame", "Run", "fmt_grad"]

KINDS = ("begin", "node", "edge", "accumulate", "free", "error", "end")


@dataclass(eq=False)
class Frame:
    """One engine event; ``args`` are the ``Listener`` call's arguments as the engine passed them.

    ``begin``: (roots, grads) · ``node``: (node, grad_outputs) · ``edge``: (node, index,
    next_node, input_nr, grad) · ``accumulate``: (tensor, grad, total) · ``free``: (node,
    names) · ``error``: (node, exception) · ``end``: ().
    """

    kind: str
    args: tuple
    run: int
    old: np.ndarray | None = None  # accumulate: ``.grad`` before this addition (None: unset)
    reported: bool = True  # False for an error raised before the engine reached any node

    @property
    def node(self) -> Node | None:
        """The node this frame is about, or None."""
        if self.kind in ("node", "edge", "free", "error"):
            return self.args[0]
        if self.kind == "begin":
            return self.args[0][0][0]
        return None


@dataclass(eq=False)
class Run:
    """One backward call inside a recording: frames ``start`` .. ``stop - 1``."""

    start: int
    stop: int
    retain_graph: bool
    error: BaseException | None = None
    after: dict[int, np.ndarray | None] = field(default_factory=dict)  # .grad after the run
    nodes: list[tuple[int, str]] = field(default_factory=list)  # (frame, svg id) that ran
    edges: list[tuple[int, str, str]] = field(default_factory=list)  # (frame, edge id, text)
    pending: dict[tuple, list[tuple[int, np.ndarray | None]]] = field(default_factory=dict)
    consumed: dict[tuple, int] = field(default_factory=dict)



class _Recorder(engine.Listener):
    """Appends one frame per engine event."""

    def __init__(self, rec: BackwardLog, run: int) -> None:
        self.rec, self.run, self.saw_error = rec, run, False

    def _add(self, kind: str, args: tuple) -> Frame:
        f = Frame(kind, args, self.run)
        self.rec.frames.append(f)
        return f

    def on_begin(self, roots: list, grads: list) -> None:
        self._add("begin", (roots, grads))

    def on_node(self, node: Node, grad_outputs: list) -> None:
        self._add("node", (node, grad_outputs))

    def on_edge(self, node: Node, index: int, next_node: Node, input_nr: int,
                grad: np.ndarray | None) -> None:
        self._add("edge", (node, index, next_node, input_nr, grad))

    def on_accumulate(self, tensor: Tensor, grad: np.ndarray, total: np.ndarray) -> None:
        f = self._add("accumulate", (tensor, grad, total))
        f.old = self.rec._grads.get(id(tensor))
        self.rec._grads[id(tensor)] = total

    def on_free(self, node: Node, names: list[str]) -> None:
        self._add("free", (node, names))

    def on_error(self, node: Node, error: BaseException) -> None:
        self.saw_error = True
        self._add("error", (node, error))

    def on_end(self) -> None:
        self._add("end", ())

def _grad_now(t: Tensor) -> np.ndarray | None:
    g = t._grad
    return None if g is None else np.array(g._data, copy=True)



def fmt_grad(a: Any) -> str:
    """A gradient as captions, labels and the ``.grad`` table show it."""
    return fmt_array(a, max_chars=48)


class BackwardLog:
    """The frames of one or more real backward passes over one graph."""

    def __init__(self, roots: list[Tensor], gradient: Any, inputs: Any,
                 params: dict[str, Tensor] | None, presenter: bool, max_nodes: int | None) -> None:
        roots, params, self.bridge = mirror_args(roots, params)  # torch: its graph, mirrored
        if self.bridge is not None and inputs is not None:
            raise ValueError("record_backward on torch tensors does not support inputs=: torch "
                             "reports nothing for the nodes it skips")
        self.roots, self.gradient, self.inputs = roots, gradient, inputs
        self.presenter = presenter
        # drawn before backward runs, so saved tensors appear as they were
        self.spec: GraphSpec = build_graph(roots, params, show_saved=True, presenter=presenter,
                                           max_nodes=max_nodes)
        self.frames: list[Frame] = []
        self.runs: list[Run] = []
        self.rows: list[tuple[Tensor, str, str]] = self._rows(inputs)  # (tensor, name, kind)
        self._grads: dict[int, np.ndarray | None] = {id(t): _grad_now(t) for t, _, _ in self.rows}
        self._initial = dict(self._grads)
        self._accums: dict[int, list[int]] = {}  # id(tensor) -> accumulate frame indices
        self._freed: list[tuple[int, list[str]]] = []  # (frame, saved svg ids)

    # ---- what is tracked -------------------------------------------------------------------

    def _rows(self, inputs: Any) -> list[tuple[Tensor, str, str]]:
        spec = self.spec
        rows: list[tuple[Tensor, str, str]] = []
        seen: set[int] = set()
        for k, leaf in enumerate(spec.leaves):
            seen.add(id(leaf))
            rows.append((leaf, spec.tensor_label(leaf, f"leaf #{k}"), "leaf"))
        for fn in spec.nodes:
            for nr, ref in sorted((fn._retained or {}).items()):
                t = ref()
                if t is not None and id(t) not in seen:
                    seen.add(id(t))
                    rows.append((t, spec.tensor_label(t, f"{node_title(fn)}[{nr}]"), "retained"))
        for t in self.roots:  # a leaf used as a root: backward accumulates into it directly
            if t.grad_fn is None and t._rg and id(t) not in seen:
                seen.add(id(t))
                rows.append((t, spec.tensor_label(t, f"leaf #{len(rows)}"), "leaf"))
        for t in [inputs] if isinstance(inputs, Tensor) else list(inputs or ()):
            if isinstance(t, Tensor) and id(t) not in seen:
                seen.add(id(t))
                rows.append((t, spec.tensor_label(t, f"input #{len(rows)}"), "input"))
        return rows

    def name_of(self, t: Tensor) -> str:
        """The name a tensor is shown by in this recording."""
        for r, name, _ in self.rows:
            if r is t:
                return name
        return self.spec.tensor_label(t, "tensor")

    def node_name(self, node: Node | None) -> str:
        if node is None:
            return "backward()"
        if type(node) is AccumulateGrad:
            return f"AccumulateGrad({self.name_of(node.variable)})"
        of = self.spec.fn_labels.get(id(node))
        return node_title(node) if of is None else f"{node_title(node)} ({of})"

    def sid(self, node: Node) -> str | None:
        """The SVG id of the function node drawing ``node``, or None."""
        name = self.spec.names.get(("fn", id(node)))
        return None if name is None else GraphSpec.svg_id(name)

    # ---- running ------------------------------------------------------------------------------

    def run_backward(self, retain_graph: bool = False, errors: str = "raise") -> Run:
        """Run the real backward once more on the same roots and append its frames.

        ``errors="record"`` keeps an error (e.g. torch's "Trying to backward through the
        graph a second time ...") as the run's last frame instead of raising it.
        """
        if errors not in ("raise", "record"):
            raise ValueError(f"errors must be 'raise' or 'record', got {errors!r}")
        run = Run(len(self.frames), len(self.frames), bool(retain_graph))
        self.runs.append(run)
        rec = _Recorder(self, len(self.runs) - 1)
        try:
            if self.bridge is not None:  # real torch's engine, heard through its hooks
                self.bridge.backward(self.gradient, retain_graph, rec)
            else:
                engine.backward(self.roots, self.gradient, retain_graph=retain_graph,
                                inputs=self.inputs, listener=rec)
        except Exception as e:  # recorded; re-raised unless errors="record"
            run.error = e
            if not rec.saw_error:  # raised before the engine reached a node
                self.frames.append(Frame("error", (None, e), rec.run, reported=False))
            if errors == "raise":
                raise
        finally:
            run.stop = len(self.frames)
            run.after = {id(t): _grad_now(t) for t, _, _ in self.rows}
            self._grads = dict(run.after)
            self._index(run)
        return run

    def backward_again(self, retain_graph: bool | None = None) -> Run:
        """A second (third ...) backward on the same graph, errors recorded as frames."""
        if retain_graph is None:
            retain_graph = self.runs[-1].retain_graph if self.runs else False
        return self.run_backward(retain_graph, errors="record")

    def _index(self, run: Run) -> None:
        """Per-run lookups that make drawing any frame cheap."""
        spec = self.spec
        for i in range(run.start, run.stop):
            f = self.frames[i]
            if f.kind == "begin":
                for t, g in zip(self.roots, f.args[1]):
                    eid = spec.edges.get(("out", id(t)))
                    if eid is not None:
                        run.edges.append((i, eid, fmt_grad(g)))
            elif f.kind == "node":
                node = f.args[0]
                sid = self.sid(node)
                if sid is not None:
                    run.nodes.append((i, sid))
                for nr in range(len(f.args[1])):
                    run.consumed.setdefault((id(node), nr), i)
            elif f.kind == "edge":
                node, index, nxt, nr, g = f.args
                eid = spec.edges.get(("edge", id(node), index))
                if eid is not None:
                    run.edges.append((i, eid, fmt_grad(g)))
                run.pending.setdefault((id(nxt), nr), []).append((i, g))
            elif f.kind == "accumulate":
                t = f.args[0]
                self._accums.setdefault(id(t), []).append(i)
                acc = t._acc() if t.grad_fn is None and t._acc is not None else None
                eid = spec.edges.get(("var", id(acc))) if acc is not None else None
                if eid is not None:
                    run.edges.append((i, eid, "+= " + fmt_grad(f.args[1])))
            elif f.kind == "free":
                node, names = f.args
                sids = [GraphSpec.svg_id(spec.names[("saved", id(node), n)]) for n in names
                        if ("saved", id(node), n) in spec.names]
                self._freed.append((i, sids))

    # ---- one frame ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.frames)

    def __repr__(self) -> str:
        errs = sum(r.error is not None for r in self.runs)
        return (f"<Recording: {len(self.frames)} frames, {len(self.runs)} backward run(s)"
                f"{f' ({errs} with an error)' if errs else ''}, "
                f"{len(self.spec.nodes)} graph nodes>")

    def check(self, i: int) -> Frame:
        """Frame ``i`` (IndexError when out of range)."""
        if not 0 <= i < len(self.frames):
            raise IndexError(f"frame {i} out of range: this recording has {len(self.frames)}")
        return self.frames[i]

    def head(self, i: int) -> int:
        """The frame that started the current step: the last ``node``/``begin`` at or before i."""
        run = self.runs[self.frames[i].run]
        j = bisect.bisect_right([k for k, _ in run.nodes], i) - 1
        return run.nodes[j][0] if j >= 0 else run.start
