"""Every exercise check of notebooks 01-07 accepts the reference answer and rejects plausible
wrong ones.

The reference answers are those of the ``### BEGIN SOLUTION`` blocks of the notebooks; the wrong
ones are what a student plausibly writes: nothing, zero, the exercise's own input, a wrong sign,
a transposed matrix, an alias of a tensor that is changed afterwards.
"""

from __future__ import annotations

import math

import pytest
from check_support import right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import (
    nb01,
    nb02,
    nb03,
    nb04,
    nb05,
    nb06,
    nb07,
    nb08,
    nb09,
    nb10,
    nb12,
    nb13,
)

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
    best = min(nb01.STEPS, key=lambda h: abs((nb01._poly(3 + h) - nb01._poly(3.0)) / h - 14))
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


def test_nb02_facts(capsys):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    right(capsys, nb02.ex4_facts((False, True, True, True), w, b))
    wrong(capsys, nb02.ex4_facts((True, True, True, True), w, b), "1 of the four")
    wrong(capsys, nb02.ex4_facts((False, True, False, False), w, b), "2 of the four")
    wrong(capsys, nb02.ex4_facts([False, True, True, True][:3], w, b), "four booleans")
    wrong(capsys, nb02.ex4_facts(None, w, b), "waiting for your answer")


# --- 03 ------------------------------------------------------------------------------------------

def test_nb03_by_hand(capsys):
    def fresh():
        return torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)

    x = fresh()
    right(capsys, nb03.ex1_by_hand(-2 * x * torch.exp(-x ** 2), x))
    wrong(capsys, nb03.ex1_by_hand(2 * x * torch.exp(-x ** 2), x), "sign")
    wrong(capsys, nb03.ex1_by_hand(torch.exp(-x ** 2), x), "not its derivative")
    wrong(capsys, nb03.ex1_by_hand(x, x), "x itself")
    wrong(capsys, nb03.ex1_by_hand(-2 * x, x), "outer derivative")
    wrong(capsys, nb03.ex1_by_hand(0, x), "shape")
    x = fresh()
    torch.exp(-x ** 2).sum().backward()
    wrong(capsys, nb03.ex1_by_hand(x.grad, x), "x.grad itself")


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


# --- 05 ------------------------------------------------------------------------------------------

def test_nb05_three_calls(capsys):
    right(capsys, nb05.ex1_three_calls(torch.tensor([6.0, -6.0])))
    wrong(capsys, nb05.ex1_three_calls(torch.tensor([2.0, -2.0])), "one call")
    wrong(capsys, nb05.ex1_three_calls([4.0, -4.0]), "two calls")
    wrong(capsys, nb05.ex1_three_calls([1.0, -1.0]), "x itself")
    wrong(capsys, nb05.ex1_three_calls([-6.0, 6.0]), "sign")
    wrong(capsys, nb05.ex1_three_calls(None), "waiting for your answer")


def test_nb05_scale(capsys):
    right(capsys, nb05.ex2_scale(1 / 3))
    wrong(capsys, nb05.ex2_scale(1), "3 times")
    wrong(capsys, nb05.ex2_scale(3), "9 times")
    wrong(capsys, nb05.ex2_scale(0), "zero")
    wrong(capsys, nb05.ex2_scale([1 / 3] * 3), "one number")
    wrong(capsys, nb05.ex2_scale(None), "waiting for your answer")


def _evaluate_once(keep):
    w = torch.randn(250_000, requires_grad=True)
    torch.manual_seed(5)
    start = torch.memory_allocated()
    kept = keep((w * torch.randn(250_000)).relu().sum())
    held = torch.memory_allocated() - start
    torch.manual_seed(5)
    with torch.no_grad():
        reference = (w * torch.randn(250_000)).relu().sum().item()
    return kept, held, reference


def test_nb05_plug(capsys):
    right(capsys, nb05.ex3_plug(*_evaluate_once(lambda t: t.item())))
    right(capsys, nb05.ex3_plug(*_evaluate_once(lambda t: t.detach())))
    wrong(capsys, nb05.ex3_plug(*_evaluate_once(lambda t: None)), "waiting for your answer")
    wrong(capsys, nb05.ex3_plug(*_evaluate_once(lambda t: 0.0)), "not the value")
    wrong(capsys, nb05.ex3_plug(*_evaluate_once(lambda t: t)), "grad_fn=SumBackward0")
    wrong(capsys, nb05.ex3_plug(*_evaluate_once(lambda t: [t])), "still allocated")


