"""Checks for notebook 02 · Dynamic graphs."""

from __future__ import annotations

from typing import Any, Callable

from ...factories import tensor
from ._common import Feedback, missing, right, wrong


def _name(fn: Any) -> str:
    return type(fn).__name__


def chain_names(t: Any) -> list[str]:
    """Node names from ``t.grad_fn`` down, along each node's first edge."""
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(_name(fn))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def ex1_names(names: Any, q: Any) -> Feedback:
    """``names``: the chain of node names of ``q``, outermost first."""
    name = "chain(q)"
    hint = "one node per operation, outermost first: mean, then *, then exp, then the leaf"
    if missing(name, names):
        return Feedback(False)
    expected = chain_names(q)
    if not isinstance(names, (list, tuple)) or not all(isinstance(s, str) for s in names):
        return wrong(name, "expected a list of strings (node names).", hint)
    names = list(names)
    if names == expected:
        return right(name)
    if names == expected[::-1]:
        return wrong(name, "that is the order of creation; chain(q) starts at q.grad_fn, the "
                     "last operation.", hint)
    if len(names) != len(expected):
        return wrong(name, f"expected {len(expected)} names, got {len(names)} "
                     "(don't forget the leaf's node).", hint)
    bad = [s for s in names if s not in expected]
    if bad:
        return wrong(name, f"{bad[0]!r} is not a node of this graph (check the spelling: "
                     "operation + 'Backward' + a number).", hint)
    return wrong(name, "right names, wrong order.", hint)


def _reference_count(fn: Any, seen: set) -> int:
    if fn is None or fn in seen:
        return 0
    seen.add(fn)
    return 1 + sum(_reference_count(nxt, seen) for nxt, _ in fn.next_functions)


def ex2_count(count_nodes: Any) -> Feedback:
    """``count_nodes(fn, seen)`` counts the distinct nodes reachable from ``fn``."""
    name = "count_nodes"
    hint = "1 for fn, plus count_nodes(nxt, seen) for each (nxt, _) in fn.next_functions"
    if missing(name, count_nodes):
        return Feedback(False)
    x = tensor([1.0, 2.0], requires_grad=True)
    w = tensor(0.5, requires_grad=True)
    data = tensor([3.0, -1.0])
    graphs = {
        "(x * x + x).sum()": (x * x + x).sum(),
        "tanh(w * data + x).sum()": (w * data + x).tanh().sum(),
        "(x.exp() * x.sin()).mean()": (x.exp() * x.sin()).mean(),
        "x.sum()": x.sum(),
    }
    for label, out in graphs.items():
        try:
            got = count_nodes(out.grad_fn, set())
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            return wrong(name, f"on {label} it raised {type(e).__name__}: {e}", hint)
        expected = _reference_count(out.grad_fn, set())
        if got is Ellipsis or got is None:
            missing(name, got)
            return Feedback(False)
        if got != expected:
            more = (" It counts a shared node more than once: pass the same seen set down."
                    if isinstance(got, int) and got > expected else "")
            return wrong(name, f"on {label} it returns {got!r}, but {expected} distinct nodes are "
                         f"reachable.{more}", hint)
    return right(name)


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


def ex4_facts(facts: Any, w: Any, b: Any) -> Feedback:
    """``facts`` for r = w * b: (r.is_leaf, b.is_leaf, w saved, edge 1 ends at b)."""
    name = "(r.is_leaf, b.is_leaf, saved w, edge 1 ends at b)"
    hint = ("an operation made r, you made b; each factor's gradient needs the other factor, "
            "so both are saved; edges follow the order of the inputs (w, b)")
    if missing(name, facts):
        return Feedback(False)
    if not (isinstance(facts, tuple) and len(facts) == 4
            and all(isinstance(v, bool) for v in facts)):
        return wrong(name, "expected a tuple of four booleans.", hint)
    r = w * b
    actual = (r.is_leaf, b.is_leaf, r.grad_fn._saved_self is w,
              r.grad_fn.next_functions[1][0].variable is b)
    n_wrong = sum(g != a for g, a in zip(facts, actual))
    if n_wrong:
        return wrong(name, f"{n_wrong} of the four facts {'is' if n_wrong == 1 else 'are'} wrong.",
                     hint)
    return right(name)
