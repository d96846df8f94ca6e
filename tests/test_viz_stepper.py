"""record_backward / BackwardStepper: frames are the engine's own events; the widget and exports."""

from __future__ import annotations

import base64
import json
import re
from collections import deque

import ipywidgets as widgets
import numpy as np
import pytest

import autograd_lab as torch
from autograd_lab import _messages as msg
from autograd_lab import engine
from autograd_lab.node import Node, edge, new_node
from autograd_lab.tensor import Tensor, _make
from autograd_lab.viz import BackwardStepper, record_backward

try:
    from autograd_lab.autograd import Function
except ImportError:  # the custom-Function case then uses only the hand-made node
    Function = None


class Raw(engine.Listener):
    """Every event, exactly as the engine passes it."""

    def __init__(self) -> None:
        self.events: list[tuple] = []

    def on_begin(self, roots, grads):
        self.events.append(("begin", roots, grads))

    def on_node(self, node, grad_outputs):
        self.events.append(("node", node, grad_outputs))

    def on_edge(self, node, index, next_node, input_nr, grad):
        self.events.append(("edge", node, index, next_node, input_nr, grad))

    def on_accumulate(self, tensor, grad, total):
        self.events.append(("accumulate", tensor, grad, total))

    def on_free(self, node, names):
        self.events.append(("free", node, names))

    def on_error(self, node, error):
        self.events.append(("error", node, error))

    def on_end(self):
        self.events.append(("end",))


def node_order(roots: list[Tensor]) -> dict[int, int]:
    """Breadth-first position of every node: a name for nodes that works across two builds."""
    order: dict[int, int] = {}
    queue = deque(t.grad_fn for t in roots)
    while queue:
        n = queue.popleft()
        if n is None or id(n) in order:
            continue
        order[id(n)] = len(order)
        queue.extend(m for m, _ in n.next_functions)
    for t in roots:  # a leaf root: its AccumulateGrad
        if t.grad_fn is None and t._acc is not None:
            order.setdefault(id(t._acc()), len(order))
    return order


def normalize(x, nodes: dict[int, int], tensors: list[Tensor]):
    """Events with nodes/tensors replaced by their positions and arrays by exact bytes."""
    if isinstance(x, Node):
        return ("node", x.name(), nodes[id(x)])
    if isinstance(x, Tensor):
        return ("tensor", next(i for i, t in enumerate(tensors) if t is x))
    if isinstance(x, np.ndarray):
        return ("array", x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, BaseException):
        return ("error", type(x).__name__, str(x))
    if isinstance(x, (list, tuple)):
        return tuple(normalize(v, nodes, tensors) for v in x)
    return x


def raw_run(build, runs=1, retain_graph=False, **kw):
    roots, tensors = build()
    nodes = node_order(roots)
    raw = Raw()
    error = None
    for _ in range(runs):
        try:
            engine.backward(roots, retain_graph=retain_graph, listener=raw, **kw)
        except RuntimeError as e:
            error = e
    grads = [None if t._grad is None else t._grad._data.copy() for t in tensors]
    return normalize(raw.events, nodes, tensors), grads, error


def recorded_run(build, runs=1, retain_graph=False, **kw):
    roots, tensors = build()
    nodes = node_order(roots)
    gradient = kw.pop("grad_tensors", None)
    rec = record_backward(roots, gradient, retain_graph, params=None, **kw)
    for _ in range(runs - 1):
        rec.backward_again()
    events = [(f.kind, *f.args) for f in rec.frames]
    grads = [None if t._grad is None else t._grad._data.copy() for t in tensors]
    return normalize(events, nodes, tensors), grads, rec


def assert_same(build, runs=1, retain_graph=False, **kw):
    expected, grads, error = raw_run(build, runs, retain_graph, **kw)
    got, grads2, rec = recorded_run(build, runs, retain_graph, **kw)
    assert got == expected
    assert len(grads) == len(grads2)
    for g, h in zip(grads, grads2):
        assert (g is None and h is None) or np.array_equal(g, h)
    return rec, expected, error


