"""One frame of an animation = the same drawing with some nodes and edges restyled.

A frame is a :class:`FrameStyle`: a role per SVG element id (``n_3`` -> ``"current"``)
plus text labels on edges. It is drawn two ways from one Graphviz layout:

- :class:`SvgCanvas` (fast, for widgets and the HTML export): the graph is rendered
  to SVG once; a frame adds a ``<style>`` block (CSS overrides the presentation
  attributes Graphviz writes) and an overlay of ``<text>`` labels placed at the middle
  of each edge's path. Composing a frame is string work, no Graphviz call.
- :func:`styled_dot` (for image files): a copy of the DOT source with the roles as
  Graphviz attributes and the labels as ``xlabel``; rendering it costs a Graphviz run.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

import graphviz

from ._graphviz import AutogradDigraph
from ._labels import escape, html_label
from .graph_spec import FREED_FILL, FREED_LINE

CURRENT_FILL, CURRENT_LINE = "#ffd54f", "#b71c1c"
DONE_LINE = "#2e7d32"
ERROR_FILL = "#ef9a9a"
ACTIVE_EDGE, DONE_EDGE = "#c62828", "#2e7d32"
LABEL_DONE = "#555555"


@dataclass
class FrameStyle:
    """What one frame changes: roles of nodes/edges (by SVG id) and edge labels."""

    nodes: dict[str, str] = field(default_factory=dict)  # current | done | error | freed
    edges: dict[str, str] = field(default_factory=dict)  # active | done
    labels: dict[str, str] = field(default_factory=dict)  # edge id -> text
    caption: str = ""  # plain text


def _node_css(role: str, w: float) -> str:
    return {
        "current": f"fill:{CURRENT_FILL};stroke:{CURRENT_LINE};stroke-width:{3 * w}",
        "done": f"stroke:{DONE_LINE};stroke-width:{1.5 * w}",
        "error": f"fill:{ERROR_FILL};stroke:{CURRENT_LINE};stroke-width:{3 * w};"
                 "stroke-dasharray:6 2",
        "freed": f"stroke-dasharray:4 3;fill:{FREED_FILL};stroke:{FREED_LINE}",
    }[role]


def _edge_color(role: str) -> str:
    return ACTIVE_EDGE if role == "active" else DONE_EDGE


def _edge_css(role: str, w: float) -> str:
    return f"stroke:{_edge_color(role)};stroke-width:{(2.5 if role == 'active' else 1.5) * w}"


def _arrow_css(role: str) -> str:
    color = _edge_color(role)
    return f"display:inline;fill:{color};stroke:{color}"


# a stepper's graph never needs scrolling to find the current node: at most this tall
MAX_HEIGHT = "max(360px, calc(100vh - 190px))"


_EDGE_BLOCK = re.compile(r'<g id="([^"]*e_\d+)" class="edge">(.*?)</g>', re.S)
_NODE_BLOCK = re.compile(r'<g id="([^"]*n_\d+)" class="node">(.*?)</g>', re.S)
_SHAPE = re.compile(r'<(?:polygon|ellipse|path)\b[^>]*?(?:points|d)="([^"]+)"'
                    r'|<ellipse\b[^>]*?cx="([^"]+)" cy="([^"]+)" rx="([^"]+)" ry="([^"]+)"')
# Beside the running node, in words: the highlight is not told by its colour alone
MARKS = {"current": "runs", "error": "error"}
_POINTERS = {"start": "◀ {}", "end": "{} ▶", "above": "{} ▼"}  # the arrow points at the node
_PATH_D = re.compile(r'<path [^>]*?d="([^"]+)"')
_ID = re.compile(r'\bid="([^"]+)"')
_NUM = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def _points(d: str) -> list[tuple[float, float]]:
    nums = [float(v) for v in _NUM.findall(d)]
    return list(zip(nums[0::2], nums[1::2]))


def _midpoint(d: str) -> tuple[float, float]:
    """A point half way along a Graphviz edge path (``M p0 C p1 p2 p3 ...``)."""
    pts = _points(d)
    n = (len(pts) - 1) // 3  # cubic segments
    if n < 1:
        return pts[0]
    k = n // 2
    if n % 2 == 0:
        return pts[3 * k]
    p0, p1, p2, p3 = pts[3 * k: 3 * k + 4]
    return tuple((a + 3 * b + 3 * c + d_) / 8 for a, b, c, d_ in zip(p0, p1, p2, p3))


def _back_arrow(d: str, length: float, half: float) -> str:
    """An arrowhead at the path's start pointing into the tail node: the way gradients flow.

    Graphviz draws an edge from the node whose result is used (tail) to the node that uses
    it (head); backward sends the gradient the other way, from head to tail.
    """
    pts = _points(d)
    x0, y0 = pts[0]
    for x1, y1 in pts[1:]:
        dx, dy = x1 - x0, y1 - y0
        norm = (dx * dx + dy * dy) ** 0.5
        if norm > 1e-6:
            break
    else:
        return ""
    ux, uy = dx / norm, dy / norm
    bx, by = x0 + ux * length, y0 + uy * length
    corners = [(x0, y0), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)]
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in corners)


class SvgCanvas:
    """A rendered graph, restyled per frame without calling Graphviz again.

    ``prefix`` is put before every element id, so that several drawings of the same graph
    can live on one page (the widget keeps plain ids ``n_3``; the HTML export prefixes them).
    Each edge gets a hidden backward arrowhead at its tail, shown once a gradient went along
    it (the forward arrowhead is hidden then), so the flow reads in the backward direction.
    """

    def __init__(self, svg: str, scope: str, presenter: bool = False, prefix: str = "") -> None:
        i = svg.index("<svg")
        j = svg.index(">", i) + 1
        k = svg.rindex("</g>")
        self.scope, self.prefix = scope, prefix
        self.width = 1.5 if presenter else 1.0
        self.font = 15 if presenter else 9
        head = _widen(svg[i:j - 1], 90 if presenter else 60)
        # scaled to the width it has, and never taller than most of the screen
        self.head = (f'{head} class="agl-svg {scope}" preserveAspectRatio="xMinYMin meet" '
                     f'style="max-width:100%;height:auto;max-height:{MAX_HEIGHT}">')
        body = svg[j:k]
        if prefix:
            body = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', body)
        length, half = (15.0, 6.0) if presenter else (10.0, 3.5)
        self.points: dict[str, tuple[float, float]] = {}

        def arrow(m: re.Match) -> str:
            eid, inner = m.group(1)[len(prefix):], m.group(2)
            path = _PATH_D.search(inner)
            if path is None:
                return m.group(0)
            self.points[eid] = _midpoint(path.group(1))
            pts = _back_arrow(path.group(1), length, half)
            back = f'<polygon class="agl-back" points="{pts}"/>' if pts else ""
            return f'<g id="{m.group(1)}" class="edge">{inner}{back}</g>'

        self.body = _EDGE_BLOCK.sub(arrow, body)
        self.tail = svg[k:]
        # where a node's mark goes: right of its shape, at its middle
        boxes = {m.group(1)[len(prefix):]: box for m in _NODE_BLOCK.finditer(self.body)
                 if (box := _bbox(m.group(2))) is not None}
        x0 = float(re.search(r'viewBox="([-\d.]+)', self.head).group(1)) if "viewBox" in \
            self.head else 0.0
        width = (len(MARKS["current"]) + 2) * (self.font + 1) * 0.62
        self.marks = {sid: _mark_spot(box, boxes, width, x0) for sid, box in boxes.items()}

    def _sel(self, sid: str, tail: str) -> str:
        return f".{self.scope} #{self.prefix}{sid}>{tail}"

    def css(self, style: FrameStyle) -> str:
        """The frame's CSS: one rule per role, listing the elements that have it."""
        w = self.width
        by_role: dict[str, list[str]] = {}
        for sid, role in style.nodes.items():
            by_role.setdefault(role, []).append(sid)
        rules = [f".{self.scope} .agl-back{{display:none}}"]
        for role in sorted(by_role):
            ids = sorted(by_role[role], key=_natural)
            sel = ",".join(self._sel(x, shape) for x in ids for shape in ("polygon", "ellipse"))
            rules.append(f"{sel}{{{_node_css(role, w)}}}")
            if role == "freed":
                sel = ",".join(self._sel(x, "text") for x in ids)
                rules.append(f"{sel}{{fill:{FREED_LINE}}}")
        edges: dict[str, list[str]] = {}
        for eid, role in style.edges.items():
            edges.setdefault(role, []).append(eid)
        for role in sorted(edges):
            ids = sorted(edges[role], key=_natural)
            rules.append(",".join(self._sel(x, "path") for x in ids)
                         + f"{{{_edge_css(role, w)}}}")
            rules.append(",".join(self._sel(x, "polygon.agl-back") for x in ids)
                         + f"{{{_arrow_css(role)}}}")
            rules.append(",".join(self._sel(x, "polygon:not(.agl-back)") for x in ids)
                         + "{display:none}")
        return "\n".join(rules)

    def static_css(self) -> str:
        """Rules by role class (``agl-current`` on a node group ...) for the HTML export."""
        s, w = f".{self.scope} ", self.width
        rules = [f"{s}.agl-back{{display:none}}"]
        # nodes and edges share the role name "done": each rule names its kind of group
        for role in ("current", "done", "error", "freed"):
            rules.append(f"{s}g.node.agl-{role}>polygon,{s}g.node.agl-{role}>ellipse"
                         f"{{{_node_css(role, w)}}}")
        rules.append(f"{s}g.node.agl-freed>text{{fill:{FREED_LINE}}}")
        for role in ("done", "active"):
            rules.append(f"{s}g.edge.agl-{role}>path{{{_edge_css(role, w)}}}")
            rules.append(f"{s}g.edge.agl-{role}>polygon.agl-back{{{_arrow_css(role)}}}")
            rules.append(f"{s}g.edge.agl-{role}>polygon:not(.agl-back){{display:none}}")
        rules.append(f"{s}text.agl-label{{font-family:monospace;font-size:{self.font}px;"
                     f"fill:{LABEL_DONE};stroke:white;stroke-width:3;paint-order:stroke}}")
        rules.append(f"{s}text.agl-label.agl-active{{fill:{ACTIVE_EDGE};font-weight:bold}}")
        return "\n".join(rules)

    def label_slots(self, labels: dict[str, str]) -> str:
        """One ``<text>`` per edge at its middle (``labels`` filled in), for the export."""
        return "".join(f'<text class="agl-label" data-edge="{eid}" x="{x + 4:.2f}" y="{y:.2f}">'
                       f"{escape(labels.get(eid, ''), None)}</text>"
                       for eid, (x, y) in sorted(self.points.items(),
                                                 key=lambda kv: _natural(kv[0])))

    def _mark(self, sid: str, word: str, cls: str = "") -> str:
        x, y, side = self.marks[sid]
        pointer = _POINTERS[side]
        text = pointer.format(word) if word else ""
        attrs = (f' class="agl-mark" data-node="{sid}" data-pointer="{pointer}"'
                 if cls else "")
        if side != "start":
            attrs += ' text-anchor="end"'
        return (f'<text{attrs} x="{x:.2f}" y="{y + self.font / 3:.2f}" '
                f'font-family="sans-serif" font-weight="bold" font-size="{self.font + 1}" '
                f'fill="{CURRENT_LINE}" stroke="white" stroke-width="3" paint-order="stroke">'
                f"{escape(text, None)}</text>")

    def mark_slots(self, style: FrameStyle) -> str:
        """One mark ``<text>`` per node (the running node's filled in), for the export."""
        return "".join(self._mark(sid, MARKS.get(style.nodes.get(sid, ""), ""), "slot")
                       for sid in sorted(self.marks, key=_natural))

    def overlay(self, style: FrameStyle) -> str:
        """``<text>`` elements for the edge labels (active ones bold red, others grey), and
        the running node's mark."""
        out = [self._mark(sid, MARKS[role]) for sid, role in sorted(style.nodes.items())
               if role in MARKS and sid in self.marks]
        for eid in sorted(style.labels, key=_natural):
            if eid not in self.points:
                continue
            x, y = self.points[eid]
            active = style.edges.get(eid) == "active"
            color = ACTIVE_EDGE if active else LABEL_DONE
            weight = ' font-weight="bold"' if active else ""
            out.append(
                f'<text x="{x + 4:.2f}" y="{y:.2f}" font-family="monospace" '
                f'font-size="{self.font}" fill="{color}"{weight} stroke="white" '
                f'stroke-width="3" paint-order="stroke">{escape(style.labels[eid], None)}</text>'
            )
        return "".join(out)

    def compose(self, style: FrameStyle) -> str:
        """The full SVG of one frame."""
        return (f"{self.head}<style>{self.css(style)}</style>{self.body}"
                f'<g class="agl-labels">{self.overlay(style)}</g>{self.tail}')

    def static_svg(self, style: FrameStyle) -> str:
        """The SVG for the HTML export: one frame's styling (``<style class="agl-first">``,
        which the export's script removes) and label slots holding that frame's labels."""
        return (f'{self.head}<style>{self.static_css()}</style>'
                f'<style class="agl-first">{self.css(style)}</style>{self.body}'
                f'<g class="agl-labels">{self.label_slots(style.labels)}'
                f"{self.mark_slots(style)}</g>{self.tail}")


