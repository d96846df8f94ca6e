"""Checks of notebook 03's exercises on partials and on gradients at kinks: right answers pass on
the notebook's example and on fresh variants; answers that ignore ties or a corner's rule, or that
run a backward pass, are rejected with a message that says why."""

from __future__ import annotations

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb03

_OPS = {"relu": torch.relu, "abs": torch.abs, "sqrt": torch.sqrt, "max": lambda t: t.max(),
        "max_dim": lambda t: t.max(dim=0).values}


def _kink(op, x):
    if op == "relu":
        return (x > 0).float()
    if op == "abs":
        return x.sign()
    if op == "sqrt":
        return 0.5 / x.sqrt()
    if op == "max":
        ties = (x == x.max()).float()
        return ties / ties.sum()
    first = torch.zeros_like(x)
    first[x.argmax()] = 1.0
    return first


def _one_winner(op, x):
    """Gives a tied max() to the first maximum only: ignores the tie."""
    return _kink("max_dim", x) if op == "max" else _kink(op, x)


def _ones_on_ties(op, x):
    return (x == x.max()).float() if op == "max" else _kink(op, x)


def _shared_max_dim(op, x):
    return _kink("max", x) if op == "max_dim" else _kink(op, x)


def _relu_one_at_zero(op, x):
    return (x >= 0).float() if op == "relu" else _kink(op, x)


def _abs_one_at_zero(op, x):
    return torch.where(x >= 0, torch.ones_like(x), -torch.ones_like(x)) if op == "abs" \
        else _kink(op, x)


def _sqrt_zero_at_zero(op, x):
    if op == "sqrt":
        return torch.where(x == 0, torch.zeros_like(x), 0.5 / x.sqrt())
    return _kink(op, x)


def _by_backward(op, x):
    x = x.clone().requires_grad_()
    _OPS[op](x).sum().backward()
    return x.grad


def _hard_coded(op, x):
    return torch.tensor({"relu": [0.0, 0.0, 1.0], "abs": [-1.0, 0.0, 1.0],
                         "sqrt": [float("inf"), 0.5, 0.25], "max": [0.0, 0.5, 0.5, 0.0],
                         "max_dim": [0.0, 1.0, 0.0, 0.0]}[op])


def test_nb03_kink(capsys):
    right(capsys, nb03.ex5_kink(_kink))
    wrong(capsys, nb03.ex5_kink(_one_winner), "ignores the tie", "evenly")
    wrong(capsys, nb03.ex5_kink(_ones_on_ties), "1/k")
    wrong(capsys, nb03.ex5_kink(_shared_max_dim), "first maximum", "alone")
    wrong(capsys, nb03.ex5_kink(_relu_one_at_zero), "relu sends 0")
    wrong(capsys, nb03.ex5_kink(_abs_one_at_zero), "sign(0) = 0")
    wrong(capsys, nb03.ex5_kink(_sqrt_zero_at_zero), "inf")
    wrong(capsys, nb03.ex5_kink(_by_backward), "backward pass")
    wrong(capsys, nb03.ex5_kink(lambda op, x: x), "kink_grad('relu', x)")
    wrong(capsys, nb03.ex5_kink([0.0, 0.0, 1.0]), "function")
    wrong(capsys, nb03.ex5_kink(None), "waiting for your answer")


def test_nb03_kink_through_the_registry():
    passes(nb03, "ex5", {"kink_grad": _kink})
    fails(nb03, "ex5", {"kink_grad": _one_winner}, "ignores the tie")
    fails(nb03, "ex5", {"kink_grad": _shared_max_dim}, "first maximum")
    fails(nb03, "ex5", {"kink_grad": _relu_one_at_zero}, "relu sends 0")
    fails(nb03, "ex5", {"kink_grad": _by_backward}, "backward pass")
    # the notebook's own numbers, typed in, pass there and nowhere else
    fails(nb03, "ex5", {"kink_grad": _hard_coded}, fixed=False)


def test_nb03_partials_are_judged_by_autograd(capsys):
    right(capsys, nb03.ex2_partials([12, 8, 6.25, 0.2]))
    right(capsys, nb03.ex2_partials(torch.tensor([12.0, 8.0, 6.25, 0.2])))
    wrong(capsys, nb03.ex2_partials([12, 8, 6, 0.2]), "log(c d)")
    wrong(capsys, nb03.ex2_partials([12, 8, 6.25, 2.9957]), "not log(c d)")
    wrong(capsys, nb03.ex2_partials([12, 9, 6.25, 0.2]), "df/db", "autograd")


def test_nb03_kink_payload_is_strict_json():
    """The kernel's messages refuse inf and nan as numbers; sqrt's inf must reach the grader."""
    import json

    from autograd_lab.teaching.grading import EXERCISES, Variant

    ex = EXERCISES[nb03.NOTEBOOK]["ex5"]
    for v in (Variant(0, True), Variant(5, False)):
        payload = json.loads(json.dumps(ex.collect({"kink_grad": _kink}, v), allow_nan=False))
        assert ex.judge(payload, v) == ("passed", "")
