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
SCROLL_BOX = ("overflow:auto;max-width:100%;max-height:80vh;border:1px solid #ccc;"
              "scrollbar-gutter:stable")


class AutogradDigraph(graphviz.Digraph):
    """A ``graphviz.Digraph`` whose renders explain how to install ``dot`` when it is missing.

    In Jupyter it shows as SVG no wider than a notebook column; a graph too large to be
    readable at that width is shown at full size in a box with scrollbars (``text/html``).
    """

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None,
                          **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(include, exclude, **kwargs)
        svg = bundle.get("image/svg+xml")
        m = _SCALE.search(svg) if isinstance(svg, str) else None
        if m is None or float(m.group(1)) >= MIN_SCALE:
            return bundle
        natural = self.copy()
        natural.graph_attr.pop("size", None)
        box = f'<div class="agl-scroll" style="{SCROLL_BOX}">{to_svg(natural)}</div>'
        return {"text/html": box}

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
