"""What frame ``i`` of a :class:`BackwardLog` shows, derived from the events alone.

Which node is current, which edges carried which gradient (active in this step or done),
the saved tensors already freed (a :class:`FrameStyle`); the caption in words; every
tracked tensor's ``.grad`` as of that frame; the gradients waiting at a node with several
incoming edges. The renderers (``frame_html``, ``restyle``, ``html_export``) draw these.
"""

from __future__ import annotations

import bisect

import numpy as np

from .backward_log import BackwardLog, Frame, fmt_grad
from .graph_spec import GraphSpec
from .restyle import FrameStyle

__all__ = ["announcement", "caption_text", "grads_at", "pending_at", "style"]


def style(log: BackwardLog, i: int) -> FrameStyle:
    """Roles and labels of frame ``i`` (see :class:`FrameStyle`)."""
    f = log.check(i)
    run = log.runs[f.run]
    head = log.head(i)
    style = FrameStyle(caption=caption_text(log, i))
    for j, sid in run.nodes:
        if j < head or (f.kind == "end" and j <= i):
            style.nodes[sid] = "done"
    for j, eid, text in run.edges:
        if j <= i:
            style.labels[eid] = text
            style.edges[eid] = "active" if j >= head and f.kind != "end" else "done"
    for j, sids in log._freed:
        if j <= i:
            for sid in sids:
                style.nodes[sid] = "freed"
    for sid in _current(log, f, head):
        style.nodes[sid] = "error" if f.kind == "error" else "current"
    return style

def _current(log: BackwardLog, f: Frame, head: int) -> list[str]:
    if f.kind == "end":
        return []
    if f.kind == "begin":
        return [s for n, _ in f.args[0] if (s := log.sid(n)) is not None]
    if f.kind == "accumulate":
        t = f.args[0]
        out = []
        if t.grad_fn is None:
            name = log.spec.names.get(("t", id(t)))
            if name is not None:
                out.append(GraphSpec.svg_id(name))
            acc = t._acc() if t._acc is not None else None
            if acc is not None and (s := log.sid(acc)) is not None:
                out.append(s)
        elif (s := log.sid(t.grad_fn)) is not None:
            out.append(s)
        return out
    node = f.node if f.kind in ("node", "error") else log.frames[head].node
    if f.kind == "free":
        node = f.args[0]
    return [s] if node is not None and (s := log.sid(node)) is not None else []

def caption_text(log: BackwardLog, i: int) -> str:
    """What happens at frame ``i``, in words (plain text)."""
    f = log.check(i)
    run = log.runs[f.run]
    nth = "" if f.run == 0 else f"backward #{f.run + 1}: "
    if f.kind == "begin":
        roots = ", ".join(log.node_name(n) for n, _ in f.args[0])
        grads = ", ".join(fmt_grad(g) for g in f.args[1])
        text = f"backward() starts at {roots} with gradient {grads}"
        if f.run:
            text += f" (retain_graph={run.retain_graph})"
    elif f.kind == "node":
        node, grads = f.args
        parts = []
        for nr, g in enumerate(grads):
            terms = [t for j, t in run.pending.get((id(node), nr), []) if j < i]
            if len(terms) > 1:
                parts.append(" + ".join(fmt_grad(t) for t in terms) + f" = {fmt_grad(g)}")
            else:
                parts.append(fmt_grad(g))
        text = f"{log.node_name(node)} runs with grad_output {'; '.join(parts)}"
        if any(len(run.pending.get((id(node), nr), [])) > 1 for nr in range(len(grads))):
            text += " (gradients from several paths are summed first)"
    elif f.kind == "edge":
        node, index, nxt, _, g = f.args
        text = (f"{log.node_name(node)} sends {fmt_grad(g)} to {log.node_name(nxt)} "
                f"(next_functions[{index}])")
    elif f.kind == "accumulate":
        t, g, total = f.args
        name = log.name_of(t)
        what = ".grad (retained)" if t.grad_fn is not None else ".grad"
        if f.old is None:
            text = f"{name}{what} = {fmt_grad(total)} (it was None)"
        else:
            text = f"{name}{what}: {fmt_grad(f.old)} + {fmt_grad(g)} = {fmt_grad(total)}"
    elif f.kind == "free":
        node, names = f.args
        text = (f"{log.node_name(node)} frees its saved {', '.join(names)} "
                "(no retain_graph)")
    elif f.kind == "error":
        node, e = f.args
        text = f"{log.node_name(node)} raised {type(e).__name__}: {e}"
    else:
        text = "backward() finished" if run.error is None else "backward() stopped: error"
    return f"{nth}{text}"

def announcement(log: BackwardLog, i: int) -> str:
    """Frame ``i`` as one sentence for a screen reader (the steppers' ``aria-live`` region):
    the node that runs, the gradient it receives, what accumulates."""
    f = log.check(i)
    run = log.runs[f.run]
    where = f"Step {i + 1} of {len(log.frames)}" + (f", backward #{f.run + 1}" if f.run else "")
    if f.kind == "node":
        node, grads = f.args
        got = "; ".join(fmt_grad(g) for g in grads)
        several = any(len(run.pending.get((id(node), nr), [])) > 1 for nr in range(len(grads)))
        text = (f"{log.node_name(node)} runs: it receives the gradient {got}"
                + (", summed from several paths" if several else ""))
    elif f.kind == "accumulate":
        t, g, total = f.args
        name = log.name_of(t) + ".grad"
        text = (f"{name} accumulates {fmt_grad(g)}: it was None, now {fmt_grad(total)}"
                if f.old is None else
                f"{name} accumulates {fmt_grad(g)}: {fmt_grad(f.old)} plus {fmt_grad(g)} "
                f"makes {fmt_grad(total)}")
    elif f.kind == "edge":
        node, index, nxt, _, g = f.args
        text = f"{log.node_name(node)} sends the gradient {fmt_grad(g)} to {log.node_name(nxt)}"
    else:
        text = caption_text(log, i).removeprefix(f"backward #{f.run + 1}: ")
    return f"{where}: {text}" + ("" if text.endswith(".") else ".")


def grads_at(log: BackwardLog, i: int) -> dict[int, np.ndarray | None]:
    """``.grad`` of every tracked tensor as of frame ``i`` (id(tensor) -> array or None)."""
    f = log.check(i)
    if f.kind == "end":
        return dict(log.runs[f.run].after)
    prev = log.runs[f.run - 1].after if f.run else log._initial
    out = dict(prev)
    for t, _, _ in log.rows:
        idx = log._accums.get(id(t), [])
        k = bisect.bisect_right(idx, i) - 1
        if k >= 0 and idx[k] >= log.runs[f.run].start:
            out[id(t)] = log.frames[idx[k]].args[2]
    return out


def pending_at(log: BackwardLog, i: int) -> list[str]:
    f = log.frames[i]
    if f.kind == "end":
        return []
    run = log.runs[f.run]
    names = {id(n): n for n in log.spec.nodes}
    out = []
    for (nid, nr), contribs in run.pending.items():
        terms = [g for j, g in contribs if j <= i]
        used = run.consumed.get((nid, nr))
        if len(terms) > 1 and (used is None or used > i) and nid in names:
            node = names[nid]
            what = log.node_name(node) + (f"[{nr}]" if node._n_outputs > 1 else "")
            out.append(f"{what} ← " + " + ".join(fmt_grad(g) for g in terms))
    return out

