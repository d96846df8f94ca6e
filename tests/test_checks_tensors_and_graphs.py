"""Exercise checks of notebooks 01-04 (tensors, graphs, the chain rule, multiple paths).

Each check passes the reference answer and rejects plausible wrong ones (nothing, zero, the
exercise's own input, a wrong sign ...) and the shortcuts its exercise forbids, in the notebook
(the fixed example) and through the registry's collect and judge on fresh inputs.
"""

from __future__ import annotations

import math

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb01, nb02, nb03, nb04

# --- 01 ------------------------------------------------------------------------------------------

def test_nb01_nudge(capsys):
    right(capsys, nb01.ex1_nudge(lambda f, x, h: (f(x + h) - f(x)) / h))
    wrong(capsys, nb01.ex1_nudge(None), "waiting for your answer")
    wrong(capsys, nb01.ex1_nudge(lambda f, x, h: (f(x) - f(x + h)) / h), "sign")
    wrong(capsys, nb01.ex1_nudge(lambda f, x, h: f(x + h) - f(x)), "divide")
    wrong(capsys, nb01.ex1_nudge(lambda f, x, h: (f(x + h) - f(x - h)) / (2 * h)), "central")
    wrong(capsys, nb01.ex1_nudge(lambda f, x, h: 0.0))
    wrong(capsys, nb01.ex1_nudge(14.0), "function")


def test_nb01_best_step(capsys):
    def f(x):
        return 3 * x ** 2 - 4 * x + 5

    best = min(nb01.STEPS, key=lambda h: abs((f(3 + h) - f(3.0)) / h - 14))
    right(capsys, nb01.ex1_best_step(best))
    wrong(capsys, nb01.ex1_best_step(1e-12), "smallest")
    wrong(capsys, nb01.ex1_best_step(0.1))
    wrong(capsys, nb01.ex1_best_step(0))
    wrong(capsys, nb01.ex1_best_step(None), "waiting for your answer")


def test_nb01_rule(capsys):
    right(capsys, nb01.ex2_rule(lambda *i: any(getattr(t, "requires_grad", False) for t in i)))
    wrong(capsys, nb01.ex2_rule(lambda *i: True), "engine says False")
    wrong(capsys, nb01.ex2_rule(lambda *i: False), "engine says True")
    wrong(capsys, nb01.ex2_rule(lambda *i: all(getattr(t, "requires_grad", False) for t in i)))
    wrong(capsys, nb01.ex2_rule(lambda *i: any(t.requires_grad for t in i)), "AttributeError")
    wrong(capsys, nb01.ex2_rule(lambda *i: i[0].requires_grad))
    wrong(capsys, nb01.ex2_rule((False, True, False)), "function")


def test_nb01_trainable(capsys):
    labels = torch.tensor([4, 0, 7])
    right(capsys, nb01.ex3_trainable(labels.float().requires_grad_(), labels))
    wrong(capsys, nb01.ex3_trainable(labels, labels), "labels itself")
    wrong(capsys, nb01.ex3_trainable(labels.float(), labels), "does not require grad")
    wrong(capsys, nb01.ex3_trainable(torch.zeros(3, requires_grad=True), labels), "values")
    wrong(capsys, nb01.ex3_trainable(torch.tensor([4.0, 0, 7], requires_grad=True) * 1, labels),
          "not a leaf")
    wrong(capsys, nb01.ex3_trainable(None, labels), "waiting for your answer")


def test_nb01_error(capsys):
    right(capsys, nb01.ex4_error(lambda: torch.arange(3).requires_grad_()))
    wrong(capsys, nb01.ex4_error(lambda: torch.tensor([1, 2], requires_grad=True)), "lacks")
    wrong(capsys, nb01.ex4_error(lambda: torch.ones(2).requires_grad_()), "nothing was raised")
    wrong(capsys, nb01.ex4_error(0), "function")
    wrong(capsys, nb01.ex4_error(None), "waiting for your answer")


# --- 02 ------------------------------------------------------------------------------------------

def _x():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_nb02_names(capsys):
    q = (_x().exp() * 3).mean()
    right(capsys, nb02.ex1_names(["MeanBackward0", "MulBackward0", "ExpBackward0",
                                  "AccumulateGrad"], q))
    wrong(capsys, nb02.ex1_names(["AccumulateGrad", "ExpBackward0", "MulBackward0",
                                  "MeanBackward0"], q), "order of creation")
    wrong(capsys, nb02.ex1_names(["MeanBackward0", "MulBackward0", "ExpBackward0"], q), "leaf")
    wrong(capsys, nb02.ex1_names(["MeanBackward", "MulBackward", "ExpBackward",
                                  "AccumulateGrad"], q), "spelling")
    wrong(capsys, nb02.ex1_names(None, q), "waiting for your answer")
    wrong(capsys, nb02.ex1_names("MeanBackward0", q), "list")


