"""The checks of notebook 04b (backprop by hand, then the loop over autograd's nodes) and the
capstone's stand-ins (``nb16.check_engine``): right answers pass on fresh variants, typical
wrong answers and shortcuts (autograd's own backward, a breadth-first order, overwriting
instead of adding) are rejected, and a stuck student's capstone runs on reference pieces."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb04b, nb16

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts" / "course"))
from make_student_notebooks import student_notebook  # noqa: E402

# ---- exercise 1: the gradients by hand -----------------------------------------------------

def _by_hand(a, b, c, f):
    d = a * b + c
    return f * b, f * a, f, d


def _by_autograd(a, b, c, f):
    ts = [torch.tensor(v, requires_grad=True) for v in (a, b, c, f)]
    ((ts[0] * ts[1] + ts[2]) * ts[3]).backward()
    return tuple(t.grad.item() for t in ts)


def test_by_hand_passes(capsys):
    right(capsys, nb04b.check_by_hand(_by_hand))
    passes(nb04b, "ex1", {"grads_by_hand": _by_hand})


def test_by_hand_rejects_backward_and_wrong_rules(capsys):
    wrong(capsys, nb04b.check_by_hand(_by_autograd), "backward")
    fails(nb04b, "ex1", {"grads_by_hand": _by_autograd}, "backward")
    swapped = lambda a, b, c, f: (f * a, f * b, f, a * b + c)  # noqa: E731
    wrong(capsys, nb04b.check_by_hand(swapped), "dL/da", "f · 1 · b")
    fails(nb04b, "ex1", {"grads_by_hand": swapped}, "dL/da")
    no_f = lambda a, b, c, f: (b, a, 1.0, a * b + c)  # noqa: E731 - forgot dL/dd = f
    fails(nb04b, "ex1", {"grads_by_hand": no_f}, "dL/da")
    fails(nb04b, "ex1", {"grads_by_hand": lambda a, b, c, f: (6.0, -4.0, -2.0, 4.0)},
          fixed=False)  # the notebook's numbers, hard-coded


def test_by_hand_stub_is_unanswered(capsys):
    def stub(a, b, c, f):
        raise NotImplementedError("write grads_by_hand")

    wrong(capsys, nb04b.check_by_hand(stub), "waiting")
    fails(nb04b, "ex1", {"grads_by_hand": stub})
    fails(nb04b, "ex1", {"grads_by_hand": ...})


# ---- exercise 2: an order of the nodes -----------------------------------------------------

def _order_nodes(root):
    order, seen = [], set()

    def visit(node):
        if node is None or node in seen:
            return
        seen.add(node)
        for nxt, _ in node.next_functions:
            visit(nxt)
        order.append(node)

    visit(root)
    return order[::-1]


def _breadth_first(root):
    order, seen, queue = [], {root}, [root]
    while queue:
        node = queue.pop(0)
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return order


def test_order_nodes_passes(capsys):
    right(capsys, nb04b.check_order_nodes(_order_nodes))
    passes(nb04b, "ex2", {"order_nodes": _order_nodes})


def test_order_nodes_rejects_breadth_first_duplicates_and_missing(capsys):
    wrong(capsys, nb04b.check_order_nodes(_breadth_first), "before", "breadth-first")
    fails(nb04b, "ex2", {"order_nodes": _breadth_first}, "breadth-first")

    def every_path(root):  # no set of seen nodes: a node reached twice is listed twice
        order = []

        def visit(node):
            if node is None:
                return
            for nxt, _ in node.next_functions:
                visit(nxt)
            order.append(node)
        visit(root)
        return order[::-1]

    fails(nb04b, "ex2", {"order_nodes": every_path}, "twice")
    no_leaves = lambda root: [n for n in _order_nodes(root)  # noqa: E731
                              if n.name() != "torch::autograd::AccumulateGrad"]
    fails(nb04b, "ex2", {"order_nodes": no_leaves}, "leaves out", "AccumulateGrad")
    fails(nb04b, "ex2", {"order_nodes": lambda root: _order_nodes(root)[::-1]}, "root")


def test_order_nodes_rejects_a_backward_pass():
    def from_the_engine(root):
        ran = []

        class Names(torch.autograd.graph.Listener):
            def on_node(self, node, grad_outputs):
                ran.append(node)

        leaf = next(n for n in _order_nodes(root) if n.name().endswith("AccumulateGrad"))
        x = leaf.variable
        with torch.autograd.graph.listen(Names()):
            torch.autograd.grad((x * 1.0).sum(), x)  # any backward pass at all
        return _order_nodes(root)

    fails(nb04b, "ex2", {"order_nodes": from_the_engine}, "backward pass")


# ---- exercise 3: the loop --------------------------------------------------------------------

def _backprop(loss):
    grads = {loss.grad_fn: torch.ones_like(loss)}
    with torch.no_grad():
        for node in _order_nodes(loss.grad_fn):
            out = node(grads.pop(node))
            out = out if isinstance(out, tuple) else (out,)
            for (nxt, _), g in zip(node.next_functions, out):
                if nxt is not None and g is not None:
                    grads[nxt] = grads[nxt] + g if nxt in grads else g


def test_backprop_passes(capsys):
    right(capsys, nb04b.check_backprop(_backprop))
    passes(nb04b, "ex3", {"backprop": _backprop, "order_nodes": _order_nodes})


def test_backprop_rejects_autograd_overwriting_and_recording(capsys):
    wrong(capsys, nb04b.check_backprop(lambda loss: loss.backward()), "autograd's backward")
    fails(nb04b, "ex3", {"backprop": lambda loss: loss.backward()}, "autograd's backward")

    def overwrite(loss):  # the last path wins: no sum over several users
        grads = {loss.grad_fn: torch.ones_like(loss)}
        with torch.no_grad():
            for node in _order_nodes(loss.grad_fn):
                out = node(grads.pop(node))
                out = out if isinstance(out, tuple) else (out,)
                for (nxt, _), g in zip(node.next_functions, out):
                    if nxt is not None and g is not None:
                        grads[nxt] = g

    wrong(capsys, nb04b.check_backprop(overwrite), "sum")
    fails(nb04b, "ex3", {"backprop": overwrite}, "sum")

    def recording(loss):  # grad mode on: the nodes' results record a graph into .grad
        grads = {loss.grad_fn: torch.ones_like(loss)}
        for node in _order_nodes(loss.grad_fn):
            out = node(grads.pop(node))
            out = out if isinstance(out, tuple) else (out,)
            for (nxt, _), g in zip(node.next_functions, out):
                if nxt is not None and g is not None:
                    grads[nxt] = grads[nxt] + g if nxt in grads else g

    fails(nb04b, "ex3", {"backprop": recording}, "no_grad")

    def skip_leaves(loss):  # stops before the AccumulateGrad nodes: .grad stays None
        grads = {loss.grad_fn: torch.ones_like(loss)}
        with torch.no_grad():
            for node in _order_nodes(loss.grad_fn):
                if node.name().endswith("AccumulateGrad"):
                    continue
                out = node(grads.pop(node))
                out = out if isinstance(out, tuple) else (out,)
                for (nxt, _), g in zip(node.next_functions, out):
                    if nxt is not None and g is not None:
                        grads[nxt] = grads[nxt] + g if nxt in grads else g

    fails(nb04b, "ex3", {"backprop": skip_leaves}, "AccumulateGrad")


def test_backprop_stub_is_unanswered():
    def stub(loss):
        raise NotImplementedError("write backprop")

    fails(nb04b, "ex3", {"backprop": stub})


# ---- the capstone's stand-ins ----------------------------------------------------------------

CAPSTONE = ROOT / "notebooks" / "16_capstone_build_an_engine.ipynb"
OPS = ("Add", "Mul", "Neg", "Pow", "Exp", "Log", "Tanh", "ReLU")


def _capstone(student: bool) -> dict:
    """The notebook's engine cells and its exercise cells of §2-§4, as a kernel has them."""
    nb = json.loads(CAPSTONE.read_text(encoding="utf-8"))
    if student:
        nb = student_notebook(nb)
    ns: dict = {"__name__": "capstone"}
    for cell in nb["cells"]:
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "code" and "engine" in cell["metadata"].get("tags", []):
            exec(compile(src, "<capstone cell>", "exec"), ns)  # noqa: S102 - the notebook's code
    return ns


