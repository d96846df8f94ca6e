"""The stepper notebook as a standalone app page (plain Voila), clicked in Chromium."""

from __future__ import annotations

import re

import pytest
from e2e_support import (
    artifact,
    code_cells,
    copy_course,
    jupyter_env,
    load_script,
    read_notebook,
    source,
    stepper_button,
    stepper_notebooks,
    tags,
    voila_server,
)

LIT_JS = """(root) => [...root.querySelectorAll('svg g.node')].filter(g => {
    const s = g.querySelector(':scope > polygon, :scope > ellipse');
    return s && getComputedStyle(s).fill === 'rgb(255, 213, 79)';
  }).map(g => g.id)"""


@pytest.mark.browser
def test_stepper_notebook_as_a_voila_app(browser, tmp_path):
    found = stepper_notebooks()
    assert found, "no course notebook builds a BackwardStepper"
    notebook = found[0]
    cells = code_cells(read_notebook(notebook))
    raising = sum("raises-exception" in tags(c) for c in cells)
    figures = len(load_script("embed_figures").figures_of(read_notebook(notebook)))
    assert figures, f"{notebook.name} shows no figure: the app page would not test them"
    code_line = next(line for c in cells for line in source(c).splitlines()
                     if "BackwardStepper(" in line)
    root = copy_course(tmp_path / "course")
    env = jupyter_env(tmp_path / "jupyter")
    with voila_server(root / notebook.name, env, tmp_path / "voila.log") as app:
        page = browser.new_page()
        try:
            page.goto(app.url("/"), wait_until="commit")
            stepper = page.locator(".autograd-lab-stepper").first
            stepper.locator("svg g.node").first.wait_for(timeout=120_000)
            page.wait_for_load_state("load")
            # an app page: no code, the outputs only; errors only where the lesson raises one
            text = page.inner_text("body")
            assert code_line not in text  # the code is hidden
            assert text.count("Traceback (most recent call last)") == raising, text[-3000:]
            assert "There was an error when executing cell" not in text
            # the lesson's figures (embedded in its Markdown) load in the app page too
            loaded = page.evaluate("() => [...document.images].map(i => i.naturalWidth > 0)")
            assert all(loaded) and len(loaded) >= figures, loaded

            # the caption is re-created at each frame: look it up from the stepper every time
            caption = stepper.locator(".agl-caption")
            handle = stepper.element_handle()
            shows = "(r) => r.querySelector('.agl-caption').textContent.startsWith('{}')"
            stepper_button(stepper, "Reset").click()
            page.wait_for_function(shows.format("step 1 / "), arg=handle)
            n = int(re.match(r"step 1 / (\d+)", caption.text_content()).group(1))
            first = stepper.evaluate(LIT_JS)
            assert first, "nothing highlighted on the first frame"
            table = stepper.locator("table.agl-grads")
            tables = [table.text_content()]
            lit = [first]
            for k in range(2, n + 1):  # Next through the whole backward pass
                stepper_button(stepper, "Next").click()
                page.wait_for_function(shows.format(f"step {k} / {n} "), arg=handle)
                lit.append(stepper.evaluate(LIT_JS))
                tables.append(table.text_content())
            assert len({tuple(x) for x in lit}) > 2, f"the highlight hardly moved: {lit}"
            assert len(set(tables)) > 1, "the .grad table never changed"
            assert "backward() finished" in caption.text_content()
            stepper.screenshot(path=str(artifact(f"voila_{notebook.stem}.png")))
        finally:
            page.close()
