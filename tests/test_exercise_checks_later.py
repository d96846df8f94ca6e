"""Every exercise check of notebooks 08-13 accepts the reference answer and rejects plausible
wrong ones.

The reference answers are those of the ``### BEGIN SOLUTION`` blocks of the notebooks; the wrong
ones are what a student plausibly writes: nothing, zero, the exercise's own input, a wrong sign,
a transposed matrix, an alias of a tensor that is changed afterwards.
"""

from __future__ import annotations

import pytest
from check_support import right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb08, nb09, nb10, nb12, nb13

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


# --- 09 ------------------------------------------------------------------------------------------

def g09(x):
    return torch.stack([x[0] * x[1], x[1] * x[2], x[0] + x[2] ** 2])


def test_nb09_vectors(capsys):
    right(capsys, nb09.ex1_vectors(torch.ones(3), torch.tensor([0.0, 1.0, 0.0])))
    wrong(capsys, nb09.ex1_vectors(torch.zeros(3), torch.tensor([1.0, 0.0, 0.0])), "all zeros",
          "indices start at 0")
    wrong(capsys, nb09.ex1_vectors(torch.tensor([1.0, 2.0, 3.0]), torch.tensor(1.0)), "v = x",
          "raised")
    wrong(capsys, nb09.ex1_vectors([1, 1, 1], 1), "tensor shaped like p")
    wrong(capsys, nb09.ex1_vectors(None, None), "waiting for your answer")


def test_nb09_vjp(capsys):
    x0 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.0, -1.0, 2.0])
    J = torch.autograd.functional.jacobian(g09, x0.detach())
    g09(x0).backward(w)
    right(capsys, nb09.ex2_vjp(x0.grad, g09, x0, w))
    wrong(capsys, nb09.ex2_vjp(J @ w, g09, x0, w), "J w")
    wrong(capsys, nb09.ex2_vjp(torch.ones(3) @ J, g09, x0, w), "ones")
    wrong(capsys, nb09.ex2_vjp(w, g09, x0, w), "w itself")
    wrong(capsys, nb09.ex2_vjp(-(w @ J), g09, x0, w), "sign")
    wrong(capsys, nb09.ex2_vjp(None, g09, x0, w), "waiting for your answer")


def test_nb09_rows(capsys):
    x1 = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    out = g09(x1)
    rows = torch.stack([torch.autograd.grad(out[i], x1, retain_graph=True)[0] for i in range(3)])
    right(capsys, nb09.ex3_rows(rows, g09, x1))
    wrong(capsys, nb09.ex3_rows(rows.T, g09, x1), "transpose")
    wrong(capsys, nb09.ex3_rows(rows.sum(dim=0), g09, x1), "shape")
    wrong(capsys, nb09.ex3_rows(rows[:2], g09, x1), "shape")
    wrong(capsys, nb09.ex3_rows(torch.eye(3), g09, x1), "identity")
    wrong(capsys, nb09.ex3_rows(None, g09, x1), "waiting for your answer")


def test_nb09_costs(capsys):
    rev = 10 * 256 * 256 + 10 * 256 * 784
    fwd = 256 * 256 * 784 + 10 * 256 * 784
    right(capsys, nb09.ex4_costs(rev, fwd))
    wrong(capsys, nb09.ex4_costs(fwd, rev), "other order")
    wrong(capsys, nb09.ex4_costs(10 * 256 * 256, fwd), "not the number")
    wrong(capsys, nb09.ex4_costs(float(rev), fwd), "whole number")
    wrong(capsys, nb09.ex4_costs(None, None), "waiting for your answer")


# --- 10 ------------------------------------------------------------------------------------------

def test_nb10_cube(capsys):
    right(capsys, nb10.ex1_cube(lambda x, g: g * 3 * x ** 2, "CubeBackward"))
    wrong(capsys, nb10.ex1_cube(lambda x, g: 3 * x ** 2, "CubeBackward"), "ignores grad_out")
    wrong(capsys, nb10.ex1_cube(lambda x, g: g * x ** 3, "CubeBackward"), "numerical")
    wrong(capsys, nb10.ex1_cube(lambda x, g: -g * 3 * x ** 2, "CubeBackward"), "numerical")
    wrong(capsys, nb10.ex1_cube(lambda x, g: g * 3 * x ** 2, "CubeBackward0"), "number")
    wrong(capsys, nb10.ex1_cube(lambda x, g: g * 3 * x ** 2, "PowBackward0"), "not recorded")
    wrong(capsys, nb10.ex1_cube(lambda x: x, "CubeBackward"), "raised")
    wrong(capsys, nb10.ex1_cube(None, None), "waiting for your answer")


