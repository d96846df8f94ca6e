"""Exercise checks added to notebooks 06-08: in-place ops on views (06), eval vs no_grad and
set_grad_enabled (07), activation checkpointing (08).

Each check passes the reference answer on the notebook's inputs and on fresh variants, and rejects
typical wrong answers and shortcuts with a message that names the mistake.
"""

from __future__ import annotations

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb07

# --- 07 · exercise 5: evaluate --------------------------------------------------------------------


def _evaluate(model, X):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(X)
    model.train(was_training)
    return out


def _eval_only(model, X):
    was_training = model.training
    model.eval()
    out = model(X)
    model.train(was_training)
    return out


def _no_grad_only(model, X):
    with torch.no_grad():
        return model(X)


def _always_train_after(model, X):
    model.eval()
    with torch.no_grad():
        out = model(X)
    model.train()
    return out


def _detached(model, X):
    was_training = model.training
    model.eval()
    out = model(X).detach()
    model.train(was_training)
    return out


def test_nb07_evaluate(capsys):
    right(capsys, nb07.ex5_evaluate(_evaluate))
    wrong(capsys, nb07.ex5_evaluate(_eval_only), "recording on")
    wrong(capsys, nb07.ex5_evaluate(_no_grad_only), "training mode")
    wrong(capsys, nb07.ex5_evaluate(_always_train_after), "left the model in training mode")
    wrong(capsys, nb07.ex5_evaluate(_detached), "recording on")
    wrong(capsys, nb07.ex5_evaluate(lambda model, X: X), "never called")
    wrong(capsys, nb07.ex5_evaluate(None), "waiting for your answer")


def test_nb07_evaluate_through_the_registry():
    passes(nb07, "ex5", {"evaluate": _evaluate})
    fails(nb07, "ex5", {"evaluate": _no_grad_only}, "training mode")
    fails(nb07, "ex5", {"evaluate": _eval_only}, "recording on")
    fails(nb07, "ex5", {"evaluate": _always_train_after}, "eval mode before")

    def negated(model, X):
        return -_evaluate(model, X)

    fails(nb07, "ex5", {"evaluate": negated}, "model(X)")


# --- 07 · exercise 6: run -------------------------------------------------------------------------


def _run(model, X, train):
    with torch.set_grad_enabled(train):
        return model(X)


def _run_if(model, X, train):
    if train:
        return model(X)
    with torch.no_grad():
        return model(X)


def _run_switch_leaks(model, X, train):
    torch.set_grad_enabled(train)
    return model(X)


def test_nb07_switch(capsys):
    right(capsys, nb07.ex6_switch(_run))
    wrong(capsys, nb07.ex6_switch(_run_if), "inside a torch.no_grad() block")
    wrong(capsys, nb07.ex6_switch(_run_switch_leaks), "changed the grad mode")
    assert torch.is_grad_enabled()  # the check put back what the answer left switched off
    wrong(capsys, nb07.ex6_switch(lambda model, X, train: model(X).detach()), "require grad")
    wrong(capsys, nb07.ex6_switch(lambda model, X, train: model(X)), "recording on")
    wrong(capsys, nb07.ex6_switch(None), "waiting for your answer")


def test_nb07_switch_through_the_registry():
    passes(nb07, "ex6", {"run": _run})
    fails(nb07, "ex6", {"run": _run_if}, "torch.no_grad() block")
    fails(nb07, "ex6", {"run": _run_switch_leaks}, "grad mode")
    assert torch.is_grad_enabled()
