"""Memory through forward and backward: ``memory_allocated()`` sampled op by op.

:func:`trace_memory` runs a forward function, sampling ``memory_allocated()`` after
every autograd_lab call it makes (a profiler hook spots calls into the package made
from outside it, and samples when each returns a Tensor), then runs ``backward()``
with a ``Listener`` that samples at every engine event: saved tensors being freed
show up as drops, new ``.grad`` tensors as rises. With ``retain_graph=True`` nothing is
freed until the graph itself is dropped -- :func:`memory_timeline` draws both.

:func:`saved_bytes` (bytes a node holds for backward) is what ``make_dot(saved_bytes=True)``
prints on each node. matplotlib is imported only when plotting.
"""

from __future__ import annotations

import functools
import gc
import io
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import engine
from ..memory import max_memory_allocated, memory_allocated, reset_peak_memory_stats
from ..node import AccumulateGrad, Node
from ..tensor import Tensor
from ._labels import node_title, op_name
from .a11y_html import png_figure
from .dot import build_graph
from .graph_spec import saved_bytes
from .text_alt import TextAlt, figure_text

__all__ = ["MemorySample", "MemoryTrace", "memory_timeline", "saved_bytes", "saved_bytes_by_node",
           "trace_memory"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_VIZ = os.path.dirname(os.path.abspath(__file__)) + os.sep
# Shown at 100 dpi, a figure this wide fits a notebook column at 1280 px without being scaled
# down, so 8 pt text stays 11 px on screen (never below 10 px).
COLUMN_INCHES = 8.2
MIN_FONT_PT = 8
_NOT_OPS = {"grad", "data"}  # attribute reads that return a Tensor without computing one


def saved_bytes_by_node(var: Tensor) -> list[tuple[str, int]]:
    """``(node name, saved bytes)`` for every node of ``var``'s graph, breadth first."""
    spec = build_graph(var, max_nodes=None)
    return [(node_title(n), saved_bytes(n)) for n in spec.nodes if type(n) is not AccumulateGrad]


@dataclass(frozen=True)
class MemorySample:
    """``memory_allocated()`` (bytes) right after ``label`` in ``phase``, and the most that was
    allocated at any moment since the sample before (``peak``): a backward node allocates its
    gradient before it frees its saved tensors, a peak no sample would see."""

    phase: str  # "forward" | "backward" | "after"
    label: str
    bytes: int
    peak: int = 0


@dataclass
class MemoryTrace:
    """The samples of one forward + backward, in order."""

    retain_graph: bool
    samples: list[MemorySample] = field(default_factory=list)
    _user_peak: int = field(default=0, repr=False)  # max_memory_allocated() to leave behind

    @property
    def values(self) -> list[int]:
        """Bytes allocated at each sample."""
        return [s.bytes for s in self.samples]

    @property
    def labels(self) -> list[str]:
        """The label of each sample."""
        return [s.label for s in self.samples]

    @property
    def peak(self) -> int:
        """The most bytes allocated at any moment of the trace (between samples too)."""
        return max(max(s.peak, s.bytes) for s in self.samples)

    def describe(self) -> str:
        """The timeline in one sentence: start, peak, end of backward and after."""
        kib = [v / 1024 for v in self.values]
        top = max(range(len(kib)), key=kib.__getitem__)
        back = [k for k, s in enumerate(self.samples) if s.phase == "backward"]
        text = (f"backward(retain_graph={self.retain_graph}): {len(kib)} samples; "
                f"{kib[0]:.1f} KiB at the start, peak {kib[top]:.1f} KiB after "
                f"{self.samples[top].label}")
        if back:
            text += f", {kib[back[-1]]:.1f} KiB when backward ends"
        return text + f", {kib[-1]:.1f} KiB after {self.samples[-1].label}"

    def add(self, phase: str, label: str) -> None:
        """Sample ``memory_allocated()`` now, with the highest value since the last sample."""
        now, highest = memory_allocated(), max_memory_allocated()
        self._user_peak = max(self._user_peak, highest)
        reset_peak_memory_stats()  # measure from here to the next sample
        self.samples.append(MemorySample(phase, label, now, max(highest, now)))

    def plot(self, ax: Any = None, title: str | None = None) -> Any:
        """Draw the timeline on ``ax`` (a new figure when None); returns the Axes."""
        if ax is None:
            ax = _figure(figsize=(COLUMN_INCHES, 3.9), layout="constrained").add_subplot()
        xs = range(len(self.samples))
        ys = [v / 1024 for v in self.values]
        for phase, color in (("forward", "#dbe9f6"), ("backward", "#fde3c8")):
            idx = [i for i, s in enumerate(self.samples) if s.phase == phase]
            if idx:
                ax.axvspan(idx[0] - 0.5, idx[-1] + 0.5, color=color, zorder=0)
                ax.text((idx[0] + idx[-1]) / 2, 1.01, phase, ha="center", va="bottom",
                        fontsize=9, color="#555555", transform=ax.get_xaxis_transform())
        ax.step(xs, ys, where="mid", color="#1f3b73", linewidth=2, zorder=2)
        ax.plot(xs, ys, "o", color="#1f3b73", markersize=3, zorder=3)
        # a peak between two samples (a gradient allocated before the saved tensors go)
        peaks = [(i, s.peak / 1024) for i, s in enumerate(self.samples) if s.peak > s.bytes]
        if peaks:
            ax.vlines([i - 0.5 for i, _ in peaks], [ys[i - 1] if i else ys[i] for i, _ in peaks],
                      [p for _, p in peaks], color="#1f3b73", linewidth=1, zorder=2)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(self.labels, rotation=90, fontsize=MIN_FONT_PT, family="monospace")
        ax.tick_params(axis="y", labelsize=MIN_FONT_PT + 1)
        ax.set_xlim(-0.5, len(self.samples) - 0.5)
        ax.set_ylabel("memory_allocated() [KiB]")
        ax.set_title(title or f"backward(retain_graph={self.retain_graph})", fontsize=11,
                     pad=16)
        ax.grid(axis="y", alpha=0.3)
        return ax


class _ForwardTracer:
    """A profile hook: one sample each time a call into autograd_lab (from outside) returns."""

    def __init__(self, trace: MemoryTrace) -> None:
        self.trace = trace
        self.active: Any = None  # the frame of the outermost autograd_lab call in progress

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        if event == "call" and self.active is None:
            path = frame.f_code.co_filename
            if path.startswith(_PACKAGE) and not path.startswith(_VIZ):
                self.active = frame
        elif event == "return" and frame is self.active:
            self.active = None
            name = frame.f_code.co_name.strip("_")
            first = arg[0] if isinstance(arg, tuple) and arg else arg
            if name in _NOT_OPS or not isinstance(first, Tensor):
                return
            if first.grad_fn is not None:  # named after the node it recorded, as graphs show it
                name = op_name(first.grad_fn)
            elif name == "method" and callable(fn := frame.f_locals.get("fn")):
                name = getattr(fn, "__name__", name)  # an operator wrapper around ``fn``
            self.trace.add("forward", name)


class _BackwardSampler(engine.Listener):
    def __init__(self, trace: MemoryTrace) -> None:
        self.trace = trace

    def on_begin(self, roots: list, grads: list) -> None:
        self.trace.add("backward", "backward()")

    def on_node(self, node: Node, grad_outputs: list) -> None:
        self.trace.add("backward", node_title(node))

    def on_edge(self, node: Node, index: int, next_node: Node, input_nr: int, grad: Any) -> None:
        self.trace.add("backward", f"→ {node_title(next_node)}")

    def on_accumulate(self, tensor: Tensor, grad: Any, total: Any) -> None:
        self.trace.add("backward", "+= .grad")

    def on_free(self, node: Node, names: list[str]) -> None:
        self.trace.add("backward", f"free {node_title(node)}")

    def on_end(self) -> None:
        self.trace.add("backward", "end")


@functools.cache
def _inline_figure_class() -> type:
    from matplotlib.figure import Figure

    class InlineFigure(Figure):
        """A Figure that shows itself as an image in Jupyter, whatever the backend."""

        describe: Callable[[], TextAlt] | None = None  # set by memory_timeline

        def _repr_png_(self) -> bytes:
            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=100)
            return buf.getvalue()

        def _repr_html_(self) -> str:
            # the PNG named by its description: JupyterLab gives a PNG output no alt text
            alt = self.describe() if self.describe is not None else figure_text(self)
            return png_figure(self._repr_png_(), alt)

    return InlineFigure