# ---- graphs ------------------------------------------------------------------------------------

def chain():
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = (torch.sin(x.exp()) * 3).sum()
    return [y], [x]


def fan():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    u = a * b
    u.retain_grad()
    v = u * a  # a is used twice: two edges into AccumulateGrad(a); u feeds two nodes
    e = (u + v).sum()
    return [e], [a, b, u]


def softmax_cross_entropy():
    torch.manual_seed(0)
    x = torch.randn(3, 5)
    w = torch.randn(5, 4, requires_grad=True)
    bias = torch.zeros(4, requires_grad=True)
    logits = x @ w + bias
    target = torch.tensor([0, 3, 1])
    loss = -torch.log_softmax(logits, dim=1)[torch.arange(3), target].mean()
    return [loss], [w, bias]


class CubeBackward(Node):
    """A hand-written node: y = x**3;  dx = 3 x**2 g"""

    saved_names = ("self",)

    def backward(self, g):
        x = self.saved("self")
        return 3 * x * x * g


def cube(x: Tensor) -> Tensor:
    node = new_node(CubeBackward, (edge(x),))
    node.save("self", x)
    return _make(x._data ** 3, x.dtype, node)


def custom_node():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = (cube(x * 2) + x).sum()
    return [y], [x]


def custom_function():
    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x ** 2 * g

    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = (Cube.apply(x * 2) + x).sum()
    return [y], [x]


CUSTOM = [custom_node] + ([custom_function] if Function is not None else [])


# ---- frames == the engine's events ------------------------------------------------------------

@pytest.mark.parametrize("build", [chain, fan, softmax_cross_entropy, *CUSTOM])
def test_frames_equal_listener_events(build):
    rec, expected, _ = assert_same(build)
    kinds = [f.kind for f in rec.frames]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    assert {"node", "edge", "accumulate", "free"} <= set(kinds)
    assert len(rec.runs) == 1 and rec.runs[0].error is None


def test_frames_with_gradient_and_inputs():
    def vec():
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
        return [x * w], [x, w]

    assert_same(vec, grad_tensors=torch.tensor([1.0, 0.5, 2.0]))
    # inputs= limits which leaves get a .grad
    roots, tensors = fan()
    raw = Raw()
    engine.backward(roots, inputs=[tensors[0]], listener=raw)
    roots2, tensors2 = fan()
    rec = record_backward(roots2, inputs=[tensors2[0]])
    assert normalize([(f.kind, *f.args) for f in rec.frames], node_order(roots2), tensors2) == \
        normalize(raw.events, node_order(roots), tensors)
    assert tensors2[1].grad is None and np.array_equal(tensors2[0].grad._data, [9.0, 20.0])


def test_retain_graph_then_second_backward_accumulates():
    rec, expected, error = assert_same(fan, runs=2, retain_graph=True)
    assert error is None
    assert len(rec.runs) == 2 and all(r.error is None for r in rec.runs)
    a_rows = [i for i, f in enumerate(rec.frames)
              if f.kind == "accumulate" and rec.name_of(f.args[0]) == "leaf #0"]
    first, second = a_rows
    assert rec.frames[first].old is None
    assert np.array_equal(rec.frames[second].old, [9.0, 20.0])
    assert np.array_equal(rec.frames[second].args[2], [18.0, 40.0])
    assert "leaf #0.grad: [9., 20.] + [9., 20.] = [18., 40.]" in rec.caption_text(second)
    assert "[9., 20.] + [9., 20.] = [18., 40.]" in rec.table_html(second)
    assert "None → [9., 20.]" in rec.table_html(first)


def test_second_backward_on_freed_graph_records_torch_error():
    rec, expected, error = assert_same(fan, runs=2)
    assert str(error) == msg.BACKWARD_TWICE
    last = rec.frames[-1]
    assert last.kind == "error" and str(last.args[1]) == msg.BACKWARD_TWICE
    assert rec.runs[1].error is last.args[1]
    assert msg.BACKWARD_TWICE in rec.caption_text(len(rec) - 1)
    style = rec.style(len(rec) - 1)
    assert "error" in style.nodes.values()


