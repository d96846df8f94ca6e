"""Record a real backward pass, event by event, to step through it.

:func:`record_backward` runs the engine's own ``backward`` with a ``Listener`` and keeps
every event as a :class:`Frame`, in the engine's order and with the engine's arrays:
``begin`` (roots and their gradients), ``node`` (a node about to run, with its summed
incoming gradients), ``edge`` (a gradient sent along ``next_functions[i]``),
``accumulate`` (added into a leaf's or a retained tensor's ``.grad``), ``free`` (saved
tensors released), ``error`` and ``end``. Nothing here computes a gradient.

What a frame *shows* (which node is current, which edges carry which gradient, the
``.grad`` table with ``old + new = total``, the gradients waiting to be summed at a
node with several incoming edges, the saved tensors already freed) is derived from
the events alone, and drawn by restyling one Graphviz layout (see ``restyle``).
"""

from __future__ import annotations

import bisect
import html
import itertools
import json
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import engine
from ..node import AccumulateGrad, Node
from ..tensor import Tensor
from ._graphviz import to_svg
from ._labels import fmt_array, node_title
from .dot import GraphSpec, build_graph
from .restyle import FrameStyle, SvgCanvas, styled_dot

__all__ = ["Frame", "Recording", "Run", "record_backward"]

_scopes = itertools.count()
KINDS = ("begin", "node", "edge", "accumulate", "free", "error", "end")


@dataclass(eq=False)
class Frame:
    """One engine event; ``args`` are the ``Listener`` call's arguments as the engine passed them.

    ``begin``: (roots, grads) · ``node``: (node, grad_outputs) · ``edge``: (node, index,
    next_node, input_nr, grad) · ``accumulate``: (tensor, grad, total) · ``free``: (node,
    names) · ``error``: (node, exception) · ``end``: ().
    """

    kind: str
    args: tuple
    run: int
    old: np.ndarray | None = None  # accumulate: ``.grad`` before this addition (None: unset)
    reported: bool = True  # False for an error raised before the engine reached any node

    @property
    def node(self) -> Node | None:
        """The node this frame is about, or None."""
        if self.kind in ("node", "edge", "free", "error"):
            return self.args[0]
        if self.kind == "begin":
            return self.args[0][0][0]
        return None


@dataclass(eq=False)
class Run:
    """One backward call inside a recording: frames ``start`` .. ``stop - 1``."""

    start: int
    stop: int
    retain_graph: bool
    error: BaseException | None = None
    after: dict[int, np.ndarray | None] = field(default_factory=dict)  # .grad after the run
    nodes: list[tuple[int, str]] = field(default_factory=list)  # (frame, svg id) that ran
    edges: list[tuple[int, str, str]] = field(default_factory=list)  # (frame, edge id, text)
    pending: dict[tuple, list[tuple[int, np.ndarray | None]]] = field(default_factory=dict)
    consumed: dict[tuple, int] = field(default_factory=dict)


class _Recorder(engine.Listener):
    """Appends one frame per engine event."""

    def __init__(self, rec: Recording, run: int) -> None:
        self.rec, self.run, self.saw_error = rec, run, False

    def _add(self, kind: str, args: tuple) -> Frame:
        f = Frame(kind, args, self.run)
        self.rec.frames.append(f)
        return f

    def on_begin(self, roots: list, grads: list) -> None:
        self._add("begin", (roots, grads))

    def on_node(self, node: Node, grad_outputs: list) -> None:
        self._add("node", (node, grad_outputs))

    def on_edge(self, node: Node, index: int, next_node: Node, input_nr: int,
                grad: np.ndarray | None) -> None:
        self._add("edge", (node, index, next_node, input_nr, grad))

    def on_accumulate(self, tensor: Tensor, grad: np.ndarray, total: np.ndarray) -> None:
        f = self._add("accumulate", (tensor, grad, total))
        f.old = self.rec._grads.get(id(tensor))
        self.rec._grads[id(tensor)] = total

    def on_free(self, node: Node, names: list[str]) -> None:
        self._add("free", (node, names))

    def on_error(self, node: Node, error: BaseException) -> None:
        self.saw_error = True
        self._add("error", (node, error))

    def on_end(self) -> None:
        self._add("end", ())


