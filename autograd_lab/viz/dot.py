"""``make_dot``: draw an autograd graph with Graphviz, in torchviz's look.

Three views of the same recorded graph (walked from ``var.grad_fn`` through
``next_functions``, nothing re-computed):

- ``view="grad_fn"`` (torchviz): gray function nodes, light-blue leaves (named from
  ``params``, with their shape), ``AccumulateGrad`` nodes, green outputs, and with
  ``show_saved`` the orange saved tensors (a saved tensor gets its own node even when
  it is a leaf; after a backward without ``retain_graph`` it is drawn dashed, "freed").
- ``view="value"`` (micrograd): a record ``label | data | grad`` per tensor with op
  nodes between them; values come from the outputs, ``params`` and saved tensors.
- ``view="both"``: the two halves side by side -- Tensors (data, ``grad_fn`` pointer)
  and Functions (``next_functions``, ``variable``, saved tensors) -- arrows are references.

Output is deterministic: DOT node names ``n0, n1, ...`` in breadth-first order from
the outputs (SVG ids ``n_0, n_1, ...``; edges ``e_0, e_1, ...``), statements in the
same order, no ``id()`` or address anywhere, so the DOT source is byte-identical
across runs and processes. The walk is iterative (a 10,000-node chain is fine).
``max_nodes`` (default 500) raises :class:`GraphTooLargeError` before Graphviz would
spend minutes on a huge layout; pass a larger value (or ``None``) to draw it anyway.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..node import FREED, AccumulateGrad, Node, SavedTensor
from ..tensor import Tensor
from ._graphviz import AutogradDigraph
from ._labels import (
    MAX_NAME_CHARS,
    escape,
    fmt_array,
    fmt_bytes,
    html_label,
    left_lines,
    node_title,
    op_name,
    size_str,
    truncate,
)
from .memory import saved_bytes

__all__ = ["GraphSpec", "GraphTooLargeError", "build_graph", "make_dot"]

VIEWS = ("grad_fn", "value", "both")
FUNCTION = "lightgrey"
LEAF = "lightblue"
SAVED = "orange"
OUTPUT = "darkolivegreen1"
BASE = "darkolivegreen3"  # the base of an output that is a view (torchviz)
FREED_FILL = "#eeeeee"
FREED_LINE = "#999999"
HIGHLIGHT = "#d62728"
STALE = "#ff7b7b"  # a saved tensor modified in place since it was saved
_OPS = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Pow": "**", "Mm": "@", "Mv": "@",
        "Bmm": "@", "Dot": "@", "Neg": "neg"}


class GraphTooLargeError(ValueError):
    """The graph has more nodes than ``max_nodes``; Graphviz would take too long to lay it out."""


def op_symbol(node: Node) -> str:
    """``MulBackward0`` -> ``*``, ``LogSoftmaxBackward0`` -> ``log_softmax`` (value view)."""
    name = node_title(node)
    i = name.rfind("Backward")
    return _OPS.get(name[:i] if i > 0 else name, op_name(node))


class GraphSpec:
    """A drawn graph: the ``Digraph`` plus which DOT node or edge stands for which object.

    Keys: ``("fn", id(node))`` function/op nodes, ``("t", id(tensor))`` tensor nodes,
    ``("val", id(node), nr)`` value records of non-leaf results, ``("saved", id(node), name)``
    saved tensors; edges ``("edge", id(node), i)`` for ``node.next_functions[i]``,
    ``("out", id(tensor))`` grad_fn -> output, ``("var", id(acc))`` leaf -> AccumulateGrad,
    ``("savedge", id(node), name)``. The objects are kept alive with the spec, so ids stay valid.
    """

    def __init__(self, dot: AutogradDigraph, view: str) -> None:
        self.dot = dot
        self.view = view
        self.names: dict[tuple, str] = {}  # node key -> DOT name "n3"
        self.edges: dict[tuple, str] = {}  # edge key -> SVG id "e_5"
        self.kinds: dict[str, str] = {}  # DOT name -> fn | acc | leaf | output | saved | ...
        self.stmt: dict[str, int] = {}  # SVG id -> index of its statement in ``dot.body``
        self.nodes: list[Node] = []  # function nodes in traversal order
        self.leaves: list[Tensor] = []  # AccumulateGrad variables in traversal order
        self.labels: dict[int, str] = {}  # id(tensor) -> display name (params)
        self.fn_labels: dict[int, str] = {}  # id(node) -> name of the named tensor it made
        self._keep: list[Any] = []

    @staticmethod
    def svg_id(name: str) -> str:
        """The SVG element id of DOT node ``n3``: ``n_3``."""
        return f"{name[0]}_{name[1:]}"

    def node_name(self, obj: Any) -> str | None:
        """The DOT name drawing ``obj`` (a Node or a Tensor), or None."""
        for key in _candidate_keys(obj, self.view):
            if key in self.names:
                return self.names[key]
        return None

    def tensor_label(self, t: Tensor, default: str = "") -> str:
        """The label given to tensor ``t`` (``default`` if none)."""
        return self.labels.get(id(t), default)


def _candidate_keys(obj: Any, view: str) -> list[tuple]:
    if isinstance(obj, Node):
        return [("fn", id(obj))]
    if isinstance(obj, Tensor):
        keys: list[tuple] = [("t", id(obj))]
        if obj.grad_fn is not None:
            if view == "value":
                keys.append(("val", id(obj.grad_fn), obj._output_nr))
            else:
                keys.append(("fn", id(obj.grad_fn)))
        return keys
    raise TypeError(
        f"highlight items must be Nodes, Tensors or (a, b) pairs of them, got {type(obj).__name__}"
    )


class _Builder:
    """Walks the graph once (breadth first, iteratively) and emits DOT statements in order."""

    def __init__(self, outputs: list[Tensor], params: dict[str, Tensor], *, view: str,
                 show_attrs: bool, show_saved: bool, max_attr_chars: int, rankdir: str,
                 highlight: Iterable[Any] | None, max_nodes: int | None, saved_bytes: bool,
                 presenter: bool = False, versions: bool = False) -> None:
        self.outputs = outputs
        self.view = view
        self.show_attrs, self.show_saved = show_attrs, show_saved
        self.max_attr_chars = max(int(max_attr_chars), 4)
        self.max_nodes = max_nodes
        self.saved_bytes, self.versions = saved_bytes, versions
        fontsize = "18" if presenter else "10"
        node_attr = dict(style="filled", shape="box", align="left", fontsize=fontsize,
                         ranksep="0.1", height="0.2", fontname="monospace")
        if presenter:
            node_attr["penwidth"] = "2.5"
        graph_attr = dict(size="12,12", rankdir=rankdir)
        edge_attr = {"penwidth": "2.5", "fontsize": fontsize} if presenter else {}
        self.dot = AutogradDigraph(node_attr=node_attr, graph_attr=graph_attr,
                                   edge_attr=edge_attr)
        self.spec = GraphSpec(self.dot, view)
        self.spec._keep.extend(outputs)
        self.spec._keep.extend(params.values())
        self.labels = self.spec.labels
        for name, t in params.items():
            self.labels.setdefault(id(t), str(name))
            if t.grad_fn is not None:
                self.spec.fn_labels.setdefault(id(t.grad_fn), str(name))
        self.n_emitted = 0
        self.hl_nodes: set[tuple] = set()
        self.hl_edges: set[frozenset] = set()
        self._highlight = list(highlight) if highlight is not None else []

    # ---- naming and emitting ------------------------------------------------------------------

    def name(self, key: tuple, obj: Any = None) -> str:
        names = self.spec.names
        n = names.get(key)
        if n is None:
            n = names[key] = f"n{len(names)}"
            if obj is not None:
                self.spec._keep.append(obj)
        return n

    def _too_large(self, count: int) -> None:
        if self.max_nodes is not None and count > self.max_nodes:
            raise GraphTooLargeError(
                f"the graph has more than max_nodes={self.max_nodes} nodes to draw; "
                "Graphviz layout time grows quickly with size. Pass a larger max_nodes (or "
                "max_nodes=None) to draw it anyway, or draw a smaller part of the graph."
            )

    def node(self, key: tuple, label: str, kind: str, **attrs: str) -> str:
        self.n_emitted += 1
        self._too_large(self.n_emitted)
        name = self.name(key)
        self.spec.kinds[name] = kind
        if key in self.hl_nodes:
            attrs.update(color=HIGHLIGHT, penwidth="4")
        self.dot.node(name, label, id=GraphSpec.svg_id(name), **attrs)
        if self.dot is self.spec.dot:
            self.spec.stmt[GraphSpec.svg_id(name)] = len(self.dot.body) - 1
        return name

    def edge(self, key: tuple, tail: tuple, head: tuple, **attrs: str) -> None:
        eid = self.spec.edges[key] = f"e_{len(self.spec.edges)}"
        if frozenset((tail, head)) in self.hl_edges:
            attrs.update(color=HIGHLIGHT, penwidth="4")
        self.dot.edge(self.name(tail), self.name(head), id=eid, **attrs)
        if self.dot is self.spec.dot:
            self.spec.stmt[eid] = len(self.dot.body) - 1

    # ---- pass 1: the function nodes, breadth first ----------------------------------------

    def collect(self) -> None:
        """Every function node reachable from the outputs, in breadth-first discovery order."""
        seen: set[int] = set()
        order = self.spec.nodes
        queue: deque[Node] = deque()

        def visit(fn: Node | None) -> None:
            if fn is not None and id(fn) not in seen:
                seen.add(id(fn))
                order.append(fn)
                self._too_large(len(order))
                queue.append(fn)

        for t in self.outputs:
            visit(t.grad_fn)
            if t._base is not None:
                visit(t._base.grad_fn)
        while queue:
            for nxt, _ in queue.popleft().next_functions:
                visit(nxt)
        self.spec._keep.extend(order)
        for fn in order:
            if type(fn) is AccumulateGrad:
                self.spec.leaves.append(fn.variable)

    def resolve_highlight(self, tensor_keys: set[tuple]) -> None:
        """Turn ``highlight`` items into node keys / edge key pairs (error if not drawn)."""
        fn_keys = {("fn", id(n)) for n in self.spec.nodes}
        drawable = fn_keys | tensor_keys

        def key_of(obj: Any) -> tuple:
            for k in _candidate_keys(obj, self.view):
                if k in drawable:
                    return k
            what = node_title(obj) if isinstance(obj, Node) else "tensor"
            raise ValueError(f"highlight: this {what} is not part of the drawn graph")

        for item in self._highlight:
            if isinstance(item, tuple) and len(item) == 2:
                self.hl_edges.add(frozenset((key_of(item[0]), key_of(item[1]))))
            else:
                self.hl_nodes.add(key_of(item))

    # ---- labels ---------------------------------------------------------------------------------

    def fn_label(self, fn: Node) -> str:
        name = escape(node_title(fn), None)
        extra: list[str] = []
        if self.saved_bytes and type(fn) is not AccumulateGrad:
            n = saved_bytes(fn)
            freed = any(v is FREED for v in fn._saved.values())
            extra.append(escape(f"saved {fmt_bytes(n)}" + (" (freed)" if freed and not n else "")))
        if self.show_attrs:
            attrs = self.attrs(fn)
            if attrs:
                w1 = max(len(k) for k in attrs)
                w2 = min(max(len(v) for v in attrs.values()), self.max_attr_chars)
                rows = [f"{k:<{w1}}: {truncate(v, w2):>{w2}}" for k, v in attrs.items()]
                sep = "-" * max(w1 + w2 + 2, len(node_title(fn)))
                body = [escape(r, None).replace(" ", "&#160;") for r in [sep, *rows]]
                return "<" + left_lines([name, *extra, *body]) + ">"
        return html_label(name, *extra)

    def attrs(self, fn: Node) -> dict[str, str]:
        """The node's saved values as torchviz's ``show_attrs`` lists them."""
        out: dict[str, str] = {}
        for k, v in fn._saved.items():
            k = truncate(str(k), MAX_NAME_CHARS)
            if type(v) is SavedTensor:
                out[k] = "[saved tensor]"
            elif v is FREED:
                out[k] = "[freed]"
            elif isinstance(v, tuple) and any(isinstance(x, (Tensor, np.ndarray)) for x in v):
                out[k] = "[saved tensors]"
            else:
                out[k] = str(v)
        return out

    def tensor_lines(self, t: Tensor, name: str | None = None) -> list[str]:
        name = self.labels.get(id(t), "") if name is None else name
        lines = [escape(name)] if name else []
        return [*lines, escape(size_str(t._data.shape))]

    def saved_label(self, fn: Node, name: str, st: Any) -> tuple[str, dict[str, str]]:
        """Label and attributes of one saved slot (present, stale or freed)."""
        title = name
        inner = getattr(st, "tensor", None)
        if inner is not None and id(inner) in self.labels:
            title = f"{name} ({self.labels[id(inner)]})"
        if st is FREED:
            label = html_label(escape(title), "(freed)")
            return label, dict(fillcolor=FREED_FILL, color=FREED_LINE, fontcolor=FREED_LINE,
                               style="dashed,filled")
        lines = [escape(title), escape(size_str(st.shape))]
        attrs = dict(fillcolor=SAVED)
        if self.versions:
            saved_v, now_v = st.saved_version, st.current_version
            lines.append(escape(f"saved at v{saved_v}, now v{now_v}"))
            if saved_v != now_v:
                lines.append("STALE")
                attrs = dict(fillcolor=STALE, color="red", penwidth="3", fontcolor="black")
        return html_label(*lines), attrs

    # ---- pass 2: the grad_fn view ------------------------------------------------------------

    def grad_fn_view(self) -> None:
        outs = self.outputs
        tensor_keys = {("t", id(t)) for t in outs} | {("t", id(v)) for v in self.spec.leaves}
        tensor_keys |= {("t", id(t._base)) for t in outs if t._base is not None}
        self.resolve_highlight(tensor_keys)
        drawn: set[tuple] = set()

        def tensor_node(t: Tensor, color: str, kind: str) -> tuple:
            key = ("t", id(t))
            if key not in drawn:
                drawn.add(key)
                self.name(key, t)
                self.node(key, html_label(*self.tensor_lines(t)), kind, fillcolor=color)
            return key

        for t in outs:
            key = tensor_node(t, OUTPUT, "output")
            if t.grad_fn is not None:
                self.edge(("out", id(t)), ("fn", id(t.grad_fn)), key)
            if t._base is not None:
                bkey = tensor_node(t._base, BASE, "base")
                if t._base.grad_fn is not None:
                    self.edge(("out", id(t._base)), ("fn", id(t._base.grad_fn)), bkey)
                self.edge(("base", id(t)), bkey, key, style="dotted")
        for fn in self.spec.nodes:
            fkey = ("fn", id(fn))
            is_acc = type(fn) is AccumulateGrad
            attrs = dict(fillcolor=FUNCTION)
            if self.versions and any(st.saved_version != st.current_version
                                     for _, st in fn.saved_tensors_info()):
                attrs.update(color="red", penwidth="3")
            self.node(fkey, self.fn_label(fn), "acc" if is_acc else "fn", **attrs)
            # as torchviz: a custom Function's saved tensors are always drawn
            if self.show_saved or hasattr(type(fn), "saved_tensors"):
                for sname, st in fn._saved.items():
                    if type(st) is not SavedTensor and st is not FREED:
                        continue
                    skey = ("saved", id(fn), sname)
                    label, attrs = self.saved_label(fn, str(sname), st)
                    self.name(skey)
                    self.node(skey, label, "freed" if st is FREED else "saved", **attrs)
                    self.edge(("savedge", id(fn), sname), fkey, skey, dir="none")
            if is_acc:
                vkey = tensor_node(fn.variable, LEAF, "leaf")
                self.edge(("var", id(fn)), vkey, fkey)
            for i, (nxt, _) in enumerate(fn.next_functions):
                if nxt is not None:
                    self.edge(("edge", id(fn), i), ("fn", id(nxt)), fkey)

    # ---- pass 2: the value view --------------------------------------------------------------

    def known_values(self) -> dict[tuple, Tensor | np.ndarray]:
        """(id(node), output_nr) -> a tensor or array holding that result's value."""
        known: dict[tuple, Any] = {}
        named = [t for t in self.spec._keep if isinstance(t, Tensor)]
        for t in named:
            if t.grad_fn is not None:
                known.setdefault((id(t.grad_fn), t._output_nr), t)
        for fn in self.spec.nodes:
            for _, st in fn.saved_tensors_info():
                inner = getattr(st, "tensor", None)
                if inner is not None and inner.grad_fn is not None:
                    known.setdefault((id(inner.grad_fn), inner._output_nr), inner)
                elif inner is None and getattr(st, "producer", None) is not None:
                    known.setdefault((id(st.producer), st.output_nr), st.data)
        return known

    def record(self, key: tuple, name: str, value: Any, grad: Any, color: str,
               kind: str) -> None:
        """A micrograd-style record node ``name | data ... | grad ...`` (an HTML table)."""
        if isinstance(value, Tensor):
            value = value._data
        data = "(not kept)" if value is None else fmt_array(value, self.max_attr_chars)
        cells = [escape(name) or "&#160;", escape(f"data {data}", None),
                 escape(f"grad {grad}", None)]
        tds = "".join(f"<TD>{c}</TD>" for c in cells)
        label = (f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" '
                 f'BGCOLOR="{color}"><TR>{tds}</TR></TABLE>>')
        self.node(key, label, kind, shape="plain", style="solid")

    @staticmethod
    def grad_text(t: Tensor | None) -> str:
        if t is None:
            return "-"
        if t.grad_fn is not None and not t._retains_grad:
            return "-"
        return fmt_array(None if t._grad is None else t._grad._data)

    def value_view(self) -> None:
        outs = self.outputs
        known = self.known_values()
        out_ids = {id(t) for t in outs}
        tensor_keys = {("t", id(v)) for v in self.spec.leaves}
        tensor_keys |= {("t", id(t)) for t in outs if t.grad_fn is None}
        val_keys = {("val", id(t.grad_fn), t._output_nr) for t in outs if t.grad_fn is not None}
        for fn in self.spec.nodes:
            for nxt, nr in fn.next_functions:
                if nxt is not None and type(nxt) is not AccumulateGrad:
                    val_keys.add(("val", id(nxt), nr))
        self.resolve_highlight(tensor_keys | val_keys)
        drawn: set[tuple] = set()

        def value_key(fn: Node, nr: int) -> tuple:
            key = ("val", id(fn), nr)
            if key not in drawn:
                drawn.add(key)
                self.name(key)
                t = known.get((id(fn), nr))
                is_t = isinstance(t, Tensor)
                name = self.labels.get(id(t), "") if is_t else ""
                is_out = is_t and id(t) in out_ids
                self.record(key, name, t, self.grad_text(t) if is_t else "-",
                            OUTPUT if is_out else "white", "output" if is_out else "value")
                self.edge(("result", id(fn), nr), ("fn", id(fn)), key)
            return key

        def leaf_key(t: Tensor, color: str, kind: str) -> tuple:
            key = ("t", id(t))
            if key not in drawn:
                drawn.add(key)
                self.name(key, t)
                self.record(key, self.labels.get(id(t), ""), t, self.grad_text(t), color, kind)
            return key

        for t in outs:
            if t.grad_fn is None:
                leaf_key(t, OUTPUT, "output")
            else:
                self.name(("fn", id(t.grad_fn)))
                value_key(t.grad_fn, t._output_nr)
        for fn in self.spec.nodes:
            if type(fn) is AccumulateGrad:
                continue
            fkey = ("fn", id(fn))
            self.node(fkey, html_label(escape(op_symbol(fn))), "fn", shape="ellipse",
                      fillcolor=FUNCTION)
            for i, (nxt, nr) in enumerate(fn.next_functions):
                if nxt is None:
                    continue
                if type(nxt) is AccumulateGrad:
                    src = leaf_key(nxt.variable, LEAF, "leaf")
                else:
                    self.name(("fn", id(nxt)))
                    src = value_key(nxt, nr)
                self.edge(("edge", id(fn), i), src, fkey)

    # ---- pass 2: both halves -----------------------------------------------------------------

    def both_view(self) -> None:
        """Tensors (left) and the function nodes (right); every arrow is a Python reference."""
        tensors: list[Tensor] = []
        seen: set[int] = set()

        def add(t: Tensor) -> None:
            if id(t) not in seen:
                seen.add(id(t))
                tensors.append(t)

        for t in self.outputs:
            add(t)
        for t in self.spec._keep:
            if isinstance(t, Tensor) and id(t) in self.labels:
                add(t)
        for v in self.spec.leaves:
            add(v)
        for fn in self.spec.nodes if self.show_saved else ():
            for _, st in fn.saved_tensors_info():
                if getattr(st, "tensor", None) is not None:
                    add(st.tensor)
        self.spec._keep.extend(tensors)
        self.resolve_highlight({("t", id(t)) for t in tensors})
        fn_ids = {id(n) for n in self.spec.nodes}
        out_ids = {id(t) for t in self.outputs}
        self.dot.graph_attr.update(newrank="true", rankdir="LR", nodesep="0.3", ranksep="0.6",
                                   fontname="monospace")
        self.dot.edge_attr.update(fontname="monospace")
        with self.dot.subgraph(name="cluster_tensors") as sub:
            sub.attr(label="Tensors: data, grad, grad_fn", style="rounded", color="#4c72b0")
            outer, self.dot = self.dot, sub
            for t in tensors:
                key = ("t", id(t))
                self.name(key, t)
                color = OUTPUT if id(t) in out_ids else LEAF if t.grad_fn is None else "white"
                name = self.labels.get(id(t), "")
                self.record(key, name, t, self.grad_text(t), color,
                            "leaf" if t.grad_fn is None else "tensor")
            self.dot = outer
        with self.dot.subgraph(name="cluster_functions") as sub:
            sub.attr(label="Functions: the grad_fn graph", style="rounded", color="#55a868",
                     labelloc="b")
            outer, self.dot = self.dot, sub
            for fn in self.spec.nodes:
                self.node(("fn", id(fn)), html_label(escape(node_title(fn), None)),
                          "acc" if type(fn) is AccumulateGrad else "fn", fillcolor=FUNCTION)
            self.dot = outer
        # each tensor level with the node that made it (its grad_fn, or its AccumulateGrad)
        for t in tensors:
            fn = t.grad_fn if t.grad_fn is not None else t._acc() if t._acc is not None else None
            if fn is not None and id(fn) in fn_ids:
                with self.dot.subgraph() as same:
                    same.attr(rank="same")
                    same.node(self.name(("t", id(t))))
                    same.node(self.name(("fn", id(fn))))
        for t in tensors:
            if t.grad_fn is not None and id(t.grad_fn) in fn_ids:
                self.edge(("grad_fn", id(t)), ("t", id(t)), ("fn", id(t.grad_fn)),
                          label="grad_fn", style="dashed", color="#4c72b0",
                          fontcolor="#4c72b0", fontsize="9", constraint="false")
        for fn in self.spec.nodes:
            fkey = ("fn", id(fn))
            for i, (nxt, _) in enumerate(fn.next_functions):
                if nxt is not None:
                    self.edge(("edge", id(fn), i), fkey, ("fn", id(nxt)),
                              label=f"next_functions[{i}]", fontsize="9")
            if type(fn) is AccumulateGrad:
                self.edge(("var", id(fn)), fkey, ("t", id(fn.variable)), label="variable",
                          style="dashed", fontsize="9", constraint="false")
            for sname, st in fn.saved_tensors_info() if self.show_saved else ():
                inner = getattr(st, "tensor", None)
                if inner is not None:
                    self.edge(("savedge", id(fn), sname), fkey, ("t", id(inner)),
                              label=html_label(escape(f"_saved_{sname}")), style="dotted",
                              color="orange3",
                              fontcolor="orange3", fontsize="9", constraint="false")

    # ---- all together -----------------------------------------------------------------------

    def build(self) -> GraphSpec:
        self.collect()
        getattr(self, f"{self.view}_view")()
        # torchviz's resize_graph: the canvas grows with the content
        size = max(12.0, len(self.dot.body) * 0.15)
        self.dot.graph_attr.update(size=f"{size:g},{size:g}")
        return self.spec


