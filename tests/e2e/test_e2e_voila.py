"""The stepper notebook as a standalone app page (Voila), clicked in Chromium."""

from __future__ import annotations

import base64
import importlib.util
import re

import pytest
from e2e_support import (
    REPO,
    artifact,
    code_cells,
    copy_course,
    jupyter_env,
    read_notebook,
    source,
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
    code_line = next(line for c in cells for line in source(c).splitlines()
                     if "BackwardStepper(" in line)
    root = copy_course(tmp_path / "course")
    env = jupyter_env(tmp_path / "jupyter")
    with voila_server(root / "notebooks" / notebook.name, env, tmp_path / "voila.log") as app:
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
            assert page.evaluate("() => [...document.images].every(i => i.naturalWidth > 0)")

            # the caption is re-created at each frame: look it up from the stepper every time
            caption = stepper.locator(".agl-caption")
            handle = stepper.element_handle()
            shows = "(r) => r.querySelector('.agl-caption').textContent.startsWith('{}')"
            stepper.locator("button.widget-button", has_text="Reset").click()
            page.wait_for_function(shows.format("step 1 / "), arg=handle)
            n = int(re.match(r"step 1 / (\d+)", caption.text_content()).group(1))
            first = stepper.evaluate(LIT_JS)
            assert first, "nothing highlighted on the first frame"
            table = stepper.locator("table.agl-grads")
            tables = [table.text_content()]
            lit = [first]
            for k in range(2, n + 1):  # Next through the whole backward pass
                stepper.locator("button.widget-button", has_text="Next").click()
                page.wait_for_function(shows.format(f"step {k} / {n} "), arg=handle)
                lit.append(stepper.evaluate(LIT_JS))
                tables.append(table.text_content())
            assert len({tuple(x) for x in lit}) > 2, f"the highlight hardly moved: {lit}"
            assert len(set(tables)) > 1, "the .grad table never changed"
            assert "backward() finished" in caption.text_content()
            stepper.screenshot(path=str(artifact(f"voila_{notebook.stem}.png")))
        finally:
            page.close()


def test_voila_app_inlines_figures_outside_the_notebook_folder(tmp_path):
    """Plain Voila aborts the page on ``../figures/x.svg``; ``scripts/course/voila_app.py`` inlines it."""
    from jupyter_server.services.contents.filemanager import FileContentsManager
    from nbconvert.filters.markdown_mistune import MarkdownWithMath
    from tornado.web import HTTPError
    from voila.exporter import VoilaMarkdownRenderer

    spec = importlib.util.spec_from_file_location("voila_app", REPO / "scripts" / "course" / "voila_app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    course = copy_course(tmp_path / "course")
    figure = next((course / "figures").glob("*.svg"))
    cm = FileContentsManager(root_dir=str(course / "notebooks"))  # Voila: the notebook's folder
    text = f"![a figure](../figures/{figure.name})"

    def render(cls):
        renderer = cls(escape=False, attachments={}, contents_manager=cm, anchor_link_text="")
        return MarkdownWithMath(renderer=renderer).render(text)

    with pytest.raises(HTTPError, match="outside root contents directory"):
        render(VoilaMarkdownRenderer)
    page = render(app.CourseMarkdownRenderer)
    src = re.search(r'<img src="([^"]+)"', page).group(1)
    assert src.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(src.split(",", 1)[1]) == figure.read_bytes()
    # remote, absolute and missing links are left to Voila as they are
    assert app._inline(cm.root_dir, "https://example.org/x.svg") is None
    assert app._inline(cm.root_dir, "/etc/passwd") is None
    assert app._inline(cm.root_dir, "../figures/missing.svg") is None
