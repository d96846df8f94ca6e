"""The capstone's checks (notebook 16): they pass the reference engine, report the student
copy's stubs as "not implemented yet", and name the broken piece of a deliberately broken one.

The engine under test is the notebook's own code: the cells tagged ``engine`` (and the
exercise cells), taken from the reference notebook or from its generated student copy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from check_support import fails, passes, through_registry

from autograd_lab.teaching.checks import nb16

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "16_capstone_build_an_engine.ipynb"
sys.path.insert(0, str(ROOT / "scripts" / "course"))
from make_student_notebooks import strip_solution, student_notebook  # noqa: E402

PIECES = ["Add.backward", "Mul.backward", "Neg.backward", "Pow.backward", "Exp.backward",
          "Log.backward", "Tanh.backward", "ReLU.backward", "topological_order", "chain_rule"]


def _cells(student: bool = False) -> list[dict]:
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    if student:
        nb = student_notebook(nb)
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def _source(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def _engine_sources(student: bool = False) -> list[str]:
    return [_source(c) for c in _cells(student) if "engine" in c["metadata"].get("tags", [])]


def _exercise(name: str, student: bool = False) -> str:
    """The code cell that defines ``name`` (an exercise cell)."""
    return next(_source(c) for c in _cells(student) if f"def {name}" in _source(c)
                or f"class {name}" in _source(c))


def _engine(sources: list[str]) -> dict:
    ns: dict = {"__name__": "capstone"}
    for src in sources:
        exec(compile(src, "<capstone cell>", "exec"), ns)  # noqa: S102 - the notebook's own code
    return ns


def _run_all_checks(ns: dict) -> list[bool]:
    ops = [ns[n] for n in ("Add", "Mul", "Neg", "Pow", "Exp", "Log", "Tanh", "ReLU")]
    return [bool(nb16.check_ops(*ops)),
            bool(nb16.check_topological_order(ns["topological_order"], ns["Value"])),
            bool(nb16.check_chain_rule(ns["chain_rule"], ns["Value"]))]


def _broken(old: str, new: str) -> dict:
    """The reference engine with one piece broken: ``old`` replaced by ``new`` (exactly once)."""
    sources = _engine_sources()
    hits = [i for i, s in enumerate(sources) if old in s]
    assert len(hits) == 1 and sources[hits[0]].count(old) == 1, f"not found once: {old!r}"
    sources[hits[0]] = sources[hits[0]].replace(old, new)
    return _engine(sources)


# ---- the reference solution ------------------------------------------------------------------

def test_reference_engine_passes_every_check(capsys):
    ns = _engine(_engine_sources())
    assert _run_all_checks(ns) == [True, True, True]
    out = capsys.readouterr().out
    for piece in PIECES:
        assert f"✓ {piece}: correct" in out
    assert "✗" not in out and "… " not in out


def _small(a, b):
    """The expression of the notebook's section on the order the nodes run in."""
    u = a * b
    return (u + a).exp() * u.tanh() + (-b)


def test_reference_exercises_pass(capsys):
    import autograd_lab as torch

    ns = _engine(_engine_sources())
    ns.update(torch=torch, nb16=nb16, small=_small)
    for name in ("Sigmoid", "engine_order"):
        exec(compile(_exercise(name), "<exercise>", "exec"), ns)  # noqa: S102
    assert nb16.check_ops(ns["Sigmoid"])
    assert nb16.check_engine_order(ns["engine_order"], _small, [0.5, -1.0], ns["Value"])
    assert nb16.check_engine_order(ns["engine_order"], ns["layered"], [-4.0, 2.0], ns["Value"])
    out = capsys.readouterr().out
    assert out.count("✓ engine_order: correct") == 2 and "✓ Sigmoid.backward: correct" in out


