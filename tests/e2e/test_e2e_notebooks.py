"""Every course notebook in a real JupyterLab and Chromium: first open, Run All, what is drawn.

One JupyterLab serves a trusted temporary copy of ``notebooks/`` and ``figures/`` (as
``scripts/lab.sh`` trusts the shipped notebooks). For each notebook, in one tab:

1. first open, nothing run: saved Graphviz outputs show as images (not their text repr),
   saved widget state renders, Markdown figures (``../figures/*.svg``) load;
2. Run All: every code cell ends with a number, no error output except in cells tagged
   ``raises-exception`` (which must raise), every graph output is drawn and every widget view
   renders live;
3. a screenshot of the whole notebook: ``test-artifacts/e2e/<notebook>.png``.

The outputs checked are the ones JupyterLab holds after the run (saved from the browser),
matched cell by cell with the DOM.
"""

from __future__ import annotations

import io

import pytest
from e2e_support import (
    artifact,
    copy_course,
    course_notebooks,
    open_notebook,
    read_notebook,
    run_all,
    save_notebook,
    source,
    tags,
    trust,
    wait_run_all,
)

pytestmark = pytest.mark.browser

WIDGET = "application/vnd.jupyter.widget-view+json"

# Per cell (in notebook order): what the browser shows in its output area.
CELLS_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel .jp-Notebook .jp-Cell')]
  .map(cell => {
    const imgs = sel => [...cell.querySelectorAll(sel)]
      .map(i => i.complete && i.naturalWidth > 0 && i.naturalHeight > 0);
    const widgets = [...cell.querySelectorAll('.jp-OutputArea-output')]
      .filter(o => o.classList.contains('jupyter-widgets')
                   || o.querySelector(':scope > .jupyter-widgets'))
      .map(o => ({
        ok: !!o.querySelector(':scope > .jupyter-widgets')
            && !o.textContent.includes('Error displaying widget'),
        live: !o.querySelector('.jupyter-widgets-disconnected'),
        text: o.textContent.slice(0, 200),
      }));
    const inline = [...cell.querySelectorAll('.jp-OutputArea-output svg')]
      .filter(s => s.querySelector('g.node, g.edge, path, rect, text'));
    return {
      type: cell.classList.contains('jp-CodeCell') ? 'code'
            : cell.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw',
      prompt: (cell.querySelector('.jp-InputPrompt') || {textContent: ''}).textContent.trim(),
      svg: imgs('.jp-RenderedSVG img'),
      png: imgs('.jp-RenderedImage img'),
      markdownImgs: [...cell.querySelectorAll('.jp-RenderedMarkdown img')]
        .map(i => ({ok: i.complete && i.naturalWidth > 0, src: i.getAttribute('src')})),
      svgAsText: [...cell.querySelectorAll('.jp-RenderedText')]
        .some(t => /Digraph at 0x/.test(t.textContent)),
      inlineSvg: inline.length,
      widgets,
    };
  })"""

IMAGES_LOADED_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel img')]
  .every(i => i.complete)"""


@pytest.fixture(scope="module")
def course(tmp_path_factory, lab_env):
    """The course copy, trusted the way ``scripts/lab.sh`` trusts the shipped notebooks."""
    root = copy_course(tmp_path_factory.mktemp("course"))
    notebooks = sorted(root.glob("*.ipynb"))
    if notebooks:
        trust(notebooks, lab_env)
    return root


# JupyterLab renders the best-ranked MIME type of an output (lower rank first).
RANKED = (WIDGET, "text/html", "text/markdown", "text/latex", "image/svg+xml", "image/png",
          "image/jpeg", "image/gif", "image/bmp", "image/webp", "application/javascript",
          "text/plain")


def shown_as(output: dict) -> str | None:
    data = output.get("data", {})
    return next((m for m in RANKED if m in data), None)


def outputs_with(cell: dict, mime: str) -> list[dict]:
    """The outputs JupyterLab shows as ``mime`` (``image/*``: any raster image)."""
    def match(m: str | None) -> bool:
        return m == mime or (mime == "image/*" and m is not None and m.startswith("image/")
                             and m != "image/svg+xml")
    return [o for o in cell.get("outputs", []) if match(shown_as(o))]


def saved_widget_models(nb: dict) -> set[str]:
    state = nb.get("metadata", {}).get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return set(state)


def describe(i: int, cell: dict) -> str:
    first = source(cell).strip().splitlines()
    return f"cell {i} ({first[0][:60] if first else 'empty'!r})"


def cell_views(page, nb: dict) -> list[dict]:
    page.wait_for_function(IMAGES_LOADED_JS, timeout=30_000)
    views = page.evaluate(CELLS_JS)
    assert [v["type"] for v in views] == [c["cell_type"] for c in nb["cells"]], \
        "the browser's cells do not match the notebook's"
    return views


def check_markdown_figures(views: list[dict], nb: dict) -> int:
    n = 0
    for i, (cell, view) in enumerate(zip(nb["cells"], views)):
        for img in view["markdownImgs"]:
            assert img["ok"], f"{describe(i, cell)}: image {img['src']} did not load"
            n += 1
    return n


