"""Exercise checks of notebook 11's module hooks and of notebook 13b (training-loop bugs,
frozen layers): the reference answer passes on fresh variants; wrong answers and shortcuts
are rejected with a message that names the mistake."""

from __future__ import annotations

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab import nn
from autograd_lab.teaching.checks import nb11

# --- 11 · exercise 6: the gradient that reaches a layer ------------------------------------------


def _grad_reaching(net, i, X, loss_fn):
    seen = []
    handle = net[i].register_full_backward_hook(lambda m, gi, go: seen.append(go[0]))
    loss_fn(net(X)).backward()
    handle.remove()
    return seen[0]


def _grad_input(net, i, X, loss_fn):
    seen = []
    handle = net[i].register_full_backward_hook(lambda m, gi, go: seen.append(gi[0]))
    loss_fn(net(X)).backward()
    handle.remove()
    return seen[0]


def _not_removed(net, i, X, loss_fn):
    seen = []
    net[i].register_full_backward_hook(lambda m, gi, go: seen.append(go[0]))
    loss_fn(net(X)).backward()
    return seen[0]


def _kept_output(net, i, X):
    h, kept = X, None
    for k, module in enumerate(net):
        h = module(h)
        if k == i:
            kept = h
    return h, kept


def _with_autograd_grad(net, i, X, loss_fn):
    out, kept = _kept_output(net, i, X)
    return torch.autograd.grad(loss_fn(out), kept)[0]


def _with_retain_grad(net, i, X, loss_fn):
    out, kept = _kept_output(net, i, X)
    kept.retain_grad()
    loss_fn(out).backward()
    return kept.grad


def _always_the_sum(net, i, X, loss_fn):
    seen = []
    handle = net[i].register_full_backward_hook(lambda m, gi, go: seen.append(go[0]))
    net(X).sum().backward()  # ignores loss_fn: right only for the notebook's own example
    handle.remove()
    return seen[0]


def _two_passes(net, i, X, loss_fn):
    seen = []
    handle = net[i].register_full_backward_hook(lambda m, gi, go: seen.append(go[0]))
    loss_fn(net(X)).backward()
    loss_fn(net(X)).backward()
    handle.remove()
    return seen[0]


def test_nb11_grad_reaching_through_the_registry():
    passes(nb11, "ex6", {"grad_reaching": _grad_reaching})
    fails(nb11, "ex6", {"grad_reaching": _grad_input}, "grad_input[0]")
    fails(nb11, "ex6", {"grad_reaching": _not_removed}, "handle.remove()")
    fails(nb11, "ex6", {"grad_reaching": _with_autograd_grad}, "torch.autograd.grad")
    fails(nb11, "ex6", {"grad_reaching": _with_retain_grad}, "no full backward hook")
    fails(nb11, "ex6", {"grad_reaching": _always_the_sum}, "loss =", fixed=False)
    fails(nb11, "ex6", {"grad_reaching": _two_passes}, "2 backward passes")
    fails(nb11, "ex6", {"grad_reaching": 3}, "must be a function")


def test_nb11_grad_reaching_in_the_notebook(capsys):
    right(capsys, nb11.check_grad_reaching(_grad_reaching))
    wrong(capsys, nb11.check_grad_reaching(_grad_input), "grad_output[0]")
    wrong(capsys, nb11.check_grad_reaching(_not_removed), "still registered")
    wrong(capsys, nb11.check_grad_reaching(lambda net, i, X, loss_fn: ...),
          "waiting for your answer")


def test_nb11_grad_reaching_leaves_the_network_of_the_notebook_alone():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    X = torch.randn(5, 3)
    got = _grad_reaching(net, 1, X, lambda out: out.sum())
    assert torch.allclose(got, net[2].weight.expand(5, 4))
    assert not any(m._backward_hooks for m in net)
