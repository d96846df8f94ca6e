"""Exercise checks of notebooks 05-08 (retain_graph and accumulation, in-place and versions,
detach and no_grad, the memory of a graph).

Each check passes the reference answer and rejects plausible wrong ones and the shortcuts its
exercise forbids, in the notebook and through collect and judge on fresh inputs.
"""

from __future__ import annotations

import math

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb05, nb06, nb07, nb08

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


def _step(w, lr):
    with torch.no_grad():
        w -= lr * w.grad


def _zero_step(w, lr):
    """The shortcut: w.zero_(), right only when the expected answer happens to be zeros."""
    with torch.no_grad():
        w.zero_()


def _data_step(w, lr):
    w.data.sub_(lr * w.grad)


def _sign_step(w, lr):
    with torch.no_grad():
        w += lr * w.grad


def test_nb06_step(capsys):
    right(capsys, nb06.ex3_step(_step))
    wrong(capsys, nb06.ex3_step(lambda w, lr: w - lr * w.grad), "no step", "new tensor")
    wrong(capsys, nb06.ex3_step(lambda w, lr: None), "no step")
    wrong(capsys, nb06.ex3_step(_sign_step), "sign")
    wrong(capsys, nb06.ex3_step(_data_step), ".data")
    wrong(capsys, nb06.ex3_step(_zero_step), "not a step")
    wrong(capsys, nb06.ex3_step(torch.zeros(2)), "must be a function")
    wrong(capsys, nb06.ex3_step(None), "waiting for your answer")


def test_nb06_step_through_the_registry():
    passes(nb06, "ex3", {"step_": _step})
    fails(nb06, "ex3", {"step_": _zero_step}, "not a step")
    fails(nb06, "ex3", {"step_": _data_step}, ".data")
    fails(nb06, "ex3", {"step_": _sign_step}, "sign")

    def lr_one(w, lr):
        with torch.no_grad():
            w -= w.grad

    fails(nb06, "ex3", {"step_": lr_one}, "learning rate")


# --- 07 ------------------------------------------------------------------------------------------

def _target_grad(w, x, detach_target):
    prediction = w * x
    target = (0.5 * prediction).detach() if detach_target else 0.5 * prediction
    return torch.autograd.grad((prediction - target) ** 2, w)[0]


def test_nb07_targets(capsys):
    right(capsys, nb07.ex1_targets(_target_grad))
    swapped = lambda w, x, d: _target_grad(w, x, not d)  # noqa: E731
    wrong(capsys, nb07.ex1_targets(swapped), "each other's gradient")
    wrong(capsys, nb07.ex1_targets(lambda w, x, d: -_target_grad(w, x, d)), "2 (prediction")
    wrong(capsys, nb07.ex1_targets(lambda w, x, d: w), "without a backward pass")
    wrong(capsys, nb07.ex1_targets(None), "waiting for your answer")


def test_nb07_targets_through_the_registry():
    passes(nb07, "ex1", {"target_grad": _target_grad})
    # the shortcut: the constants 12 and 6 of the notebook's example
    constants = lambda w, x, d: torch.tensor(12.0 if d else 6.0)  # noqa: E731
    fails(nb07, "ex1", {"target_grad": constants}, "without a backward pass")

    def constants_after_a_backward(w, x, d):
        torch.autograd.grad((w * x) ** 2, w)
        return torch.tensor(12.0 if d else 6.0)

    fails(nb07, "ex1", {"target_grad": constants_after_a_backward}, fixed=False)
    by_hand = lambda w, x, d: (w * x * x if d else 0.5 * w * x * x).detach()  # noqa: E731
    fails(nb07, "ex1", {"target_grad": by_hand}, "backward pass")
    fails(nb07, "ex1", {"target_grad": lambda w, x, d: _target_grad(w, x, False)})


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


# --- 08 ------------------------------------------------------------------------------------------

N18 = 2 ** 18


