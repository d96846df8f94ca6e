"""The course website in Chromium: built from the notebooks, served on 127.0.0.1, offline.

The site is built into a temporary folder with ``scripts/course/build_site.py`` (what
``bash scripts/site.sh`` runs), served by a local HTTP server, and every page is opened with
every request that leaves 127.0.0.1 aborted and recorded. Each page must then load with no
outside request, no 4xx/5xx, no script error, its math rendered by the bundled MathJax, every
image decoded, every BackwardStepper stepping without a kernel, and nothing wider than a
1280-px window outside a scroll container. Every notebook page shows its launch links (Colab,
Binder, JupyterHub, a download of the student copy) in its first screen, at laptop and
projector sizes, and the download is served by the site. Screenshots of a few pages at laptop
and projector sizes land in ``test-artifacts/e2e/site-*.png``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REPO,
    artifact,
    code_cells,
    course_notebooks,
    load_script,
    read_notebook,
    source,
)

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PROJECTOR = {"viewport": {"width": 1280, "height": 720}, "device_scale_factor": 1.5}
SCREENSHOT_PAGES = ("index", "notebooks/03_backward_and_the_chain_rule",
                    "notebooks/09_jacobians_and_vjps")
BEGIN_SOLUTION = "### BEGIN SOLUTION"
LINKS = load_script("course_links").LINKS
LAUNCH = {"colab": "Colab", "binder": "Binder", "hub": "JupyterHub", "download": "Download .ipynb"}


# ---- what each notebook should show ------------------------------------------------------------

def has_latex(nb: dict) -> bool:
    """Whether a markdown cell has ``$...$`` math outside code."""
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = re.sub(r"```.*?```", "", source(cell), flags=re.S)
        text = re.sub(r"`[^`]*`", "", text)
        if re.search(r"\$[^$]+\$", text):
            return True
    return False


def stepper_outputs(nb: dict) -> int:
    """How many saved outputs are BackwardStepper displays."""
    return sum(1 for cell in code_cells(nb) for out in cell.get("outputs", [])
               if "".join(out.get("data", {}).get("text/plain", "")).startswith("BackwardStepper("))


def solutions(nb: dict) -> int:
    return sum(1 for cell in code_cells(nb) if BEGIN_SOLUTION in source(cell))


# ---- the site, a server and a browser ------------------------------------------------------------

class Recorder(http.server.SimpleHTTPRequestHandler):
    """Serves the built site and remembers every (status, path) it answered."""

    answered: list[tuple[int, str]]

    def log_request(self, code="-", size="-") -> None:
        self.answered.append((int(code), self.path))

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    """The site built from the repository's notebooks (once per session, see conftest)."""
    return built_site


