"""Exercise checks of notebook 11's module hooks and of notebook 13b (training-loop bugs,
frozen layers): the reference answer passes on fresh variants; wrong answers and shortcuts
are rejected with a message that names the mistake."""

from __future__ import annotations

import gc

import pytest
from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab import nn
from autograd_lab.teaching.checks import nb11, nb13b

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


# --- 13b · exercise 1: a loss history that keeps no graph ------------------------------------------

def _history(store):
    import autograd_lab.nn.functional as F
    from autograd_lab.teaching.data import make_moons

    gc.collect()  # what earlier tests left in reference cycles is freed now, not mid-loop
    Xm, ym = make_moons(200, noise=0.25, seed=0)
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    history, mem = [], []
    for _ in range(5):
        opt.zero_grad()
        loss = F.cross_entropy(net(Xm), ym)
        loss.backward()
        opt.step()
        history.append(store(loss))
        mem.append(torch.memory_allocated())
    return history, mem


def test_nb13b_history(capsys):
    right(capsys, nb13b.ex1_history(*_history(lambda loss: loss.item())))
    with pytest.warns(UserWarning, match="Converting a tensor with requires_grad=True"):
        right(capsys, nb13b.ex1_history(*_history(lambda loss: float(loss))))
    wrong(capsys, nb13b.ex1_history(*_history(lambda loss: 0.0)), "not the losses")
    wrong(capsys, nb13b.ex1_history(*_history(lambda loss: loss)), "with their graphs")
    wrong(capsys, nb13b.ex1_history(*_history(lambda loss: loss.detach())), "not floats")
    wrong(capsys, nb13b.ex1_history(*_history(lambda loss: loss.item() * 2)), "not the losses")
    wrong(capsys, nb13b.ex1_history(*_history(lambda loss: str(loss.item()))), "floats")
    wrong(capsys, nb13b.ex1_history(*_history(lambda loss: None)), "waiting for your answer")


def test_nb13b_history_through_the_registry():
    history, mem = _history(lambda loss: loss.item())
    passes(nb13b, "ex1", {"history": history, "mem": mem})
    history, mem = _history(lambda loss: loss)
    fails(nb13b, "ex1", {"history": history, "mem": mem}, "with their graphs")
    history, mem = _history(lambda loss: round(loss.item(), 1))
    fails(nb13b, "ex1", {"history": history, "mem": mem}, "not the losses")


# --- 13b · exercise 2: freeze the first layer ------------------------------------------------------

def _fine_tune(prepare):
    import autograd_lab.nn.functional as F
    from autograd_lab.teaching.data import make_moons

    Xm, ym = make_moons(200, noise=0.25, seed=0)
    torch.manual_seed(4)
    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
    first = [p.detach().clone() for p in net[0].parameters()]
    last = [p.detach().clone() for p in net[2].parameters()]
    opt = prepare(net)
    if opt is not None:
        for _ in range(20):
            opt.zero_grad()
            F.cross_entropy(net(Xm), ym).backward()
            opt.step()
    return net, opt, first, last


def _freeze(layer):
    def prepare(net):
        for p in net[layer].parameters():
            p.requires_grad_(False)
        return torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)
    return prepare


def test_nb13b_freeze(capsys):
    def all_params(net):
        for p in net[0].parameters():
            p.requires_grad_(False)
        return torch.optim.SGD(net.parameters(), lr=0.1)

    def not_frozen(net):
        return torch.optim.SGD(net[2].parameters(), lr=0.1)

    def only_weight(net):
        net[0].weight.requires_grad_(False)
        return torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)

    right(capsys, nb13b.ex2_freeze(*_fine_tune(_freeze(0))))
    wrong(capsys, nb13b.ex2_freeze(*_fine_tune(all_params)), "still holds frozen")
    wrong(capsys, nb13b.ex2_freeze(*_fine_tune(not_frozen)), "not frozen")
    wrong(capsys, nb13b.ex2_freeze(*_fine_tune(_freeze(2))), "still require grad")
    wrong(capsys, nb13b.ex2_freeze(*_fine_tune(only_weight)), "still require grad")
    wrong(capsys, nb13b.ex2_freeze(*_fine_tune(lambda net: None)), "waiting for your answer")


def test_nb13b_freeze_through_the_registry():
    def freeze_ns(prepare):
        net, opt, first, last = _fine_tune(prepare)
        return {"ft_net": net, "ft_opt": opt, "first_before": first, "last_before": last}

    def all_params(net):
        for p in net[0].parameters():
            p.requires_grad_(False)
        return torch.optim.SGD(net.parameters(), lr=0.1)

    passes(nb13b, "ex2", freeze_ns(_freeze(0)))
    fails(nb13b, "ex2", freeze_ns(_freeze(2)), "still require grad")
    fails(nb13b, "ex2", freeze_ns(all_params), "frozen parameters")


# --- 11 · exercise 7: an SGD step inside backward ----------------------------------------------


def _attach_sgd(model, lr):
    def step(p):
        with torch.no_grad():
            p -= lr * p.grad
        p.grad = None
    return [p.register_post_accumulate_grad_hook(step) for p in model.parameters()]


def _keeps_grad(model, lr):
    def step(p):
        with torch.no_grad():
            p -= lr * p.grad
    return [p.register_post_accumulate_grad_hook(step) for p in model.parameters()]


def _in_a_tensor_hook(model, lr):
    def step(p):
        def hook(grad):
            with torch.no_grad():
                p.sub_(lr * grad)
            return torch.zeros_like(grad)
        return hook
    return [p.register_hook(step(p)) for p in model.parameters()]


def _sgd_hook(lr):
    def step(p):
        with torch.no_grad():
            p -= lr * p.grad
        p.grad = None
    return step


def _weights_only(model, lr):
    return [p.register_post_accumulate_grad_hook(_sgd_hook(lr))
            for p in model.parameters() if p.dim() == 2]


def _no_handles(model, lr):
    for p in model.parameters():
        p.register_post_accumulate_grad_hook(_sgd_hook(lr))
    return [None]


def _fixed_rate(model, lr):
    return [p.register_post_accumulate_grad_hook(_sgd_hook(0.1)) for p in model.parameters()]


def test_nb11_attach_sgd_through_the_registry():
    passes(nb11, "ex7", {"attach_sgd": _attach_sgd})
    fails(nb11, "ex7", {"attach_sgd": _keeps_grad}, "p.grad = None")
    fails(nb11, "ex7", {"attach_sgd": _in_a_tensor_hook}, "post-accumulate hooks")
    fails(nb11, "ex7", {"attach_sgd": _weights_only}, "of the 4 parameters")
    fails(nb11, "ex7", {"attach_sgd": _no_handles}, "handles")
    fails(nb11, "ex7", {"attach_sgd": _fixed_rate}, "optim.SGD", fixed=False)
    fails(nb11, "ex7", {"attach_sgd": lambda model, lr: []}, "post-accumulate hooks")


def test_nb11_attach_sgd_in_the_notebook(capsys):
    right(capsys, nb11.check_attach_sgd(_attach_sgd))
    wrong(capsys, nb11.check_attach_sgd(_keeps_grad), "p.grad = None")
    wrong(capsys, nb11.check_attach_sgd(lambda model, lr: ...), "waiting for your answer")
