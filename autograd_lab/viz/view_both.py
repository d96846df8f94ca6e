"""The two-halves view (``view="both"``): Tensors (data, ``grad_fn`` pointer) on one side and
Functions (``next_functions``, ``variable``, saved tensors) on the other; every arrow is a
Python reference.
"""

from __future__ import annotations

from ..node import AccumulateGrad
from ..tensor import Tensor
from ._labels import escape, html_label, node_title
from .graph_spec import FUNCTION, LEAF, OUTPUT
from .view_value import ValueView

__all__ = ["BothView"]


class BothView(ValueView):
    """Tensors beside function nodes; records as in the value view."""

    def draw(self) -> None:
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

