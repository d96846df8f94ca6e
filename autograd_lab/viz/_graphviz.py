"""The Graphviz side: a ``Digraph`` that explains a missing ``dot`` program, and SVG rendering.

The ``graphviz`` Python package only writes DOT text; drawing runs the ``dot`` program,
which is a separate install. Building a graph never needs it, so the check is made at
the first render (``pipe``/``render``, which is also what Jupyter's display calls).
"""

from __future__ import annotations

import re
import shutil
from typing import Any, Callable

import graphviz

from .a11y_html import svg_figure, titled_svg
from .text_alt import TextAlt, svg_graph_text

INSTALL_HINT = (
    "Graphviz's `dot` program was not found on PATH, so the graph cannot be drawn (its DOT "
    "text is in `.source`). The pip package `graphviz` is only the Python interface; install "
    "Graphviz itself:\n"
    "  Debian/Ubuntu:  sudo apt-get install graphviz\n"
    "  macOS:          brew install graphviz\n"
    "  conda/mamba:    conda install -c conda-forge graphviz\n"
    "  Windows:        choco install graphviz   (or: winget install graphviz)\n"
    "  Fedora/RHEL:    sudo dnf install graphviz\n"
    "then restart the kernel so that PATH is read again."
)


class GraphvizNotFoundError(graphviz.ExecutableNotFound):
    """``dot`` is not installed: a ``graphviz.ExecutableNotFound`` that says how to install it."""

    def __init__(self, message: str = INSTALL_HINT) -> None:
        RuntimeError.__init__(self, message)


def require_dot() -> None:
    """Raise :class:`GraphvizNotFoundError` unless ``dot`` is on PATH."""
    if shutil.which("dot") is None:
        raise GraphvizNotFoundError()


# Graphviz shrinks a drawing wider than the graph's ``size`` (a notebook column) and writes
# the factor into the outer group's transform. Below MIN_SCALE the text would be too small to
# read: the graph is shown at its natural size in a scroll container instead.
_SCALE = re.compile(r'<g id="graph0" class="graph" transform="scale\(([\d.]+)')
MIN_SCALE = 0.6
FIT_COLUMN = "max-width:100%;height:auto"
SCROLL_BOX = ("overflow:auto;max-width:100%;max-height:80vh;border:1px solid #ccc;"
              "scrollbar-gutter:stable")


class AutogradDigraph(graphviz.Digraph):
    """A ``graphviz.Digraph`` whose renders explain how to install ``dot`` when it is missing.

    In Jupyter it shows as SVG no wider than a notebook column; a graph too large to be
    readable at that width is shown at full size in a box with scrollbars (``text/html``).
    Either way a ``text/html`` form carries the text alternative (``describe``), which
    JupyterLab and the website show: an inline SVG named by it, and a "text version".
    """

    # set by ``build_graph``: the graph in words (else it is read from the drawn SVG)
    text_alt: Callable[[], TextAlt] | None = None

    def describe(self, svg: str | None = None) -> TextAlt:
        """What the graph shows, in words (:class:`~autograd_lab.viz.text_alt.TextAlt`)."""
        if self.text_alt is not None:
            return self.text_alt()
        return svg_graph_text(svg if svg is not None else to_svg(self))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None,
                          **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(include, exclude, **kwargs)
        svg = bundle.get("image/svg+xml")
        if not isinstance(svg, str):
            return bundle
        alt = self.describe(svg)
        m = _SCALE.search(svg)
        if m is None or float(m.group(1)) >= MIN_SCALE:
            bundle["image/svg+xml"] = titled_svg(svg, alt)
            bundle["text/html"] = svg_figure(svg, alt, style=FIT_COLUMN)
            return bundle
        natural = self.copy()
        natural.graph_attr.pop("size", None)
        return {"text/html": svg_figure(to_svg(natural), alt, box_style=SCROLL_BOX)}

    def pipe(self, *args: Any, **kwargs: Any) -> Any:
        return _run_dot(super().pipe, *args, **kwargs)

    def render(self, *args: Any, **kwargs: Any) -> Any:
        return _run_dot(super().render, *args, **kwargs)


def _run_dot(method: Callable, *args: Any, **kwargs: Any) -> Any:
    """``method(...)`` (a render through ``dot``), with our error when ``dot`` is missing."""
    require_dot()
    try:
        return method(*args, **kwargs)
    except graphviz.ExecutableNotFound as e:
        if isinstance(e, GraphvizNotFoundError):
            raise
        raise GraphvizNotFoundError() from e


def to_svg(dot: graphviz.Digraph) -> str:
    """The graph drawn as an SVG document (text), without the XML prolog."""
    if not isinstance(dot, AutogradDigraph):
        require_dot()
    svg = dot.pipe(format="svg", encoding="utf-8")
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else svg
