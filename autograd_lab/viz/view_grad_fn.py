"""The torchviz view (``view="grad_fn"``): gray function nodes, light-blue leaves (named from
``params``, with their shape), ``AccumulateGrad`` nodes, green outputs, and with
``show_saved`` the orange saved tensors (a saved tensor gets its own node even when it is a
leaf; after a backward without ``retain_graph`` it is drawn dashed, "freed"). Arrows point
the way torchviz draws them: from a node to the node that uses its result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..node import FREED, AccumulateGrad, Node, SavedTensor
from ..tensor import Tensor
from ._labels import (
    MAX_NAME_CHARS,
    escape,
    fmt_bytes,
    html_label,
    left_lines,
    node_title,
    size_str,
    truncate,
)
from .graph_spec import (
    BASE,
    FREED_FILL,
    FREED_LINE,
    FUNCTION,
    LEAF,
    OUTPUT,
    SAVED,
    STALE,
    saved_bytes,
)
from .graph_walk import GraphBuilder

__all__ = ["GradFnView"]


class GradFnView(GraphBuilder):
    """torchviz's drawing of the ``grad_fn`` graph."""

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

    def draw(self) -> None:
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