def _grad_now(t: Tensor) -> np.ndarray | None:
    g = t._grad
    return None if g is None else np.array(g._data, copy=True)


def _fmt(a: Any) -> str:
    return fmt_array(a, max_chars=48)


class Recording:
    """The frames of one or more real backward passes over one graph, and how to draw them."""

    def __init__(self, roots: list[Tensor], gradient: Any, inputs: Any,
                 params: dict[str, Tensor] | None, presenter: bool, max_nodes: int | None) -> None:
        self.roots, self.gradient, self.inputs = roots, gradient, inputs
        self.presenter = presenter
        # drawn before backward runs, so saved tensors appear as they were
        self.spec: GraphSpec = build_graph(roots, params, show_saved=True, presenter=presenter,
                                           max_nodes=max_nodes)
        self.frames: list[Frame] = []
        self.runs: list[Run] = []
        self.rows: list[tuple[Tensor, str, str]] = self._rows(inputs)  # (tensor, name, kind)
        self._grads: dict[int, np.ndarray | None] = {id(t): _grad_now(t) for t, _, _ in self.rows}
        self._initial = dict(self._grads)
        self._accums: dict[int, list[int]] = {}  # id(tensor) -> accumulate frame indices
        self._freed: list[tuple[int, list[str]]] = []  # (frame, saved svg ids)
        self._svg: str | None = None
        self._canvas: SvgCanvas | None = None
        self._scope = f"agl-r{next(_scopes)}"

    # ---- what is tracked -------------------------------------------------------------------

    def _rows(self, inputs: Any) -> list[tuple[Tensor, str, str]]:
        spec = self.spec
        rows: list[tuple[Tensor, str, str]] = []
        seen: set[int] = set()
        for k, leaf in enumerate(spec.leaves):
            seen.add(id(leaf))
            rows.append((leaf, spec.tensor_label(leaf, f"leaf #{k}"), "leaf"))
        for fn in spec.nodes:
            for nr, ref in sorted((fn._retained or {}).items()):
                t = ref()
                if t is not None and id(t) not in seen:
                    seen.add(id(t))
                    rows.append((t, spec.tensor_label(t, f"{node_title(fn)}[{nr}]"), "retained"))
        for t in self.roots:  # a leaf used as a root: backward accumulates into it directly
            if t.grad_fn is None and t._rg and id(t) not in seen:
                seen.add(id(t))
                rows.append((t, spec.tensor_label(t, f"leaf #{len(rows)}"), "leaf"))
        for t in [inputs] if isinstance(inputs, Tensor) else list(inputs or ()):
            if isinstance(t, Tensor) and id(t) not in seen:
                seen.add(id(t))
                rows.append((t, spec.tensor_label(t, f"input #{len(rows)}"), "input"))
        return rows

    def name_of(self, t: Tensor) -> str:
        """The name a tensor is shown by in this recording."""
        for r, name, _ in self.rows:
            if r is t:
                return name
        return self.spec.tensor_label(t, "tensor")

    def node_name(self, node: Node | None) -> str:
        if node is None:
            return "backward()"
        if type(node) is AccumulateGrad:
            return f"AccumulateGrad({self.name_of(node.variable)})"
        of = self.spec.fn_labels.get(id(node))
        return node_title(node) if of is None else f"{node_title(node)} ({of})"

    def _sid(self, node: Node) -> str | None:
        name = self.spec.names.get(("fn", id(node)))
        return None if name is None else GraphSpec.svg_id(name)

    # ---- running ------------------------------------------------------------------------------

    def run_backward(self, retain_graph: bool = False, errors: str = "raise") -> Run:
        """Run the real backward once more on the same roots and append its frames.

        ``errors="record"`` keeps an error (e.g. torch's "Trying to backward through the
        graph a second time ...") as the run's last frame instead of raising it.
        """
        if errors not in ("raise", "record"):
            raise ValueError(f"errors must be 'raise' or 'record', got {errors!r}")
        run = Run(len(self.frames), len(self.frames), bool(retain_graph))
        self.runs.append(run)
        rec = _Recorder(self, len(self.runs) - 1)
        try:
            engine.backward(self.roots, self.gradient, retain_graph=retain_graph,
                            inputs=self.inputs, listener=rec)
        except Exception as e:  # recorded; re-raised unless errors="record"
            run.error = e
            if not rec.saw_error:  # raised before the engine reached a node
                self.frames.append(Frame("error", (None, e), rec.run, reported=False))
            if errors == "raise":
                raise
        finally:
            run.stop = len(self.frames)
            run.after = {id(t): _grad_now(t) for t, _, _ in self.rows}
            self._grads = dict(run.after)
            self._index(run)
        return run

    def backward_again(self, retain_graph: bool | None = None) -> Run:
        """A second (third ...) backward on the same graph, errors recorded as frames."""
        if retain_graph is None:
            retain_graph = self.runs[-1].retain_graph if self.runs else False
        return self.run_backward(retain_graph, errors="record")

    def _index(self, run: Run) -> None:
        """Per-run lookups that make drawing any frame cheap."""
        spec = self.spec
        for i in range(run.start, run.stop):
            f = self.frames[i]
            if f.kind == "begin":
                for t, g in zip(self.roots, f.args[1]):
                    eid = spec.edges.get(("out", id(t)))
                    if eid is not None:
                        run.edges.append((i, eid, _fmt(g)))
            elif f.kind == "node":
                node = f.args[0]
                sid = self._sid(node)
                if sid is not None:
                    run.nodes.append((i, sid))
                for nr in range(len(f.args[1])):
                    run.consumed.setdefault((id(node), nr), i)
            elif f.kind == "edge":
                node, index, nxt, nr, g = f.args
                eid = spec.edges.get(("edge", id(node), index))
                if eid is not None:
                    run.edges.append((i, eid, _fmt(g)))
                run.pending.setdefault((id(nxt), nr), []).append((i, g))
            elif f.kind == "accumulate":
                t = f.args[0]
                self._accums.setdefault(id(t), []).append(i)
                acc = t._acc() if t.grad_fn is None and t._acc is not None else None
                eid = spec.edges.get(("var", id(acc))) if acc is not None else None
                if eid is not None:
                    run.edges.append((i, eid, "+= " + _fmt(f.args[1])))
            elif f.kind == "free":
                node, names = f.args
                sids = [GraphSpec.svg_id(spec.names[("saved", id(node), n)]) for n in names
                        if ("saved", id(node), n) in spec.names]
                self._freed.append((i, sids))

    # ---- one frame ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.frames)

    def __repr__(self) -> str:
        errs = sum(r.error is not None for r in self.runs)
        return (f"<Recording: {len(self.frames)} frames, {len(self.runs)} backward run(s)"
                f"{f' ({errs} with an error)' if errs else ''}, "
                f"{len(self.spec.nodes)} graph nodes>")

    def _check(self, i: int) -> Frame:
        if not 0 <= i < len(self.frames):
            raise IndexError(f"frame {i} out of range: this recording has {len(self.frames)}")
        return self.frames[i]

    def _head(self, i: int) -> int:
        """The frame that started the current step: the last ``node``/``begin`` at or before i."""
        run = self.runs[self.frames[i].run]
        j = bisect.bisect_right([k for k, _ in run.nodes], i) - 1
        return run.nodes[j][0] if j >= 0 else run.start

    def style(self, i: int) -> FrameStyle:
        """Roles and labels of frame ``i`` (see :class:`FrameStyle`)."""
        f = self._check(i)
        run = self.runs[f.run]
        head = self._head(i)
        style = FrameStyle(caption=self.caption_text(i))
        for j, sid in run.nodes:
            if j < head or (f.kind == "end" and j <= i):
                style.nodes[sid] = "done"
        for j, eid, text in run.edges:
            if j <= i:
                style.labels[eid] = text
                style.edges[eid] = "active" if j >= head and f.kind != "end" else "done"
        for j, sids in self._freed:
            if j <= i:
                for sid in sids:
                    style.nodes[sid] = "freed"
        for sid in self._current(f, head):
            style.nodes[sid] = "error" if f.kind == "error" else "current"
        return style

    def _current(self, f: Frame, head: int) -> list[str]:
        if f.kind == "end":
            return []
        if f.kind == "begin":
            return [s for n, _ in f.args[0] if (s := self._sid(n)) is not None]
        if f.kind == "accumulate":
            t = f.args[0]
            out = []
            if t.grad_fn is None:
                name = self.spec.names.get(("t", id(t)))
                if name is not None:
                    out.append(GraphSpec.svg_id(name))
                acc = t._acc() if t._acc is not None else None
                if acc is not None and (s := self._sid(acc)) is not None:
                    out.append(s)
            elif (s := self._sid(t.grad_fn)) is not None:
                out.append(s)
            return out
        node = f.node if f.kind in ("node", "error") else self.frames[head].node
        if f.kind == "free":
            node = f.args[0]
        return [s] if node is not None and (s := self._sid(node)) is not None else []

    def caption_text(self, i: int) -> str:
        """What happens at frame ``i``, in words (plain text)."""
        f = self._check(i)
        run = self.runs[f.run]
        nth = "" if f.run == 0 else f"backward #{f.run + 1}: "
        if f.kind == "begin":
            roots = ", ".join(self.node_name(n) for n, _ in f.args[0])
            grads = ", ".join(_fmt(g) for g in f.args[1])
            text = f"backward() starts at {roots} with gradient {grads}"
            if f.run:
                text += f" (retain_graph={run.retain_graph})"
        elif f.kind == "node":
            node, grads = f.args
            parts = []
            for nr, g in enumerate(grads):
                terms = [t for j, t in run.pending.get((id(node), nr), []) if j < i]
                if len(terms) > 1:
                    parts.append(" + ".join(_fmt(t) for t in terms) + f" = {_fmt(g)}")
                else:
                    parts.append(_fmt(g))
            text = f"{self.node_name(node)} runs with grad_output {'; '.join(parts)}"
            if any(len(run.pending.get((id(node), nr), [])) > 1 for nr in range(len(grads))):
                text += " (gradients from several paths are summed first)"
        elif f.kind == "edge":
            node, index, nxt, _, g = f.args
            text = (f"{self.node_name(node)} sends {_fmt(g)} to {self.node_name(nxt)} "
                    f"(next_functions[{index}])")
        elif f.kind == "accumulate":
            t, g, total = f.args
            name = self.name_of(t)
            what = ".grad (retained)" if t.grad_fn is not None else ".grad"
            if f.old is None:
                text = f"{name}{what} = {_fmt(total)} (it was None)"
            else:
                text = f"{name}{what}: {_fmt(f.old)} + {_fmt(g)} = {_fmt(total)}"
        elif f.kind == "free":
            node, names = f.args
            text = (f"{self.node_name(node)} frees its saved {', '.join(names)} "
                    "(no retain_graph)")
        elif f.kind == "error":
            node, e = f.args
            text = f"{self.node_name(node)} raised {type(e).__name__}: {e}"
        else:
            text = "backward() finished" if run.error is None else "backward() stopped: error"
        return f"{nth}{text}"

    def grads_at(self, i: int) -> dict[int, np.ndarray | None]:
        """``.grad`` of every tracked tensor as of frame ``i`` (id(tensor) -> array or None)."""
        f = self._check(i)
        if f.kind == "end":
            return dict(self.runs[f.run].after)
        prev = self.runs[f.run - 1].after if f.run else self._initial
        out = dict(prev)
        for t, _, _ in self.rows:
            idx = self._accums.get(id(t), [])
            k = bisect.bisect_right(idx, i) - 1
            if k >= 0 and idx[k] >= self.runs[f.run].start:
                out[id(t)] = self.frames[idx[k]].args[2]
        return out

    def table_html(self, i: int) -> str:
        """The ``.grad`` table at frame ``i`` (HTML), plus gradients waiting to be summed."""
        f = self._check(i)
        grads = self.grads_at(i)
        size = "17px" if self.presenter else "13px"
        cell = f"padding:3px 8px;border:1px solid #888;font-size:{size};font-family:monospace"
        rows = [f'<tr><th style="{cell}">tensor</th><th style="{cell}">.grad</th>'
                f'<th style="{cell}">this step</th></tr>']
        for t, name, kind in self.rows:
            step = ""
            hl = ""
            if f.kind == "accumulate" and f.args[0] is t:
                step = (f"None → {_fmt(f.args[2])}" if f.old is None else
                        f"{_fmt(f.old)} + {_fmt(f.args[1])} = {_fmt(f.args[2])}")
                hl = "background:#ffd54f;font-weight:bold;"
            label = name + ("" if kind == "leaf" else f" ({kind})")
            rows.append(f'<tr style="{hl}"><td style="{cell}">{html.escape(label)}</td>'
                        f'<td style="{cell}">{html.escape(_fmt(grads.get(id(t))))}</td>'
                        f'<td style="{cell}">{html.escape(step)}</td></tr>')
        out = [f'<table class="agl-grads" style="border-collapse:collapse">{"".join(rows)}</table>']
        pend = self._pending_at(i)
        if pend:
            items = "".join(f"<li>{html.escape(x)}</li>" for x in pend)
            out.append(f'<div class="agl-pending" style="font-family:monospace;font-size:{size};'
                       f'margin-top:8px">waiting to be summed:<ul style="margin:2px 0">'
                       f"{items}</ul></div>")
        return "".join(out)

    def _pending_at(self, i: int) -> list[str]:
        f = self.frames[i]
        if f.kind == "end":
            return []
        run = self.runs[f.run]
        names = {id(n): n for n in self.spec.nodes}
        out = []
        for (nid, nr), contribs in run.pending.items():
            terms = [g for j, g in contribs if j <= i]
            used = run.consumed.get((nid, nr))
            if len(terms) > 1 and (used is None or used > i) and nid in names:
                node = names[nid]
                what = self.node_name(node) + (f"[{nr}]" if node._n_outputs > 1 else "")
                out.append(f"{what} ← " + " + ".join(_fmt(g) for g in terms))
        return out

    def caption_html(self, i: int) -> str:
        """Frame ``i``'s caption as HTML."""
        f = self._check(i)
        color = "#b71c1c" if f.kind == "error" else "#111"
        size = "20px" if self.presenter else "14px"
        return (f'<div class="agl-caption" style="font-family:monospace;font-size:{size};'
                f'color:{color}"><b>step {i + 1} / {len(self.frames)}</b> · '
                f"{html.escape(self.caption_text(i))}</div>")

    # ---- drawing -----------------------------------------------------------------------------

    @property
    def svg(self) -> str:
        """The graph rendered once by Graphviz (needs ``dot``), before any frame styling."""
        if self._svg is None:
            self._svg = to_svg(self.spec.dot)
        return self._svg

    @property
    def canvas(self) -> SvgCanvas:
        """The rendered graph, ready to be restyled for each frame."""
        if self._canvas is None:
            self._canvas = SvgCanvas(self.svg, self._scope, self.presenter)
        return self._canvas

    def frame_svg(self, i: int) -> str:
        """Frame ``i`` as inline SVG (node ids ``n_0 ...``, edge ids ``e_0 ...``)."""
        return self.canvas.compose(self.style(i))

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

    def to_html(self, path: str | os.PathLike, title: str = "Backward pass") -> str:
        """A standalone HTML page with every frame: no kernel, no network (inline SVG + JS)."""
        canvas = SvgCanvas(self.svg, "agl", self.presenter)
        svg, _ = canvas.parts()
        frames = []
        for i in range(len(self.frames)):
            st = self.style(i)
            frames.append({"css": canvas.css(st), "labels": canvas.overlay(st),
                           "caption": self.caption_html(i), "table": self.table_html(i)})
        data = json.dumps(frames, ensure_ascii=True).replace("</", "<\\/")
        page = _PAGE.format(title=html.escape(title), svg=svg, n=len(frames) - 1, data=data)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page)
        return os.fspath(path)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 16px; }}
