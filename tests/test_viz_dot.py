"""make_dot: structure, colours, deterministic ids, escaping (rendered by the real `dot`), limits."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
import textwrap

import graphviz
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autograd_lab as torch
from autograd_lab.viz import (
    GraphTooLargeError,
    GraphvizNotFoundError,
    _graphviz,
    build_graph,
    make_dot,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = re.compile(r"^\t(n\d+) \[(.*)\]$")
EDGE = re.compile(r"^\t(n\d+) -> (n\d+) \[(.*)\]$")


def parse(source: str) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """Node statements (name -> attribute text) and edges (tail, head, attribute text)."""
    nodes: dict[str, str] = {}
    edges = []
    for line in source.splitlines():
        if m := EDGE.match(line):
            edges.append(m.groups())
        elif m := NODE.match(line):
            nodes[m.group(1)] = m.group(2)
    return nodes, edges


def label(attrs: str) -> str:
    """The visible text of an HTML-like label (tags removed)."""
    m = re.search(r"label=<(.*)>(?: |$)", attrs)
    assert m, attrs
    text = re.sub(r"<BR[^>]*>", "\n", m.group(1))
    return html.unescape(re.sub(r"<[^>]+>", "", text)).replace("\xa0", " ").strip()


def fill(attrs: str) -> str:
    m = re.search(r"fillcolor=(\S+)", attrs)
    return m.group(1).strip('"') if m else ""


def four_leaves():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = torch.tensor([5.0, 6.0], requires_grad=True)
    d = torch.tensor([7.0, 8.0], requires_grad=True)
    u = a * b
    t = torch.log(d)
    v = t * c
    e = (u + v).sum()
    return e, dict(a=a, b=b, c=c, d=d)


def render_ok(dot: graphviz.Digraph) -> str:
    svg = dot.pipe(format="svg", encoding="utf-8")
    assert "<svg" in svg and "</svg>" in svg
    return svg


# ---- structure and colours ------------------------------------------------------------------

def test_four_leaf_graph_structure_and_colours():
    e, params = four_leaves()
    dot = make_dot(e, params)
    assert isinstance(dot, graphviz.Digraph)
    nodes, edges = parse(dot.source)
    by_label = {label(a): (n, a) for n, a in nodes.items()}
    for name in "abcd":
        n, attrs = by_label[f"{name}\n(2)"]
        assert fill(attrs) == "lightblue"
    assert fill(by_label["()"][1]) == "darkolivegreen1"  # the output, unnamed
    fn_labels = sorted(label(a) for a in nodes.values() if fill(a) == "lightgrey")
    assert fn_labels == sorted(["SumBackward0", "AddBackward0", "MulBackward0", "MulBackward0",
                                "LogBackward0"] + ["AccumulateGrad"] * 4)
    assert len(nodes) == 4 + 1 + 9
    # leaf -> AccumulateGrad -> op: forward direction, as torchviz draws it
    leaf_a = by_label["a\n(2)"][0]
    acc = [h for t, h, _ in edges if t == leaf_a]
    assert len(acc) == 1 and label(nodes[acc[0]]) == "AccumulateGrad"
    assert label(nodes[[h for t, h, _ in edges if t == acc[0]][0]]) == "MulBackward0"
    assert len(edges) == 4 + 1 + 8  # leaf->acc, sum->out, next_functions edges
    render_ok(dot)


def test_torchviz_node_attributes_and_rankdir():
    e, params = four_leaves()
    src = make_dot(e, params, rankdir="LR").source
    assert "node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box " \
           "style=filled]" in src
    assert "rankdir=LR" in src
    with pytest.raises(ValueError, match="rankdir"):
        make_dot(e, rankdir="XY")
    with pytest.raises(ValueError, match="view"):
        make_dot(e, view="values")


def test_ids_follow_traversal_order():
    e, params = four_leaves()
    spec = build_graph(e, params)
    nodes, _ = parse(spec.dot.source)
    names = list(nodes)
    assert sorted(names, key=lambda n: int(n[1:])) == [f"n{i}" for i in range(len(names))]
    assert spec.names[("t", id(e))] == "n0"
    assert spec.names[("fn", id(e.grad_fn))] == "n1"
    # breadth first: the function nodes are numbered in the order they were discovered
    fn_numbers = [int(spec.names[("fn", id(n))][1:]) for n in spec.nodes]
    assert fn_numbers == sorted(fn_numbers)
    # SVG ids n_3 / e_5 for the browser and the stepper
    assert re.search(r'n3 \[.*id=n_3\]', spec.dot.source)
    assert "id=e_0" in spec.dot.source


def test_source_is_byte_identical_across_processes():
    script = textwrap.dedent("""
        import autograd_lab as torch
        from autograd_lab.viz import make_dot
        torch.manual_seed(0)
        x = torch.randn(3, 4, requires_grad=True)
        w = torch.randn(4, 2, requires_grad=True)
        y = torch.log_softmax(x @ w, dim=1)
        loss = -y[torch.arange(3), torch.tensor([0, 1, 1])].mean()
        for view in ("grad_fn", "value", "both"):
            print(make_dot(loss, dict(x=x, w=w), show_attrs=True, show_saved=True,
                           view=view, saved_bytes=True).source)
            print("=====")
    """)
    outs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
            for seed in (1, 2)]
    assert outs[0] == outs[1]
    assert "0x" not in outs[0]
    assert outs[0].count("=====") == 3


def test_several_outputs_share_one_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    y1, y2 = h.sum(), (h * 2).sum()
    nodes, _ = parse(make_dot((y1, y2), dict(x=x, y1=y1, y2=y2)).source)
    outs = sorted(label(a) for a in nodes.values() if fill(a) == "darkolivegreen1")
    assert outs == ["y1\n()", "y2\n()"]
    assert sum(label(a) == "ExpBackward0" for a in nodes.values()) == 1
    assert sum(label(a) == "AccumulateGrad" for a in nodes.values()) == 1
    with pytest.raises(TypeError, match="Tensor"):
        make_dot([y1, 3])
    with pytest.raises(TypeError, match="params"):
        make_dot(y1, dict(x=[1.0]))


def test_view_output_draws_its_base():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    v = (x * 2).view(2, 2)
    nodes, edges = parse(make_dot(v).source)
    base = [n for n, a in nodes.items() if fill(a) == "darkolivegreen3"]
    assert len(base) == 1
    assert any(t == base[0] and "style=dotted" in a for t, _, a in edges)


# ---- saved tensors ----------------------------------------------------------------------------

def test_saved_leaf_is_its_own_node():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    nodes, edges = parse(make_dot(y, dict(x=x), show_saved=True).source)
    orange = {n: label(a) for n, a in nodes.items() if fill(a) == "orange"}
    assert sorted(orange.values()) == ["other (x)\n(3)", "self (x)\n(3)"]
    blue = [n for n, a in nodes.items() if fill(a) == "lightblue"]
    assert len(blue) == 1 and blue[0] not in orange
    saved_edges = [(t, h) for t, h, a in edges if "dir=none" in a]
    assert {h for _, h in saved_edges} == set(orange)
    render_ok(make_dot(y, dict(x=x), show_saved=True))


def test_freed_saved_tensors_after_backward():
    e, params = four_leaves()
    before = parse(make_dot(e, params, show_saved=True).source)[0]
    assert sum(fill(a) == "orange" for a in before.values()) == 5
    e.backward()
    after = parse(make_dot(e, params, show_saved=True).source)[0]
    freed = [a for a in after.values() if "(freed)" in label(a)]
    assert len(freed) == 5
    assert all("dashed" in a and fill(a) == "#eeeeee" for a in freed)
    assert not any(fill(a) == "orange" for a in after.values())


def test_retain_graph_keeps_saved_tensors():
    e, params = four_leaves()
    e.backward(retain_graph=True)
    nodes = parse(make_dot(e, params, show_saved=True).source)[0]
    assert sum(fill(a) == "orange" for a in nodes.values()) == 5


def test_saved_bytes_and_show_attrs():
    x = torch.ones(1000, requires_grad=True)  # float32: 4000 bytes
    y = (x.exp() * x).sum()
    nodes = parse(make_dot(y, show_attrs=True, saved_bytes=True).source)[0]
    labels = {label(a).split("\n")[0]: label(a) for a in nodes.values()}
    assert "saved 7.8 KiB" in labels["MulBackward0"]  # self (exp result) + other (x)
    assert "saved 3.9 KiB" in labels["ExpBackward0"]
    assert "saved 0 B" in labels["SumBackward0"]
    assert "self_sym_sizes" in labels["SumBackward0"]
    assert "[saved tensor]" in labels["MulBackward0"]
    y.backward()
    nodes = parse(make_dot(y, saved_bytes=True).source)[0]
    assert any("saved 0 B (freed)" in label(a) for a in nodes.values())


# ---- the value view and both halves -------------------------------------------------------

def test_value_view_records_and_ops():
    e, params = four_leaves()
    a = params["a"]
    dot = make_dot(e, {**params, "e": e}, view="value")
    src = dot.source
    nodes, edges = parse(src)
    ops = sorted(label(x) for x in nodes.values() if "shape=ellipse" in x)
    assert ops == sorted(["*", "*", "+", "sum", "log"])
    assert "<TD>a</TD><TD>data [1., 2.]</TD><TD>grad None</TD>" in src
    assert "<TD>e</TD><TD>data 33.2062</TD>" in src
    # the value saved by MulBackward0 (t = log(d)) is shown even though t was not named
    assert "data [1.9459, 2.0794]" in src
    render_ok(dot)
    e.backward()
    src = make_dot(e, params, view="value").source
    assert "<TD>a</TD><TD>data [1., 2.]</TD><TD>grad [3., 4.]</TD>" in src
    assert a.grad is not None


def test_both_view_links_tensors_and_functions():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    z = y.sum()
    dot = make_dot(z, dict(x=x, y=y, z=z), view="both", show_saved=True)
    src = dot.source
    assert "subgraph cluster_tensors" in src and "subgraph cluster_functions" in src
    assert src.count("label=grad_fn") == 2
    assert "label=variable" in src
    assert "label=<_saved_self>" in src
    render_ok(dot)


# ---- highlight -------------------------------------------------------------------------------

def test_highlight_nodes_tensors_and_edges():
    e, params = four_leaves()
    a, b = params["a"], params["b"]
    mul = e.grad_fn.next_functions[0][0].next_functions[0][0]
    spec = build_graph(e, params, highlight=[mul, b, (a, a._acc())])
    nodes, edges = parse(spec.dot.source)
    hl = {n for n, x in nodes.items() if "#d62728" in x}
    assert hl == {spec.names[("fn", id(mul))], spec.names[("t", id(b))]}
    hl_edges = [(t, h) for t, h, x in edges if "#d62728" in x]
    assert hl_edges == [(spec.names[("t", id(a))], spec.names[("fn", id(a._acc()))])]
    other = torch.tensor(1.0, requires_grad=True)
    with pytest.raises(ValueError, match="not part of the drawn graph"):
        make_dot(e, highlight=[other])
    with pytest.raises(TypeError, match="highlight"):
        make_dot(e, highlight=["MulBackward0"])


def test_highlight_in_value_view():
    e, params = four_leaves()
    u = params["a"] * params["b"]
    e2 = (u * 2).sum()
    spec = build_graph(e2, dict(u=u), view="value", highlight=[u])
    name = spec.names[("val", id(u.grad_fn), 0)]
    assert "#d62728" in parse(spec.dot.source)[0][name]


# ---- escaping: no name can break the DOT source -------------------------------------------------

NASTY = ['say "hi"', "<b>bold</b>", "{a|b}", "back\\slash\\", "new\nline", "tab\there",
         "]; n0 -> n1; [", "&amp; &", "ü∂ 漢字 🙂", "\x00\x1b\x7f", "\ud800", "\ufffe",
         "x" * 500, "-- //* */", "<<>>", "'", "\\N \\G \\l \\n"]


@pytest.mark.parametrize("name", NASTY)
def test_escaping_named_cases(name):
    x = torch.tensor([1.0], requires_grad=True)
    y = (x * 2).sum()
    for view in ("grad_fn", "value", "both"):
        dot = make_dot(y, {name: x, name + "!": y}, view=view, show_saved=True, show_attrs=True)
        render_ok(dot)
    nodes = parse(make_dot(y, {name: x}).source)[0]
    leaf = [a for a in nodes.values() if fill(a) == "lightblue"][0]
    first = label(leaf).split("\n")[0]
    assert len(first) <= 40 * 8  # cut at 40 characters (an escaped one is at most 8 long)
    if len(name) > 40:
        assert first.endswith("...")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.text(min_size=0, max_size=60), min_size=2, max_size=2))
def test_escaping_fuzz_renders(names):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    dot = make_dot(y, {names[0]: x, names[1] + " ": y}, show_saved=True, show_attrs=True)
    render_ok(dot)
    render_ok(make_dot(y, {names[0]: x}, view="value"))


def test_long_attribute_values_truncated():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x[torch.tensor([0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1])].sum()
    nodes = parse(make_dot(y, show_attrs=True, max_attr_chars=12).source)[0]
    text = "\n".join(label(a) for a in nodes.values())
    assert "indices       : [saved te..." in text  # torchviz's columns, cut at 12 chars
    assert "self_sym_sizes:       (2, 2)" in text


# ---- limits: huge graphs ----------------------------------------------------------------------

def _chain(n: int):
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0001
    return x, y


def test_max_nodes_raises_clear_error():
    _, y = _chain(600)
    with pytest.raises(GraphTooLargeError, match=r"more than max_nodes=500 nodes.*max_nodes=None"):
        make_dot(y)
    assert issubclass(GraphTooLargeError, ValueError)
    assert len(parse(make_dot(y, max_nodes=1000).source)[0]) == 600 + 3
    with pytest.raises(ValueError, match="max_nodes"):
        make_dot(y, max_nodes=0)


def test_ten_thousand_node_chain_builds_iteratively():
    _, y = _chain(10_000)
    nodes, edges = parse(make_dot(y, max_nodes=None).source)
    assert len(nodes) == 10_000 + 3 and len(edges) == 10_000 + 2


@pytest.mark.slow
def test_ten_thousand_node_chain_renders():
    _, y = _chain(10_000)
    svg = render_ok(make_dot(y, max_nodes=None))
    assert svg.count('class="node"') == 10_003


# ---- a missing `dot` program ------------------------------------------------------------------

def test_missing_dot_in_a_process_without_graphviz(tmp_path):
    script = textwrap.dedent("""
        import autograd_lab as torch
        from autograd_lab.viz import make_dot, GraphvizNotFoundError
        import graphviz
        x = torch.tensor([1.0], requires_grad=True)
        g = make_dot((x * 2).sum())
        assert "MulBackward0" in g.source  # building needs no Graphviz
        for draw in (lambda: g.pipe(format="svg"), lambda: g._repr_mimebundle_(),
                     lambda: g.render("out", format="png")):
            try:
                draw()
            except GraphvizNotFoundError as e:
                assert isinstance(e, graphviz.ExecutableNotFound)
                print(e)
                print("-----")
            else:
                raise SystemExit("no error")
    """)
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    msg = out.stdout.split("-----")[0]
    for hint in ("`dot` program was not found", "sudo apt-get install graphviz",
                 "brew install graphviz", "conda install -c conda-forge graphviz",
                 "choco install graphviz"):
        assert hint in msg
    assert out.stdout.count("-----") == 3


def test_missing_dot_detected_lazily(monkeypatch):
    x = torch.tensor([1.0], requires_grad=True)
    g = make_dot((x * 2).sum())
    monkeypatch.setattr(_graphviz.shutil, "which", lambda name: None)
    with pytest.raises(GraphvizNotFoundError, match="brew install graphviz"):
        g.pipe(format="svg")
    monkeypatch.undo()
    assert shutil.which("dot") is not None
    assert "<svg" in g._repr_mimebundle_()["image/svg+xml"]


def test_wide_graphs_fit_a_notebook_column():
    """The two-halves view of a small model is wide; drawn, it fits 816 px (8.5 in)."""
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    data = torch.tensor([4.0, 5.0, 6.0])
    m = w * data
    total = m.sum()
    for view in ("both", "grad_fn", "value"):
        svg = make_dot(total, params={"w": w, "data": data, "m": m, "total": total}, view=view,
                       show_saved=True).pipe(format="svg", encoding="utf-8")
        width_pt = float(re.search(r'<svg width="([\d.]+)pt"', svg).group(1))
        assert width_pt <= 612, (view, width_pt)


def test_huge_graph_scrolls_at_natural_size():
    """Too large to read at column width: full size, in a box with scrollbars (text/html)."""
    xs = [torch.tensor(float(i), requires_grad=True) for i in range(60)]
    wide = torch.stack([x * 2 for x in xs]).sum()
    bundle = make_dot(wide, max_nodes=None)._repr_mimebundle_()
    assert list(bundle) == ["text/html"]
    box = bundle["text/html"]
    assert box.startswith('<div class="agl-scroll" style="overflow:auto;max-width:100%;')
    width_pt = float(re.search(r'<svg width="([\d.]+)pt"', box).group(1))
    assert width_pt > 2 * 612 and 'transform="scale(1 1)' in box
    assert 'role="img"' in box and "Text version of the graph" in box
    small = make_dot((xs[0] * 3).sin())._repr_mimebundle_()
    assert list(small) == ["image/svg+xml", "text/html"]
