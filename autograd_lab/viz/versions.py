"""``version_view``: which saved tensors were modified in place since they were saved.

Every saved tensor remembers the version of its tensor when it was saved; an in-place
op bumps the version. Backward refuses to use a saved tensor whose version changed.
This view shows, before any backward runs, each saved tensor with ``saved at vN, now
vM`` (from ``node.saved_tensors_info()``), the stale ones in red, and the error torch
will raise -- obtained by unpacking the stale saved tensor (inside try/except), not
by re-writing the message.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from ..node import Node
from ..tensor import Tensor
from ._graphviz import AutogradDigraph, to_svg
from ._labels import escape, node_title
from .a11y_html import svg_figure, titled_svg
from .dot import GraphSpec, build_graph
from .text_alt import TextAlt

__all__ = ["StaleSaved", "VersionView", "version_view"]


@dataclass(eq=False)
class StaleSaved:
    """A saved tensor whose tensor changed in place after it was saved."""

    node: Node
    name: str
    saved_version: int
    current_version: int
    error: str  # what unpacking it raises: torch's message
    error_type: str = "RuntimeError"

    def describe(self) -> str:
        """One line: which saved tensor, saved at which version, now at which."""
        return (f"{node_title(self.node)}._saved_{self.name}: saved at version "
                f"{self.saved_version}, now version {self.current_version}")


class VersionView:
    """The graph with saved-tensor versions (``.dot``) and the stale entries (``.stale``)."""

    def __init__(self, spec: GraphSpec, stale: list[StaleSaved]) -> None:
        self.spec = spec
        self.stale = stale

    @property
    def dot(self) -> AutogradDigraph:
        """The Graphviz graph."""
        return self.spec.dot

    @property
    def error(self) -> str | None:
        """The message of the first stale saved tensor (what backward raises), or None."""
        return self.stale[0].error if self.stale else None

    def svg(self) -> str:
        """The graph rendered as SVG text."""
        return to_svg(self.dot)

    def __repr__(self) -> str:
        if not self.stale:
            return "VersionView: every saved tensor is at the version it was saved at"
        lines = [f"VersionView: {len(self.stale)} stale saved tensor(s)"]
        lines += [f"  {s.describe()}" for s in self.stale]
        return "\n".join(lines)

    def describe(self) -> TextAlt:
        """The graph in words, then each stale saved tensor and the error backward raises."""
        alt = self.dot.describe()
        if not self.stale:
            return TextAlt(alt.summary + "; every saved tensor is at the version it was saved at",
                           alt.details, alt.complete)
        extra = [s.describe() + " (stale)" for s in self.stale]
        extra.append(f"backward() will raise {self.stale[0].error_type}: {self.error}")
        summary = (f"{alt.summary}; {len(self.stale)} stale saved tensor"
                   f"{'s' * (len(self.stale) != 1)}, so backward() will raise")
        return TextAlt(summary, alt.details + extra)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        svg, alt = self.svg(), self.describe()
        return {"image/svg+xml": titled_svg(svg, alt),
                "text/html": svg_figure(svg, alt, style="max-width:100%;height:auto"),
                "text/plain": repr(self)}


def _stale(nodes: list[Node]) -> list[StaleSaved]:
    out = []
    for node in nodes:
        for name, st in node.saved_tensors_info():
            if st.saved_version == st.current_version:
                continue
            try:
                st.unpack(node, False)
            except RuntimeError as e:
                out.append(StaleSaved(node, name, st.saved_version, st.current_version, str(e),
                                      type(e).__name__))
            else:  # e.g. packed by saved_tensors_hooks: unpacking does not check versions
                continue
    return out


def version_view(var: Tensor | list[Tensor], params: dict[str, Tensor] | None = None, *,
                 rankdir: str = "TB", max_nodes: int | None = 500,
                 width: int = 90) -> VersionView:
    """Draw the saved tensors of ``var``'s graph with their versions; stale ones red.

    The error text backward would raise is added under the graph (wrapped at ``width``).
    """
    spec = build_graph(var, params, show_saved=True, rankdir=rankdir, max_nodes=max_nodes,
                       versions=True)
    stale = _stale(spec.nodes)
    if stale:
        lines: list[str] = []
        for s in stale:
            lines.append(escape(f"backward() will raise at {node_title(s.node)}:", None))
            msg = f"{s.error_type}: {s.error}"
            lines += [escape(x, None) for x in textwrap.wrap(msg, width)]
        spec.dot.graph_attr.update(
            label="<" + "".join(f'{x}<BR ALIGN="LEFT"/>' for x in lines) + ">",
            labelloc="b", labeljust="l", fontname="monospace", fontcolor="#b71c1c",
            fontsize="10",
        )
    return VersionView(spec, stale)