def test_errors_raise_by_default():
    roots, _ = fan()
    roots[0].backward()
    with pytest.raises(RuntimeError, match="second time"):
        record_backward(roots[0])
    rec = record_backward(roots[0], errors="record")
    assert rec.frames[-1].kind == "error"
    with pytest.raises(ValueError, match="errors"):
        record_backward(roots[0], errors="ignore")
    with pytest.raises(TypeError, match="Tensors"):
        record_backward([1.0])


# ---- what each frame shows -------------------------------------------------------------------

def test_fan_in_sums_are_shown():
    (e,), (a, b, u) = fan()
    rec = record_backward(e, params=dict(a=a, b=b, u=u))
    captions = [rec.caption_text(i) for i in range(len(rec))]
    # u = a*b feeds AddBackward0 and v = u*a: its node sums two incoming gradients
    assert any("MulBackward0 (u) runs with grad_output [1., 1.] + [1., 2.] = [2., 3.]" in c
               for c in captions)
    # a reaches AccumulateGrad(a) along two edges
    acc = [c for c in captions if c.startswith("AccumulateGrad(a) runs")]
    assert len(acc) == 1 and "[3., 8.] + [6., 12.] = [9., 20.]" in acc[0]
    pending = [i for i in range(len(rec)) if "waiting to be summed" in rec.table_html(i)]
    assert pending and "AccumulateGrad(a) ← [3., 8.] + [6., 12.]" in rec.table_html(pending[-1])
    assert any(c == "u.grad (retained) = [2., 3.] (it was None)" for c in captions)
    assert captions[0] == "backward() starts at SumBackward0 with gradient 1."
    assert captions[-1] == "backward() finished"


def test_styles_follow_the_events():
    (e,), (a, b, u) = fan()
    rec = record_backward(e, params=dict(a=a, b=b))
    spec = rec.spec
    for i, f in enumerate(rec.frames):
        style = rec.style(i)
        if f.kind == "node":
            sid = spec.svg_id(spec.names[("fn", id(f.args[0]))])
            assert style.nodes[sid] == "current"
            assert f"#{sid}>polygon" in rec.canvas.css(style)
        if f.kind == "edge":
            eid = spec.edges[("edge", id(f.args[0]), f.args[1])]
            assert style.edges[eid] == "active"
            assert style.labels[eid] == torch.viz.backward_log.fmt_grad(f.args[4])
        if f.kind == "free":
            for name in f.args[1]:
                sid = spec.svg_id(spec.names[("saved", id(f.args[0]), name)])
                assert all(rec.style(j).nodes.get(sid) == "freed" for j in range(i, len(rec)))
                assert all(rec.style(j).nodes.get(sid) != "freed" for j in range(i))
    end = rec.style(len(rec) - 1)
    assert set(end.edges.values()) == {"done"}
    assert "current" not in end.nodes.values()


def test_frame_svg_is_inline_and_queryable():
    (e,), (a, b, u) = fan()
    rec = record_backward(e)
    svg = rec.frame_svg(3)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert '<g id="n_0" class="node">' in svg and '<g id="e_0" class="edge">' in svg
    assert '<g class="agl-labels"><text' in svg
    assert "<?xml" not in svg


# ---- the widget --------------------------------------------------------------------------------

def _all_widgets(w):
    yield w
    for c in getattr(w, "children", ()):
        yield from _all_widgets(c)


def test_widget_first_frame_without_output_widgets():
    (e,), (a, b, u) = fan()
    s = BackwardStepper(e, params=dict(a=a, b=b, u=u))
    assert "autograd-lab-stepper" in s._dom_classes
    assert not any(isinstance(w, widgets.Output) for w in _all_widgets(s))
    assert s.graph.value.startswith("<svg") and 'id="n_0"' in s.graph.value
    assert "step 1 / " in s.caption.value
    assert "<table" in s.table.value
    assert np.array_equal(a.grad._data, [9.0, 20.0])  # backward really ran