def test_nb08_bytes(capsys):
    measured = 50 * N18 * 4
    right(capsys, nb08.ex1_bytes(50 * N18 * 4, measured))
    wrong(capsys, nb08.ex1_bytes(51 * N18 * 4, measured), "counts x")
    wrong(capsys, nb08.ex1_bytes(50 * N18, measured), "not bytes")
    wrong(capsys, nb08.ex1_bytes(N18 * 4, measured), "one saved tensor")
    wrong(capsys, nb08.ex1_bytes(0, measured))
    wrong(capsys, nb08.ex1_bytes(50 * 250_000 * 4, measured))
    wrong(capsys, nb08.ex1_bytes(52.5, measured), "whole number")
    wrong(capsys, nb08.ex1_bytes(None, measured), "waiting for your answer")


def test_nb08_after(capsys):
    measured = 2 * N18 * 4 + 4
    right(capsys, nb08.ex2_after(measured, measured))
    wrong(capsys, nb08.ex2_after(2 * N18 * 4, measured), "4 bytes")
    wrong(capsys, nb08.ex2_after(N18 * 4 + 4, measured), "x.grad is new")
    wrong(capsys, nb08.ex2_after(0, measured))
    wrong(capsys, nb08.ex2_after(4, measured), "h still names")
    wrong(capsys, nb08.ex2_after(None, measured), "waiting for your answer")


def test_nb08_saved(capsys):
    right(capsys, nb08.ex3_saved(4, 4 * 4096, 4, 4 * 4096))
    wrong(capsys, nb08.ex3_saved(3, 3 * 4096, 4, 4 * 4096), "packed twice")
    wrong(capsys, nb08.ex3_saved(4, 4 * 4000, 4, 4 * 4096), "1024 values")
    wrong(capsys, nb08.ex3_saved(4, 4 * 1024, 4, 4 * 4096), "not bytes")
    wrong(capsys, nb08.ex3_saved(0, 0, 4, 4 * 4096))
    wrong(capsys, nb08.ex3_saved(None, None, 4, 4 * 4096), "waiting for your answer")


def test_nb08_timeline(capsys):
    right(capsys, nb08.ex4_timeline(8, 20, 8.0, 20.0))
    wrong(capsys, nb08.ex4_timeline(20, 8, 8.0, 20.0), "retained graph", "plain backward()")
    wrong(capsys, nb08.ex4_timeline(4, 16, 8.0, 20.0), "adds x.grad", "on top of")
    wrong(capsys, nb08.ex4_timeline(0, 0, 8.0, 20.0), "still alive")
    wrong(capsys, nb08.ex4_timeline(8.4, 21, 8.0, 20.0))
    wrong(capsys, nb08.ex4_timeline(None, None, 8.0, 20.0), "waiting for your answer")


def test_nb05_through_the_registry():
    passes(nb05, "ex1", {"grad_after_three": torch.tensor([6.0, -6.0])})
    fails(nb05, "ex1", {"grad_after_three": torch.tensor([2.0, -2.0])}, "one call")
    passes(nb05, "ex2", {"scale": 1 / 3})
    fails(nb05, "ex2", {"scale": 1.0}, "3 times")
    fails(nb05, "ex2", {"scale": 0.0}, "zero")
    passes(nb05, "ex3", {"kept": 0.25, "held": 0, "reference": 0.25})
    kept = (torch.ones(2, requires_grad=True) * 2).sum()
    fails(nb05, "ex3", {"kept": kept, "held": 4000, "reference": 4.0}, "grad_fn=SumBackward0")
    fails(nb05, "ex3", {"kept": 0.5, "held": 0, "reference": 0.25}, "not the value")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b, c = (x + 1).sum(), (x - 2).mean(), (x * x).sum()
    for out in (a, b, c):
        out.backward()
    passes(nb05, "ex5", {"fails": c, "a": a, "b": b, "c": c})
    fails(nb05, "ex5", {"fails": a, "a": a, "b": b, "c": c}, "save none")
    fails(nb05, "ex5", {"fails": x, "a": a, "b": b, "c": c}, "one of the tensors")

    def lin_after(reset):
        lin = torch.nn.Linear(2, 1)
        lin(torch.ones(1, 2)).sum().backward()
        reset(lin)
        return lin

    lin = lin_after(lambda m: m.zero_grad(set_to_none=False))
    passes(nb05, "ex6", {"weight_grad": lin.weight.grad, "lin": lin})
    lin = lin_after(lambda m: m.zero_grad())
    fails(nb05, "ex6", {"weight_grad": lin.weight.grad, "lin": lin}, "by default")
    lin = lin_after(lambda m: None)
    fails(nb05, "ex6", {"weight_grad": torch.zeros(1, 2), "lin": lin}, "old values")


