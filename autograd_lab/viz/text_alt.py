"""Text alternatives: what a sighted reader sees in a drawing, said in words.

- :func:`graph_text` -- an autograd graph from its :class:`GraphSpec`: the root, each function
  node with what it takes, the leaves ("backward graph of loss: MulBackward0 takes a and b;
  SumBackward0 takes MulBackward0").
- :func:`svg_graph_text` -- any Graphviz SVG (a ``graphviz.Digraph`` a student built): its nodes
  by their visible text and its edges.
- :func:`figure_text` -- a matplotlib figure: per axes its title, axis labels and ranges, and
  each line or point set by its legend label, with where it starts and ends.

Each returns a :class:`TextAlt`: a short ``summary`` (an image's name) and ``details`` (one
line per item, the expandable "text version").
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..node import AccumulateGrad, Node
from ._labels import node_title, size_str

if TYPE_CHECKING:
    from .graph_spec import GraphSpec

__all__ = ["TextAlt", "figure_text", "graph_text", "svg_graph_text"]

MAX_SUMMARY = 240  # longer descriptions are shortened in the summary; details keep it all


@dataclass
class TextAlt:
    """A short name for the picture and the full description, one line per item."""

    summary: str
    details: list[str] = field(default_factory=list)
    complete: bool = False  # the summary says it all: no separate text version needed

    def __str__(self) -> str:
        return self.summary


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _clip(text: str, limit: int = MAX_SUMMARY) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


# ---- autograd graphs ---------------------------------------------------------------------------

class _Namer:
    """Names of nodes as the text says them: a repeated title gets its count (MulBackward0 #2)."""

    def __init__(self, spec: GraphSpec, order: list[Node]) -> None:
        self.spec = spec
        counts = Counter(node_title(n) for n in order if type(n) is not AccumulateGrad)
        seen: Counter = Counter()
        self.names: dict[int, str] = {}
        for n in order:
            if type(n) is AccumulateGrad:
                continue
            title = node_title(n)
            seen[title] += 1
            made = spec.fn_labels.get(id(n))
            if made is not None:
                self.names[id(n)] = f"{title} (makes {made})"
            elif counts[title] > 1:
                self.names[id(n)] = f"{title} #{seen[title]}"
            else:
                self.names[id(n)] = title

    def leaf(self, node: AccumulateGrad) -> str:
        t = node.variable
        label = self.spec.tensor_label(t)
        return label if label else f"a leaf of shape {size_str(t.shape)}"

    def __call__(self, node: Node) -> str:
        if type(node) is AccumulateGrad:
            return self.leaf(node)
        return self.names[id(node)]


def graph_text(spec: GraphSpec, roots: list[Any] | None = None) -> TextAlt:
    """The backward graph of ``spec`` in words (``roots``: the output tensors drawn)."""
    order = list(reversed(spec.nodes))  # forward order: inputs before what uses them
    name = _Namer(spec, order)
    roots = roots or []
    root_names = [spec.tensor_label(t) for t in roots]
    root_names = [n for n in root_names if n] or [
        f"an output of shape {size_str(t.shape)}" for t in roots] or ["the output"]
    fns = [n for n in order if type(n) is not AccumulateGrad]
    leaves = [name.leaf(n) for n in spec.nodes if type(n) is AccumulateGrad]
    clauses = []
    for n in fns:
        inputs = [name(nxt) for nxt, _ in n.next_functions if nxt is not None]
        clause = f"{name(n)} takes {_join(inputs)}" if inputs else f"{name(n)} takes no input " \
            "that needs a gradient"
        saved = [s for s, _ in n.saved_tensors_info()] if spec.kinds and any(
            k in ("saved", "freed") for k in spec.kinds.values()) else []
        if saved:
            clause += f" (saves {_join(saved)})"
        clauses.append(clause)
    head = f"backward graph of {_join(root_names)}"
    if not fns:
        return TextAlt(f"{head}: no function nodes (a leaf tensor)", [head + "."], True)
    ends = [name(t.grad_fn) for t in roots if t.grad_fn is not None]
    details = [f"{head}, read from the inputs up to the output:"]
    details += [c + "." for c in clauses]
    if leaves:
        details.append(f"Leaves (their .grad is filled): {_join(leaves)}.")
    if ends:
        details.append(f"Backward starts at {_join(ends)}.")
    full = f"{head}: " + "; ".join(clauses)
    if len(full) <= MAX_SUMMARY:
        return TextAlt(full, details, complete=True)
    short = (f"{head}: {len(fns)} function node{'s' * (len(fns) != 1)}, {len(leaves)} "
             f"lea{'ves' if len(leaves) != 1 else 'f'}"
             + (f" ({_clip(_join(leaves), 80)})" if leaves else "")
             + (f"; backward starts at {_join(ends)}" if ends else "")
             + "; the text version lists every node")
    return TextAlt(short, details)


# ---- any Graphviz SVG --------------------------------------------------------------------------

_GROUP = re.compile(r'<g id="[^"]*" class="(node|edge)">\s*<title>(.*?)</title>(.*?)</g>', re.S)
_TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)