def test_nb02_count(capsys):
    def good(fn, seen):
        if fn is None or fn in seen:
            return 0
        seen.add(fn)
        return 1 + sum(good(nxt, seen) for nxt, _ in fn.next_functions)

    def fresh_set(fn, seen):
        if fn is None or fn in seen:
            return 0
        seen.add(fn)
        return 1 + sum(fresh_set(nxt, set()) for nxt, _ in fn.next_functions)

    def only_fn(fn, seen):
        if fn is None or fn in seen:
            return 0
        seen.add(fn)
        return 1

    right(capsys, good and nb02.ex2_count(good))
    wrong(capsys, nb02.ex2_count(fresh_set), "more than once")
    wrong(capsys, nb02.ex2_count(only_fn))
    wrong(capsys, nb02.ex2_count(lambda fn, seen: len(fn.next_functions)))
    wrong(capsys, nb02.ex2_count(lambda fn, seen: ...), "waiting for your answer")


def f02(x):
    y = x * 2 if x.sum() > 0 else x.exp()
    return y.sum()


def test_nb02_branch(capsys):
    right(capsys, nb02.ex3_branch(torch.tensor([-3.0, 1.0], requires_grad=True), "ExpBackward0",
                                  f02))
    wrong(capsys, nb02.ex3_branch(torch.tensor([-3.0, 1.0]), "ExpBackward0", f02),
          "does not require grad")
    wrong(capsys, nb02.ex3_branch(torch.tensor([-1.0, -2.0], requires_grad=True),
                                  "ExpBackward0", f02), "positive")
    wrong(capsys, nb02.ex3_branch(torch.tensor([3.0, -1.0], requires_grad=True), "MulBackward0",
                                  f02), "x * 2 branch")
    wrong(capsys, nb02.ex3_branch(torch.tensor([-3.0, 1.0], requires_grad=True), "exp", f02),
          ".name()")
    wrong(capsys, nb02.ex3_branch(None, None, f02), "waiting for your answer")


def _facts(w, b):
    tracked = w.requires_grad or b.requires_grad
    return (not tracked, b.is_leaf, b.requires_grad, b.is_leaf and b.requires_grad)


def test_nb02_facts(capsys):
    right(capsys, nb02.ex4_facts(_facts))
    wrong(capsys, nb02.ex4_facts(lambda w, b: (False, True, True, True)), "saved by r")
    wrong(capsys, nb02.ex4_facts(lambda w, b: (False, True, w.requires_grad, True)),
          "MulBackward0 keeps w only when b needs a gradient")
    wrong(capsys, nb02.ex4_facts(lambda w, b: (False, True, True)), "four booleans")
    wrong(capsys, nb02.ex4_facts((False, True, True, True)), "must be a function")
    wrong(capsys, nb02.ex4_facts(None), "waiting for your answer")


def test_nb02_facts_through_the_registry():
    passes(nb02, "ex4", {"facts": _facts})
    fails(nb02, "ex4", {"facts": lambda w, b: (not w.requires_grad, True, True, True)})
    fails(nb02, "ex4", {"facts": lambda w, b: (False, b.is_leaf, False, b.requires_grad)})


def test_nb02_facts_cannot_be_brute_forced():
    """The shortcut: typing each of the 16 tuples until the feedback counts no wrong fact. A
    constant tuple fails on fresh tensors, and no message says how many facts are wrong."""
    import itertools

    for facts in itertools.product((False, True), repeat=4):
        fails(nb02, "ex4", {"facts": lambda w, b, facts=facts: facts})


def test_nb02_count_through_the_registry():
    def good(fn, seen):
        if fn is None or fn in seen:
            return 0
        seen.add(fn)
        return 1 + sum(good(nxt, seen) for nxt, _ in fn.next_functions)

    def no_seen(fn, seen):
        if fn is None:
            return 0
        return 1 + sum(no_seen(nxt, seen) for nxt, _ in fn.next_functions)

    passes(nb02, "ex2", {"count_nodes": good})
    fails(nb02, "ex2", {"count_nodes": no_seen}, "more than once")
    fails(nb02, "ex2", {"count_nodes": lambda fn, seen: 4})
    fails(nb02, "ex2", {"count_nodes": 4}, "must be a function")


# --- 03 ------------------------------------------------------------------------------------------

def _by_hand(x):
    return -2 * x * torch.exp(-x ** 2)


def _by_autograd(x):
    """The shortcut: autograd.grad where the exercise asks for the derivative by hand."""
    x = x.detach().requires_grad_()
    return torch.autograd.grad(torch.exp(-x ** 2).sum(), x)[0]