def test_widget_navigation_updates_html():
    (e,), (a, b, u) = fan()
    s = BackwardStepper(e, params=dict(a=a, b=b))
    first = (s.graph.value, s.caption.value)
    s.next()
    assert s.step == 1 and s.slider.value == 1
    assert (s.graph.value, s.caption.value) != first
    assert "step 2 / " in s.caption.value
    s.play.value = 5  # Play is linked to the slider
    assert s.slider.value == 5 and "step 6 / " in s.caption.value
    svg = s.recording.frame_svg(5)
    assert s.graph.value.startswith(svg)
    # then the handler that scrolls the running node into view after a click in the stepper
    lit = [k for k, v in s.recording.style(5).nodes.items() if v == "current"]
    follow = s.graph.value[len(svg):]
    assert lit and follow.startswith('<img alt="" src="data:image/gif;base64,') and "onload=" in follow
    assert f"querySelector('{','.join('#' + k for k in lit)}')" in follow
    assert "document.activeElement" in follow and "scrollIntoView" in follow
    assert s.table.value == s.recording.table_html(5)
    s.prev()
    assert s.step == 4
    s.reset()
    assert s.step == 0 and s.graph.value == first[0]
    s.prev()
    assert s.step == 0
    s.go(10_000)
    assert s.step == len(s.recording) - 1 == s.slider.max == s.play.max
    s.prev_button.click()
    assert s.step == len(s.recording) - 2
    s.next_button.click()
    s.reset_button.click()
    assert s.step == 0


def test_widget_second_backward_button():
    (e,), (a, b, u) = fan()
    s = BackwardStepper(e, params=dict(a=a, b=b), retain_graph=True)
    n = len(s.recording)
    s.again_button.click()
    assert len(s.recording) == 2 * n
    assert s.slider.max == s.play.max == 2 * n - 1 and s.step == n
    assert "backward #2" in s.caption.value
    assert np.array_equal(a.grad._data, [18.0, 40.0])
    s.go(2 * n - 1)
    s.again_button.click()  # retain_graph carries over: a third run works too
    assert np.array_equal(a.grad._data, [27.0, 60.0])

    (e2,), _ = fan()
    s2 = BackwardStepper(e2)
    s2.backward_again()
    s2.go(len(s2.recording) - 1)
    assert "Trying to backward through the graph a second time" in s2.caption.value
    assert "#b71c1c" in s2.caption.value


def test_presenter_mode():
    (e,), _ = chain()
    s = BackwardStepper(e, presenter=True)
    assert {"autograd-lab-stepper", "autograd-lab-presenter"} <= set(s._dom_classes)
    assert 'font-size="18.00"' in s.graph.value
    assert "font-size:20px" in s.caption.value
    assert s.next_button.style.font_size == "18px"


# ---- exports -----------------------------------------------------------------------------------

def test_export_html_is_standalone(tmp_path):
    (e,), (a, b, u) = fan()
    rec = record_backward(e, params=dict(a=a, b=b), retain_graph=True)
    rec.backward_again()
    path = rec.to_html(tmp_path / "steps.html")
    page = open(path, encoding="utf-8").read()
    assert page.startswith("<!DOCTYPE html>")
    data = json.loads(re.search(r'<script type="application/json" class="agl-data">(.*?)</script>',
                                page).group(1).replace("<\\/", "</"))
    frames = data["frames"]
    assert len(frames) == len(rec)
    assert frames[7]["c"] == rec.caption_html(7)
    assert data["tables"][frames[7]["t"]] == rec.table_html(7)
    assert frames[7]["n"] == rec.style(7).nodes and frames[7]["l"] == rec.style(7).labels
    assert "data:image/svg+xml;base64," in page and "<script>" in page
    # no kernel, no network: nothing to fetch
    assert not re.search(r"<script[^>]+src=|<link|@import|url\(|fetch\(|XMLHttpRequest", page)
    urls = set(re.findall(r"https?://[^\s\"'<>]+", page))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    # deterministic
    rec.to_html(tmp_path / "again.html")
    assert open(tmp_path / "again.html", encoding="utf-8").read() == page