def test_nb06_repair_and_nb07_objects_through_the_registry():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (x.tanh() * 2).sum().backward()
    passes(nb06, "ex2", {"grad": x.grad, "x": x})
    fails(nb06, "ex2", {"grad": x.grad / 2, "x": x}, "factor 2")
    fails(nb06, "ex2", {"grad": x.detach(), "x": x}, "x itself")

    def snapshot_case(make):
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        before = w.tolist()
        snap = make(w)
        with torch.no_grad():
            w.mul_(10)
        return {"snapshot": snap, "w": w, "before": before}

    passes(nb07, "ex2", snapshot_case(lambda w: w.detach().clone()))
    fails(nb07, "ex2", snapshot_case(lambda w: w.detach()), "shares memory")
    fails(nb07, "ex2", snapshot_case(lambda w: w.clone()), "requires grad")
    model = torch.nn.Linear(4, 2)
    inputs = torch.randn(3, 4)
    with torch.no_grad():
        preds = model(inputs)
    passes(nb07, "ex3", {"preds": preds, "preds_np": preds.numpy(), "model": model,
                         "inputs": inputs})
    tracked = model(inputs)
    fails(nb07, "ex3", {"preds": tracked, "preds_np": preds.numpy(), "model": model,
                        "inputs": inputs}, "outside the no_grad block")
    fails(nb07, "ex3", {"preds": preds, "preds_np": preds.tolist(), "model": model,
                        "inputs": inputs}, "NumPy array")
    passes(nb07, "ex4", {"predict": torch.inference_mode()(lambda model, X: model(X))})
    fails(nb07, "ex4", {"predict": lambda model, X: model(X).detach()}, "recording on")
    fails(nb07, "ex4", {"predict": torch.no_grad()(lambda model, X: X)}, "never called")


def test_nb08_predictions_are_formative():
    from autograd_lab.teaching.grading import EXERCISES

    n = 2 ** 18
    predictions = [ex for name, ex in EXERCISES[nb08.NOTEBOOK].items() if name != "ex5"]
    assert not any(ex.graded for ex in predictions)
    assert all(ex.formative_reason for ex in predictions)
    assert EXERCISES[nb08.NOTEBOOK]["ex5"].graded  # writing the checkpointed chain
    passes(nb08, "ex1", {"predicted_bytes": 50 * n * 4})
    fails(nb08, "ex1", {"predicted_bytes": 50 * n}, "not bytes")
    passes(nb08, "ex2", {"predicted_after": 2 * n * 4 + 4})
    fails(nb08, "ex2", {"predicted_after": 2 * n * 4}, "4 bytes")
    passes(nb08, "ex3", {"predicted_count": 4, "predicted_total": 4 * 1024 * 4})
    fails(nb08, "ex3", {"predicted_count": 3, "predicted_total": 3 * 1024 * 4}, "packed twice")
    passes(nb08, "ex4", {"mib_plain": 8, "mib_retained": 20})
    fails(nb08, "ex4", {"mib_plain": 20, "mib_retained": 8}, "retained graph")


def test_nb05_second_derivative_through_the_registry():
    passes(nb05, "ex4", {"second": -math.sin(1.0)})
    fails(nb05, "ex4", {"second": math.cos(1.0)}, "first derivative")
    fails(nb05, "ex4", {"second": -math.cos(1.0)}, "third derivative")
