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

One module per view (``view_grad_fn``, ``view_value``, ``view_both``) on a shared walk
(``graph_walk``); ``graph_spec`` holds what a drawn graph is. Output is deterministic:
DOT node names ``n0, n1, ...`` in breadth-first order from the outputs (SVG ids
``n_0, n_1, ...``; edges ``e_0, e_1, ...``), statements in the same order, no ``id()`` or
address anywhere, so the DOT source is byte-identical across runs and processes. The walk
is iterative (a 10,000-node chain is fine). ``max_nodes`` (default 500) raises
:class:`GraphTooLargeError` before Graphviz would spend minutes on a huge layout; pass a
larger value (or ``None``) to draw it anyway.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from ..tensor import Tensor
from ._graphviz import AutogradDigraph
from .graph_spec import GraphSpec, GraphTooLargeError
from .graph_walk import GraphBuilder
from .text_alt import graph_text
from .torch_bridge import mirror_args
from .view_both import BothView
from .view_grad_fn import GradFnView
from .view_value import ValueView

__all__ = ["GraphSpec", "GraphTooLargeError", "build_graph", "make_dot"]

VIEWS: dict[str, type[GraphBuilder]] = {"grad_fn": GradFnView, "value": ValueView, "both": BothView}


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
    var, params, graph = mirror_args(var, params)  # torch tensors: their graph, mirrored
    if graph is not None and highlight is not None:
        highlight = [graph.translate(h) for h in highlight]
    outputs = _outputs(var)
    spec = VIEWS[view](outputs, _params(params), view=view, show_attrs=show_attrs,
                       show_saved=show_saved, max_attr_chars=max_attr_chars, rankdir=rankdir,
                       highlight=highlight, max_nodes=max_nodes, saved_bytes=saved_bytes,
                       presenter=presenter, versions=versions).build()
    spec.dot.text_alt = functools.partial(graph_text, spec, outputs)
    if graph is not None:
        spec._keep.append(graph)
    return spec


def make_dot(var: Any, params: dict[str, Tensor] | None = None, show_attrs: bool = False,
             show_saved: bool = False, max_attr_chars: int = 50, *, view: str = "grad_fn",
             rankdir: str = "TB", highlight: Iterable[Any] | None = None,
             max_nodes: int | None = 500, saved_bytes: bool = False) -> AutogradDigraph:
    """Draw the autograd graph behind ``var`` (a Tensor, or a list/tuple of them; real
    ``torch.Tensor`` objects too, see ``torch_bridge``).

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
