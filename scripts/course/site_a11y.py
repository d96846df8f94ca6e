"""Accessibility of the course website: text alternatives in the staged notebooks, and fixes
to the theme's markup in the built pages (called by ``build_site.py``).

Staging (:func:`stage_notebook`), per saved output:

- an SVG output with no ``text/html`` form (a notebook saved before its graphs carried one)
  gets one: the inline SVG named by its nodes and edges (``autograd_lab.viz``'s describer);
- a raster figure with no ``text/html`` form gets alt text built from the labels its cell
  sets (title, axis labels, line labels), through myst-nb's ``mystnb.image.alt`` metadata,
  instead of the hashed file name myst-nb would use;
- an inline Graphviz SVG in HTML (a large graph in its scroll box) gets a name and loses
  Graphviz's anonymous title ``%3``.

After the build (:func:`postprocess`), per page:

- the "Show solution" toggles and the theme's search button lose an ``aria-label`` that
  differs from their visible text (axe: ``label-content-name-mismatch``);
- ``a11y.css`` (contrast in the dark theme, reflow at 320 px) and ``a11y.js`` (names for the
  sliders of saved widgets) are linked from every page.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

# a11y.css and a11y.js live in site/_static/ (Sphinx copies them); every page links them

# ---- staging: text alternatives ----------------------------------------------------------------

_KIND = {"set_title": "title", "title": "title", "suptitle": "title", "set_xlabel": "x axis",
         "xlabel": "x axis", "set_ylabel": "y axis", "ylabel": "y axis"}
_HTML_SVG = re.compile(r"<svg\b(?![^>]*\brole=)[^>]*>.*?</svg>", re.S)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "".join(value)


def figure_alt(source: str) -> str:
    """Alt text for a figure from the labels its cell's code sets (plain words, no TeX)."""
    parts: dict[str, list[str]] = {}
    for m in re.finditer(r"\b(set_title|suptitle|title|set_xlabel|xlabel|set_ylabel|ylabel)"
                         r"\(\s*[rf]?([\"'])(.*?)\2|\blabel\s*=\s*[rf]?([\"'])(.*?)\4", source):
        kind = _KIND[m.group(1)] if m.group(1) else "lines"
        text = m.group(3) if m.group(1) else m.group(5)
        text = re.sub(r"\\([A-Za-z]+)", r"\1", text).replace("$", "").strip()
        if text and "{" not in text:
            parts.setdefault(kind, []).append(text)
    if not parts:
        return "a plot drawn by the code above"
    order = ("title", "x axis", "y axis", "lines")
    return "plot: " + "; ".join(f"{k}: {', '.join(parts[k])}" for k in order if k in parts)


def stage_notebook(nb: dict) -> dict:
    """``nb`` (the staged copy) with a text alternative on every picture it outputs."""
    from autograd_lab.viz.a11y_html import svg_figure
    from autograd_lab.viz.text_alt import svg_graph_text

    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/html" in data:
                page = _text(data["text/html"])
                if "<svg" in page:
                    data["text/html"] = _HTML_SVG.sub(
                        lambda m: svg_figure(m.group(0), svg_graph_text(m.group(0))), page)
                continue
            if "image/svg+xml" in data:
                svg = _text(data["image/svg+xml"])
                data["text/html"] = svg_figure(svg, svg_graph_text(svg),
                                               style="max-width:100%;height:auto")
            elif any(m in data for m in ("image/png", "image/jpeg")):
                meta = cell.setdefault("metadata", {}).setdefault("mystnb", {})
                meta.setdefault("image", {}).setdefault("alt", figure_alt(_text(cell["source"])))
    return nb


# ---- the built pages ---------------------------------------------------------------------------

# myst-nb's toggle names itself "Toggle hidden content" while it shows "Show solution"
_SUMMARY = re.compile(r'<summary aria-label="Toggle hidden content">')
# the theme's search button is named "Search" while it shows "Search Ctrl+K"
_SEARCH = re.compile(r'(<button class="[^"]*search-button__button[^"]*"[^>]*?) aria-label="Search"')
_HEAD_END = "</head>"


def fix_page(page: str, static: str) -> str:
    """One built page with the markup fixes and the links to ``a11y.css`` / ``a11y.js``
    (``static``: the relative path of ``_static/`` from the page)."""
    page = _SUMMARY.sub("<summary>", page)
    page = _SEARCH.sub(r"\1", page)
    links = (f'<link rel="stylesheet" href="{static}a11y.css">'
             f'<script defer src="{static}a11y.js"></script>')
    if "a11y.css" not in page:
        page = page.replace(_HEAD_END, links + _HEAD_END, 1)
    return page


def postprocess(out: Path) -> int:
    """Fix every page of the built site ``out``; returns how many pages were changed."""
    static = out / "_static"
    changed = 0
    for path in sorted(out.rglob("*.html")):
        if static in path.parents:
            continue
        depth = len(path.relative_to(out).parts) - 1
        text = path.read_text(encoding="utf-8")
        fixed = fix_page(text, "../" * depth + "_static/")
        if fixed != text:
            path.write_text(fixed, encoding="utf-8")
            changed += 1
    return changed


def alt_problems(page: str) -> list[str]:
    """Images of a built page whose alt text is missing, empty, a path or a hash (a decorative
    ``alt=""`` is allowed only on hidden helper images)."""
    bad = []
    page = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)  # saved widget state: data
    for m in re.finditer(r"<img\b[^>]*>", page):
        tag = m.group(0)
        alt = re.search(r'\balt="([^"]*)"', tag)
        if alt is None:
            bad.append(tag[:160])
            continue
        text = html.unescape(alt.group(1)).strip()
        hidden = "display:none" in tag.replace(" ", "")
        if (not text and not hidden) or re.search(r"[/\\]|\.(?:svg|png|jpe?g|gif)\b|[0-9a-f]{16}",
                                                  text):
            bad.append(tag[:160])
    return bad
