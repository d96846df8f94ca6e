"""The live stepper in JupyterLab driven with the keyboard alone, in the light and dark themes:
Tab reaches it, ←/→ step, Home/End jump, and its ``aria-live`` region says each step in one
sentence; its focus ring is drawn. A screenshot of the focus ring lands in
``test-artifacts/e2e/a11y-lab-stepper-focus-*.png``.

axe-core over every notebook's outputs in both themes runs in ``test_e2e_notebooks.py``, on
the page that has just run the notebook (``a11y_support.check_lab_outputs``).
"""

from __future__ import annotations

import time

import pytest
from a11y_support import set_theme
from e2e_support import artifact, open_notebook, run_all, stepper_notebooks, wait_run_all

pytestmark = pytest.mark.browser

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