def svg_graph_text(svg: str, what: str = "graph") -> TextAlt:
    """A Graphviz SVG in words: each node by its visible text, each edge between them."""
    nodes: dict[str, str] = {}
    edges: list[tuple[str, str]] = []
    for kind, title, body in _GROUP.findall(svg):
        title = html.unescape(title)
        if kind == "node":
            words = " ".join(html.unescape(t).strip() for t in _TEXT.findall(body))
            nodes[title] = " ".join(words.split()) or title
        else:
            for arrow in ("->", "--"):
                if arrow in title:
                    a, b = title.split(arrow, 1)
                    edges.append((a.split(":")[0], b.split(":")[0]))
                    break
    say = {k: v for k, v in nodes.items()}
    summary = (f"{what} with {len(nodes)} node{'s' * (len(nodes) != 1)} and {len(edges)} "
               f"edge{'s' * (len(edges) != 1)}")
    details = [summary + "."]
    details += [f"node: {v}" for v in nodes.values()]
    details += [f"edge: {say.get(a, a)} → {say.get(b, b)}" for a, b in edges]
    complete = False
    if len(nodes) <= 6:
        summary += ": " + "; ".join(f"{say.get(a, a)} → {say.get(b, b)}" for a, b in edges)
        complete = len(summary) <= MAX_SUMMARY
    return TextAlt(_clip(summary), details, complete)


# ---- matplotlib figures ------------------------------------------------------------------------

def _num(v: float, scale: float = 0.0) -> str:
    """Three significant digits; rounding noise next to the data's scale reads as 0."""
    v = float(v)
    if not np.isfinite(v):
        return str(v)
    if abs(v) <= 1e-6 * scale:
        v = 0.0
    return f"{v:.3g}".replace("-0", "0") if v == 0 else f"{v:.3g}"


def _series(label: str, xs: np.ndarray, ys: np.ndarray) -> str:
    ok = np.isfinite(ys) & np.isfinite(xs)
    if not ok.any():
        return f"{label}: no finite values"
    ys_f, xs_f = ys[ok], xs[ok]
    sx, sy = float(np.abs(xs_f).max()), float(np.abs(ys_f).max())
    lo, hi = int(np.argmin(ys_f)), int(np.argmax(ys_f))

    def at(k: int) -> str:
        return f"x={_num(xs_f[k], sx)}, y={_num(ys_f[k], sy)}"
    return (f"{label}: {len(ys_f)} points from {at(0)} to {at(-1)}; lowest at {at(lo)}, "
            f"highest at {at(hi)}")


_TEX = re.compile(r"\\([A-Za-z]+)")


def _label(artist: Any, k: int, kind: str) -> str:
    text = artist.get_label()
    if not text or text.startswith("_"):
        return f"{kind} {k}"
    return _TEX.sub(r"\1", text).replace("$", "").replace("{", "").replace("}", "")


def _axes_text(ax: Any, k: int, n_axes: int) -> tuple[str, list[str]]:
    title = ax.get_title() or (f"panel {k + 1}" if n_axes > 1 else "")
    xl, yl = ax.get_xlabel() or "x", ax.get_ylabel() or "y"
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    log = " (log scale)" if ax.get_yscale() == "log" else ""
    sx, sy = max(abs(x0), abs(x1)), max(abs(y0), abs(y1))
    head = (f"{title + ': ' if title else ''}{xl} from {_num(x0, sx)} to {_num(x1, sx)} "
            f"across, {yl}{log} from {_num(y0, sy)} to {_num(y1, sy)} up")
    lines: list[str] = []
    for i, line in enumerate(ax.get_lines()):
        xs = np.asarray(line.get_xdata(), dtype=float)
        ys = np.asarray(line.get_ydata(), dtype=float)
        if xs.size:
            lines.append(_series(_label(line, i + 1, "line"), xs, ys))
    for i, coll in enumerate(ax.collections):
        offsets = np.asarray(coll.get_offsets())
        kind = type(coll).__name__
        if kind == "PathCollection" and offsets.ndim == 2 and len(offsets) > 1:
            lines.append(f"{_label(coll, i + 1, 'points')}: {len(offsets)} points scattered")
        elif kind in ("QuadContourSet", "ContourSet") or "Contour" in kind:
            lines.append("filled contours of a value over the plane")
    names = [_label(x, 0, "") for x in ax.get_lines()
             if x.get_label() and not x.get_label().startswith("_")]
    return head + (f"; shows {_join(names)}" if names else ""), lines


def figure_text(fig: Any) -> TextAlt:
    """A matplotlib figure in words: per panel its title, axes and each line's course."""
    axes = [ax for ax in fig.get_axes() if ax.get_visible()]
    sup = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) is not None else ""
    heads, details = [], []
    if sup:
        details.append(f"Figure: {sup}.")
    for k, ax in enumerate(axes):
        head, lines = _axes_text(ax, k, len(axes))
        heads.append(head)
        details.append(head + ".")
        details += [f"  {x}." for x in lines]
    kind = "figure" if len(axes) != 1 else "plot"
    summary = (f"{sup + ' — ' if sup else ''}{kind}" + (f" with {len(axes)} panels" if len(axes) > 1
                                                        else "") + ": " + "; ".join(heads))
    return TextAlt(_clip(summary), details)