def _outputs(var: Any) -> list[Tensor]:
    outs = list(var) if isinstance(var, (list, tuple)) else [var]
    if not outs:
        raise ValueError("make_dot: no output tensors given")
    for t in outs:
        if not isinstance(t, Tensor):
            raise TypeError(
                f"make_dot expects a Tensor or a list/tuple of Tensors, got {type(t).__name__}"
            )
    return outs


def _params(params: Any) -> dict[str, Tensor]:
    if params is None:
        return {}
    if not hasattr(params, "items"):
        raise TypeError(f"params must be a dict of name -> Tensor, got {type(params).__name__}")
    for name, t in params.items():
        if not isinstance(t, Tensor):
            raise TypeError(f"params[{name!r}] is a {type(t).__name__}, not a Tensor")
    return dict(params)


def build_graph(var: Any, params: dict[str, Tensor] | None = None, show_attrs: bool = False,
                show_saved: bool = False, max_attr_chars: int = 50, *, view: str = "grad_fn",
                rankdir: str = "TB", highlight: Iterable[Any] | None = None,
                max_nodes: int | None = 500, saved_bytes: bool = False, presenter: bool = False,
                versions: bool = False) -> GraphSpec:
    """Like :func:`make_dot`, returning the :class:`GraphSpec` (Digraph + object -> id maps)."""
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(map(repr, VIEWS))}, got {view!r}")
    if rankdir not in ("TB", "BT", "LR", "RL"):
        raise ValueError(f"rankdir must be 'TB', 'BT', 'LR' or 'RL', got {rankdir!r}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be a positive int or None, got {max_nodes!r}")
    return _Builder(_outputs(var), _params(params), view=view, show_attrs=show_attrs,
                    show_saved=show_saved, max_attr_chars=max_attr_chars, rankdir=rankdir,
                    highlight=highlight, max_nodes=max_nodes, saved_bytes=saved_bytes,
                    presenter=presenter, versions=versions).build()