def test_nb05_second(capsys):
    x = torch.tensor(1.0, requires_grad=True)
    first = torch.autograd.grad(x.sin(), x, create_graph=True)[0]
    right(capsys, nb05.ex4_second(torch.autograd.grad(first, x)[0]))
    wrong(capsys, nb05.ex4_second(first), "first derivative")
    wrong(capsys, nb05.ex4_second(math.sin(1.0)), "sign")
    wrong(capsys, nb05.ex4_second(x), "x itself")
    wrong(capsys, nb05.ex4_second(None), "waiting for your answer")


def test_nb05_fails(capsys):
    def three():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        outs = (x + 1).sum(), (x - 2).mean(), (x * x).sum()
        for out in outs:
            out.backward()
        return outs

    right(capsys, nb05.ex5_fails(three()[2]))
    wrong(capsys, nb05.ex5_fails(three()[0]), "nothing was raised")
    wrong(capsys, nb05.ex5_fails(three()[1]), "nothing was raised")
    wrong(capsys, nb05.ex5_fails("c"), "one of the tensors")
    wrong(capsys, nb05.ex5_fails(None), "waiting for your answer")


def test_nb05_zeros(capsys):
    def used():
        lin = torch.nn.Linear(2, 1)
        lin(torch.ones(1, 2)).sum().backward()
        return lin

    lin = used()
    lin.zero_grad(set_to_none=False)
    right(capsys, nb05.ex6_zeros(lin.weight.grad, lin))
    lin = used()
    lin.zero_grad()
    wrong(capsys, nb05.ex6_zeros(lin.weight.grad, lin), "None")
    lin = used()
    wrong(capsys, nb05.ex6_zeros(torch.zeros(1, 2), lin), "old values")
    lin = used()
    lin.weight.grad.zero_()
    wrong(capsys, nb05.ex6_zeros(lin.weight.grad, lin), "old values")
    lin = used()
    lin.zero_grad(set_to_none=False)
    wrong(capsys, nb05.ex6_zeros(torch.zeros(1, 2), lin), "itself")


# --- 06 ------------------------------------------------------------------------------------------

def _versioned():
    t = torch.zeros(4)
    t.add_(1)
    t[1:3].mul_(2)
    t.exp()
    t.data.sub_(1)
    t.zero_()
    return t


def test_nb06_version(capsys):
    t = _versioned()
    right(capsys, nb06.ex1_version(3, t))
    wrong(capsys, nb06.ex1_version(4, t), ".data")
    wrong(capsys, nb06.ex1_version(2, t), "view")
    wrong(capsys, nb06.ex1_version(0, t))
    wrong(capsys, nb06.ex1_version("3", t), "whole number")
    wrong(capsys, nb06.ex1_version(None, t), "waiting for your answer")


def test_nb06_repair(capsys):
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (x.tanh() * 2).sum().backward()
    right(capsys, nb06.ex2_repair(x.grad, x))
    wrong(capsys, nb06.ex2_repair(x.grad / 2, x), "factor 2")
    wrong(capsys, nb06.ex2_repair(x, x), "x itself")
    wrong(capsys, nb06.ex2_repair(-x.grad, x), "sign")
    wrong(capsys, nb06.ex2_repair(x.grad * 2, x), "twice")
    wrong(capsys, nb06.ex2_repair(None, x), "waiting for your answer")


def _w06():
    w = torch.tensor([2.0, -4.0], requires_grad=True)
    (w ** 2).sum().backward()
    return w


def test_nb06_step(capsys):
    w = _w06()
    with torch.no_grad():
        w -= 0.5 * w.grad
    right(capsys, nb06.ex3_step(w, w))
    w = _w06()
    wrong(capsys, nb06.ex3_step(w - 0.5 * w.grad, w), "grad_fn=SubBackward0")
    w = _w06()
    wrong(capsys, nb06.ex3_step(w, w), "no step")
    w = _w06()
    with torch.no_grad():
        w += 0.5 * w.grad
    wrong(capsys, nb06.ex3_step(w, w), "sign")
    w = _w06()
    w.data.sub_(0.5 * w.grad)
    wrong(capsys, nb06.ex3_step(w, w), ".data")
    w = _w06()
    wrong(capsys, nb06.ex3_step(torch.zeros(2), w), "new tensor")
    wrong(capsys, nb06.ex3_step(None, w), "waiting for your answer")


