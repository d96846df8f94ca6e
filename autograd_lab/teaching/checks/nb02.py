"""Checks for notebook 02 · Dynamic graphs."""

from __future__ import annotations

from typing import Any, Callable

from ...factories import tensor
from ._common import PREDICTION, Feedback, missing, right, wrong
from ._payloads import (
    FIXED,
    Unanswered,
    Variant,
    answer,
    call,
    decode,
    early,
    encode,
    failed,
    guarded,
    passed,
    placeholder,
    run_quietly,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "02_dynamic_graphs"


def _name(fn: Any) -> str:
    return type(fn).__name__


def ex1_names(names: Any, q: Any) -> Feedback:
    """``names``: the chain of node names of ``q``, outermost first."""
    name = "chain(q)"
    hint = "one node per operation, outermost first: mean, then *, then exp, then the leaf"
    if missing(name, names):
        return Feedback(False)
    expected, fn = [], q.grad_fn
    while fn is not None:  # along each node's first edge
        expected.append(_name(fn))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    if not isinstance(names, (list, tuple)) or not all(isinstance(s, str) for s in names):
        return wrong(name, "expected a list of strings (node names).", hint)
    names = list(names)
    if names == expected:
        return right(name)
    if names == expected[::-1]:
        return wrong(name, "that is the order of creation; chain(q) starts at q.grad_fn, the "
                     "last operation.", hint)
    if len(names) != len(expected):
        more = "a node is missing" if len(names) < len(expected) else "a name is extra"
        return wrong(name, f"{more}: one node per operation, and the leaf's own node at the "
                     "end.", hint)
    bad = [s for s in names if s not in expected]
    if bad:
        return wrong(name, f"{bad[0]!r} is not a node of this graph (check the spelling: "
                     "operation + 'Backward' + a number).", hint)
    return wrong(name, "right names, wrong order.", hint)


def _graphs(variant: Variant) -> list[tuple[str, Callable[[], Any]]]:
    """(label, a function building the graph) for each graph the count is tried on."""
    def x() -> Any:
        return tensor([1.0, 2.0], requires_grad=True)

    if variant.fixed:
        w, data = tensor(0.5, requires_grad=True), tensor([3.0, -1.0])
        xs = x()
        return [("(x * x + x).sum()", lambda: (xs * xs + xs).sum()),
                ("tanh(w * data + x).sum()", lambda: (w * data + xs).tanh().sum()),
                ("(x.exp() * x.sin()).mean()", lambda: (xs.exp() * xs.sin()).mean()),
                ("x.sum()", lambda: xs.sum())]
    rng = variant.rng("nb02.count")
    out = []
    for k in range(4):
        depth = int(rng.integers(2, 7))
        picks = [int(p) for p in rng.integers(0, 4, depth)]
        consts = k % 2 == 0

        def build(picks: list[int] = picks, consts: bool = consts) -> Any:
            a, b = x(), tensor([0.5, -1.5], requires_grad=not consts)
            h = a
            for p in picks:  # shared uses of h and a: paths that meet again
                h = (h * a if p == 0 else h.sin() + h if p == 1 else (h * b).exp() if p == 2
                     else h * h + b)
            return h.sum()
        out.append((f"a random graph of {depth} steps", build))
    return out


def _collect_count(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "count_nodes", callable_=True)
    return {"outputs": [call(fn, build().grad_fn, set()) for _, build in _graphs(variant)]}


def _judge_count(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (label, build), got in zip(_graphs(variant), payload["outputs"]):
        seen, stack = set(), [build().grad_fn]
        while stack:  # the distinct nodes, counted by a walk of the check's own
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            stack.extend(nxt for nxt, _ in node.next_functions)
        expected = len(seen)
        if "raised" in got:
            return failed(f"on {label} it raised {got['raised']}")
        v = decode(got["value"])
        if v is Ellipsis:
            return "unanswered", "replace the ... with your code and run the cell"
        if v != expected:
            more = (" It counts a shared node more than once: pass the same seen set down."
                    if isinstance(v, int) and v > expected else
                    " It misses nodes: add what count_nodes returns for every next function."
                    if isinstance(v, int) else "")
            return failed(f"on {label} it returns {v!r}, but {expected} distinct nodes are "
                          f"reachable.{more}")
    return passed()


def ex2_count(count_nodes: Any) -> Feedback:
    """``count_nodes(fn, seen)`` counts the distinct nodes reachable from ``fn``."""
    return show("count_nodes", _judge_count(guarded(_collect_count)(
        {"count_nodes": count_nodes}), FIXED),
        "1 for fn, plus count_nodes(nxt, seen) for each (nxt, _) in fn.next_functions")


def ex3_branch(x_neg: Any, branch: Any, f: Callable[[Any], Any]) -> Feedback:
    """``x_neg`` (tracked, with a positive entry) takes ``f``'s exp branch; ``branch`` names it."""
    name = "the other branch"
    hint = ("f takes the exp branch when x.sum() <= 0, e.g. [-3., 1.]; then follow "
            "f(x_neg).grad_fn.next_functions[0][0]")
    if missing(name, x_neg) or missing(name, branch):
        return Feedback(False)
    if not hasattr(x_neg, "requires_grad"):
        return wrong(name, f"x_neg should be a tensor, got {type(x_neg).__name__}.", hint)
    if not x_neg.requires_grad:
        return wrong(name, "x_neg does not require grad, so f(x_neg) has no graph to read.", hint)
    if not (x_neg > 0).any().item():
        return wrong(name, "x_neg should hold at least one positive number (the exercise asks "
                     "for a mix).", hint)
    if x_neg.sum().item() > 0:
        return wrong(name, "x_neg.sum() is positive, so f takes the x * 2 branch.", hint)
    actual = f(x_neg).grad_fn.next_functions[0][0].name()
    if branch != actual:
        return wrong(name, f"branch is {branch!r}; read the name off the graph with .name().",
                     hint)
    return right(name)


_KINDS = ("leaf", "constant", "computed")
_FACTS = ("r.is_leaf", "b.is_leaf", "w saved by r's node", "r's second edge ends at b")


def _facts_cases(variant: Variant) -> list[tuple[str, str, list[float]]]:
    """(kind of w, kind of b, values) for each call of ``facts(w, b)``."""
    pairs = [(a, b) for a in _KINDS for b in _KINDS]
    if variant.fixed:
        return [(a, b, [2.0, -1.0]) for a, b in pairs]
    rng = variant.rng("nb02.facts")
    order = rng.permutation(len(pairs))
    n = int(rng.integers(1, 4))
    return [(*pairs[i], [float(v) for v in rng.integers(-5, 6, n)]) for i in order]


def _make(kind: str, values: list[float]) -> Any:
    if kind == "computed":
        return tensor(values, requires_grad=True) * 2
    return tensor(values, requires_grad=kind == "leaf")


def _collect_facts(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "facts", callable_=True)
    return {"outputs": [call(fn, _make(wk, v), _make(bk, v)) for wk, bk, v in
                        _facts_cases(variant)]}


_WHY = (
    "an operation on a tracked tensor records a node, so r is a leaf only when neither factor "
    "requires grad",
    "a tensor you made yourself is a leaf, tracked or not; one computed from a tracked tensor is "
    "not",
    "MulBackward0 keeps w only when b needs a gradient (d(w·b)/db = w); with no node there is "
    "nothing saved",
    "the second edge ends at b's AccumulateGrad only when b is a leaf that requires grad; a "
    "constant b gives (None, 0) and a computed b its own node",
)


def _judge_facts(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (wk, bk, values), got in zip(_facts_cases(variant), payload["outputs"]):
        w, b = _make(wk, values), _make(bk, values)
        r = w * b
        fn = r.grad_fn
        edge = fn.next_functions[1][0] if fn is not None else None
        actual = (r.is_leaf, b.is_leaf, fn is not None and fn._saved_self is w,
                  getattr(edge, "variable", None) is b)
        if "raised" in got:
            return failed(f"with w {wk} and b {bk} it raised {got['raised']}")
        v = decode(got["value"])
        if not (isinstance(v, tuple) and len(v) == 4 and all(isinstance(x, bool) for x in v)):
            return failed("facts(w, b) should return a tuple of four booleans.")
        for fact, why, g, a in zip(_FACTS, _WHY, v, actual):
            if g != a:
                return failed(f"with w a {wk} tensor and b a {bk} one, {fact} is {a}: {why}.")
    return passed()


def ex4_facts(facts: Any) -> Feedback:
    """``facts(w, b)`` gives, for r = w * b, the four facts of the exercise."""
    return show("facts(w, b)", _judge_facts(guarded(_collect_facts)({"facts": facts}), FIXED),
                "look only at w.requires_grad, b.requires_grad and b.is_leaf")


def _collect_branch(ns: dict, variant: Variant) -> dict:
    x_neg, branch = ns.get("x_neg", ...), ns.get("branch", ...)
    if placeholder(x_neg) and placeholder(branch):
        raise Unanswered("x_neg")
    return {"x_neg": encode(x_neg), "branch": encode(branch)}


def _judge_branch(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out

    def f(x: Any) -> Any:  # section 4's function
        return (x * 2).sum() if x.sum() > 0 else x.exp().sum()

    return run_quietly(ex3_branch, decode(payload["x_neg"]), decode(payload["branch"]), f)


def _chain_q() -> tuple:
    x = tensor([1.0, 2.0, 3.0], requires_grad=True)
    return ((x.exp() * 3).mean(),)


EXERCISES = {
    "ex1": value_spec(["names"], ex1_names, extra=_chain_q, title="chain(q)", graded=False,
                      formative_reason=PREDICTION),
    "ex2": spec(_collect_count, _judge_count, "count_nodes"),
    "ex3": spec(_collect_branch, _judge_branch, "the other branch"),
    "ex4": spec(_collect_facts, _judge_facts, "facts(w, b)"),
}
