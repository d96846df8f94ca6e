"""The feedback page of one graded notebook: its cells as text, each verdict under its exercise.

Everything that comes from the submission (sources, outputs, names) is HTML-escaped and shown
as text; rich outputs (HTML, JavaScript, widgets, images) are named, not rendered. The page
also carries a Content-Security-Policy that allows no script at all.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from nbformat import NotebookNode

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MAX_OUTPUT = 20_000  # characters of one output shown

STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; color: #222; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0; padding: .4em .6em; }
.md { background: #fafafa; border-left: 3px solid #ddd; }
.code { background: #f4f6fa; border-left: 3px solid #9ab; }
.out { border-left: 3px solid #eee; color: #444; }
.err { border-left: 3px solid #c33; color: #900; }
.cell { margin: .5em 0; } .n { color: #888; font-size: 80%; }
.verdict { margin: .6em 0; padding: .4em .6em; border: 1px solid; border-radius: 4px; }
.passed { border-color: #2a2; background: #efe; }
.failed { border-color: #c33; background: #fee; }
.unanswered { border-color: #aa3; background: #ffd; }
.error { border-color: #c60; background: #fed; }
.formative { border-color: #88a; background: #f2f2fa; }
.banner { padding: .5em; background: #fed; border: 1px solid #c60; }
"""


@dataclass(frozen=True)
class Verdict:
    """One exercise's result, as shown on the page."""

    exercise: str
    title: str
    status: str
    points: int
    max_points: int
    message: str
    graded: bool = True


def _text(x: object) -> str:
    s = "".join(x) if isinstance(x, list) else str(x)
    s = _ANSI.sub("", s)
    if len(s) > MAX_OUTPUT:
        s = s[:MAX_OUTPUT] + f"\n… ({len(s) - MAX_OUTPUT:,} more characters)"
    return html.escape(s, quote=True)


def _output(out: NotebookNode) -> str:
    kind = out.get("output_type")
    if kind == "stream":
        return f'<pre class="out">{_text(out.get("text", ""))}</pre>'
    if kind == "error":
        body = "\n".join(_text(line) for line in out.get("traceback", [])) or \
            f"{_text(out.get('ename', ''))}: {_text(out.get('evalue', ''))}"
        return f'<pre class="err">{body}</pre>'
    data = out.get("data", {}) if isinstance(out.get("data"), dict) else {}
    if "text/plain" in data:
        shown = f'<pre class="out">{_text(data["text/plain"])}</pre>'
    else:
        shown = ""
    rich = sorted(k for k in data if k != "text/plain")
    if rich:
        shown += f'<pre class="out n">[not shown: {_text(", ".join(rich))}]</pre>'
    return shown


def _verdict(v: Verdict) -> str:
    label = (f"{v.points}/{v.max_points} · {v.status}" if v.graded
             else f"formative, not graded · {v.status}")
    css = v.status if v.graded else "formative"
    message = f"<br>{html.escape(v.message)}" if v.message else ""
    return (f'<div class="verdict {css}"><b>{html.escape(v.exercise)}</b> '
            f"{html.escape(v.title)} — {html.escape(label)}{message}</div>")


def render(student: str, notebook: str, nb: NotebookNode | None, verdicts: list[Verdict],
           placed: dict[str, int], banner: str = "") -> str:
    """The whole page. ``placed[exercise]`` is the cell index its verdict goes before."""
    score = sum(v.points for v in verdicts if v.graded)
    total = sum(v.max_points for v in verdicts if v.graded)
    title = f"{student} · {notebook}"
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1><p>Score: {score}/{total}</p>",
    ]
    if banner:
        parts.append(f'<p class="banner">{html.escape(banner)}</p>')
    cells = list(nb.cells) if nb is not None else []
    by_cell: dict[int, list[Verdict]] = {}
    for v in verdicts:
        by_cell.setdefault(placed.get(v.exercise, len(cells)), []).append(v)
    for i, cell in enumerate(cells):
        parts.extend(_verdict(v) for v in by_cell.get(i, []))
        kind = cell.get("cell_type", "?")
        css = "md" if kind == "markdown" else "code"
        parts.append(f'<div class="cell"><span class="n">[{i + 1}] {_text(kind)}</span>'
                     f'<pre class="{css}">{_text(cell.get("source", ""))}</pre>')
        parts.extend(_output(o) for o in cell.get("outputs", []) if isinstance(o, dict))
        parts.append("</div>")
    parts.extend(_verdict(v) for v in by_cell.get(len(cells), []))
    parts.append("</body></html>\n")
    return "\n".join(parts)
