"""Notebook 04 as RISE slides (``jupyterlab-rise``) at the projector setting: the title slide
first, the set-up cell skipped, the cells run on the slides, and the stepper made by that run
stepping on its section's slide.

jupyterlab-rise 0.43 does not load the ipywidgets 8 widget manager in its slideshow
(jupyterlab-contrib/rise#119): a widget output shows its HTML form there. The stepper's HTML
form, made by the run, steps through that run's recording in the browser; the kernel-backed
widget (with "backward again") shows in the notebook itself, e.g. in Presentation Mode.

The projector is 1920x1080 at 150% zoom (1280x720 CSS pixels), as in the other browser tests.
The slide with the stepper is saved as ``test-artifacts/e2e/slides_04_stepper_projector.png``.
"""

from __future__ import annotations

import pytest
from e2e_support import artifact, course_notebooks, shutdown_kernels

pytestmark = pytest.mark.browser

PROJECTOR = (1280, 720, 1.5)
PRESENT = ".reveal .slides section.present"
STEPPER_CELL_JS = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
    .find(c => (c.querySelector('.jp-InputArea') || {textContent: ''}).textContent
               .includes('BackwardStepper('))"""
# where the stepper's cell is: on the slide shown? its output from this run (trusted)?
STATE_JS = """(cellOf) => { const cell = cellOf(); const cur = document.querySelector('PRESENT');
  const fresh = cell && cell.querySelector('.jp-OutputArea-output.jp-mod-trusted'
                                           + ' .autograd-lab-stepper');
  return {onSlide: !!(cur && cell && cur.contains(cell)), fresh: !!fresh, hash: location.hash,
          prompt: cell ? cell.querySelector('.jp-InputPrompt').textContent : null,
          outputs: cell ? [...cell.querySelectorAll('.jp-OutputArea-output')].map(
            o => o.className).join(' ') : null}; }""".replace("PRESENT", PRESENT)


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
            if state["onSlide"] and state["fresh"] and state["prompt"] != seen[0]["prompt"]:
                break
        assert state.get("onSlide") and state.get("fresh"), "\n".join(map(str, seen))
        slide = page.locator(PRESENT).first
        root = slide.locator(".jp-OutputArea-output.jp-mod-trusted .autograd-lab-stepper").first
        caption = root.locator(".agl-caption")
        page.wait_for_function("(c) => c.textContent.startsWith('step 1 /')",
                               arg=caption.element_handle(), timeout=60_000)
        for k in (2, 3):
            root.locator('button:has-text("Next")').first.click()
            page.wait_for_function("([c, k]) => c.textContent.startsWith('step ' + k + ' /')",
                                   arg=[caption.element_handle(), k], timeout=30_000)
        # the widget fits the projector's width: no control cut off
        box = root.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5, box
        page.screenshot(path=str(artifact("slides_04_stepper_projector.png")))
    finally:
        page.close()
        shutdown_kernels(lab)