def check_first_open(views: list[dict], nb: dict) -> dict[str, int]:
    """Before anything runs: saved graphs are images, saved widget state renders."""
    counts = {"svg": 0, "png": 0, "widgets from saved state": 0}
    saved_models = saved_widget_models(nb)
    for i, (cell, view) in enumerate(zip(nb["cells"], views)):
        if cell["cell_type"] != "code":
            continue
        n_svg = len(outputs_with(cell, "image/svg+xml"))
        assert len(view["svg"]) == n_svg and all(view["svg"]), \
            f"{describe(i, cell)}: {n_svg} saved SVG output(s), shown: {view['svg']}"
        assert not (n_svg and view["svgAsText"]), f"{describe(i, cell)}: SVG shown as text"
        n_png = len(outputs_with(cell, "image/*"))
        assert len(view["png"]) == n_png and all(view["png"]), \
            f"{describe(i, cell)}: {n_png} saved image output(s), shown: {view['png']}"
        counts["svg"] += n_svg
        counts["png"] += n_png
        for o, w in zip(outputs_with(cell, WIDGET), view["widgets"]):
            if o["data"][WIDGET]["model_id"] in saved_models:
                assert w["ok"], f"{describe(i, cell)}: saved widget did not render: {w['text']}"
                counts["widgets from saved state"] += 1
        expected = cell.get("execution_count")
        if expected is not None:
            assert view["prompt"] == f"[{expected}]:", f"{describe(i, cell)} ran on open"
    return counts


def check_errors(ran: dict) -> int:
    """Only cells tagged ``raises-exception`` have an error output, and each of them has one."""
    tagged = 0
    for i, cell in enumerate(ran["cells"]):
        if cell["cell_type"] != "code":
            continue
        errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
        if "raises-exception" in tags(cell):
            tagged += 1
            assert errors, f"{describe(i, cell)} is tagged raises-exception but did not raise"
        else:
            assert not errors, (f"{describe(i, cell)} raised "
                                f"{errors[0]['ename']}: {errors[0]['evalue']}")
    return tagged


def check_drawn(views: list[dict], ran: dict) -> dict[str, int]:
    """Every graph/image output of the run is drawn; every widget view renders live."""
    counts = {"svg": 0, "png": 0, "widgets": 0, "inline svg": 0}
    for i, (cell, view) in enumerate(zip(ran["cells"], views)):
        if cell["cell_type"] != "code":
            continue
        n_svg = len(outputs_with(cell, "image/svg+xml"))
        assert len(view["svg"]) == n_svg and all(view["svg"]), \
            f"{describe(i, cell)}: {n_svg} SVG output(s), drawn: {view['svg']}"
        n_png = len(outputs_with(cell, "image/*"))
        assert len(view["png"]) == n_png and all(view["png"]), \
            f"{describe(i, cell)}: {n_png} image output(s), drawn: {view['png']}"
        n_widgets = len(outputs_with(cell, WIDGET))
        assert len(view["widgets"]) == n_widgets, \
            f"{describe(i, cell)}: {n_widgets} widget output(s), {len(view['widgets'])} views"
        for w in view["widgets"]:
            assert w["ok"] and w["live"], f"{describe(i, cell)}: widget not rendered: {w['text']}"
        html_svg = sum("<svg" in o["data"]["text/html"] for o in outputs_with(cell, "text/html"))
        if html_svg or ("BackwardStepper(" in source(cell) and n_widgets):
            assert view["inlineSvg"] >= max(html_svg, 1), \
                f"{describe(i, cell)}: its inline SVG graph is not drawn"
        counts["svg"] += n_svg
        counts["png"] += n_png
        counts["widgets"] += n_widgets
        counts["inline svg"] += view["inlineSvg"]
    return counts


def screenshot_notebook(page, name: str, page_height: int = 2400, max_pages: int = 20) -> None:
    """The whole notebook in one picture, stitched from screenshots scrolled one page apart."""
    from PIL import Image

    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": page_height})
    try:
        outer = page.locator(".jp-NotebookPanel .jp-WindowedPanel-outer")
        outer.evaluate("(o) => { o.scrollTop = 0; }")
        box = outer.bounding_box()
        pieces = []
        for _ in range(max_pages):
            page.wait_for_timeout(200)  # offscreen cells render as they scroll into view
            top, height, client = outer.evaluate(
                "(o) => [o.scrollTop, o.scrollHeight, o.clientHeight]")
            pieces.append((round(top), Image.open(io.BytesIO(page.screenshot(clip=box)))))
            if top + client >= height - 1:
                break
            outer.evaluate("(o) => { o.scrollTop += o.clientHeight; }")
        sheet = Image.new("RGB", (pieces[0][1].width, pieces[-1][0] + pieces[-1][1].height),
                          "white")
        for top, im in pieces:
            sheet.paste(im, (0, top))
        sheet.save(artifact(name))
    finally:
        page.set_viewport_size(size)


@pytest.mark.parametrize("notebook", course_notebooks(), ids=lambda p: p.stem)
def test_notebook_in_jupyterlab(notebook, course, lab, page, record_property):
    rel = notebook.name
    saved = read_notebook(course / rel)  # the copy JupyterLab serves

    open_notebook(page, lab, rel)
    first = cell_views(page, saved)
    figures = check_markdown_figures(first, saved)
    shown = check_first_open(first, saved)

    run_all(page)
    prompts = wait_run_all(page)
    ran = save_notebook(page, lab, rel)  # the outputs JupyterLab holds now
    tagged = check_errors(ran)
    # a fresh kernel ran every code cell once, in order
    assert prompts == [f"[{i}]:" for i in range(1, len(prompts) + 1)], \
        f"Run All stopped early or ran out of order; prompts: {prompts}"
    views = cell_views(page, ran)
    assert [v["prompt"] for v in views if v["type"] == "code"] == prompts
    drawn = check_drawn(views, ran)
    screenshot_notebook(page, f"{notebook.stem}.png")
    record_property("checked", {"figures": figures, "first open": shown,
                                "raises-exception cells": tagged, "after Run All": drawn,
                                "code cells": len(prompts)})