.controls button {{ font-size: 15px; margin-right: 4px; }}
.controls input {{ width: 320px; vertical-align: middle; }}
.row {{ display: flex; gap: 24px; align-items: flex-start; margin-top: 8px; }}
</style></head>
<body><div class="autograd-lab-stepper">
<div class="controls"><button id="reset">Reset</button><button id="prev">&#x25C0; Prev</button>
<button id="play">&#x25B6; Play</button><input id="slider" type="range" min="0" max="{n}" value="0">
<button id="next">Next &#x25B6;</button></div>
<div id="caption"></div>
<div class="row"><div id="graph">{svg}</div><div id="table"></div></div>
</div>
<script>
const FRAMES = {data};
const slider = document.getElementById("slider");
const style = document.querySelector("#graph style.agl-style");
const labels = document.querySelector("#graph g.agl-labels");
let timer = null;
function show(i) {{
  i = Math.max(0, Math.min(FRAMES.length - 1, i));
  slider.value = i;
  const f = FRAMES[i];
  style.textContent = f.css;
  labels.innerHTML = f.labels;
  document.getElementById("caption").innerHTML = f.caption;
  document.getElementById("table").innerHTML = f.table;
}}
function stop() {{ if (timer) {{ clearInterval(timer); timer = null; }} }}
slider.addEventListener("input", () => {{ stop(); show(+slider.value); }});
document.getElementById("prev").onclick = () => {{ stop(); show(+slider.value - 1); }};
document.getElementById("next").onclick = () => {{ stop(); show(+slider.value + 1); }};
document.getElementById("reset").onclick = () => {{ stop(); show(0); }};
document.getElementById("play").onclick = () => {{
  if (timer) {{ stop(); return; }}
  timer = setInterval(() => {{
    if (+slider.value >= FRAMES.length - 1) {{ stop(); return; }}
    show(+slider.value + 1);
  }}, 700);
}};
show(0);
</script></body></html>
"""


def record_backward(root: Any, gradient: Any = None, retain_graph: bool = False,
                    inputs: Any = None, *, params: dict[str, Tensor] | None = None,
                    errors: str = "raise", presenter: bool = False,
                    max_nodes: int | None = 2000) -> Recording:
    """Run ``root.backward(gradient, retain_graph, inputs=inputs)`` for real and record it.

    ``root`` is a Tensor (or a list of them, like ``torch.autograd.backward``). The graph
    is captured first (saved tensors as they are before backward frees them); then
    the engine runs with a listener and every event becomes a :class:`Frame`. Leaves'
    ``.grad`` are filled exactly as by ``backward()``. ``params`` names tensors in the
    drawing and the ``.grad`` table. With ``errors="record"`` an error during backward
    ends the recording (as an ``error`` frame) instead of propagating.
    """
    roots = list(root) if isinstance(root, (list, tuple)) else [root]
    for t in roots:
        if not isinstance(t, Tensor):
            raise TypeError(f"record_backward expects Tensors, got {type(t).__name__}")
    rec = Recording(roots, gradient, inputs, params, presenter, max_nodes)
    rec.run_backward(retain_graph, errors)
    return rec