def make_dot(var: Any, params: dict[str, Tensor] | None = None, show_attrs: bool = False,
             show_saved: bool = False, max_attr_chars: int = 50, *, view: str = "grad_fn",
             rankdir: str = "TB", highlight: Iterable[Any] | None = None,
             max_nodes: int | None = 500, saved_bytes: bool = False) -> AutogradDigraph:
    """Draw the autograd graph behind ``var`` (a Tensor, or a list/tuple of them).

    Args:
        var: output tensor(s); each is drawn green, with its ``grad_fn`` graph above it.
        params: ``{name: tensor}`` naming leaves (and any other tensor) in the drawing.
        show_attrs: list each node's saved values (torchviz's ``show_attrs``).
        show_saved: draw saved tensors (orange; dashed "freed" after backward); those of a
            custom ``Function`` are always drawn, as in torchviz.
        max_attr_chars: longest attribute value shown.
        view: ``"grad_fn"`` (torchviz), ``"value"`` (micrograd records) or ``"both"``.
        rankdir: Graphviz direction, ``"TB"``, ``"BT"``, ``"LR"`` or ``"RL"``.
        highlight: Nodes, Tensors, or ``(a, b)`` pairs (an edge) to draw in red.
        max_nodes: raise :class:`GraphTooLargeError` above this many nodes (None: no limit).
        saved_bytes: add the bytes each function node holds in saved tensors.

    Returns a ``graphviz.Digraph`` (it displays inline in Jupyter). Rendering needs the
    Graphviz ``dot`` program; when it is missing the first render says how to install it.
    """
    return build_graph(var, params, show_attrs, show_saved, max_attr_chars, view=view,
                       rankdir=rankdir, highlight=highlight, max_nodes=max_nodes,
                       saved_bytes=saved_bytes).dot