def _engine_of(ns: dict, capsys) -> tuple:
    pieces = nb16.check_engine(ns["Op"], ns["Value"], tuple(ns[n] for n in OPS),
                               ns["topological_order"], ns["chain_rule"])
    return pieces, capsys.readouterr().out


def test_check_engine_keeps_pieces_that_pass(capsys):
    ns = _capstone(student=False)
    (ops, topo, chain), out = _engine_of(ns, capsys)
    assert ops == tuple(ns[n] for n in OPS) and topo is ns["topological_order"]
    assert chain is ns["chain_rule"] and "all yours" in out and "reference" not in out


def test_check_engine_stands_in_for_the_stubs_and_the_engine_then_works(capsys):
    ns = _capstone(student=True)
    (ops, topo, chain), out = _engine_of(ns, capsys)
    assert "using the reference Add.backward" in out and "topological_order, chain_rule" in out
    ns.update(dict(zip(OPS, ops)), topological_order=topo, chain_rule=chain)
    a, b = ns["Value"](-4.0), ns["Value"](2.0)
    g = ((a * b + b ** 3).tanh() + (a * a).log() + (b - a).relu() * (-a).exp()) / 2.0
    g.backward()
    at = torch.tensor(-4.0, dtype=torch.float64, requires_grad=True)
    bt = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    gt = ((at * bt + bt ** 3).tanh() + (at * at).log() + (bt - at).relu() * (-at).exp()) / 2.0
    gt.backward()
    assert abs(a.grad - at.grad.item()) < 1e-12 and abs(b.grad - bt.grad.item()) < 1e-12
    assert abs(g.data - gt.item()) < 1e-12


def test_check_engine_stands_in_only_for_the_broken_piece(capsys):
    ns = _capstone(student=False)
    solved = ns["Mul"]

    class Mul(ns["Op"]):  # swapped factors
        torch_name = "MulBackward0"

        def forward(self, a, b):
            return a * b

        def backward(self, grad, out, a, b):
            return grad * a, grad * b

    ns["Mul"] = Mul
    (ops, topo, chain), out = _engine_of(ns, capsys)
    assert "using the reference Mul.backward until yours passes (its check above" in out
    assert ops[1] is not Mul and ops[1] is not solved and ops[0] is ns["Add"]
    assert topo is ns["topological_order"] and chain is ns["chain_rule"]