def test_reference_engine_matches_autograd_lab():
    import autograd_lab as torch

    ns = _engine(_engine_sources())
    value = ns["Value"]
    a, b = value(0.7), value(-1.2)
    g = ((a * b).tanh() + (a - b).relu() / b + (a * a).log() + (-b).exp() ** 2)
    g.backward()
    at = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    bt = torch.tensor(-1.2, dtype=torch.float64, requires_grad=True)
    gt = (at * bt).tanh() + (at - bt).relu() / bt + (at * at).log() + (-bt).exp() ** 2
    gt.backward()
    assert g.data == pytest.approx(gt.item(), rel=1e-12)
    assert a.grad == pytest.approx(at.grad.item(), rel=1e-12)
    assert b.grad == pytest.approx(bt.grad.item(), rel=1e-12)


# ---- the student copy ------------------------------------------------------------------------

def test_student_copy_has_stubs_that_say_what_to_write():
    sources = _engine_sources(student=True)
    text = "\n".join(sources)
    assert "### BEGIN SOLUTION" not in text and "return grad * b, grad * a" not in text
    for what in ("write Add.backward", "write Mul.backward", "write topological_order",
                 "write the chain-rule loop"):
        assert f'raise NotImplementedError("{what}' in text


def test_student_stubs_report_not_implemented(capsys):
    ns = _engine(_engine_sources(student=True))
    assert _run_all_checks(ns) == [False, False, False]
    out = capsys.readouterr().out
    for piece in PIECES:
        assert f"… {piece}: waiting for your answer: not implemented yet" in out, piece
    assert "… Mul.backward: waiting for your answer: not implemented yet: write Mul.backward -- return (gradient for a," in out
    assert "✗" not in out and "✓" not in out and "Traceback" not in out


def test_student_check_cells_run_without_raising(capsys):
    """Run All in the student copy: every check cell up to §5 and the exercises answer …."""
    import autograd_lab as torch
    from autograd_lab.teaching.exercises import check_close

    ns: dict = {"__name__": "capstone", "torch": torch, "nb16": nb16, "check_close": check_close}
    for cell in _cells(student=True):
        src = _source(cell)
        tags = cell["metadata"].get("tags", [])
        if "engine" in tags or "check" in tags or "class Sigmoid" in src or \
                "def engine_order" in src or "grad_after_two =" in src:
            ns["small"] = _small
            exec(compile(src, "<student cell>", "exec"), ns)  # noqa: S102
    out = capsys.readouterr().out
    assert "… Sigmoid.backward: waiting for your answer: not implemented yet" in out
    assert out.count("… engine_order: waiting for your answer: not implemented yet") == 2
    assert "✗" not in out and "✓" not in out


def test_strip_solution_stub_from_marker_message():
    src = ('def backward(self, grad):\n'
           '    ### BEGIN SOLUTION: write Mul.backward -- say "why"\n'
           '    for x in y:\n'
           '        z = 1\n'
           '    return grad\n'
           '    ### END SOLUTION\n'
           'x = 1')
    assert strip_solution(src) == (
        'def backward(self, grad):\n'
        '    # your code here\n'
        '    raise NotImplementedError("write Mul.backward -- say \\"why\\"")\n'
        'x = 1')


# ---- broken versions: each check names the broken piece and the mistake ----------------------

OP_BUGS = [
    ("return grad * b, grad * a  #", "return grad * a, grad * b  #",
     "Mul.backward: not yet: the gradient for a should be grad * b, since d(a*b)/da = b; "
     "got grad * a."),
    ("return grad * b, grad * a  #", "return b, a  #",
     "Mul.backward: not yet: the gradient for a should be grad * b, since d(a*b)/da = b; got b."),
    ("return grad, grad  #", "return (grad,)  #", "Add.backward: not yet: it returned 1 gradient for 2 inputs"),
    ("return (-grad,)", "return -grad", "Neg.backward: not yet: it returned a float, not a tuple"),
    ("return (grad * self.k * a ** (self.k - 1),)", "return (grad * a ** (self.k - 1),)",
     "Pow.backward: not yet: the gradient for a (k = 3) should be grad * k * a ** (k - 1)"),
    ("return (grad * (1 - out**2),)", "return (grad * (1 - a**2),)",
     "got grad * (1 - a ** 2)."),
    ("return (grad * (a > 0),)", "return (grad,)", "ReLU.backward: not yet:"),
    ("return (grad / a,)", "return (grad * math.log(a),)", "got grad * math.log(a)."),
    ("return (grad * out,)  #", "pass  #", "Exp.backward: not yet: it returned None"),
]