def test_nb03_by_hand(capsys):
    right(capsys, nb03.ex1_by_hand(_by_hand))
    wrong(capsys, nb03.ex1_by_hand(lambda x: 2 * x * torch.exp(-x ** 2)), "sign")
    wrong(capsys, nb03.ex1_by_hand(lambda x: torch.exp(-x ** 2)), "not its derivative")
    wrong(capsys, nb03.ex1_by_hand(lambda x: x), "x itself")
    wrong(capsys, nb03.ex1_by_hand(lambda x: -2 * x), "outer derivative")
    wrong(capsys, nb03.ex1_by_hand(lambda x: 0), "shape")
    wrong(capsys, nb03.ex1_by_hand(_by_autograd), "backward pass")
    wrong(capsys, nb03.ex1_by_hand(None), "waiting for your answer")


def test_nb03_by_hand_through_the_registry():
    passes(nb03, "ex1", {"by_hand": _by_hand})
    fails(nb03, "ex1", {"by_hand": _by_autograd}, "by hand")
    fails(nb03, "ex1", {"by_hand": lambda x: -2 * torch.exp(-x ** 2)}, "-2x, not -2")
    fails(nb03, "ex1", {"by_hand": lambda x: torch.tensor([0.7358, 0.0, -0.7788, -0.0733])})

    def jac(x):
        x = x.detach()
        return torch.autograd.functional.jacobian(lambda t: torch.exp(-t ** 2), x).diagonal()

    fails(nb03, "ex1", {"by_hand": jac}, "backward pass")


def test_nb03_partials(capsys):
    right(capsys, nb03.ex2_partials([12, 8, 6.25, 0.2]))
    wrong(capsys, nb03.ex2_partials([12, 8, 6, 0.2]), "df/dc", "log(c d)")
    wrong(capsys, nb03.ex2_partials([2, 3, 4, 5]), "df/da, df/db, df/dc, df/dd")
    wrong(capsys, nb03.ex2_partials([12, 8, 6.25]), "four numbers")
    wrong(capsys, nb03.ex2_partials(0), "four numbers")
    wrong(capsys, nb03.ex2_partials(None), "waiting for your answer")


def _four():
    a, b, c, d = (torch.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0, 5.0))
    u = a * b
    v = torch.log(d) * c
    return u, v, u * v


def test_nb03_retained(capsys):
    u, v, e = _four()
    u.retain_grad()
    e.backward()
    right(capsys, nb03.ex3_retained(u.grad, u, v))
    wrong(capsys, nb03.ex3_retained(v, u, v), "v itself")
    wrong(capsys, nb03.ex3_retained(u.detach(), u, v), "value of u")
    u, v, e = _four()
    e.backward()
    wrong(capsys, nb03.ex3_retained(v.detach(), u, v), "still None")
    wrong(capsys, nb03.ex3_retained(None, u, v), "waiting for your answer")


def test_nb03_walk(capsys):
    written = ["c", "a", "b"]
    right(capsys, nb03.ex4_walk(["c", "a", "b"], written))
    wrong(capsys, nb03.ex4_walk(["a", "b", "c"], written), "order of creation")
    wrong(capsys, nb03.ex4_walk(["c", "b", "a"], written), "not the order")
    wrong(capsys, nb03.ex4_walk(["a", "b"], written), "names")
    wrong(capsys, nb03.ex4_walk(None, written), "waiting for your answer")


# --- 04 ------------------------------------------------------------------------------------------

def test_nb04_three_uses(capsys):
    right(capsys, nb04.ex1_three_uses(3, torch.tensor(12.0)))
    wrong(capsys, nb04.ex1_three_uses(2, torch.tensor(8.0)), "adds a third", "two paths")
    wrong(capsys, nb04.ex1_three_uses(3, torch.tensor(4.0)), "one path")
    wrong(capsys, nb04.ex1_three_uses(1, 12.0), "several edges")
    wrong(capsys, nb04.ex1_three_uses(3, -12.0), "sign")
    wrong(capsys, nb04.ex1_three_uses(None, None), "waiting for your answer")


def test_nb04_split(capsys):
    s, c = math.sin(0.5), 0.5 * math.cos(0.5)
    right(capsys, nb04.ex2_split(torch.tensor(s), torch.tensor(c), torch.tensor(s + c)))
    wrong(capsys, nb04.ex2_split(c, s, s + c), "swapped")
    wrong(capsys, nb04.ex2_split(s, c, s), "only the factor")
    wrong(capsys, nb04.ex2_split(0.5, 0.5, 1.0), "x itself")
    wrong(capsys, nb04.ex2_split(s, math.cos(0.5), s + c), "times x1")
    wrong(capsys, nb04.ex2_split(None, None, None), "waiting for your answer")


