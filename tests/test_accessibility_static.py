"""Accessibility facts that need no browser: every Markdown figure of the README and the
notebooks has real alt text, and the graph colours keep WCAG AA contrast (text 4.5:1, strokes
and large text 3:1) -- the steppers and feedback draw on a light card in dark themes too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from autograd_lab.viz import graph_spec, restyle

ROOT = Path(__file__).resolve().parents[1]
IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^)\s]+)")
HTML_IMG = re.compile(r"<img\b[^>]*>", re.I)
NAMED = {"white": "#ffffff", "black": "#000000", "lightgrey": "#d3d3d3",
         "lightblue": "#add8e6", "orange": "#ffa500", "darkolivegreen1": "#caff70",
         "darkolivegreen3": "#a2cd5a"}


def markdown_sources() -> list[tuple[str, str]]:
    out = [("README.md", (ROOT / "README.md").read_text(encoding="utf-8"))]
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for k, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "markdown":
                src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
                out.append((f"{path.name} cell {k}", src))
    return out


def bad_alt(alt: str) -> bool:
    alt = alt.strip()
    return (len(alt) < 10 or bool(re.search(r"[/\\]|\.(?:svg|png|jpe?g|gif)\b|[0-9a-f]{12}", alt))
            or alt.lower() in ("image", "figure", "alt", "screenshot"))


def test_markdown_figures_have_real_alt_text():
    bad = []
    for where, text in markdown_sources():
        text = re.sub(r"```.*?```|`[^`]*`", "", text, flags=re.S)  # examples in code
        for alt, target in IMAGE.findall(text):
            if bad_alt(alt):
                bad.append(f"{where}: ![{alt}]({target[:40]})")
        for tag in HTML_IMG.findall(text):
            m = re.search(r'\balt="([^"]*)"', tag)
            if m is None or bad_alt(m.group(1)):
                bad.append(f"{where}: {tag[:80]}")
    assert bad == []


def luminance(color: str) -> float:
    color = NAMED.get(color, color).lstrip("#")
    rgb = [int(color[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("fill", [graph_spec.FUNCTION, graph_spec.LEAF, graph_spec.SAVED,
                                  graph_spec.OUTPUT, graph_spec.BASE, graph_spec.STALE,
                                  restyle.CURRENT_FILL, restyle.ERROR_FILL])
def test_node_text_contrast(fill):
    assert contrast("black", fill) >= 4.5


@pytest.mark.parametrize("pair", [(graph_spec.FREED_LINE, graph_spec.FREED_FILL),
                                  (graph_spec.FREED_LINE, "white"),
                                  (restyle.LABEL_DONE, "white"), (restyle.ACTIVE_EDGE, "white"),
                                  (restyle.CURRENT_LINE, "white"),
                                  (restyle.CURRENT_LINE, restyle.CURRENT_FILL)])
def test_text_in_graphs_contrast(pair):
    assert contrast(*pair) >= 4.5, pair


@pytest.mark.parametrize("stroke", [graph_spec.HIGHLIGHT, graph_spec.FREED_LINE,
                                    restyle.DONE_LINE, restyle.ACTIVE_EDGE, restyle.DONE_EDGE,
                                    restyle.CURRENT_LINE])
def test_graph_strokes_contrast(stroke):
    assert contrast(stroke, "white") >= 3.0
