"""A frame's caption and ``.grad`` table as HTML (inline styles: they render alike in a widget,
in the static export and on a web page, with no stylesheet to load).
"""

from __future__ import annotations

import html

from .backward_log import BackwardLog, fmt_grad
from .frame_state import caption_text, grads_at, pending_at

__all__ = ["STEPPER_CSS", "caption_html", "table_html"]

# Both steppers (``ROOT`` is their root's selector): a light card in light and dark themes
# alike, so every colour keeps its contrast (text 4.5:1, strokes 3:1); a focus ring the
# keyboard user sees; ``agl-sr`` hides the aria-live sentence from the eye only (clipped to
# nothing, yet as wide as its text wraps to: no box overflows).
STEPPER_CSS = """ROOT{background:#fff;color:#111;padding:6px 8px;border-radius:4px;
color-scheme:light;position:relative}
ROOT :focus-visible{outline:3px solid #1a56db !important;outline-offset:2px}
ROOT .agl-sr{position:absolute;left:0;top:0;max-width:100%;margin:0;padding:0;border:0;
clip-path:inset(50%);clip:rect(0 0 0 0);pointer-events:none}
ROOT button{background:#f3f3f3;color:#111;border:1px solid #767676;border-radius:3px}
ROOT button:hover{background:#e0e0e0}
ROOT details,ROOT summary{color:#111}"""


def table_html(log: BackwardLog, i: int) -> str:
    """The ``.grad`` table at frame ``i`` (HTML), plus gradients waiting to be summed."""
    f = log.check(i)
    grads = grads_at(log, i)
    size = "17px" if log.presenter else "13px"
    cell = f"padding:3px 8px;border:1px solid #888;font-size:{size};font-family:monospace"
    rows = [f'<tr><th style="{cell}">tensor</th><th style="{cell}">.grad</th>'
            f'<th style="{cell}">this step</th></tr>']
    for t, name, kind in log.rows:
        step = ""
        hl = ""
        if f.kind == "accumulate" and f.args[0] is t:
            step = (f"None → {fmt_grad(f.args[2])}" if f.old is None else
                    f"{fmt_grad(f.old)} + {fmt_grad(f.args[1])} = {fmt_grad(f.args[2])}")
            hl = "background:#ffd54f;font-weight:bold;"
        label = name + ("" if kind == "leaf" else f" ({kind})")
        rows.append(f'<tr style="{hl}"><td style="{cell}">{html.escape(label)}</td>'
                    f'<td style="{cell}">{html.escape(fmt_grad(grads.get(id(t))))}</td>'
                    f'<td style="{cell}">{html.escape(step)}</td></tr>')
    out = [f'<table class="agl-grads" style="border-collapse:collapse">{"".join(rows)}</table>']
    pend = pending_at(log, i)
    if pend:
        items = "".join(f"<li>{html.escape(x)}</li>" for x in pend)
        out.append(f'<div class="agl-pending" style="font-family:monospace;font-size:{size};'
                   f'margin-top:8px">waiting to be summed:<ul style="margin:2px 0">'
                   f"{items}</ul></div>")
    return "".join(out)


def caption_html(log: BackwardLog, i: int) -> str:
    """Frame ``i``'s caption as HTML."""
    f = log.check(i)
    color = "#b71c1c" if f.kind == "error" else "#111"
    size = "20px" if log.presenter else "14px"
    return (f'<div class="agl-caption" style="font-family:monospace;font-size:{size};'
            f'color:{color}"><b>step {i + 1} / {len(log.frames)}</b> · '
            f"{html.escape(caption_text(log, i))}</div>")