@pytest.mark.browser
def test_export_html_runs_in_a_browser(tmp_path):
    from playwright.sync_api import sync_playwright

    (e,), (a, b, u) = fan()
    rec = record_backward(e, params=dict(a=a, b=b))
    path = rec.to_html(tmp_path / "steps.html")
    requests = []
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path="/usr/bin/chromium", headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update"])
        page = ctx.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"file://{path}")
        assert "step 1 / " in page.inner_text(".agl-caption")
        page.click(".agl-next")
        page.click(".agl-next")
        assert "step 3 / " in page.inner_text(".agl-caption")
        lit = page.evaluate("[...document.querySelectorAll('svg g.agl-current')].map(g => g.id)")
        assert [x.rsplit("-", 1)[1] for x in lit] == sorted(
            k for k, v in rec.style(2).nodes.items() if v == "current")
        labels = page.evaluate("[...document.querySelectorAll('svg text.agl-label')]"
                               ".filter(t => t.textContent).map(t => t.dataset.edge)")
        assert sorted(labels) == sorted(rec.style(2).labels)
        page.fill(".agl-slider", str(len(rec) - 1))
        page.dispatch_event(".agl-slider", "input")
        assert page.inner_text(".agl-caption").endswith("backward() finished")
        ctx.close()
    assert all(u.startswith("file://") for u in requests)


