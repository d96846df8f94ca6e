"""The backward stepper in a real JupyterLab, its presenter layout and its static export.

What the page shows is compared, frame by frame, with what the engine did:

- a notebook made here builds a graph that this test process builds too; the engine's order
  comes from a plain ``engine.Listener`` in this process, the frames from ``record_backward``;
- the course's own stepper (the first notebook whose code builds a ``BackwardStepper``) is
  compared with its recording, read from the notebook's kernel.

At every step (Next, then Play) the highlighted node must be the one the engine runs, the
caption and the ``.grad`` table must be the recording's, and the table must change where a
gradient is accumulated. The static export (``Recording.to_html``) is then opened from
``file://`` with no server and no kernel and stepped the same way.
"""

from __future__ import annotations

import os
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from e2e_support import (
    CURRENT_FILL,
    FIGURE_DIR,
    artifact,
    jupyter_bin,
    kernel_eval,
    kernel_of,
    lost_restore_race,
    open_notebook,
    run_all,
    save_notebook,
    shutdown_kernels,
    source,
    stepper_button,
    stepper_notebooks,
    trust,
    wait_run_all,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

UPDATE_SCREENSHOT = os.environ.get("AUTOGRAD_LAB_UPDATE_SCREENSHOT") == "1"
WIDGET = "application/vnd.jupyter.widget-view+json"

GRAPH = """\
import autograd_lab as torch
from autograd_lab.viz import BackwardStepper

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
u = a * b
v = u * a  # a is used twice and u feeds two nodes: gradients are summed
e = (u + v).sum()
"""
PARAMS = "dict(a=a, b=b, u=u)"

# The state of one stepper (``root``: its root element) as the page shows it.
STATE_JS = """(root) => {
  const fill = 'FILL';
  const current = [...root.querySelectorAll('svg g.node')].filter(g => {
    const shape = g.querySelector(':scope > polygon, :scope > ellipse');
    return shape && getComputedStyle(shape).fill === fill;
  }).map(g => g.id.slice(g.id.lastIndexOf('-') + 1));  // the export prefixes its ids
  const caption = root.querySelector('.agl-caption, #caption');
  const table = root.querySelector('table.agl-grads');
  const rows = table ? [...table.rows].map(r => [...r.cells].map(c => c.textContent)) : [];
  const lit = table ? [...table.rows].filter(r => getComputedStyle(r).backgroundColor
                                                 === fill).map(r => r.cells[0].textContent) : [];
  return {caption: caption ? caption.textContent : '', current: current.sort(), rows, lit};
}""".replace("FILL", CURRENT_FILL)

# Records every change of the stepper while Play runs.
WATCH_JS = """(root) => {
  const state = STATE;
  window.__steps = [];
  window.__watch = new MutationObserver(() => window.__steps.push(state(root)));
  window.__watch.observe(root, {childList: true, subtree: true, characterData: true});
}""".replace("STATE", STATE_JS)


class _Cells(HTMLParser):
    """The cell texts of the ``.grad`` table in a frame's HTML (what ``textContent`` gives)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table_rows(table_html: str) -> list[list[str]]:
    i = table_html.find("</table>")
    p = _Cells()
    p.feed(table_html[: i + len("</table>")] if i >= 0 else table_html)
    return p.rows


def expected_frames(rec) -> dict:
    """What each frame of a ``Recording`` must show (also run inside the notebook's kernel)."""
    return {
        "n": len(rec),
        "kinds": [f.kind for f in rec.frames],
        "captions": [rec.caption_text(i) for i in range(len(rec))],
        "current": [sorted(k for k, v in rec.style(i).nodes.items() if v == "current")
                    for i in range(len(rec))],
        "tables": [table_rows(rec.table_html(i)) for i in range(len(rec))],
        "accumulated": {i: rec.name_of(f.args[0]) for i, f in enumerate(rec.frames)
                        if f.kind == "accumulate"},
        "ran": [[i, rec.spec.svg_id(rec.spec.names[("fn", id(f.args[0]))]),
                 rec.node_name(f.args[0])] for i, f in enumerate(rec.frames)
                if f.kind == "node" and ("fn", id(f.args[0])) in rec.spec.names],
    }


# The same, computed in the kernel for the stepper whose widget model id is MODEL.
KERNEL_FRAMES = """
import gc as _gc, html as _html, json as _json, sys as _sys
from autograd_lab.viz import BackwardStepper as _BS
_stepper = next(o for o in _gc.get_objects() if isinstance(o, _BS) and o.model_id == MODEL)
_rec = _stepper.recording
_stepper.play.interval = 150  # Play at a test's pace (the default is 800 ms a frame)
_sys.stdout.write(_json.dumps({
    "n": len(_rec),
    "kinds": [f.kind for f in _rec.frames],
    "captions": [_rec.caption_text(i) for i in range(len(_rec))],
    "current": [sorted(k for k, v in _rec.style(i).nodes.items() if v == "current")
                for i in range(len(_rec))],
    "tables": [_rec.table_html(i) for i in range(len(_rec))],
    "accumulated": {i: _rec.name_of(f.args[0]) for i, f in enumerate(_rec.frames)
                    if f.kind == "accumulate"},
    "ran": [[i, _rec.spec.svg_id(_rec.spec.names[("fn", id(f.args[0]))]),
             _rec.node_name(f.args[0])] for i, f in enumerate(_rec.frames)
            if f.kind == "node" and ("fn", id(f.args[0])) in _rec.spec.names],
}))
"""


def engine_order(graph: str, params: str) -> list[str]:
    """SVG ids of the function nodes in the order the engine runs them (a plain Listener)."""
    from autograd_lab import engine
    from autograd_lab.viz import build_graph

    ns: dict = {}
    exec(graph, ns)
    e = ns["e"]
    spec = build_graph([e], eval(params, ns), show_saved=True)

    class Order(engine.Listener):
        def __init__(self) -> None:
            self.nodes: list = []

        def on_node(self, node, grad_outputs):
            self.nodes.append(node)

    order = Order()
    engine.backward([e], listener=order)
    return [spec.svg_id(spec.names[("fn", id(n))]) for n in order.nodes]


def recorded(graph: str, params: str, **kw):
    from autograd_lab.viz import record_backward

    ns: dict = {}
    exec(graph, ns)
    return record_backward(ns["e"], params=eval(params, ns), **kw)


# ---- stepping ----------------------------------------------------------------------------------

def state(root) -> dict:
    return root.evaluate(STATE_JS)


def wait_frame(root, want: dict, k: int, timeout: float = 15) -> dict:
    """Until the stepper shows frame ``k`` completely (caption, highlight, table)."""
    n = want["n"]
    caption = f"step {k + 1} / {n} · {want['captions'][k]}"
    deadline = time.monotonic() + timeout
    while True:
        s = state(root)
        if (s["caption"] == caption and s["current"] == want["current"][k]
                and s["rows"] == want["tables"][k]):
            return s
        if time.monotonic() > deadline:
            raise AssertionError(f"frame {k + 1}/{n} not shown in {timeout} s.\n"
                                 f"want caption {caption!r}, current {want['current'][k]},\n"
                                 f"     table {want['tables'][k]}\n"
                                 f"page caption {s['caption']!r}, current {s['current']},\n"
                                 f"     table {s['rows']}")
        time.sleep(0.05)


def button(root, text: str):
    return stepper_button(root, text)


def step_through(root, want: dict) -> list[dict]:
    """Reset, then Next to the last frame; every frame must be the recording's."""
    button(root, "Reset").click()
    seen = [wait_frame(root, want, 0)]
    for k in range(1, want["n"]):
        button(root, "Next").click()
        seen.append(wait_frame(root, want, k))
    button(root, "Next").click()  # past the end: stays on the last frame
    root.page.wait_for_timeout(300)
    assert state(root) == seen[-1]
    return seen


def check_engine_order(seen: list[dict], want: dict, order: list[str]) -> None:
    """At each frame where a node runs, exactly that node is lit, in the engine's order."""
    lit = [seen[i]["current"] for i, _, _ in want["ran"]]
    assert lit == [[sid] for sid in order]
    for i, _, name in want["ran"]:
        assert f"{name} runs with grad_output" in seen[i]["caption"]


def check_table_changes(seen: list[dict], want: dict) -> None:
    """The ``.grad`` table changes at each accumulation and lights the tensor's row."""
    assert want["accumulated"], "this backward pass accumulates nothing"
    for i, name in want["accumulated"].items():
        assert seen[i]["rows"] != seen[i - 1]["rows"], f"frame {i + 1}: table unchanged"
        assert len(seen[i]["lit"]) == 1 and seen[i]["lit"][0].startswith(name)
    assert seen[0]["rows"] != seen[-1]["rows"]


def play(root, want: dict) -> list[dict]:
    """Reset, Play, and record every state the page goes through until the last frame."""
    n = want["n"]
    button(root, "Reset").click()
    wait_frame(root, want, 0)
    root.evaluate(WATCH_JS)
    button(root, "Play").click()
    wait_frame(root, want, n - 1, timeout=30 + n)
    steps = root.page.evaluate("() => { window.__watch.disconnect(); return window.__steps; }")
    return steps


def check_play(steps: list[dict], want: dict) -> None:
    """Play moves forward through the recording's frames, in order, to the end."""
    numbers = [int(m.group(1)) for s in steps
               if (m := re.match(r"step (\d+) / ", s["caption"]))]
    assert numbers == sorted(numbers) and numbers[-1] == want["n"]
    assert len(set(numbers)) >= min(want["n"], 3)
    # highlights seen, without repeats, are the recording's own sequence with frames skipped
    expected = [c for i, c in enumerate(want["current"]) if i == 0 or c != want["current"][i - 1]]
    observed = [s["current"] for i, s in enumerate(steps)
                if i == 0 or s["current"] != steps[i - 1]["current"]]
    it = iter(expected)
    assert all(any(c == e for e in it) for c in observed), (observed, expected)


# ---- a notebook made here: the engine's order from this process -------------------------------

@pytest.fixture(scope="module")
def made(course, lab, browser):
    """A notebook with the same graph twice: a stepper and a presenter stepper; Run All done."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(GRAPH + f"BackwardStepper(e, params={PARAMS}, interval=150)"),
        nbformat.v4.new_code_cell(GRAPH + f"BackwardStepper(e, params={PARAMS}, presenter=True)"),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, course / "stepper_check.ipynb")
    page = browser.new_page()
    open_notebook(page, lab, "stepper_check.ipynb")
    run_all(page)
    assert wait_run_all(page) == ["[1]:", "[2]:"]
    page.wait_for_selector(".autograd-lab-presenter svg g.node")
    yield page
    page.close()


def test_stepper_follows_the_engine(made):
    want = expected_frames(recorded(GRAPH, PARAMS))
    order = engine_order(GRAPH, PARAMS)
    # Sum, Add, Mul (v = u*a), Mul (u = a*b), AccumulateGrad(a), AccumulateGrad(b)
    assert len(order) == len(want["ran"]) == 6

    root = made.locator(".autograd-lab-stepper:not(.autograd-lab-presenter)")
    seen = step_through(root, want)
    check_engine_order(seen, want, order)
    check_table_changes(seen, want)
    assert seen[-1]["rows"][1][:2] == ["a", "[9., 20.]"]  # a.grad: 3+6, 8+12 (two paths)
    check_play(play(root, want), want)


def test_presenter_layout_has_large_fonts(made):
    normal = made.locator(".autograd-lab-stepper:not(.autograd-lab-presenter)")
    big = made.locator(".autograd-lab-presenter")
    assert big.count() == 1

    def sizes(root) -> dict:
        return root.evaluate("""(root) => {
          const px = el => parseFloat(getComputedStyle(el).fontSize);
          const text = root.querySelector('svg g.node text');
          return {caption: px(root.querySelector('.agl-caption')),
                  button: px(root.querySelector('button.widget-button')),
                  table: px(root.querySelector('table.agl-grads td')),
                  node: text.getBoundingClientRect().height,
                  stroke: parseFloat(getComputedStyle(
                    root.querySelector('svg g.node polygon')).strokeWidth)};
        }""")

    small, large = sizes(normal), sizes(big)
    assert large["caption"] == 20 and small["caption"] == 14
    assert large["button"] == 18 and small["button"] == 13
    assert large["table"] == 17 and small["table"] == 13
    assert large["node"] >= 1.5 * small["node"]  # node labels as drawn on screen
    # one step in presenter mode: the current node is lit with a thicker outline
    button(big, "Next").click()
    made.wait_for_function("(r) => r.querySelector('.agl-caption').textContent"
                           ".startsWith('step 2 /')", arg=big.element_handle())
    lit = state(big)["current"]
    assert lit == ["n_1"]
    big.screenshot(path=str(artifact("stepper_presenter.png")))


def test_static_export_in_plain_chromium(browser, tmp_path):
    """``to_html``: a page that steps with no server and no kernel, presenter fonts included."""
    rec = recorded(GRAPH, PARAMS, presenter=True)
    path = Path(rec.to_html(tmp_path / "backward.html"))
    check_export(browser, path, expected_frames(rec), engine_order(GRAPH, PARAMS))
    page = browser.new_page()
    page.goto(path.as_uri())
    assert page.evaluate("getComputedStyle(document.querySelector('.agl-caption')).fontSize") \
        == "20px"
    page.close()


def check_export(browser, path: Path, want: dict, order: list[str] | None = None) -> None:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    root = page.locator(".autograd-lab-stepper")
    seen = [wait_frame(root, want, 0)]
    for k in range(1, want["n"]):
        page.click(".agl-next")
        seen.append(wait_frame(root, want, k, timeout=5))
    if order is not None:
        check_engine_order(seen, want, order)
    check_table_changes(seen, want)
    page.click(".agl-reset")
    wait_frame(root, want, 0, timeout=5)
    page.click(".agl-play")  # 700 ms a frame
    page.wait_for_function("() => document.querySelector('.agl-slider').value > 1", timeout=10_000)
    page.close()
    assert requests and all(u.startswith("file://") for u in requests), requests


# ---- the course's own stepper: the recording read from the notebook's kernel ------------------

@pytest.fixture(scope="module")
def course_stepper(lab, browser):
    """The first course notebook with a stepper, run in JupyterLab; its stepper and recording."""
    found = stepper_notebooks()
    assert found, "no course notebook builds a BackwardStepper"
    rel = found[0].name
    page = browser.new_page()
    open_notebook(page, lab, rel)
    run_all(page)
    prompts = wait_run_all(page)
    ran = save_notebook(page, lab, rel)
    assert all(re.fullmatch(r"\[\d+\]:", p) for p in prompts), prompts
    index, model = next(
        (i, o["data"][WIDGET]["model_id"]) for i, c in enumerate(ran["cells"])
        if c["cell_type"] == "code" and "BackwardStepper(" in source(c)
        for o in c.get("outputs", []) if WIDGET in o.get("data", {}))
    with kernel_of(lab, rel) as kc:
        want = kernel_eval(kc, f"MODEL = {model!r}\n{KERNEL_FRAMES}")
        want["tables"] = [table_rows(t) for t in want["tables"]]
        want["accumulated"] = {int(k): v for k, v in want["accumulated"].items()}
        root = page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".autograd-lab-stepper")
        yield {"page": page, "root": root, "want": want, "kernel": kc, "model": model,
               "notebook": found[0], "cell": index}
    page.close()


def test_course_stepper_follows_the_engine(course_stepper):
    root, want = course_stepper["root"], course_stepper["want"]
    seen = step_through(root, want)
    # the recording's node frames are the engine's on_node events (tests/test_viz_stepper.py)
    check_engine_order(seen, want, [sid for _, sid, _ in want["ran"]])
    check_table_changes(seen, want)
    check_play(play(root, want), want)
    screenshot_stepper(course_stepper)


def screenshot_stepper(cs: dict) -> None:
    """A node running where gradients meet (else past half way): test-artifacts, the README."""
    root, want = cs["root"], cs["want"]
    nodes = [i for i, _, _ in want["ran"]]
    summed = [i for i in nodes if "summed" in want["captions"][i]]
    k = summed[0] if summed else min(nodes, key=lambda i: abs(i - 0.6 * want["n"]))
    button(root, "Reset").click()  # also stops Play for good
    wait_frame(root, want, 0)
    kernel_eval(cs["kernel"], f"""
import gc as _gc, sys as _sys
from autograd_lab.viz import BackwardStepper as _BS
next(o for o in _gc.get_objects() if isinstance(o, _BS) and o.model_id == {cs['model']!r}).go({k})
_sys.stdout.write("null")""")
    wait_frame(root, want, k)
    root.scroll_into_view_if_needed()
    root.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    root.screenshot(path=str(artifact("stepper.png")))
    if UPDATE_SCREENSHOT:
        root.screenshot(path=str(FIGURE_DIR / "stepper_screenshot.png"))


def test_course_stepper_export_without_kernel(course_stepper, browser, tmp_path):
    path = tmp_path / "course_backward.html"
    kernel_eval(course_stepper["kernel"], f"""
import gc as _gc, sys as _sys
from autograd_lab.viz import BackwardStepper as _BS
_s = next(o for o in _gc.get_objects() if isinstance(o, _BS) and o.model_id == MODEL)
_s.recording.to_html({str(path)!r})
_sys.stdout.write("null")""".replace("MODEL", repr(course_stepper["model"])))
    assert path.read_text(encoding="utf-8").count('src="data:image/svg+xml;base64,') == 1
    check_export(browser, path, course_stepper["want"],
                 [sid for _, sid, _ in course_stepper["want"]["ran"]])


# ---- fitting the screen: laptop and projector, course steppers ---------------------------------

SIZES = {"laptop": (1280, 800, 1.0), "projector": (1280, 720, 1.5)}  # projector: 1920x1080 at 150%



def set_size(page, cdp, name: str) -> None:
    w, h, scale = SIZES[name]
    page.set_viewport_size({"width": w, "height": h})
    cdp.send("Emulation.setDeviceMetricsOverride",
             {"width": w, "height": h, "deviceScaleFactor": scale, "mobile": False})
    page.wait_for_timeout(500)


def stepper_cell(page) -> int:
    return page.evaluate("""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
        .findIndex(c => (c.querySelector('.jp-InputArea') || {textContent: ''})
            .textContent.includes('BackwardStepper('))""")


def course_notebook(prefix: str) -> str:
    return next(p.name for p in stepper_notebooks() if p.name.startswith(prefix))


def test_reopened_stepper_shows_no_dead_controls(lab, lab_env, course, browser):
    """Executed and saved, then opened again: the saved frame and a note, no dead buttons."""
    import subprocess

    name = course_notebook("03_")
    path = course / name
    subprocess.run([jupyter_bin("jupyter"), "nbconvert", "--to", "notebook", "--execute",
                    "--inplace", str(path)], env=lab_env, check=True, capture_output=True)
    saved = nbformat.read(path, as_version=4)
    html_out = [o["data"]["text/html"] for c in saved.cells if c.cell_type == "code"
                for o in c.get("outputs", []) if WIDGET in o.get("data", {})]
    assert html_out and all('class="agl-static' in h for h in html_out)
    # untrusted (as nbconvert leaves it): JupyterLab shows the sanitized text/html instead of
    # the widget -- the first frame as an image, the caption, the table and the note
    page = browser.new_page()
    try:
        open_notebook(page, lab, name)
        out = page.locator(".jp-Notebook .jp-CodeCell").nth(stepper_cell(page)) \
            .locator(".jp-OutputArea")
        out.scroll_into_view_if_needed()
        page.wait_for_function("(o) => { const i = o.querySelector('img.agl-frame');"
                               " return i && i.complete && i.naturalWidth > 0; }",
                               arg=out.element_handle())
        assert out.locator("button").count() == 0
        # read the DOM text, retrying: innerText is '' while JupyterLab's windowed notebook
        # still defers rendering the output it has just scrolled to
        expect(out.locator(".agl-note")).to_contain_text("run this cell to step")
        expect(out.locator(".agl-caption")).to_have_text(re.compile(r"^\s*step 1 / "))
        assert out.locator("table.agl-grads").count() == 1
        out.screenshot(path=str(artifact("stepper_untrusted_laptop.png")))
    finally:
        page.close()
        shutdown_kernels(lab)
    trust([path], lab_env)
    page = browser.new_page()
    cdp = browser.new_cdp_session(page)
    try:
        for size in SIZES:
            set_size(page, cdp, size)
            open_notebook(page, lab, name)
            out = page.locator(".jp-Notebook .jp-CodeCell").nth(stepper_cell(page)) \
                .locator(".jp-OutputArea")
            if lost_restore_race(page, out, "svg g.node"):  # only that, and only once
                open_notebook(page, lab, name)
                out = page.locator(".jp-Notebook .jp-CodeCell").nth(stepper_cell(page)) \
                    .locator(".jp-OutputArea")
            out.locator("svg g.node").first.wait_for()
            out.scroll_into_view_if_needed()
            shown = out.evaluate("(o) => [...o.querySelectorAll('button')]"
                                 ".filter(b => b.offsetParent).map(b => b.textContent)")
            assert shown == []
            # the saved state may be drawn twice while JupyterLab restores the widgets: wait for
            # the note's final render before reading it
            note = out.locator(".agl-offline-note")
            expect(note).to_be_visible(timeout=10_000)
            expect(note).to_contain_text("run this cell", timeout=10_000)
            icons = out.evaluate("""(o) => [...o.querySelectorAll('.jupyter-widgets-disconnected')]
                .filter(e => getComputedStyle(e, '::before').display !== 'none'
                             && getComputedStyle(e, '::before').content !== 'none').length""")
            assert icons == 0
            out.screenshot(path=str(artifact(f"stepper_reopened_{size}.png")))
    finally:
        page.close()
        shutdown_kernels(lab)