# --- 07 ------------------------------------------------------------------------------------------

def test_nb07_targets(capsys):
    w, x = torch.tensor(3.0, requires_grad=True), torch.tensor(2.0)
    p = w * x
    stop = torch.autograd.grad((p - (0.5 * p).detach()) ** 2, w)[0]
    p = w * x
    through = torch.autograd.grad((p - 0.5 * p) ** 2, w)[0]
    right(capsys, nb07.ex1_targets(stop, through))
    wrong(capsys, nb07.ex1_targets(through, stop), "not detached", "with the target detached")
    wrong(capsys, nb07.ex1_targets(-stop, through), "sign")
    wrong(capsys, nb07.ex1_targets(w, w), "w itself")
    wrong(capsys, nb07.ex1_targets(None, None), "waiting for your answer")


def test_nb07_snapshot(capsys):
    def run(make):
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        before = w.tolist()
        snap = make(w)
        with torch.no_grad():
            w.mul_(10)
        return snap, w, before

    right(capsys, nb07.ex2_snapshot(*run(lambda w: w.detach().clone())))
    wrong(capsys, nb07.ex2_snapshot(*run(lambda w: w.detach())), "shares memory")
    wrong(capsys, nb07.ex2_snapshot(*run(lambda w: w.clone())), "requires grad")
    wrong(capsys, nb07.ex2_snapshot(*run(lambda w: w)), "w itself")
    wrong(capsys, nb07.ex2_snapshot(*run(lambda w: torch.zeros(2))), "values")
    wrong(capsys, nb07.ex2_snapshot(*run(lambda w: w.tolist())), "tensor")
    wrong(capsys, nb07.ex2_snapshot(*run(lambda w: None)), "waiting for your answer")


def test_nb07_inference(capsys):
    model = torch.nn.Linear(4, 2)
    inputs = torch.randn(3, 4)
    with torch.no_grad():
        preds = model(inputs)
    right(capsys, nb07.ex3_inference(preds, preds.numpy(), model, inputs))
    graph = model(inputs)
    wrong(capsys, nb07.ex3_inference(graph, graph.detach().numpy(), model, inputs),
          "requires grad")
    wrong(capsys, nb07.ex3_inference(preds, preds, model, inputs), "NumPy array")
    wrong(capsys, nb07.ex3_inference(preds, preds.numpy().T, model, inputs), "shape")
    wrong(capsys, nb07.ex3_inference(preds, -preds.numpy(), model, inputs), "not model(inputs)")
    wrong(capsys, nb07.ex3_inference(None, None, model, inputs), "waiting for your answer")


def test_nb07_predict(capsys):
    right(capsys, nb07.ex4_predict(torch.inference_mode()(lambda model, X: model(X))))

    def with_no_grad(model, X):
        with torch.no_grad():
            return model(X)

    right(capsys, nb07.ex4_predict(with_no_grad))
    wrong(capsys, nb07.ex4_predict(lambda model, X: model(X).detach()), "recording on")
    wrong(capsys, nb07.ex4_predict(lambda model, X: model(X)), "recording on")
    wrong(capsys, nb07.ex4_predict(torch.inference_mode()(lambda model, X: X)), "never called")
    wrong(capsys, nb07.ex4_predict(torch.inference_mode()(lambda model, X: [model(X)])),
          "tensor")
    wrong(capsys, nb07.ex4_predict(torch.inference_mode()(lambda model, X: -model(X))),
          "model(X)")
    wrong(capsys, nb07.ex4_predict(None), "waiting for your answer")


@pytest.mark.parametrize("module", [nb01, nb02, nb03, nb04, nb05, nb06, nb07, nb08, nb09, nb10,
                                    nb12, nb13])
def test_every_check_is_tested(module):
    """Each exercise function of a checks module is called in one of the two test files."""
    import inspect
    from pathlib import Path

    here = Path(__file__).parent
    text = "".join((here / f).read_text() for f in ("test_exercise_checks.py",
                                                     "test_exercise_checks_later.py"))
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("ex") and fn.__module__ == module.__name__:
            assert f"{module.__name__.rsplit('.', 1)[1]}.{name}(" in text, name
