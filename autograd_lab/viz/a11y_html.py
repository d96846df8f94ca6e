"""Pictures as HTML that carries its text alternative (JupyterLab shows ``image/svg+xml`` and
``image/png`` outputs as an ``<img>`` with no alt, and ignores alt text in output metadata).

- :func:`svg_figure` -- an inline ``<svg role="img" aria-labelledby=…>`` with ``<title>`` and
  ``<desc>``, followed by a collapsed "text version" (``<details>``) when the description is long.
- :func:`png_figure` -- an ``<img alt=…>`` holding a PNG as a data URL, plus the text version.
- :func:`titled_svg` -- a Graphviz SVG whose anonymous ``<title>%3</title>`` says what it shows.
"""

from __future__ import annotations

import base64
import html
import itertools
import re

from .text_alt import TextAlt

__all__ = ["name_svg", "png_figure", "svg_figure", "text_version", "titled_svg"]

_ids = itertools.count()
# Graphviz titles an anonymous graph "%3" (a screen reader reads it out): the graph's group
_GRAPH_TITLE = re.compile(r'(<g id="[^"]*graph0" class="graph"[^>]*>\s*)<title>[^<]*</title>')
# the text version, readable in the light and dark themes of JupyterLab and the website
_DETAILS_STYLE = "margin:4px 0 8px;font-size:13px;max-width:100%"


def _uid() -> str:
    return f"agl-fig{next(_ids)}"


def titled_svg(svg: str, alt: TextAlt) -> str:
    """``svg`` with its graph's title replaced by the summary."""
    return _GRAPH_TITLE.sub(lambda m: f"{m.group(1)}<title>{html.escape(alt.summary)}</title>",
                            svg, count=1)


def name_svg(svg: str, name: str) -> str:
    """``svg`` (starting at ``<svg``) as an image named ``name`` (role img, aria-label)."""
    j = svg.index(">")
    return f'{svg[:j]} role="img" aria-label="{html.escape(name)}"{svg[j:]}'


def text_version(alt: TextAlt, what: str = "picture") -> str:
    """A collapsed ``<details>`` with one line per item of the description ('' when the
    summary says it all)."""
    if alt.complete or len(alt.details) <= 1:
        return ""
    items = "".join(f"<li>{html.escape(line.strip())}</li>" for line in alt.details)
    return (f'<details class="agl-text-version" style="{_DETAILS_STYLE}">'
            f"<summary>Text version of the {html.escape(what)}</summary>"
            f'<ul style="margin:4px 0;padding-left:20px">{items}</ul></details>')


def svg_figure(svg: str, alt: TextAlt, what: str = "graph", style: str = "",
               box_style: str = "") -> str:
    """An inline SVG named by ``alt`` (role img, title, desc) and its text version.

    ``box_style``: the SVG goes in a ``<div class="agl-scroll">`` with that style (a graph
    shown at full size with scrollbars); the text version stays outside the box.
    """
    i = svg.find("<svg")
    if i < 0:
        raise ValueError("svg_figure: no <svg> element in the drawing")
    svg = titled_svg(svg[i:], alt)
    j = svg.index(">") + 1
    uid = _uid()
    desc = " ".join(line.strip() for line in alt.details[1:]) if len(alt.details) > 1 else ""
    head = svg[: j - 1]
    attrs = f' role="img" aria-labelledby="{uid}-t"'
    if style:
        attrs += f' style="{style}"'
    inner = f'<title id="{uid}-t">{html.escape(alt.summary)}</title>'
    if desc:
        attrs = attrs.replace(f'"{uid}-t"', f'"{uid}-t" aria-describedby="{uid}-d"')
        inner += f'<desc id="{uid}-d">{html.escape(desc)}</desc>'
    drawing = f"{head}{attrs}>{inner}{svg[j:]}"
    if box_style:
        drawing = f'<div class="agl-scroll" style="{box_style}">{drawing}</div>'
    return drawing + text_version(alt, what)


def png_figure(png: bytes, alt: TextAlt, width: int | None = None, what: str = "figure") -> str:
    """The PNG as ``<img alt=…>`` (a data URL) and its text version."""
    data = base64.b64encode(png).decode("ascii")
    size = f' width="{width}"' if width else ""
    return (f'<img alt="{html.escape(alt.summary)}"{size} style="max-width:100%;height:auto" '
            f'src="data:image/png;base64,{data}">{text_version(alt, what)}')