@pytest.mark.parametrize("old,new,message", OP_BUGS)
def test_broken_op_is_named(old, new, message, capsys):
    ns = _broken(old, new)
    assert _run_all_checks(ns) == [False, True, True]
    out = capsys.readouterr().out
    assert message in out
    assert out.count("✗") == 1, out


RECURSIVE = '''    order, seen = [], set()

    def visit(v):
        if v not in seen:
            seen.add(v)
            for p in v.parents:
                visit(p)
            order.append(v)
    visit(root)
    return order
'''
BREADTH_FIRST = '''    order, seen, queue = [], {root}, [root]
    while queue:
        v = queue.pop(0)
        order.append(v)
        for p in v.parents:
            if p not in seen:
                seen.add(p)
                queue.append(p)
    return order[::-1]
'''
SEEN_WHEN_PUSHED = '''    order, seen = [], {root}
    stack = [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
            continue
        stack.append((v, True))
        for p in v.parents:
            if p not in seen:
                seen.add(p)
                stack.append((p, False))
    return order
'''
NO_SEEN = '''    order, stack = [], [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
        else:
            stack.append((v, True))
            stack.extend((p, False) for p in v.parents)
    return order
'''
OUTPUT_FIRST = '''    order, seen, stack = [], set(), [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
        elif v not in seen:
            seen.add(v)
            stack.append((v, True))
            stack.extend((p, False) for p in v.parents if p not in seen)
    return order[::-1]
'''
DEDUP_AT_THE_END = NO_SEEN.replace("            order.append(v)",
                                   "            if v not in order:\n"
                                   "                order.append(v)")


def _replace_sort(body: str) -> dict:
    sources = _engine_sources()
    i = next(i for i, s in enumerate(sources) if "def topological_order" in s)
    head, rest = sources[i].split("    ### BEGIN SOLUTION", 1)
    tail = rest.split("### END SOLUTION", 1)[1]
    sources[i] = head + body + tail.partition("\n")[2]
    return _engine(sources)


SORT_BUGS = [
    (RECURSIVE, "RecursionError on a chain of 5,000 Values"),
    (BREADTH_FIRST, "it puts l2 before l1, but l2 was computed from l1"),
    (SEEN_WHEN_PUSHED, "it puts l1 before s, but l1 was computed from s"),
    (NO_SEEN, "it lists "),
    (DEDUP_AT_THE_END, "it visits shared Values again and again"),
    (OUTPUT_FIRST, "the order is reversed: the output comes first"),
    ("    return [root]\n", "it leaves out"),
]


@pytest.mark.parametrize("body,message", SORT_BUGS)
def test_broken_sort_is_named(body, message, capsys):
    ns = _replace_sort(body)
    checks = _run_all_checks(ns)
    assert checks == [True, False, True]  # the chain-rule check uses an order of its own
    out = capsys.readouterr().out
    assert f"✗ topological_order: not yet: {message}" in out, out


LOOP_BUGS = [
    ("for v in reversed(order):", "for v in order:",
     "op.backward before", "for v in reversed(order)"),
    ("p.grad += g ", "p.grad = g ", "its grad should be their sum", "p.grad += g"),
    ("""        if v.op is None:       # a leaf: nothing to pass on
            continue
""", "", "it called backward on a leaf, whose op is None", "v.op is None"),
    ("p.grad += g ", "p.grad += g * v.grad ", "gradient should be", "already include"),
    ("v.op.backward(v.grad, v.data,", "v.op.backward(v.data, v.grad,",
     "op.backward(grad=", "v.op.backward(v.grad, v.data"),
    ("        if v.op is not None:\n            v.grad = 0.0",
     "        if True:\n            v.grad = 0.0", "leaves accumulate", "add into it"),
]