def _figure(**kwargs: Any) -> Any:
    return _inline_figure_class()(**kwargs)


def trace_memory(fn: Callable[[], Tensor], *, retain_graph: bool = False,
                 gradient: Tensor | None = None) -> MemoryTrace:
    """Run ``out = fn()`` then ``out.backward(gradient, retain_graph)``, sampling memory.

    Samples: ``start``; after each autograd_lab call made by ``fn`` (labelled with the
    op's name); ``forward done`` once ``fn`` returned (its temporaries are gone); one
    per backward event; and ``graph dropped`` after the output -- and with it the
    graph -- is released. ``fn`` should create what it needs (even its leaves) so that
    repeated traces start alike.
    """
    trace = MemoryTrace(bool(retain_graph))
    gc.collect()
    trace._user_peak = max_memory_allocated()
    reset_peak_memory_stats()
    trace.add("forward", "start")
    tracer = _ForwardTracer(trace)
    previous = sys.getprofile()
    sys.setprofile(tracer)
    try:
        out = fn()
    finally:
        sys.setprofile(previous)
    if not isinstance(out, Tensor):
        raise TypeError(f"trace_memory: fn must return a Tensor, got {type(out).__name__}")
    trace.add("forward", "forward done")
    engine.backward(out, gradient, retain_graph=retain_graph, listener=_BackwardSampler(trace))
    del out
    gc.collect()
    trace.add("after", "graph dropped")
    _restore_peak(trace._user_peak)
    return trace