def test_save_frames(tmp_path):
    (e,), _ = chain()
    rec = record_backward(e)
    svgs = rec.save_frames(tmp_path / "svg")
    assert len(svgs) == len(rec)
    text = open(svgs[2], encoding="utf-8").read()
    assert "<svg" in text and "step 3 / " in text
    pngs = rec.save_frames(tmp_path / "png", fmt="png")
    assert len(pngs) == len(rec)
    assert open(pngs[0], "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="fmt"):
        rec.save_frames(tmp_path, fmt="gif")


@pytest.mark.parametrize("name", ['a "quoted" <script>alert(1)</script>', "new\nline {x|y}", "ü 🙂 \x1b", "z" * 300])
def test_nasty_names_in_frames_and_exports(tmp_path, name):
    (e,), (a, b, u) = fan()
    rec = record_backward(e, params={name: a, name + "2": u})
    for i in range(len(rec)):
        assert "<script" not in rec.table_html(i) + rec.caption_html(i)
    i = next(k for k, f in enumerate(rec.frames) if f.kind == "accumulate")
    assert rec.frame_dot(i).pipe(format="svg")
    assert rec.frame_svg(i).startswith("<svg")
    rec.to_html(tmp_path / "x.html")


def test_leaf_root():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([1.0, 1.0])
    raw = Raw()
    engine.backward(x, torch.tensor([2.0, 3.0]), listener=raw)
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    y.grad = torch.tensor([1.0, 1.0])
    rec = record_backward(y, torch.tensor([2.0, 3.0]), params=dict(y=y))
    assert [f.kind for f in rec.frames] == [e[0] for e in raw.events]
    acc = [i for i, f in enumerate(rec.frames) if f.kind == "accumulate"][0]
    assert rec.caption_text(acc) == "y.grad: [1., 1.] + [2., 3.] = [3., 4.]"


@pytest.mark.browser
@pytest.mark.slow
def test_widget_in_jupyterlab(tmp_path):
    """The stepper in a real JupyterLab: inline SVG nodes are queryable, Next restyles them."""
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    import nbformat
    from playwright.sync_api import sync_playwright

    root = tmp_path / "root"
    root.mkdir()
    code = ("import autograd_lab as torch\nfrom autograd_lab.viz import BackwardStepper\n"
            "a = torch.tensor([1., 2.], requires_grad=True)\n"
            "b = torch.tensor([3., 4.], requires_grad=True)\n"
            "u = a * b\nv = u * a\ne = (u + v).sum()\n"
            "BackwardStepper(e, params=dict(a=a, b=b, u=u))")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, root / "S.ipynb")
    dirs = {k: tmp_path / k.lower() for k in (
        "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
        "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR")}
    news = dirs["JUPYTERLAB_SETTINGS_DIR"] / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = "stepper-test"
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    env = {**os.environ, **{k: str(v) for k, v in dirs.items()}}
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}")
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path="/usr/bin/chromium", headless=True,
                viewport={"width": 1400, "height": 1000},
                args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                      "--no-first-run", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync"])
            page = ctx.new_page()
            page.goto(f"http://127.0.0.1:{port}/lab/tree/S.ipynb?token={token}&reset")
            page.wait_for_selector(
                'span.jp-StatusBar-TextItem[title^="Change kernel"]:has-text("Idle")',
                timeout=60_000)
            page.click(".jp-CodeCell .jp-InputArea-editor")
            page.keyboard.press("Shift+Enter")
            stepper = ".autograd-lab-stepper"
            page.wait_for_selector(f"{stepper} .widget-html-content svg g#n_1.node",
                                   timeout=60_000)
            assert page.locator(f"{stepper} .widget-html-content svg g.node").count() == 13
            caption = f"{stepper} .agl-caption"
            assert "step 1 / 19" in page.inner_text(caption)
            amber = """() => [...document.querySelectorAll('.autograd-lab-stepper svg g.node')]
                .filter(g => getComputedStyle(g.querySelector('polygon')).fill
                             === 'rgb(255, 213, 79)').map(g => g.id)"""
            next_button = page.locator(f"{stepper} button.widget-button", has_text="Next")
            next_button.click()
            page.wait_for_function(
                f"document.querySelector('{caption}').innerText.includes('step 2 / 19')")
            assert page.evaluate(amber) == ["n_1"]  # SumBackward0 runs
            ctx.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def _unpacked(frag: str) -> str:
    """The fragment with its SVG image decoded."""
    return re.sub(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)",
                  lambda m: base64.b64decode(m[1]).decode("utf-8"), frag)


def test_display_data_carries_a_static_export():
    (e,), (a, b, u) = fan()
    s = BackwardStepper(e, params=dict(a=a, b=b))
    data = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    frag = data["text/html"]
    assert frag.startswith('<div class="agl-static') and frag.endswith("</div>")
    assert "run this cell to step" in frag  # what shows where scripts do not run
    uid = re.match(r'<div class="agl-static autograd-lab-stepper (agl\w+)" id="\1" [^>]*>', frag)[1]
    ids = re.findall(r'\bid="([^"]+)"', frag)
    assert ids and all(x == uid or x.startswith(uid + "-") for x in ids)
    # the same graph recorded again: the same frames, ids unique to each recording
    (e2,), (a2, b2, _) = fan()
    frag2 = BackwardStepper(e2, params=dict(a=a2, b=b2))._repr_mimebundle_()["text/html"]
    uid2 = re.search(r'id="(agl\w+)"', frag2)[1]
    assert uid2 != uid and _unpacked(frag2).replace(uid2, uid) == _unpacked(frag)
    # the graph is an SVG image (shown even where SVG markup and scripts are stripped); no
    # layout coordinates outside it: what nbval compares after sanitizing SVG bytes
    image = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', frag)[1]
    svg = base64.b64decode(image).decode("utf-8")
    assert svg.startswith("<svg") and 'class="agl-first"' in svg
    outside = frag.replace(image, "")
    assert not re.search(r'\b[xy]="|<svg', outside)
    inner = re.findall(r'\bid="([^"]+)"', svg)
    assert inner and all(x.startswith(uid + "-") for x in inner)