def test_nb10_passing(capsys):
    right(capsys, nb10.ex2_passing({"A", "D"}))
    wrong(capsys, nb10.ex2_passing({"A"}), "one more")
    wrong(capsys, nb10.ex2_passing({"A", "B", "D"}), "forgets grad_out")
    wrong(capsys, nb10.ex2_passing(["A", "D"]), "set")
    wrong(capsys, nb10.ex2_passing(set()), "not the set")
    wrong(capsys, nb10.ex2_passing(None), "waiting for your answer")


def test_nb10_ste(capsys):
    right(capsys, nb10.ex3_ste(lambda x, g: g * (x.abs() <= 1)))
    wrong(capsys, nb10.ex3_ste(lambda x, g: g), "identity")
    wrong(capsys, nb10.ex3_ste(lambda x, g: g * 0), "true derivative")
    wrong(capsys, nb10.ex3_ste(lambda x, g: g * (x.abs() < 1)), "<=")
    wrong(capsys, nb10.ex3_ste(lambda x, g: (x.abs() <= 1).float()), "ignores grad_out")
    wrong(capsys, nb10.ex3_ste(lambda x, g: -g * (x.abs() <= 1)), "sign")
    wrong(capsys, nb10.ex3_ste(None), "waiting for your answer")


# --- 12 ------------------------------------------------------------------------------------------

def test_nb12_grad(capsys):
    logits = torch.tensor([2.0, 1.0, 0.1])
    p = torch.softmax(logits, dim=0)
    onehot = torch.tensor([1.0, 0.0, 0.0])
    right(capsys, nb12.ex1_grad(p - onehot, logits))
    wrong(capsys, nb12.ex1_grad(onehot - p, logits), "sign")
    wrong(capsys, nb12.ex1_grad(p, logits), "alone")
    wrong(capsys, nb12.ex1_grad(logits, logits), "logits themselves")
    wrong(capsys, nb12.ex1_grad(p - torch.tensor([0.0, 1.0, 0.0]), logits), "class is 0")
    wrong(capsys, nb12.ex1_grad(None, logits), "waiting for your answer")


def test_nb12_batch(capsys):
    torch.manual_seed(0)
    logits = torch.randn(4, 3)
    targets = torch.tensor([0, 2, 1, 2])
    g = torch.softmax(logits, dim=1) - torch.eye(3)[targets]
    right(capsys, nb12.ex2_batch(g / 4, logits, targets))
    wrong(capsys, nb12.ex2_batch(g, logits, targets), "batch size")
    wrong(capsys, nb12.ex2_batch((g / 4).T, logits, targets), "transposed")
    wrong(capsys, nb12.ex2_batch(-g / 4, logits, targets), "sign")
    wrong(capsys, nb12.ex2_batch(torch.softmax(logits, dim=1) / 4, logits, targets), "one-hot")
    wrong(capsys, nb12.ex2_batch(None, logits, targets), "waiting for your answer")


def test_nb12_stable(capsys):
    right(capsys, nb12.ex3_stable(
        lambda a: (a - a.max()) - torch.log(torch.exp(a - a.max()).sum())))
    wrong(capsys, nb12.ex3_stable(lambda a: torch.log(torch.exp(a) / torch.exp(a).sum())),
          "not finite")
    wrong(capsys, nb12.ex3_stable(lambda a: torch.log(torch.softmax(a, dim=0))), "not finite")
    wrong(capsys, nb12.ex3_stable(lambda a: a - a.max()), "log-sum-exp term")
    wrong(capsys, nb12.ex3_stable(lambda a: a - torch.log(torch.exp(a - a.max()).sum())),
          "does not match")
    wrong(capsys, nb12.ex3_stable(lambda a: (a - a.max()).tolist()), "tensor")
    wrong(capsys, nb12.ex3_stable(None), "waiting for your answer")


