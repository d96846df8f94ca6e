"""Text alternatives for pictures a notebook draws without this package's help.

JupyterLab shows a ``graphviz.Digraph`` (SVG) and a matplotlib figure (PNG) as an ``<img>``
with no alt text. :func:`install` adds a ``text/html`` form to their display in IPython: the
same picture named by its description (:mod:`.text_alt`) with a "text version" to expand.
JupyterLab and the course website prefer ``text/html``; the original SVG or PNG stays in the
output. The types are registered by name, so neither library is imported here.
"""

from __future__ import annotations

from typing import Any

from .a11y_html import png_figure, svg_figure
from .text_alt import figure_text, svg_graph_text

__all__ = ["figure_bundle", "figure_html", "graphviz_html", "install"]


def graphviz_html(graph: Any) -> str | None:
    """A ``graphviz`` graph as an inline SVG named by its nodes and edges.

    None for this package's own graphs (``make_dot``): their display has its ``text/html``.
    """
    if callable(getattr(graph, "describe", None)):
        return None
    svg = graph.pipe(format="svg", encoding="utf-8")
    return svg_figure(svg, svg_graph_text(svg), style="max-width:100%;height:auto")


def figure_bundle(fig: Any) -> dict[str, str]:
    """``{"text/html": figure_html(fig)}`` (empty when nothing is drawn)."""
    html = figure_html(fig)
    return {"text/html": html} if html is not None else {}


def figure_html(fig: Any) -> str | None:
    """A matplotlib figure as ``<img alt=…>`` (PNG, as the inline backend draws it)."""
    from IPython.core.pylabtools import print_figure

    if not fig.get_axes():
        return None  # nothing drawn: the inline backend shows nothing either
    png = print_figure(fig, "png", bbox_inches="tight")
    describe = getattr(fig, "describe", None)
    alt = describe() if callable(describe) else figure_text(fig)
    return png_figure(png, alt)


def install(shell: Any = None) -> bool:
    """Register the ``text/html`` forms in ``shell`` (the running IPython); False outside one."""
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    html = shell.display_formatter.formatters["text/html"]
    html.for_type_by_name("graphviz.graphs", "Digraph", graphviz_html)
    html.for_type_by_name("graphviz.graphs", "Graph", graphviz_html)
    # The inline backend removes every per-format printer of Figure when pyplot is first
    # imported; a mime-bundle printer is kept (the backend's PNG is still added beside it).
    shell.display_formatter.mimebundle_formatter.for_type_by_name(
        "matplotlib.figure", "Figure", figure_bundle)
    return True
