"""Exercise checks added to notebooks 06-08: in-place ops on views (06), eval vs no_grad and
set_grad_enabled (07), activation checkpointing (08).

Each check passes the reference answer on the notebook's inputs and on fresh variants, and rejects
typical wrong answers and shortcuts with a message that names the mistake.
"""

from __future__ import annotations

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb06, nb07, nb08

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


# --- 06 · exercise 4: zero_slice ------------------------------------------------------------------


def _zero_slice(x, start, stop):
    y = x.clone()
    y[start:stop].zero_()
    return y


def _assign_slice(x, start, stop):
    y = x.clone()
    y[start:stop] = 0
    return y


def _on_the_leaf(x, start, stop):
    x[start:stop].zero_()
    return x


def _by_mask(x, start, stop):
    mask = torch.ones(x.shape)
    mask[start:stop] = 0
    return x * mask


def _through_data(x, start, stop):
    y = x.clone()
    y.data[start:stop] = 0
    return y


def _the_view(x, start, stop):
    return x.clone()[start:stop].zero_()


def _detached_clone(x, start, stop):
    y = x.detach().clone()
    y[start:stop] = 0
    return y


def _under_no_grad(x, start, stop):
    with torch.no_grad():
        x[start:stop] = 0
    return x


def test_nb06_zero_slice(capsys):
    right(capsys, nb06.ex4_zero_slice(_zero_slice))
    right(capsys, nb06.ex4_zero_slice(_assign_slice))
    wrong(capsys, nb06.ex4_zero_slice(_on_the_leaf), "leaf")
    wrong(capsys, nb06.ex4_zero_slice(_by_mask), "MulBackward0, not CopySlices")
    wrong(capsys, nb06.ex4_zero_slice(_through_data), ".data")
    wrong(capsys, nb06.ex4_zero_slice(_the_view), "whole clone")
    wrong(capsys, nb06.ex4_zero_slice(_detached_clone), "cut off")
    wrong(capsys, nb06.ex4_zero_slice(_under_no_grad), "changed x")
    wrong(capsys, nb06.ex4_zero_slice(lambda x, a, b: x.clone()), "unchanged")
    wrong(capsys, nb06.ex4_zero_slice(None), "waiting for your answer")


def test_nb06_zero_slice_through_the_registry():
    passes(nb06, "ex4", {"zero_slice": _zero_slice})
    passes(nb06, "ex4", {"zero_slice": _assign_slice})
    fails(nb06, "ex4", {"zero_slice": _by_mask}, "CopySlices")
    fails(nb06, "ex4", {"zero_slice": _on_the_leaf}, "leaf")
    fails(nb06, "ex4", {"zero_slice": _through_data}, "CloneBackward0")

    def fixed_slice(x, start, stop):  # the notebook's slice, whatever is asked
        return _zero_slice(x, 1, 3)

    fails(nb06, "ex4", {"zero_slice": fixed_slice}, "set to 0", fixed=False)


# --- 08 · exercise 5: run_segments ----------------------------------------------------------------

checkpoint = torch.utils.checkpoint.checkpoint


def _run_segments(x, segment, n):
    h = x
    for _ in range(n):
        h = checkpoint(segment, h, use_reentrant=False)
    return h


def _stored(x, segment, n):
    h = x
    for _ in range(n):
        h = segment(h)
    return h


def _one_checkpoint(x, segment, n):
    return checkpoint(lambda h: _stored(h, segment, n), x, use_reentrant=False)


def _reentrant(x, segment, n):
    h = x
    for _ in range(n):
        h = checkpoint(segment, h, use_reentrant=True)
    return h


def _without_recording(x, segment, n):
    with torch.no_grad():
        return _stored(x, segment, n)


def test_nb08_segments(capsys):
    right(capsys, nb08.ex5_segments(_run_segments))
    wrong(capsys, nb08.ex5_segments(_stored), "saved tensors are stored")
    wrong(capsys, nb08.ex5_segments(_one_checkpoint), "whole chain")
    wrong(capsys, nb08.ex5_segments(_reentrant), "use_reentrant=False")
    wrong(capsys, nb08.ex5_segments(_without_recording), "cut off")
    wrong(capsys, nb08.ex5_segments(lambda x, s, n: _run_segments(x, s, n - 1)), "applied")
    wrong(capsys, nb08.ex5_segments(lambda x, s, n: _run_segments(x, s, n).tolist()), "list")
    wrong(capsys, nb08.ex5_segments(None), "waiting for your answer")


def test_nb08_segments_through_the_registry():
    passes(nb08, "ex5", {"run_segments": _run_segments})
    fails(nb08, "ex5", {"run_segments": _stored}, "stored")
    fails(nb08, "ex5", {"run_segments": _one_checkpoint}, "Checkpoint each segment")

    def four_segments(x, segment, n):  # the notebook's n, whatever is asked
        return _run_segments(x, segment, 4)

    fails(nb08, "ex5", {"run_segments": four_segments}, "times", fixed=False)