@pytest.fixture(scope="module")
def server(site) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """(base URL, answered requests) of an HTTP server on 127.0.0.1 serving the site."""
    answered: list[tuple[int, str]] = []
    handler = functools.partial(type("H", (Recorder,), {"answered": answered}),
                                directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", answered
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[object]:
    """Debian's Chromium (a plain launch: each context below sets its own window and zoom)."""
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        raise FileNotFoundError(f"{CHROMIUM} is missing: run `bash scripts/setup.sh --browser`")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def outside() -> list[str]:
    """Every request that tried to leave 127.0.0.1 (each was aborted)."""
    return []


def offline_context(chromium_browser, server, outside: list[str], view: dict):
    """A browser context of the given window size where only the site's server answers."""
    base, _ = server
    ctx = chromium_browser.new_context(**view)

    def route(r) -> None:
        if r.request.url.startswith(base + "/"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    return ctx


@pytest.fixture(scope="module")
def browser(chromium_browser, server, outside) -> Iterator[object]:
    """The laptop-sized offline context most tests use."""
    ctx = offline_context(chromium_browser, server, outside, LAPTOP)
    try:
        yield ctx
    finally:
        ctx.close()


def pages() -> list[str]:
    """The site's pages: the landing page, one per notebook in course order, the README and
    the instructor guide."""
    return ["index", *(f"notebooks/{p.stem}" for p in course_notebooks()), "README",
            "notebooks/README"]


# ---- one page at a time --------------------------------------------------------------------------

OVERFLOW_JS = """() => {
  // Elements reaching past the window's sides that no scroll/clip container holds in.
  const W = document.documentElement.clientWidth, bad = [];
  const clips = (e) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(e).overflowX);
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || (r.right <= W + 1 && r.left >= -1)) continue;
    let a = e.parentElement, held = false;
    while (a && a !== document.body) {
      const ar = a.getBoundingClientRect();
      if (clips(a) && ar.right <= W + 1 && ar.left >= -1) { held = true; break; }
      a = a.parentElement;
    }
    if (!held && getComputedStyle(e).visibility !== 'hidden')
      bad.push(`${e.tagName.toLowerCase()}.${e.className} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
  }
  return {scrollWidth: document.documentElement.scrollWidth, width: W, bad: bad.slice(0, 10)};
}"""

# Prose text (not code) that still matches a pattern: markdown the page failed to render.
RAW_TEXT_JS = r"""(pattern) => {
  const re = new RegExp(pattern), raw = [];
  const walk = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    if (!n.parentElement.closest('pre, code, script, style, mjx-container')
        && re.test(n.textContent)) raw.push(n.textContent.slice(0, 80));
  return raw;
}"""
RAW_MATH = r"\$[^$\s][^$]*\$"
RAW_IMAGE = r"!\[.*\]\("

IMAGES_JS = """() => [...document.images].filter(i => !(i.complete && i.naturalWidth > 0))
                                     .map(i => i.currentSrc || i.src)"""


def open_page(page, url: str) -> None:
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    # MathJax typesets after load; its startup promise settles when the page is done.
    page.wait_for_function("() => !window.MathJax || (MathJax.startup && MathJax.startup.promise)")
    page.evaluate("() => window.MathJax ? MathJax.startup.promise : null")


@pytest.mark.parametrize("name", pages())
def test_page_works_offline(browser, server, outside, name):
    base, answered = server
    nb_path = REPO / "notebooks" / f"{Path(name).name}.ipynb"
    nb = read_notebook(nb_path) if nb_path.is_file() else None

    page = browser.new_page()
    errors: list[str] = []
    failed: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("requestfailed", lambda r: failed.append(f"failed {r.url}")
            if r.url.startswith(base) else None)
    before = len(answered)
    outside_before = len(outside)
    try:
        open_page(page, f"{base}/{name}.html")
        # Solutions and other collapsed parts open, so that their images count too.
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        page.wait_for_load_state("networkidle")

        assert outside[outside_before:] == [], "requests left 127.0.0.1"
        assert failed == [], failed
        assert [a for a in answered[before:] if a[0] >= 400] == []
        assert errors == [], errors
        assert page.evaluate(IMAGES_JS) == [], "images that did not load"
        assert page.evaluate(RAW_TEXT_JS, RAW_IMAGE) == [], "markdown images left as text"

        if nb is not None:
            check_notebook_page(page, name, nb)
        wide = page.evaluate(OVERFLOW_JS)
        assert wide["scrollWidth"] <= wide["width"] and wide["bad"] == [], wide
    finally:
        page.close()


def check_notebook_page(page, name: str, nb: dict) -> None:
    """Launch links, math, code cells, solutions, steppers and the previous/next links of a
    notebook page."""
    page.evaluate("() => window.scrollTo(0, 0)")
    check_launch_links(page, Path(name).name)
    if has_latex(nb):
        assert page.locator("mjx-container").count() > 0, "no math typeset"
        assert page.locator("mjx-merror").count() == 0, "MathJax reported an error"
        assert page.evaluate(RAW_TEXT_JS, RAW_MATH) == [], "math left as $...$ in the prose"

    n_code = page.locator("div.cell div.cell_input pre").count()
    assert n_code > 0 and page.locator("div.cell_input button.copybtn").count() == n_code

    n_solutions = solutions(nb)
    summaries = page.locator("details summary", has_text="solution")
    assert summaries.count() == n_solutions
    assert page.locator("div.cell.tag_exercise").count() == n_solutions

    steppers = page.locator(".cell_output", has=page.locator("button", has_text="Next"))
    assert steppers.count() == stepper_outputs(nb)
    for i in range(steppers.count()):
        check_steps(steppers.nth(i))

    order = pages()
    i = order.index(name)
    prev_link, next_link = page.locator("a.left-prev"), page.locator("a.right-next")
    assert prev_link.get_attribute("href").removesuffix(".html").endswith(
        Path(order[i - 1]).name)
    assert next_link.get_attribute("href").removesuffix(".html").endswith(Path(order[i + 1]).name)


def check_launch_links(page, stem: str) -> None:
    """The four launch links, in the first screen, each pointing where course_links.py says."""
    want = {"colab": LINKS.colab_url(stem), "binder": LINKS.binder_url(stem),
            "hub": LINKS.hub_link(stem), "download": f"student/{stem}.ipynb"}
    height = page.viewport_size["height"]
    for kind, href in want.items():
        link = page.locator(f"nav.launch-links a.launch-{kind}")
        assert link.count() == 1, kind
        assert link.get_attribute("href") == href
        assert link.inner_text().strip() == LAUNCH[kind]
        assert link.is_visible(), f"the {kind} link is hidden"
        box = link.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, \
            f"the {kind} link is below the first screen: {box}"
    reference = page.locator("nav.launch-links a.launch-reference")
    assert reference.get_attribute("href") == LINKS.reference_url(stem)
    assert reference.is_visible()


def check_steps(output) -> None:
    """A stepper output with no kernel: Next shows another frame, Prev the first one again,
    Play moves on by itself (a saved widget, which needs a kernel, does none of this)."""
    output.scroll_into_view_if_needed()
    first = output.inner_html()

    def changes(button: str, to_first: bool) -> None:
        output.locator("button", has_text=button).first.click()
        try:
            output.page.wait_for_function(
                "([e, h, same]) => (e.innerHTML === h) === same",
                arg=[output.element_handle(), first, to_first], timeout=5000)
        except Exception as exc:  # Playwright's TimeoutError: say what the page did not do
            raise AssertionError(f"the stepper's frame did not {'return' if to_first else 'change'}"
                                 f" on {button}: no kernel-free export on this page?") from exc

    changes("Next", to_first=False)
    changes("Prev", to_first=True)
    changes("Play", to_first=False)
    output.locator("button", has_text="Pause").first.click()


def test_landing_page_is_the_course_map(browser, server, outside):
    """The landing page lists every notebook in order, in the text and in the navigation."""
    base, _ = server
    page = browser.new_page()
    try:
        open_page(page, f"{base}/index.html")
        nav = [a.get_attribute("href") for a in
               page.locator("nav.bd-docs-nav a.reference.internal").all()]
        want = [f"notebooks/{p.stem}.html" for p in course_notebooks()]
        assert [h for h in nav if h.startswith("notebooks/") and h in want] == want
        assert "notebooks/README.html" in nav  # the instructor guide
        assert page.locator("h2", has_text="Course map").count() == 1
        assert page.locator("a.right-next").get_attribute("href") == want[0]
    finally:
        page.close()


@pytest.mark.parametrize("size", ["laptop", "projector"])
def test_launch_links_at_laptop_and_projector_size(chromium_browser, server, outside, size):
    """A notebook page's launch links are in its first screen at both sizes, and its download
    is the student copy, served by the site (answers removed, no outputs)."""
    base, _ = server
    ctx = offline_context(chromium_browser, server, outside, LAPTOP if size == "laptop" else PROJECTOR)
    stem = "03_backward_and_the_chain_rule"
    try:
        page = ctx.new_page()
        open_page(page, f"{base}/notebooks/{stem}.html")
        check_launch_links(page, stem)
        page.screenshot(path=str(artifact(f"site-launch-{size}.png")))
        href = page.locator("nav.launch-links a.launch-download").get_attribute("href")
        response = page.request.get(f"{base}/notebooks/{href}")
        assert response.status == 200
        student = json.loads(response.body())
        code = [source(c) for c in code_cells(student)]
        assert code and not any(BEGIN_SOLUTION in c for c in code)
        assert all(c["outputs"] == [] for c in code_cells(student))
    finally:
        ctx.close()
    assert outside == []


def test_the_guides_student_links_download(browser, server):
    """Every student-copy link of the instructor guide answers with a notebook."""
    base, _ = server
    page = browser.new_page()
    try:
        open_page(page, f"{base}/notebooks/README.html")
        hrefs = [a.get_attribute("href") for a in page.locator("a.student-copy").all()]
        assert hrefs == [f"student/{p.name}" for p in course_notebooks()]
        for href in hrefs:
            response = page.request.get(f"{base}/notebooks/{href}")
            assert response.status == 200 and json.loads(response.body())["cells"]
    finally:
        page.close()


@pytest.mark.parametrize("size", ["laptop", "projector"])
def test_screenshots(chromium_browser, server, outside, size):
    """Pictures of a few pages at laptop and projector size, to look at."""
    base, _ = server
    view = LAPTOP if size == "laptop" else PROJECTOR
    ctx = offline_context(chromium_browser, server, outside, view)
    try:
        page = ctx.new_page()
        for name in SCREENSHOT_PAGES:
            open_page(page, f"{base}/{name}.html")
            stepper = page.locator(".cell_output", has=page.locator("button", has_text="Next"))
            if stepper.count():
                stepper.first.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.screenshot(path=str(artifact(f"site-{Path(name).name}-{size}.png")))
    finally:
        ctx.close()
    assert outside == []
