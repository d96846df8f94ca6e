"""Accessibility of the course website, checked in Chromium with axe-core (WCAG 2.0/2.1/2.2 A
and AA rules).

The site is the one ``test_site.py`` builds (built once per session). Every page is checked
three ways: the light theme and the dark theme in a laptop window, and the light theme at
400% zoom (a 320 px wide window). Each time axe must find no serious or critical violation,
no SVG may keep Graphviz's anonymous title ``%3``, and at 320 px nothing may need scrolling
sideways except inside a scroll container (graphs, code). Every image in the built HTML has
real alt text (not a file name or hash); every piece of math keeps its assistive MathML; the
static stepper works from the keyboard and announces each step. Screenshots (dark theme,
320 px, the stepper's focus ring) land in ``test-artifacts/e2e/a11y-*.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from a11y_support import blocking, counts, describe, run_axe
from e2e_support import REPO, artifact
from test_site import (  # noqa: F401 (fixtures)
    OVERFLOW_JS,
    chromium_browser,
    offline_context,
    open_page,
    outside,
    pages,
    server,
    site,
)

sys.path.insert(0, str(REPO / "scripts" / "course"))
import site_a11y  # noqa: E402

pytestmark = pytest.mark.browser

VIEWS = {
    "light": {"viewport": {"width": 1280, "height": 800}},
    "dark": {"viewport": {"width": 1280, "height": 800}},
    "zoom400": {"viewport": {"width": 320, "height": 640}},
}

DARK_JS = """() => { const h = document.documentElement;
  h.dataset.theme = 'dark'; h.dataset.mode = 'dark'; }"""
ANON_TITLES_JS = """() => [...document.querySelectorAll('svg title')]
  .filter(t => t.textContent.trim() === '%3').length"""
MATH_JS = """() => ({containers: document.querySelectorAll('mjx-container').length,
  assistive: document.querySelectorAll('mjx-container mjx-assistive-mml math').length})"""


@pytest.fixture(scope="module")
def contexts(chromium_browser, server, outside):  # noqa: F811
    made = {name: offline_context(chromium_browser, server, outside, view)
            for name, view in VIEWS.items()}
    try:
        yield made
    finally:
        for ctx in made.values():
            ctx.close()


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("name", pages())
def test_axe_finds_nothing_serious(contexts, server, name, view, record_property):  # noqa: F811
    base, _ = server
    page = contexts[view].new_page()
    try:
        open_page(page, f"{base}/{name}.html")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        if view == "dark":
            page.evaluate(DARK_JS)
        page.wait_for_timeout(100)
        found = run_axe(page)
        record_property("axe", dict(counts(found)))
        assert blocking(found) == [], f"{name} ({view}):\n" + describe(blocking(found))
        assert page.evaluate(ANON_TITLES_JS) == 0, "an SVG is still titled %3"
        if view == "zoom400":
            wide = page.evaluate(OVERFLOW_JS)
            assert wide["scrollWidth"] <= wide["width"] and wide["bad"] == [], wide
        if name.startswith("notebooks/"):
            math = page.evaluate(MATH_JS)
            assert math["assistive"] == math["containers"], math
        if name in ("index", "notebooks/03_backward_and_the_chain_rule") and view != "light":
            page.screenshot(path=str(artifact(f"a11y-site-{Path(name).name}-{view}.png")))
            if page.locator(".agl-static").count():  # the stepper and its graph, too
                page.locator(".agl-static").first.evaluate(
                    "e => e.scrollIntoView({block: 'start'})")
                page.screenshot(path=str(artifact(f"a11y-site-stepper-{view}.png")))
    finally:
        page.close()


def test_images_have_real_alt_text(site):  # noqa: F811
    """No image of the built site is named by a file path, a hash, or nothing at all."""
    bad = {}
    for path in sorted(site.rglob("*.html")):
        if "_static" in path.parts:
            continue
        problems = site_a11y.alt_problems(path.read_text(encoding="utf-8"))
        if problems:
            bad[str(path.relative_to(site))] = problems
    assert bad == {}


def test_math_keeps_its_assistive_mathml(contexts, server):  # noqa: F811
    """MathJax (bundled) adds MathML beside every formula, which screen readers read."""
    base, _ = server
    page = contexts["light"].new_page()
    try:
        open_page(page, f"{base}/notebooks/03_backward_and_the_chain_rule.html")
        math = page.evaluate(MATH_JS)
        assert math["containers"] > 0 and math["assistive"] == math["containers"], math
    finally:
        page.close()


STEPPER_JS = """(root) => ({
  live: document.getElementById(root.id + '-live').textContent,
  step: +root.querySelector('.agl-slider').value,
  last: +root.querySelector('.agl-slider').max,
  caption: root.querySelector('.agl-caption').textContent,
  focus: document.activeElement ? document.activeElement.className : '',
  outline: getComputedStyle(document.activeElement).outlineWidth,
  lit: [...root.querySelectorAll('svg g.agl-current')].length,
  mark: [...root.querySelectorAll('text.agl-mark')].map(t => t.textContent).join('')})"""


def export_page(tmp_path: Path) -> str:
    """A recorded backward pass with two paths into ``a``, exported as a standalone page."""
    import autograd_lab as torch
    from autograd_lab.viz import record_backward

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    loss = (c + a).sum()
    rec = record_backward(loss, params={"a": a, "b": b, "c": c, "loss": loss})
    return Path(rec.to_html(tmp_path / "stepper.html")).read_text(encoding="utf-8")


@pytest.mark.parametrize("view", ["light", "dark"])
def test_static_stepper_with_the_keyboard(contexts, tmp_path, view):
    """The exported stepper (as every site page embeds it): Tab reaches it; arrow keys, Home
    and End step; each step is announced in one sentence; axe finds nothing serious, also on a
    dark page."""
    page = contexts[view].new_page()
    try:
        page.set_content(export_page(tmp_path))
        if view == "dark":
            page.add_style_tag(content="body { background: #121212; color: #e0e0e0; }")
        root = page.locator(".agl-static").first
        page.keyboard.press("Tab")  # Reset, the first control of the page
        page.keyboard.press("Tab")
        s = root.evaluate(STEPPER_JS)
        assert s["focus"] == "agl-prev" and s["outline"] not in ("0px", ""), s
        assert s["live"] == "", "nothing is announced before the user steps"
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        s = root.evaluate(STEPPER_JS)
        assert s["step"] == 2 and s["live"].startswith(f"Step 3 of {s['last'] + 1}: "), s
        assert s["live"].endswith(".") and ". " not in s["live"], s  # one sentence
        page.keyboard.press("End")
        s = root.evaluate(STEPPER_JS)
        assert s["step"] == s["last"] and "backward() finished" in s["live"], s
        page.keyboard.press("Home")
        s = root.evaluate(STEPPER_JS)
        assert s["step"] == 0 and s["live"].startswith("Step 1 of "), s
        # the running node: a thick border and a word beside it, not its colour alone
        assert s["lit"] >= 1 and "runs" in s["mark"], s
        page.keyboard.press("ArrowLeft")  # at the first step: stays there
        assert root.evaluate(STEPPER_JS)["step"] == 0
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        found = run_axe(page)
        assert blocking(found) == [], describe(blocking(found))
        page.screenshot(path=str(artifact(f"a11y-stepper-focus-{view}.png")))
    finally:
        page.close()
