"""What a drawn graph is: the ``GraphSpec`` (Digraph + which DOT name stands for which object),
the colours every view shares, and the bytes a node holds for backward.

Output is deterministic: DOT node names ``n0, n1, ...`` in breadth-first order from
the outputs (SVG ids ``n_0, n_1, ...``; edges ``e_0, e_1, ...``), no ``id()`` or address
in the DOT text.
"""

from __future__ import annotations

from typing import Any

from ..node import Node
from ..tensor import Tensor
from ._graphviz import AutogradDigraph

__all__ = ["GraphSpec", "GraphTooLargeError", "saved_bytes"]

FUNCTION = "lightgrey"
LEAF = "lightblue"
SAVED = "orange"
OUTPUT = "darkolivegreen1"
BASE = "darkolivegreen3"  # the base of an output that is a view (torchviz)
FREED_FILL = "#eeeeee"
FREED_LINE = "#666666"  # 4.9:1 on the freed fill: text and dashes stay readable
HIGHLIGHT = "#d62728"
STALE = "#ff7b7b"  # a saved tensor modified in place since it was saved


class GraphTooLargeError(ValueError):
    """The graph has more nodes than ``max_nodes``; Graphviz would take too long to lay it out."""



def saved_bytes(node: Node) -> int:
    """Bytes of the tensors ``node`` still holds for backward (0 once they are freed)."""
    return sum(st.nbytes for _, st in node.saved_tensors_info())


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
        for key in candidate_keys(obj, self.view):
            if key in self.names:
                return self.names[key]
        return None

    def tensor_label(self, t: Tensor, default: str = "") -> str:
        """The label given to tensor ``t`` (``default`` if none)."""
        return self.labels.get(id(t), default)


def candidate_keys(obj: Any, view: str) -> list[tuple]:
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