Box = tuple[float, float, float, float]  # left, top, right, bottom (SVG units)


def _bbox(inner: str) -> Box | None:
    """The bounding box of a node's shape (polygon, ellipse or path)."""
    xs: list[float] = []
    ys: list[float] = []
    for m in _SHAPE.finditer(inner):
        if m.group(1) is not None:
            pts = _points(m.group(1))
            xs += [x for x, _ in pts]
            ys += [y for _, y in pts]
        else:
            cx, cy, rx, ry = (float(v) for v in m.group(2, 3, 4, 5))
            xs += [cx - rx, cx + rx]
            ys += [cy - ry, cy + ry]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _mark_spot(box: Box, boxes: dict[str, Box], width: float,
               x0: float) -> tuple[float, float, str]:
    """Where a node's mark goes: right of it, else left of it, else above its right corner --
    the first place where it covers no other node (else the right)."""
    left, top, right, bottom = box
    mid = (top + bottom) / 2
    half = 7.0
    spots = [(right + 3, mid, "start", (right + 3, mid - half, right + 3 + width, mid + half)),
             (left - 3, mid, "end", (left - 3 - width, mid - half, left - 3, mid + half)),
             (right, top - half - 2, "above", (right - width, top - 2 * half - 2, right, top - 2))]
    for x, y, anchor, (a, b, c, d) in spots:
        if a < x0:
            continue
        if not any(a < r and c > l_ and b < btm and d > t for l_, t, r, btm in boxes.values()
                   if (l_, t, r, btm) != box):
            return x, y, anchor
    return spots[0][:3]