def _restore_peak(highest: int) -> None:
    """Leave ``max_memory_allocated()`` as if the trace had not reset it between samples."""
    from .. import memory

    memory._MEM.peak = max(memory._MEM.peak, highest)


def memory_timeline(fn: Callable[[], Tensor], *, gradient: Tensor | None = None,
                    traces: tuple[MemoryTrace, MemoryTrace] | None = None) -> Any:
    """Two panels: ``backward()`` (saved tensors freed as it goes) and ``retain_graph=True``.

    Returns a matplotlib ``Figure`` (it displays inline in Jupyter). ``traces`` lets you
    pass two traces recorded already (default, retained).
    """
    if traces is None:
        traces = (trace_memory(fn, gradient=gradient),
                  trace_memory(fn, gradient=gradient, retain_graph=True))
    fig = _figure(figsize=(COLUMN_INCHES, 7.8), layout="constrained")
    axes = fig.subplots(2, 1, sharey=True)  # one above the other: the column is narrow
    for ax, trace in zip(axes, traces):
        trace.plot(ax)
    fig.suptitle("memory_allocated() through forward and backward", fontsize=12)
    fig.describe = lambda: TextAlt(
        "memory_allocated() through forward and backward, two panels: "
        + "; ".join(t.describe() for t in traces),
        ["memory_allocated() through forward and backward (KiB), sample by sample:"]
        + [f"{t.describe()}. Samples: " + ", ".join(
            f"{s.label} {s.bytes / 1024:.1f}" for s in t.samples) + "." for t in traces])
    return fig