def _five_step_loss():
    torch.manual_seed(0)
    W = torch.randn(3, 4, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    x = torch.randn(4)
    logp = torch.log(torch.softmax(W @ x + b, dim=0))
    return -logp[2]


def test_nb12_chain(capsys):
    L = _five_step_loss()
    good = ["NegBackward0", "SelectBackward0", "LogBackward0", "SoftmaxBackward0", "AddBackward0",
            "MvBackward0"]
    right(capsys, nb12.ex4_chain(good, L))
    wrong(capsys, nb12.ex4_chain(good[::-1], L), "forward order")
    wrong(capsys, nb12.ex4_chain(good + ["torch::autograd::AccumulateGrad"], L), "stop before")
    wrong(capsys, nb12.ex4_chain([n for n in good if n != "SelectBackward0"], L), "missing")
    wrong(capsys, nb12.ex4_chain(["NllLossBackward0", "LogSoftmaxBackward0", "AddBackward0",
                                  "MvBackward0"], L), "missing")
    wrong(capsys, nb12.ex4_chain("NegBackward0", L), "list")
    wrong(capsys, nb12.ex4_chain(None, L), "waiting for your answer")


# --- 13 ------------------------------------------------------------------------------------------

def _regression():
    torch.manual_seed(0)
    X = torch.randn(64, 2)
    y = X @ torch.tensor([[3.0], [-2.0]]) + 1.0 + 0.1 * torch.randn(64, 1)
    return X, y


def _fit(X, y, body):
    torch.manual_seed(2)
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(100):
        body(model, opt, X, y)
    return model


def test_nb13_loop(capsys):
    import autograd_lab.nn.functional as F

    X, y = _regression()

    def good(model, opt, X, y):
        opt.zero_grad()
        F.mse_loss(model(X), y).backward()
        opt.step()

    def no_step(model, opt, X, y):
        opt.zero_grad()
        F.mse_loss(model(X), y).backward()

    def ascent(model, opt, X, y):
        opt.zero_grad()
        (-F.mse_loss(model(X), y)).backward()
        opt.step()

    right(capsys, nb13.ex1_loop(_fit(X, y, good), torch.tensor(0.01)))
    wrong(capsys, nb13.ex1_loop(_fit(X, y, no_step), torch.tensor(9.0)), "should get close")
    wrong(capsys, nb13.ex1_loop(_fit(X, y, ascent), torch.tensor(1e9)))
    wrong(capsys, nb13.ex1_loop(torch.nn.Linear(2, 1), ...), "waiting for your answer")


def _history(store):
    import autograd_lab.nn.functional as F
    from autograd_lab.teaching.data import make_moons

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
    return history, mem, nb13.replay_losses(Xm, ym)


def test_nb13_history(capsys):
    right(capsys, nb13.ex2_history(*_history(lambda loss: loss.item())))
    with pytest.warns(UserWarning, match="Converting a tensor with requires_grad=True"):
        right(capsys, nb13.ex2_history(*_history(lambda loss: float(loss))))
    wrong(capsys, nb13.ex2_history(*_history(lambda loss: 0.0)), "not the losses")
    wrong(capsys, nb13.ex2_history(*_history(lambda loss: loss)), "with their graphs")
    wrong(capsys, nb13.ex2_history(*_history(lambda loss: loss.detach())), "not floats")
    wrong(capsys, nb13.ex2_history(*_history(lambda loss: loss.item() * 2)), "not the losses")
    wrong(capsys, nb13.ex2_history(*_history(lambda loss: str(loss.item()))), "str")
    wrong(capsys, nb13.ex2_history(*_history(lambda loss: None)), "waiting for your answer")


def _stepped(make_prediction):
    import autograd_lab.nn.functional as F

    X, y = _regression()
    torch.manual_seed(3)
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    F.mse_loss(model(X), y).backward()
    before, grad = model.weight.tolist(), model.weight.grad.tolist()
    predicted = make_prediction(model.weight)
    opt.step()
    return predicted, model.weight, before, grad


def test_nb13_step(capsys):
    right(capsys, nb13.ex3_step(*_stepped(lambda w: w.detach().clone() - 0.05 * w.grad)))
    right(capsys, nb13.ex3_step(*_stepped(lambda w: w.detach() - 0.05 * w.grad)))
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: w.detach())), "shares memory")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: w)), "shares memory")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: w.detach().clone())), "before the step")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: w.detach() + 0.05 * w.grad)), "sign")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: w.detach() - w.grad)), "learning rate")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: (w.detach() - 0.05 * w.grad).T)),
          "transposed")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: 0.0)), "tensor")
    wrong(capsys, nb13.ex3_step(*_stepped(lambda w: None)), "waiting for your answer")


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


def test_nb13_freeze(capsys):
    def all_params(net):
        for p in net[0].parameters():
            p.requires_grad_(False)
        return torch.optim.SGD(net.parameters(), lr=0.1)

    def not_frozen(net):
        return torch.optim.SGD(net[2].parameters(), lr=0.1)

    def only_weight(net):
        net[0].weight.requires_grad_(False)
        return torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)

    right(capsys, nb13.ex4_freeze(*_fine_tune(_freeze(0))))
    wrong(capsys, nb13.ex4_freeze(*_fine_tune(all_params)), "still holds 2 frozen")
    wrong(capsys, nb13.ex4_freeze(*_fine_tune(not_frozen)), "not frozen")
    wrong(capsys, nb13.ex4_freeze(*_fine_tune(_freeze(2))), "still require grad")
    wrong(capsys, nb13.ex4_freeze(*_fine_tune(only_weight)), "still require grad")
    wrong(capsys, nb13.ex4_freeze(*_fine_tune(lambda net: None)), "waiting for your answer")
