"""Accessibility of every notebook in JupyterLab, checked in Chromium with axe-core (WCAG
2.0/2.1/2.2 A and AA rules), after Run All, in JupyterLab's light and dark themes.

axe looks at what the course renders: every cell's output area (graphs, figures, feedback,
widgets, the live stepper) and the rendered Markdown. JupyterLab's own menus, panels and
toolbars are left out. In that scope it must find no serious or critical violation, and no
output image may lack a text alternative. Every live stepper is then driven with the keyboard
alone: Tab reaches it, ←/→ step, Home/End jump, and its ``aria-live`` region says each step
in one sentence; its focus ring is drawn. Screenshots of a notebook and of the stepper's focus
ring in the dark theme land in ``test-artifacts/e2e/a11y-lab-*.png``.
"""

from __future__ import annotations

import time

import pytest
from a11y_support import blocking, counts, describe, run_axe
from e2e_support import (
    artifact,
    course_notebooks,
    open_notebook,
    run_all,
    stepper_notebooks,
    wait_run_all,
)

pytestmark = pytest.mark.browser

# the course's content inside JupyterLab: outputs (incl. widgets) and rendered Markdown
SCOPE = {"include": [[".jp-NotebookPanel .jp-OutputArea-output"],
                     [".jp-NotebookPanel .jp-MarkdownCell .jp-RenderedMarkdown"]]}

# <img> in outputs (SVG and PNG outputs render as one) without a real text alternative
UNNAMED_IMAGES_JS = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel .jp-OutputArea-output img')]
  .filter(i => i.offsetParent !== null && !(i.getAttribute('alt') || '').trim())
  .map(i => i.closest('.jp-OutputArea-output').dataset.mimeType + ' ' + (i.src || '').slice(0, 60))"""

READY_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel img')].every(i => i.complete)
  && !document.querySelector('.jp-NotebookPanel .jupyter-widgets .widget-loading')"""


def set_theme(page, name: str) -> None:
    """JupyterLab's theme through its Settings menu ("JupyterLab Light" / "JupyterLab Dark")."""
    page.click('.lm-MenuBar-item:has-text("Settings")')
    page.hover('.lm-Menu-item:has-text("Theme")')
    page.click(f'.lm-Menu-item:has-text("{name}")')
    light = "false" if "Dark" in name else "true"
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'",
                           timeout=15_000)
    page.wait_for_timeout(500)


def check_scope(page, where: str) -> dict:
    page.wait_for_function(READY_JS, timeout=30_000)
    found = run_axe(page, SCOPE)
    assert blocking(found) == [], f"{where}:\n" + describe(blocking(found))
    assert page.evaluate(UNNAMED_IMAGES_JS) == [], f"{where}: output images without alt text"
    return dict(counts(found))


@pytest.mark.parametrize("notebook", course_notebooks(), ids=lambda p: p.stem)
def test_outputs_pass_axe_in_both_themes(notebook, course, lab, page, record_property):
    open_notebook(page, lab, notebook.name)
    run_all(page)
    wait_run_all(page)
    found = {"light": check_scope(page, f"{notebook.stem} (light)")}
    set_theme(page, "JupyterLab Dark")
    try:
        found["dark"] = check_scope(page, f"{notebook.stem} (dark)")
        if notebook.stem.startswith("03"):  # a graph, its text version and feedback, in dark
            graph = page.locator('.jp-OutputArea-output svg[role="img"]').first
            graph.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            page.screenshot(path=str(artifact(f"a11y-lab-{notebook.stem}-dark.png")))
    finally:
        set_theme(page, "JupyterLab Light")
    record_property("axe (moderate and minor)", found)


LIVE_JS = """(root) => ({
  live: (root.querySelector('.agl-live') || {textContent: ''}).textContent.trim(),
  liveAttr: (root.querySelector('.agl-live') || {getAttribute: () => null})
    .getAttribute('aria-live'),
  caption: root.querySelector('.agl-caption').textContent,
  focus: document.activeElement ? document.activeElement.className : '',
  outline: getComputedStyle(document.activeElement).outlineStyle + ' '
           + getComputedStyle(document.activeElement).outlineWidth,
  handle: (root.querySelector('.noUi-handle') || {getAttribute: () => null})
    .getAttribute('aria-label'),
  mark: [...root.querySelectorAll('svg text')].map(t => t.textContent).join(' ')})"""


def wait_for(root, pred, what: str, timeout: float = 15) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        s = root.evaluate(LIVE_JS)
        if pred(s):
            return s
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: the stepper shows {s}")
        time.sleep(0.1)


@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
def test_live_stepper_with_the_keyboard(course, lab, page, theme):
    notebook = stepper_notebooks()[0]
    open_notebook(page, lab, notebook.name)
    run_all(page)
    wait_run_all(page)
    if "Dark" in theme:
        set_theme(page, theme)
    try:
        root = page.locator(".jp-Notebook .autograd-lab-stepper").first
        root.scroll_into_view_if_needed()
        s = wait_for(root, lambda s: s["liveAttr"] == "polite" and s["handle"] == "step",
                     "the stepper's aria-live region and slider name")
        root.locator("button.agl-reset").focus()
        page.keyboard.press("Tab")  # Reset -> Prev: Tab moves through the stepper's controls
        s = root.evaluate(LIVE_JS)
        assert "agl-prev" in s["focus"] and not s["outline"].startswith("none"), s
        first = s["caption"]
        n = int(first.split("/")[1].split("·")[0])
        page.keyboard.press("ArrowRight")
        s = wait_for(root, lambda s: s["caption"].startswith("step 2 /")
                     and s["live"].startswith("Step 2 of"), "ArrowRight")
        assert s["live"].endswith(".") and ". " not in s["live"], s  # one sentence
        page.keyboard.press("ArrowRight")
        s = wait_for(root, lambda s: s["live"].startswith("Step 3 of"), "ArrowRight again")
        assert "runs" in s["mark"], s  # the running node is marked in words too
        root.screenshot(path=str(artifact(f"a11y-lab-stepper-focus-{theme.split()[-1]}.png")))
        page.keyboard.press("End")
        # each trait (caption, graph, announcement) arrives on its own: wait for both
        wait_for(root, lambda s: s["caption"].startswith(f"step {n} /")
                 and s["live"] == f"Step {n} of {n}: backward() finished.", "End")
        page.keyboard.press("Home")
        wait_for(root, lambda s: s["caption"].startswith("step 1 /")
                 and s["live"].startswith("Step 1 of"), "Home")
        page.keyboard.press("ArrowLeft")  # at the first step: stays there
        page.wait_for_timeout(500)
        assert root.evaluate(LIVE_JS)["caption"].startswith("step 1 /")
    finally:
        if "Dark" in theme:
            set_theme(page, "JupyterLab Light")
