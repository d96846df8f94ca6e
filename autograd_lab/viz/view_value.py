"""The micrograd view (``view="value"``): a record ``label | data | grad`` per tensor with op
nodes between them; values come from the outputs, ``params`` and saved tensors (nothing is
re-computed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..node import AccumulateGrad, Node
from ..tensor import Tensor
from ._labels import escape, fmt_array, html_label, node_title, op_name
from .graph_spec import FUNCTION, LEAF, OUTPUT
from .graph_walk import GraphBuilder

__all__ = ["ValueView", "op_symbol"]

_OPS = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Pow": "**", "Mm": "@", "Mv": "@",
        "Bmm": "@", "Dot": "@", "Neg": "neg"}


def op_symbol(node: Node) -> str:
    """``MulBackward0`` -> ``*``, ``LogSoftmaxBackward0`` -> ``log_softmax`` (value view)."""
    name = node_title(node)
    i = name.rfind("Backward")
    return _OPS.get(name[:i] if i > 0 else name, op_name(node))


class ValueView(GraphBuilder):
    """Records with the data and ``.grad`` of each result, op nodes between them."""

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
                elif inner is None:  # fn's own output, saved as its buffer
                    known.setdefault((id(fn), st.output_nr), st.data)
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

    def draw(self) -> None:
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

