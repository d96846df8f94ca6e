"""Record a real backward pass, event by event, to step through it: :class:`Recording`.

A :class:`Recording` is the engine's event log (``backward_log``) plus what each frame
shows (``frame_state``) and its renderers: the graph restyled per frame from one Graphviz
layout (``restyle``), the caption and ``.grad`` table as HTML (``frame_html``), and the
standalone page or embeddable fragment that steps without a kernel (``html_export``).
Nothing here computes a gradient.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import numpy as np

from ..tensor import Tensor
from . import frame_html, frame_state, html_export
from ._graphviz import to_svg
from .a11y_html import name_svg, titled_svg
from .backward_log import BackwardLog, Frame, Run
from .restyle import FrameStyle, SvgCanvas, styled_dot
from .torch_bridge import is_torch_tensor

__all__ = ["Frame", "Recording", "Run", "record_backward"]

_scopes = itertools.count()


class Recording(BackwardLog):
    """The frames of one or more real backward passes over one graph, and how to draw them."""

    def __init__(self, roots: list[Tensor], gradient: Any, inputs: Any,
                 params: dict[str, Tensor] | None, presenter: bool, max_nodes: int | None) -> None:
        super().__init__(roots, gradient, inputs, params, presenter, max_nodes)
        self._svg: str | None = None
        self._canvas: SvgCanvas | None = None
        self._graph_name: str | None = None
        self._serial = next(_scopes)
        self._scope = f"agl-r{self._serial}"

    # ---- what frame i shows ------------------------------------------------------------------

    def style(self, i: int) -> FrameStyle:
        """Roles and labels of frame ``i`` (see :class:`FrameStyle`)."""
        return frame_state.style(self, i)

    def caption_text(self, i: int) -> str:
        """What happens at frame ``i``, in words (plain text)."""
        return frame_state.caption_text(self, i)

    def announcement(self, i: int) -> str:
        """Frame ``i`` in one sentence, as the steppers' ``aria-live`` region says it."""
        return frame_state.announcement(self, i)

    def grads_at(self, i: int) -> dict[int, np.ndarray | None]:
        """``.grad`` of every tracked tensor as of frame ``i`` (id(tensor) -> array or None)."""
        return frame_state.grads_at(self, i)

    def table_html(self, i: int) -> str:
        """The ``.grad`` table at frame ``i`` (HTML), plus gradients waiting to be summed."""
        return frame_html.table_html(self, i)

    def caption_html(self, i: int) -> str:
        """Frame ``i``'s caption as HTML."""
        return frame_html.caption_html(self, i)

    # ---- drawing -----------------------------------------------------------------------------

    @property
    def svg(self) -> str:
        """The graph rendered once by Graphviz (needs ``dot``), before any frame styling."""
        if self._svg is None:
            svg = to_svg(self.spec.dot)
            self._svg = titled_svg(svg, self.spec.dot.describe(svg))
        return self._svg

    @property
    def canvas(self) -> SvgCanvas:
        """The rendered graph, ready to be restyled for each frame."""
        if self._canvas is None:
            self._canvas = SvgCanvas(self.svg, self._scope, self.presenter)
        return self._canvas

    def frame_svg(self, i: int) -> str:
        """Frame ``i`` as inline SVG (node ids ``n_0 ...``, edge ids ``e_0 ...``), an image
        named by the graph and the step."""
        name = f"{self.graph_name}; step {i + 1}: {self.caption_text(i)}"
        return name_svg(self.canvas.compose(self.style(i)), name)

    @property
    def graph_name(self) -> str:
        """The graph in a sentence (its text alternative)."""
        if self._graph_name is None:
            self._graph_name = self.spec.dot.describe(self.svg).summary
        return self._graph_name

    def frame_dot(self, i: int, caption: bool = True) -> Any:
        """Frame ``i`` as its own Graphviz graph (roles as attributes, labels as ``xlabel``)."""
        style = self.style(i)
        if not caption:
            style.caption = ""
        else:
            style.caption = f"step {i + 1} / {len(self.frames)}\n{style.caption}"
        return styled_dot(self.spec.dot, self.spec.stmt, style)

    def save_frames(self, directory: str | os.PathLike, fmt: str = "svg") -> list[str]:
        """Write every frame as ``frame_0000.svg`` (or ``.png``), each with its caption."""
        if fmt not in ("svg", "png"):
            raise ValueError(f"fmt must be 'svg' or 'png', got {fmt!r}")
        os.makedirs(directory, exist_ok=True)
        paths = []
        for i in range(len(self.frames)):
            path = os.path.join(os.fspath(directory), f"frame_{i:04d}.{fmt}")
            data = self.frame_dot(i).pipe(format=fmt)
            with open(path, "wb") as fh:
                fh.write(data)
            paths.append(path)
        return paths

    def to_html_fragment(self) -> str:
        """Every frame as an embeddable ``<div>`` that steps without a kernel (unique ids)."""
        return html_export.fragment(self, self.svg, self._serial)

    def to_html(self, path: str | os.PathLike, title: str = "Backward pass") -> str:
        """A standalone HTML page with every frame: no kernel, no network (inline SVG + JS)."""
        page = html_export.page(self, self.svg, title)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page)
        return os.fspath(path)


def record_backward(root: Any, gradient: Any = None, retain_graph: bool = False,
                    inputs: Any = None, *, params: dict[str, Tensor] | None = None,
                    errors: str = "raise", presenter: bool = False,
                    max_nodes: int | None = 2000) -> Recording:
    """Run ``root.backward(gradient, retain_graph, inputs=inputs)`` for real and record it.

    ``root`` is a Tensor (or a list of them, like ``torch.autograd.backward``), or real
    ``torch.Tensor`` objects: then torch's own engine runs, reported through its hooks
    (``torch_bridge``, where each event's source is listed). The graph
    is captured first (saved tensors as they are before backward frees them); then
    the engine runs with a listener and every event becomes a :class:`Frame`. Leaves'
    ``.grad`` are filled exactly as by ``backward()``. ``params`` names tensors in the
    drawing and the ``.grad`` table. With ``errors="record"`` an error during backward
    ends the recording (as an ``error`` frame) instead of propagating.
    """
    roots = list(root) if isinstance(root, (list, tuple)) else [root]
    for t in roots:
        if not isinstance(t, Tensor) and not is_torch_tensor(t):
            raise TypeError(f"record_backward expects Tensors, got {type(t).__name__}")
    rec = Recording(roots, gradient, inputs, params, presenter, max_nodes)
    rec.run_backward(retain_graph, errors)
    return rec