def _widen(head: str, extra: float) -> str:
    """The ``<svg`` open tag with ``extra`` points more width (and viewBox width)."""
    def width(m: re.Match) -> str:
        return f'width="{float(m.group(1)) + extra:g}pt"'

    def box(m: re.Match) -> str:
        x, y, w, h = (float(v) for v in m.group(1).split())
        return f'viewBox="{x:.2f} {y:.2f} {w + extra:.2f} {h:.2f}"'

    head = re.sub(r'width="([\d.]+)pt"', width, head, count=1)
    return re.sub(r'viewBox="([^"]+)"', box, head, count=1)


def _natural(sid: str) -> tuple[str, int]:
    head, _, num = sid.partition("_")
    return head, int(num) if num.isdigit() else -1


_NODE_ATTRS = {
    "current": dict(fillcolor=CURRENT_FILL, color=CURRENT_LINE, penwidth="3"),
    "done": dict(color=DONE_LINE, penwidth="2"),
    "error": dict(fillcolor=ERROR_FILL, color=CURRENT_LINE, penwidth="3"),
    "freed": dict(fillcolor=FREED_FILL, color=FREED_LINE, fontcolor=FREED_LINE,
                  style="dashed,filled"),
}


def styled_dot(dot: graphviz.Digraph, stmt: dict[str, int], style: FrameStyle) -> AutogradDigraph:
    """A copy of ``dot`` with the frame's roles and labels as Graphviz attributes."""
    body = list(dot.body)
    for sid, role in style.nodes.items():
        _patch(body, stmt.get(sid), _NODE_ATTRS[role])
    for eid in set(style.edges) | set(style.labels):
        role = style.edges.get(eid)
        attrs: dict[str, str] = {}
        if role is not None:
            color = _edge_color(role)
            attrs.update(color=color, penwidth="3" if role == "active" else "2", dir="back")
        if eid in style.labels:
            attrs.update(xlabel=html_label(escape(style.labels[eid], None)),
                         fontcolor=ACTIVE_EDGE if role == "active" else LABEL_DONE,
                         fontname="monospace", fontsize=dot.node_attr.get("fontsize", "10"))
        _patch(body, stmt.get(eid), attrs)
    out = AutogradDigraph(graph_attr=dict(dot.graph_attr), node_attr=dict(dot.node_attr),
                          edge_attr=dict(dot.edge_attr))
    out.body = body
    if style.caption:
        lines = [w for line in style.caption.split("\n") for w in textwrap.wrap(line, 72) or [""]]
        out.graph_attr.update(label=html_label(*[escape(x, None) for x in lines]),
                              labelloc="t", labeljust="l", fontname="monospace")
    return out


def _patch(body: list[str], index: int | None, attrs: dict[str, str]) -> None:
    """Append attributes to one statement (in DOT the last value of an attribute wins)."""
    if index is None or not attrs:
        return
    line = body[index]
    k = line.rindex("]")
    extra = " ".join(f"{a}={_quote(v)}" for a, v in attrs.items())
    body[index] = f"{line[:k]} {extra}{line[k:]}"


def _quote(value: str) -> str:
    """A DOT attribute value: HTML-like labels as they are, our plain values in quotes."""
    return value if value.startswith("<") else '"' + value.replace('"', '\\"') + '"'