def test_nb04_fan_in(capsys):
    direct, through = [1.0, -3.0], [1.5, 0.0]
    right(capsys, nb04.ex3_fan_in(direct, through, [2.5, -3.0]))
    wrong(capsys, nb04.ex3_fan_in(through, direct, [2.5, -3.0]), "swapped")
    wrong(capsys, nb04.ex3_fan_in(direct, [0.5, 3.0], [2.5, -3.0]), "b itself")
    wrong(capsys, nb04.ex3_fan_in(direct, through, direct), "only the edge from v")
    wrong(capsys, nb04.ex3_fan_in([2.0, -1.0], through, [2.5, -3.0]), "a itself")
    wrong(capsys, nb04.ex3_fan_in(direct, through, [[2.5], [-3.0]]), "shape")


def test_nb01_through_the_registry():
    nudge = lambda f, x, h: (f(x + h) - f(x)) / h  # noqa: E731
    rule = lambda *i: any(getattr(t, "requires_grad", False) for t in i)  # noqa: E731
    labels = torch.tensor([4, 0, 7])
    passes(nb01, "ex1", {"nudge_slope": nudge, "best_h": _best()})
    fails(nb01, "ex1", {"nudge_slope": lambda f, x, h: (f(x + h) - f(x - h)) / (2 * h),
                        "best_h": _best()}, "central difference")
    fails(nb01, "ex1", {"nudge_slope": lambda f, x, h: 14.0, "best_h": _best()})
    passes(nb01, "ex2", {"will_require_grad": rule})
    fails(nb01, "ex2", {"will_require_grad": lambda *i: i[0].requires_grad})
    fails(nb01, "ex2", {"will_require_grad": lambda *i: any(isinstance(t, torch.Tensor)
                                                              for t in i)}, "constants")
    passes(nb01, "ex3", {"weights": labels.float().requires_grad_(), "labels": labels})
    fails(nb01, "ex3", {"weights": labels, "labels": labels}, "labels itself")
    fails(nb01, "ex3", {"weights": (labels.float() * 1).requires_grad_() * 2, "labels": labels})
    passes(nb01, "ex4", {"boom": lambda: torch.arange(3).requires_grad_()})
    fails(nb01, "ex4", {"boom": lambda: torch.tensor([1, 2], requires_grad=True)}, "other message")
    fails(nb01, "ex4", {"boom": lambda: None}, "raised nothing")


def _best():
    def f(x):
        return 3 * x ** 2 - 4 * x + 5

    return min(nb01.STEPS, key=lambda h: abs((f(3 + h) - f(3.0)) / h - 14))


def test_nb02_and_nb04_value_answers_through_the_registry():
    x_neg = torch.tensor([-3.0, 1.0], requires_grad=True)
    passes(nb02, "ex3", {"x_neg": x_neg, "branch": "ExpBackward0"})
    fails(nb02, "ex3", {"x_neg": x_neg, "branch": "MulBackward0"})
    fails(nb02, "ex3", {"x_neg": torch.tensor([3.0, 1.0], requires_grad=True),
                        "branch": "MulBackward0"}, "positive")
    s, c = math.sin(0.5), 0.5 * math.cos(0.5)
    passes(nb04, "ex2", {"via_factor": s, "via_sin": c, "total": s + c})
    fails(nb04, "ex2", {"via_factor": c, "via_sin": s, "total": s + c}, "swapped")
    fails(nb04, "ex2", {"via_factor": s, "via_sin": c, "total": s})
    passes(nb04, "ex3", {"direct": [1.0, -3.0], "through_u": [1.5, 0.0], "a_grad": [2.5, -3.0]})
    fails(nb04, "ex3", {"direct": [1.5, 0.0], "through_u": [1.0, -3.0], "a_grad": [2.5, -3.0]},
          "swapped")
    fails(nb04, "ex3", {"direct": [1.0, -3.0], "through_u": [1.5, 0.0], "a_grad": [1.0, -3.0]})


def test_nb03_retained_through_the_registry():
    a, b, c, d = (torch.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0, 5.0))
    u = a * b
    v = torch.log(d) * c
    u.retain_grad()
    (u * v).backward()
    passes(nb03, "ex3", {"u_grad": u.grad, "u": u, "v": v})
    fails(nb03, "ex3", {"u_grad": v, "u": u, "v": v}, "v itself")
    fails(nb03, "ex3", {"u_grad": u.detach(), "u": u, "v": v}, "value of u")


def test_a_listener_of_the_student_does_not_hide_a_backward_pass():
    from autograd_lab.autograd.graph import Listener, listen

    def hidden(x):
        with listen(Listener()):
            return _by_autograd(x)

    fails(nb03, "ex1", {"by_hand": hidden}, "backward pass")