@pytest.mark.parametrize("old,new,message,hint", LOOP_BUGS)
def test_broken_chain_rule_is_named(old, new, message, hint, capsys):
    ns = _broken(old, new)
    assert _run_all_checks(ns) == [True, True, False]
    out = capsys.readouterr().out
    assert "✗ chain_rule: not yet:" in out and message in out and hint in out, out


def test_wrong_schedule_is_rejected(capsys):
    ns = _engine(_engine_sources())
    order = ns["topological_order"]

    def depth_first(root):
        return [v for v in reversed(order(root)) if v.op is not None]

    assert not nb16.check_engine_order(depth_first, _small, [0.5, -1.0], ns["Value"])
    assert "✗ engine_order: not yet: the engine ran ['AddBackward0', 'NegBackward0'" in \
        capsys.readouterr().out


# ---- through the registry: fresh graphs, fresh points, and the shortcuts -----------------------

def _full_ns() -> dict:
    import autograd_lab as torch

    ns = _engine(_engine_sources())
    ns.update(torch=torch, nb16=nb16, small=_small)
    for name in ("Sigmoid", "engine_order"):
        exec(compile(_exercise(name), "<exercise>", "exec"), ns)  # noqa: S102
    return ns


def test_reference_passes_through_the_registry():
    ns = _full_ns()
    for ex in ("ops_basic", "ops_unary", "topo", "chain_rule", "ex1", "ex2"):
        passes(nb16, ex, ns)
    passes(nb16, "ex3", {"grad_after_two": 14.0})
    fails(nb16, "ex3", {"grad_after_two": 7.0})


def test_relu_is_tried_at_zero():
    """The shortcut ``a >= 0``: the two rules differ only at x = 0, which every variant tries."""
    ns = _broken("return (grad * (a > 0),)", "return (grad * (a >= 0),)")
    fails(nb16, "ops_unary", ns, "ReLU.backward", "a <= 0", "got grad * (a >= 0)")


def test_topological_order_shortcut_fails():
    """The shortcut ``topological_order = nb16._order_of``: the module has no such function,
    so the notebook's cell raises and the name stays the stub (or is missing)."""
    ns = _full_ns()
    with pytest.raises(AttributeError):
        ns["topological_order"] = nb16._order_of
    ns["topological_order"] = getattr(nb16, "_order_of", None)
    fails(nb16, "topo", ns)

    def breadth_first(root):
        order, seen, queue = [], {root}, [root]
        while queue:
            v = queue.pop(0)
            order.append(v)
            for p in v.parents:
                if p not in seen:
                    seen.add(p)
                    queue.append(p)
        return order[::-1]

    fails(nb16, "topo", {**ns, "topological_order": breadth_first}, "before")


def test_chain_rule_shortcut_fails():
    """The shortcut: a ``chain_rule`` wrapping ``nb16._reference``."""
    ns = _full_ns()

    def wrapping(order):
        total, _ = nb16._reference(order)
        for v in order:
            v.grad += total[id(v)]

    fails(nb16, "chain_rule", {**ns, "chain_rule": wrapping}, "AttributeError")

    def overwrite(order):
        for v in order:
            if v.op is not None:
                v.grad = 0.0
        order[-1].grad = 1.0
        for v in reversed(order):
            if v.op is not None:
                for p, g in zip(v.parents, v.op.backward(v.grad, v.data,
                                                         *(p.data for p in v.parents))):
                    p.grad = g

    fails(nb16, "chain_rule", {**ns, "chain_rule": overwrite}, "do not overwrite")


def test_engine_order_on_fresh_expressions():
    ns = _full_ns()

    def depth_first(root):
        return [v for v in reversed(ns["topological_order"](root)) if v.op is not None]

    got = through_registry(nb16, "ex2", {**ns, "engine_order": depth_first})
    assert got[0][0] == "failed" and "the engine ran" in got[0][1], got
    assert any(s == "failed" for s, _ in got[1:]), got
    fails(nb16, "ex2", {**ns, "engine_order": lambda root: [root]})
