"""The walk every view shares: function nodes breadth first from the outputs (iteratively, so a
10,000-node chain is fine), DOT names in that order, highlight resolution, and the
``max_nodes`` guard that raises :class:`GraphTooLargeError` before Graphviz would spend
minutes on a huge layout. Each view (``view_grad_fn``, ``view_value``, ``view_both``)
subclasses :class:`GraphBuilder` and implements ``draw``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from ..node import AccumulateGrad, Node
from ..tensor import Tensor
from ._graphviz import AutogradDigraph
from ._labels import node_title
from .graph_spec import HIGHLIGHT, GraphSpec, GraphTooLargeError, candidate_keys

__all__ = ["COLUMN_INCHES", "GraphBuilder"]

COLUMN_INCHES = 8.5  # 612 pt = 816 px: a JupyterLab notebook column on a 1280 px screen


class GraphBuilder:
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
            for k in candidate_keys(obj, self.view):
                if k in drawable:
                    return k
            what = node_title(obj) if isinstance(obj, Node) else "tensor"
            raise ValueError(f"highlight: this {what} is not part of the drawn graph")

        for item in self._highlight:
            if isinstance(item, tuple) and len(item) == 2:
                self.hl_edges.add(frozenset((key_of(item[0]), key_of(item[1]))))
            else:
                self.hl_nodes.add(key_of(item))

    def draw(self) -> None:
        """Emit the view's nodes and edges (after :meth:`collect`)."""
        raise NotImplementedError

    def build(self) -> GraphSpec:
        self.collect()
        self.draw()
        # torchviz's resize_graph lets the canvas grow with the content; the width stays that
        # of a notebook column (Graphviz scales a wider drawing down), the height grows
        size = max(12.0, len(self.dot.body) * 0.15)
        self.dot.graph_attr.update(size=f"{COLUMN_INCHES:g},{size:g}")
        return self.spec
