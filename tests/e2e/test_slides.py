"""Notebook 04 as RISE slides (``jupyterlab-rise``) at the projector setting: the title slide
first, the set-up cell skipped, the cells run on the slides, and the stepper made by that run
live on its section's slide: a widget view of the kernel's stepper that steps, and whose
"backward again" runs backward once more in the kernel and appends its frames.

On its own, jupyterlab-rise 0.43 does not load the ipywidgets 8 widget manager in its slideshow
(jupyterlab-contrib/rise#119); the course's labextension ``autograd-lab-rise-widgets``
(``jupyter/labextensions/``) lets it load, and this test fails without it.

The projector is 1920x1080 at 150% zoom (1280x720 CSS pixels), as in the other browser tests;
the slide with the stepper is saved as ``test-artifacts/e2e/slides_04_stepper_projector.png``,
and at a laptop's 1280x800 as ``slides_04_stepper_laptop.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_support import artifact, course_notebooks, shutdown_kernels, stepper_button
from jupyter_core.paths import jupyter_path

pytestmark = pytest.mark.browser

EXTENSION = "autograd-lab-rise-widgets"
PROJECTOR = (1280, 720, 1.5)
LAPTOP = (1280, 800, 1.0)
PRESENT = ".reveal .slides section.present"
STEPPER_CELL_JS = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
    .find(c => (c.querySelector('.jp-InputArea') || {textContent: ''}).textContent
               .includes('BackwardStepper('))"""
LIVE = ".jp-OutputArea-output .jupyter-widgets.autograd-lab-stepper"
# where the stepper's cell is: on the slide shown? its output a live widget view?
STATE_JS = """(cellOf) => { const cell = cellOf(); const cur = document.querySelector('PRESENT');
  const fresh = cell && cell.querySelector('LIVE');
  return {onSlide: !!(cur && cell && cur.contains(cell)), fresh: !!fresh, hash: location.hash,
          prompt: cell ? cell.querySelector('.jp-InputPrompt').textContent : null,
          outputs: cell ? [...cell.querySelectorAll('.jp-OutputArea-output')].map(
            o => o.className).join(' ') : null}; }""".replace("PRESENT", PRESENT).replace("LIVE", LIVE)


def test_widget_labextension_is_installed():
    """Without it the slideshow has no widget manager; a clear message rather than a timeout."""
    found = [d for d in jupyter_path("labextensions")
             if (Path(d) / EXTENSION / "package.json").is_file()]
    assert found, (f"the labextension {EXTENSION} is not installed: run `bash scripts/setup.sh` "
                   "(or `pip install .[notebooks]`)")


def test_notebook_04_as_slides_steps_its_stepper_at_projector_size(lab, browser):
    name = next(p.name for p in course_notebooks() if p.name.startswith("04_"))
    page = browser.new_page()
    cdp = browser.new_cdp_session(page)
    w, h, scale = PROJECTOR
    page.set_viewport_size({"width": w, "height": h})
    cdp.send("Emulation.setDeviceMetricsOverride",
             {"width": w, "height": h, "deviceScaleFactor": scale, "mobile": False})
    try:
        page.goto(lab.url(f"/rise/{name}"))
        page.wait_for_selector(".reveal.ready", timeout=90_000)
        title = page.locator(PRESENT).first
        assert title.locator("h1").first.inner_text().startswith("04 ·")
        # the Colab set-up cell is on no slide
        skipped = page.locator(".jp-CodeCell.reveal-skip")
        assert skipped.count() == 1 and "# @title Set-up" in skipped.first.text_content()
        # run the cells one by one, as a presenter does (Shift+Enter runs a cell and moves on,
        # the slides following), until the stepper's slide shows its live widget
        title.locator(".jp-CodeCell .jp-InputArea-editor").first.click()
        page.keyboard.press("Escape")
        state, seen = {}, []
        for _ in range(30):
            page.keyboard.press("Shift+Enter")
            # one cell at a time: wait until it ran (no "[*]:" prompt left)
            page.wait_for_function("""() => ![...document.querySelectorAll(
                '.jp-CodeCell .jp-InputPrompt')].some(p => p.textContent.includes('*'))""",
                                   timeout=60_000)
            page.wait_for_timeout(300)
            state = page.evaluate(STATE_JS.replace("cellOf()", f"({STEPPER_CELL_JS})()"))
            seen.append(state)
            if state["prompt"] != seen[0]["prompt"]:  # the stepper's cell has run: its view
                # may take a while to replace the text shown until the widget manager is ready
                page.wait_for_function(f"() => {{ const c = ({STEPPER_CELL_JS})();"
                                       f" return c && c.querySelector('{LIVE}'); }}",
                                       timeout=30_000)
                state = page.evaluate(STATE_JS.replace("cellOf()", f"({STEPPER_CELL_JS})()"))
                seen.append(state)
                break
        assert state.get("onSlide") and state.get("fresh"), "\n".join(map(str, seen))
        slide = page.locator(PRESENT).first
        root = slide.locator(LIVE).first
        # the caption is redrawn at every step: read it through the widget's root each time
        cap = "r.querySelector('.agl-caption').textContent"
        page.wait_for_function(f"(r) => {cap}.startsWith('step 1 /')",
                               arg=root.element_handle(), timeout=60_000)
        frames = int(re.search(r"/ (\d+)", root.locator(".agl-caption").inner_text())[1])
        for k in (2, 3):
            stepper_button(root, "Next").click()
            page.wait_for_function(f"([r, k]) => {cap}.startsWith('step ' + k + ' /')",
                                   arg=[root.element_handle(), k], timeout=30_000)
        # "backward again" runs in the kernel: the recording grows by a second run's frames
        stepper_button(root, "backward again").click()
        page.wait_for_function(f"([r, n]) => +(/ (\\d+)/.exec({cap}) || [0, 0])[1] > n",
                               arg=[root.element_handle(), frames], timeout=30_000)
        stepper_button(root, "Next").click()
        page.wait_for_function(f"(r) => {cap}.startsWith('step {frames + 2} /')",
                               arg=root.element_handle(), timeout=30_000)
        for size, (sw, sh, sscale) in (("projector", PROJECTOR), ("laptop", LAPTOP)):
            page.set_viewport_size({"width": sw, "height": sh})
            cdp.send("Emulation.setDeviceMetricsOverride", {
                "width": sw, "height": sh, "deviceScaleFactor": sscale, "mobile": False})
            page.wait_for_timeout(500)
            # the widget fits the screen's width: no control cut off
            box = root.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= sw + 0.5, (size, box)
            page.screenshot(path=str(artifact(f"slides_04_stepper_{size}.png")))
    finally:
        page.close()
        shutdown_kernels(lab)
