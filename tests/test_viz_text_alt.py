"""Text alternatives: graphs, version views, memory timelines and figures say in words what
they show, in a form JupyterLab renders (HTML), and the course website's pictures too."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import matplotlib
import pytest

import autograd_lab as torch
from autograd_lab.viz import make_dot, memory_timeline, record_backward, version_view
from autograd_lab.viz.a11y_html import png_figure, svg_figure
from autograd_lab.viz.notebook_display import figure_html, graphviz_html, install
from autograd_lab.viz.text_alt import figure_text, svg_graph_text

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "course"))
import site_a11y  # noqa: E402

NAMED_SVG = re.compile(r'<svg [^>]*role="img" aria-labelledby="([\w-]+)"')


def mul_sum():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    loss = (a * b).sum()
    return a, b, loss


def test_graph_text_names_root_nodes_and_leaves():
    a, b, loss = mul_sum()
    spec = make_dot(loss, params={"a": a, "b": b})
    alt = spec.describe()
    assert alt.summary == ("backward graph of an output of shape (): MulBackward0 takes a and b; "
                           "SumBackward0 takes MulBackward0")
    assert alt.complete
    named = make_dot(loss, params={"a": a, "b": b, "loss": loss}).describe()
    assert named.summary.startswith("backward graph of loss: MulBackward0 takes a and b; ")
    assert "Leaves (their .grad is filled): a and b." in named.details


def test_repeated_titles_are_numbered_in_forward_order():
    x = torch.tensor(2.0, requires_grad=True)
    y = (x * 3) * 4
    alt = make_dot(y, params={"x": x}).describe()
    assert "MulBackward0 #1 takes x; MulBackward0 #2 takes MulBackward0 #1" in alt.summary


def test_long_graph_gets_a_short_name_and_a_full_text_version():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(30):
        y = y.sin()
    bundle = make_dot(y, params={"x": x})._repr_mimebundle_()
    page = bundle["text/html"]
    uid = NAMED_SVG.search(page).group(1)
    title = re.search(rf'<title id="{uid}">([^<]*)</title>', page).group(1)
    assert "30 function nodes, 1 leaf (x)" in title and len(title) < 240
    assert page.count("<li>SinBackward0 #") == 30
    assert "<summary>Text version of the graph</summary>" in page
    assert "%3" not in page


def test_the_svg_output_is_titled_in_words():
    """The SVG kept for nbval and other viewers: its graph titled by the summary, not %3."""
    a, b, loss = mul_sum()
    bundle = make_dot(loss, params={"a": a, "b": b, "loss": loss})._repr_mimebundle_()
    assert "<title>%3</title>" not in bundle["image/svg+xml"]
    assert "<title>backward graph of loss: MulBackward0 takes a and b" in bundle["image/svg+xml"]
    assert NAMED_SVG.search(bundle["text/html"])
    assert "<details" not in bundle["text/html"]  # the name says it all: no text version


def test_saved_tensors_and_stale_versions_in_words():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    s = x.sigmoid()
    loss = (s + 1).sum()
    s.add_(1)
    view = version_view(loss, params={"x": x, "loss": loss})
    alt = view.describe()
    assert "SigmoidBackward0 takes x (saves result)" in alt.summary
    assert "1 stale saved tensor, so backward() will raise" in alt.summary
    assert any(line.startswith("backward() will raise RuntimeError: ") for line in alt.details)
    bundle = view._repr_mimebundle_()
    assert NAMED_SVG.search(bundle["text/html"]) and "image/svg+xml" in bundle


def test_any_graphviz_svg_in_words():
    import graphviz

    g = graphviz.Digraph()
    g.node("v0", "{a | data 2.0}", shape="record")
    g.node("v1", "Mul")
    g.edge("v0", "v1")
    alt = svg_graph_text(g.pipe(format="svg", encoding="utf-8"))
    assert alt.summary == "graph with 2 nodes and 1 edge: a data 2.0 → Mul"
    page = graphviz_html(g)
    assert NAMED_SVG.search(page) and "a data 2.0 → Mul" in page
    assert graphviz_html(make_dot(mul_sum()[2])) is None  # make_dot's own display has its HTML


def test_figure_in_words():
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2, 3], [4.0, 2.0, 1.0, 0.5], label="loss")
    ax.set_xlabel("step")
    ax.set_ylabel("value")
    ax.set_title("training")
    alt = figure_text(fig)
    assert alt.summary.startswith("plot: training: step from ")
    assert "value from " in alt.summary and "shows loss" in alt.summary
    assert any("loss: 4 points from x=0, y=4 to x=3, y=0.5; lowest at x=3, y=0.5, highest at "
               "x=0, y=4" in line for line in alt.details)
    page = figure_html(fig)
    assert page.startswith('<img alt="plot: training: ') and "data:image/png;base64," in page
    plt.close(fig)


def test_memory_timeline_in_words():
    def fn():
        x = torch.randn(1000, requires_grad=True)
        return x.exp().sum()

    fig = memory_timeline(fn)
    alt = fig.describe()
    assert alt.summary.startswith("memory_allocated() through forward and backward, two panels: "
                                  "backward(retain_graph=False): ")
    assert "backward(retain_graph=True): " in alt.summary and "peak " in alt.summary
    assert fig._repr_html_().startswith('<img alt="memory_allocated() through forward')


def test_install_registers_html_forms_in_ipython():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        assert install(shell)
        html = shell.display_formatter.formatters["text/html"]
        html.enabled = True
        fig, ax = plt.subplots()
        ax.plot([1, 2, 3])
        data, _ = shell.display_formatter.format(fig)
        assert data["text/html"].startswith('<img alt="plot: ')
        plt.close(fig)
    finally:
        InteractiveShell.clear_instance()
    assert install(None) is False  # outside IPython: nothing to do


def test_html_forms_are_well_named():
    alt = svg_graph_text('<svg width="1pt"><g id="graph0" class="graph"><title>%3</title>'
                         "</g></svg>")
    page = svg_figure('<?xml version="1.0"?><svg width="1pt"><g id="graph0" class="graph">'
                      "<title>%3</title></g></svg>", alt)
    uid = NAMED_SVG.search(page).group(1)
    assert f'<title id="{uid}">' in page and "%3" not in page
    assert png_figure(b"\x89PNG", alt).startswith(f'<img alt="{alt.summary}"')
    with pytest.raises(ValueError, match="no <svg>"):
        svg_figure("<p>not a drawing</p>", alt)


def test_stepper_announces_each_step_in_one_sentence():
    a, b, loss = mul_sum()
    rec = record_backward(loss, params={"a": a, "b": b, "loss": loss})
    said = [rec.announcement(i) for i in range(len(rec))]
    n = len(rec)
    assert said[0] == f"Step 1 of {n}: backward() starts at SumBackward0 (loss) with gradient 1."
    assert any(s.startswith("Step ") and "MulBackward0 runs: it receives the gradient [1., 1.]"
               in s for s in said)
    assert any("a.grad accumulates [3., 4.]: it was None, now [3., 4.]." in s for s in said)
    assert all(s.endswith(".") and ". " not in s.replace("1. ", "1 ") for s in said)
    assert said[-1] == f"Step {n} of {n}: backward() finished."
    assert 'role="img" aria-label="backward graph of loss' in rec.frame_svg(1)


def test_site_figures_get_alt_text_from_their_code():
    src = ('fig, ax = plt.subplots()\nax.plot(x, label=r"$\\sin 2x$")\nax.set_xlabel("x")\n'
           'ax.set_title("the gradient")\nplt.show()')
    assert site_a11y.figure_alt(src) == "plot: title: the gradient; x axis: x; lines: sin 2x"
    assert site_a11y.figure_alt("plt.plot(y)") == "a plot drawn by the code above"
    nb = {"cells": [{"cell_type": "code", "source": src, "metadata": {}, "outputs": [
        {"output_type": "display_data", "data": {"image/png": "AAAA", "text/plain": "<Figure>"}},
    ]}, {"cell_type": "code", "source": "g", "metadata": {}, "outputs": [
        {"output_type": "display_data", "data": {"image/svg+xml": (
            '<svg width="1pt"><g id="graph0" class="graph"><title>%3</title>'
            '<g id="node1" class="node"><title>a</title><text>a</text></g></g></svg>')}},
    ]}]}
    site_a11y.stage_notebook(nb)
    assert nb["cells"][0]["metadata"]["mystnb"]["image"]["alt"].startswith("plot: title: ")
    assert NAMED_SVG.search(nb["cells"][1]["outputs"][0]["data"]["text/html"])


def test_site_pages_lose_mismatched_names_and_link_the_fixes():
    page = ('<html><head></head><body><summary aria-label="Toggle hidden content"><p>Show '
            'solution</p></summary><button class="btn search-button__button" title="Search" '
            'aria-label="Search">Search <kbd>Ctrl</kbd>+<kbd>K</kbd></button></body></html>')
    fixed = site_a11y.fix_page(page, "../_static/")
    assert "aria-label" not in fixed and "<summary>" in fixed
    assert '<link rel="stylesheet" href="../_static/a11y.css">' in fixed
    assert site_a11y.alt_problems('<img alt="../_images/0d46303824d3a6bbb0364f.png" src="x">')
    assert site_a11y.alt_problems('<img src="x">') and site_a11y.alt_problems('<img alt="">')
    assert site_a11y.alt_problems('<img alt="" style="display:none" src="x">') == []
    assert site_a11y.alt_problems('<img alt="the graph of loss" src="x.svg">') == []
