"""Exercise checks of notebooks 12-15 (softmax cross-entropy, the training loop, anomaly
detection, truncated BPTT).

Each check passes the reference answer and rejects plausible wrong ones and the shortcuts its
exercise forbids, in the notebook and through collect and judge on fresh inputs.
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace

from check_support import fails, passes, right, wrong

import autograd_lab as torch
from autograd_lab.teaching.checks import nb12, nb13, nb14, nb15


def _right(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert fb, out
    assert "✓" in out and "✗" not in out


def _wrong(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert not fb, out
    assert "✗" in out or "…" in out


# --- 12 ------------------------------------------------------------------------------------------

def _ce_grad(logits, target):
    return torch.softmax(logits, dim=0) - torch.eye(len(logits))[target]


def _ce_by_autograd(logits, target):
    """The shortcut: autograd.grad where the exercise asks for the formula."""
    a = logits.detach().requires_grad_()
    return torch.autograd.grad(-torch.log_softmax(a, dim=0)[target], a)[0]


def test_nb12_grad(capsys):
    right(capsys, nb12.ex1_grad(_ce_grad))
    wrong(capsys, nb12.ex1_grad(lambda a, t: -_ce_grad(a, t)), "sign")
    wrong(capsys, nb12.ex1_grad(lambda a, t: torch.softmax(a, dim=0)), "alone")
    wrong(capsys, nb12.ex1_grad(lambda a, t: a), "logits themselves")
    wrong(capsys, nb12.ex1_grad(_ce_by_autograd), "backward pass")
    wrong(capsys, nb12.ex1_grad(None), "waiting for your answer")


def test_nb12_grad_through_the_registry():
    passes(nb12, "ex1", {"ce_grad": _ce_grad})
    fails(nb12, "ex1", {"ce_grad": _ce_by_autograd}, "formula")
    fails(nb12, "ex1", {"ce_grad": lambda a, t: _ce_grad(a, 0)}, fixed=False)
    fails(nb12, "ex1", {"ce_grad": lambda a, t: torch.tensor([-0.3410, 0.2424, 0.0986])})


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


def _stable(a):
    return (a - a.max()) - torch.log(torch.exp(a - a.max()).sum())


def test_nb12_stable(capsys):
    right(capsys, nb12.ex3_stable(_stable))
    wrong(capsys, nb12.ex3_stable(lambda a: torch.log(torch.exp(a) / torch.exp(a).sum())),
          "not finite")
    wrong(capsys, nb12.ex3_stable(lambda a: a - a.max()), "log-sum-exp term")
    wrong(capsys, nb12.ex3_stable(lambda a: a - torch.log(torch.exp(a - a.max()).sum())),
          "does not match")
    wrong(capsys, nb12.ex3_stable(lambda a: (a - a.max()).tolist()), "tensor")
    wrong(capsys, nb12.ex3_stable(lambda a: torch.log_softmax(a, dim=0)), "calls log_softmax")
    wrong(capsys, nb12.ex3_stable(None), "waiting for your answer")


def test_nb12_stable_through_the_registry():
    import autograd_lab.nn.functional as F

    passes(nb12, "ex3", {"stable_log_softmax": _stable})
    # the shortcut: calling log_softmax itself, by any of its names
    for cheat in (lambda a: torch.log_softmax(a, dim=0), lambda a: a.log_softmax(0),
                  lambda a: F.log_softmax(a, dim=0)):
        fails(nb12, "ex3", {"stable_log_softmax": cheat}, "calls log_softmax")
    fails(nb12, "ex3", {"stable_log_softmax": lambda a: torch.log(torch.softmax(a, 0))},
          "calls softmax")
    fails(nb12, "ex3", {"stable_log_softmax": lambda a: a - torch.logsumexp(a, 0)},
          "calls logsumexp")
    fails(nb12, "ex3", {"stable_log_softmax": lambda a: a - torch.log(torch.exp(a).sum())},
          "not finite")


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

def _train_step(model, opt, X, y):
    import autograd_lab.nn.functional as F

    opt.zero_grad()
    loss = F.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    return loss


def _set_weights(model, opt, X, y):
    """The shortcut: the weights set directly instead of learned."""
    import autograd_lab.nn.functional as F

    with torch.no_grad():
        model.weight.copy_(torch.tensor([[3.0, -2.0]]))
        model.bias.fill_(1.0)
    return F.mse_loss(model(X), y)


def test_nb13_loop(capsys):
    import autograd_lab.nn.functional as F

    def no_step(model, opt, X, y):
        opt.zero_grad()
        loss = F.mse_loss(model(X), y)
        loss.backward()
        return loss

    def no_zero(model, opt, X, y):
        loss = F.mse_loss(model(X), y)
        loss.backward()
        opt.step()
        return loss

    right(capsys, nb13.ex1_loop(_train_step))
    wrong(capsys, nb13.ex1_loop(no_step), "never moved")
    wrong(capsys, nb13.ex1_loop(no_zero), "accumulate")
    wrong(capsys, nb13.ex1_loop(_set_weights), "backward passes")
    wrong(capsys, nb13.ex1_loop(None), "waiting for your answer")


def test_nb13_loop_through_the_registry():
    passes(nb13, "ex1", {"train_step": _train_step})
    fails(nb13, "ex1", {"train_step": _set_weights})

    def twice(model, opt, X, y):
        _train_step(model, opt, X, y)
        return _train_step(model, opt, X, y)

    fails(nb13, "ex1", {"train_step": twice}, "backward passes")

    def no_loss(model, opt, X, y):
        _train_step(model, opt, X, y)

    fails(nb13, "ex1", {"train_step": no_loss}, "return each step's loss")


def _regression():
    torch.manual_seed(0)
    X = torch.randn(64, 2)
    y = X @ torch.tensor([[3.0], [-2.0]]) + 1.0 + 0.1 * torch.randn(64, 1)
    return X, y


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
    right(capsys, nb13.ex2_step(*_stepped(lambda w: w.detach().clone() - 0.05 * w.grad)))
    right(capsys, nb13.ex2_step(*_stepped(lambda w: w.detach() - 0.05 * w.grad)))
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: w.detach())), "shares memory")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: w)), "shares memory")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: w.detach().clone())), "before the step")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: w.detach() + 0.05 * w.grad)), "sign")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: w.detach() - w.grad)), "learning rate")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: (w.detach() - 0.05 * w.grad).T)),
          "transposed")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: 0.0)), "tensor")
    wrong(capsys, nb13.ex2_step(*_stepped(lambda w: None)), "waiting for your answer")


# ---- notebook 15 · Truncated BPTT ----------------------------------------------------------

_H, _T = 4, 48


def _seq() -> torch.Tensor:
    torch.manual_seed(0)
    t = torch.arange(_T + 1, dtype=torch.float32)
    return torch.sin(0.2 * t) + 0.1 * torch.randn(_T + 1)


def _make_params() -> list:
    torch.manual_seed(1)
    return [(0.3 * torch.randn(_H, _H)).requires_grad_(), (0.5 * torch.randn(_H, 1)).requires_grad_(),
            torch.zeros(_H, requires_grad=True), (0.3 * torch.randn(_H)).requires_grad_()]


def _chunk_loss(params, h, seq, start, length):
    """The notebook's model: h_t = tanh(W_h h + W_x x_t + b), predicting x_{t+1} by w_o · h_t."""
    w_h, w_x, b, w_o = params
    loss = 0.0
    for i in range(start, start + length):
        h = (w_h @ h + w_x @ seq[i:i + 1] + b).tanh()
        loss = loss + (w_o @ h - seq[i + 1]) ** 2
    return loss / length, h


def _epoch(seq, carry=lambda h: h.detach(), zero_grad=True, step=True, as_tensor=False) -> list:
    params = _make_params()
    opt = torch.optim.SGD(params, lr=0.1)
    h, losses = torch.zeros(_H), []
    for start in range(0, _T, 8):
        loss, h = _chunk_loss(params, carry(h), seq, start, 8)
        if zero_grad:
            opt.zero_grad()
        loss.backward()
        if step:
            opt.step()
        losses.append(loss if as_tensor else loss.item())
    return losses


def test_nb15_carry(capsys):
    _right(nb15.check_carry(lambda h: h.detach()), capsys)
    _right(nb15.check_carry(lambda h: h.detach().clone()), capsys)

    def placeholder(h):
        return ...

    for bad in (None, ..., 0, placeholder, lambda h: h, lambda h: h.clone(), lambda h: h * 1,
                  lambda h: torch.zeros_like(h), lambda h: -h.detach(), lambda h: h.detach()[:2],
                  lambda h: h.tolist()):
        _wrong(nb15.check_carry(bad), capsys)


def test_nb15_tbptt(capsys):
    seq = _seq()

    def check(losses):
        return nb15.check_tbptt(losses, _make_params, seq, chunk_len=8, lr=0.1)

    right = _epoch(seq)
    _right(check(right), capsys)
    for bad in (None, ..., [], 0, right[:-1], [-v for v in right],
                  _epoch(seq, carry=lambda h: torch.zeros(_H)),   # the state reset each chunk
                  _epoch(seq, zero_grad=False),                   # gradients pile up
                  _epoch(seq, step=False),                        # never updated
                  _epoch(seq, as_tensor=True)):                   # tensors keep their graphs
        _wrong(check(bad), capsys)


def test_nb15_node_counts(capsys):
    _right(nb15.check_node_counts(1085, 185), capsys)
    for bad in ((None, None), (..., 185), (185, 185), (1085, 1085), (925, 185), (985, 185),
                  (0, 0), (1085, 100)):
        _wrong(nb15.check_node_counts(*bad), capsys)


def test_nb15_grad_at_chunk_start(capsys):
    seq = _seq()
    params = _make_params()
    with torch.no_grad():
        _, h_start = _chunk_loss(params, torch.zeros(_H), seq, 0, 20)
    h0 = h_start.detach().requires_grad_()
    loss, _ = _chunk_loss(params, h0, seq, 20, 10)
    loss.backward()
    args = (params, h_start, seq, 20, 10)
    _right(nb15.check_grad_at_chunk_start(h0.grad, *args), capsys)
    for bad in (None, ..., 0, h0.detach(), -h0.grad, torch.zeros(_H), h0.grad[:2],
                  params[0].grad):
        _wrong(nb15.check_grad_at_chunk_start(bad, *args), capsys)


def test_nb15_tbptt_check_leaves_the_random_state_alone(capsys):
    seq = _seq()
    right = _epoch(seq)
    torch.manual_seed(123)
    expected = torch.randn(3)
    torch.manual_seed(123)
    nb15.check_tbptt(right, _make_params, seq, chunk_len=8, lr=0.1)
    assert torch.equal(torch.randn(3), expected)
    capsys.readouterr()
# ---- notebook 14 · Anomaly detection --------------------------------------------------------

def _anomaly_message(fn) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with torch.autograd.detect_anomaly():
                fn()
        except RuntimeError as e:
            return str(e)
    return None


def _anomaly(x):
    try:
        with torch.autograd.detect_anomaly():
            torch.where(x > 0, x.sqrt(), 0.0).sum().backward()
    except RuntimeError as e:
        return str(e)
    return None


_TYPED = "Function 'SqrtBackward0' returned nan values in its 0th output."


def test_nb14_message(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _right(nb14.check_message(_anomaly), capsys)
        for bad in (None, ..., _TYPED, lambda x: _TYPED, lambda x: None, lambda x: 0,
                    lambda x: _anomaly(x).replace("Sqrt", "Where") if _anomaly(x) else None):
            _wrong(nb14.check_message(bad), capsys)


def test_nb14_message_through_the_registry():
    passes(nb14, "ex1", {"anomaly_message": _anomaly})
    # the shortcut: typing the error message
    fails(nb14, "ex1", {"anomaly_message": lambda x: _TYPED}, "typed in")

    def typed_when_zero(x):
        return _TYPED if bool((x <= 0).any()) else None

    fails(nb14, "ex1", {"anomaly_message": typed_when_zero}, "typed in")

    def without_anomaly_mode(x):
        torch.where(x > 0, x.sqrt(), 0.0).sum().backward()
        return _TYPED if bool((x <= 0).any()) else None

    fails(nb14, "ex1", {"anomaly_message": without_anomaly_mode}, "without anomaly mode")


def test_nb14_culprit_is_formative():
    from autograd_lab.teaching.grading import EXERCISES

    ex = EXERCISES[nb14.NOTEBOOK]["ex3"]
    assert not ex.graded and "trying them all" in ex.formative_reason
    passes(nb14, "ex3", {"node_name": "MulBackward0", "function_name": "features"})
    fails(nb14, "ex3", {"node_name": "SqrtBackward0", "function_name": "features"})


def test_nb14_safe_sqrt(capsys):
    _right(nb14.check_safe_sqrt(lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(),
                                                      0.0)), capsys)
    _right(nb14.check_safe_sqrt(lambda x: x.clamp(min=1e-12).sqrt()), capsys)

    def placeholder(x):
        return ...

    for bad in (None, ..., 0, placeholder, lambda x: x,
                  lambda x: torch.where(x > 0, x.sqrt(), 0.0),           # nan gradient at 0
                  lambda x: x.sqrt(),                                      # nan value below 0
                  lambda x: (x + 1e-12).sqrt(),                            # nan value below 0
                  lambda x: x.abs().sqrt(),                                # wrong value below 0
                  lambda x: -torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0),
                  lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0).detach(),
                  lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0).tolist()):
        _wrong(nb14.check_safe_sqrt(bad), capsys)


def test_nb14_culprit(capsys):
    _right(nb14.check_culprit("MulBackward0", "features"), capsys)
    for bad in ((None, None), (..., "features"), ("SqrtBackward0", "radius"),
                  ("MulBackward0", "radius"), ("SqrtBackward0", "features"),
                  ("MulBackward0", "loss_fn2"), (0, 0)):
        _wrong(nb14.check_culprit(*bad), capsys)


def test_nb14_safe_sqrt_and_nb15_through_the_registry():
    passes(nb14, "ex2", {"safe_sqrt": lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0)
                                                            .sqrt(), 0.0)})
    fails(nb14, "ex2", {"safe_sqrt": lambda x: torch.where(x > 0, x.sqrt(), 0.0)}, "not finite")
    fails(nb14, "ex2", {"safe_sqrt": lambda x: x.clamp(min=0).sqrt()}, "not finite")
    passes(nb15, "ex1", {"carry": lambda h: h.detach()})
    fails(nb15, "ex1", {"carry": lambda h: h.clone()}, "grad_fn=CloneBackward0")
    fails(nb15, "ex1", {"carry": lambda h: torch.zeros_like(h)}, "state's values")


def test_nb15_tbptt_has_no_reference_to_call():
    """The shortcut ``nb15.reference_losses(...)`` is gone; the judge replays the epoch itself."""
    assert not hasattr(nb15, "reference_losses") and not hasattr(nb15, "chunk_loss")
    seq = _seq()
    losses = []
    params = _make_params()
    opt = torch.optim.SGD(params, lr=0.1)
    h = torch.zeros(_H)
    for start in range(0, _T // 20 * 20, 20):  # whole chunks of 20 steps, as in the notebook
        loss, h = _chunk_loss(params, h.detach(), seq, start, 20)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    ns = {"chunk_losses": losses, "make_params": _make_params, "seq": seq}
    passes(nb15, "ex2", ns)
    fails(nb15, "ex2", {**ns, "chunk_losses": losses[::-1]})
    fails(nb15, "ex2", {**ns, "chunk_losses": losses[:-1]}, "chunks")


def test_nb12_batch_nb13_step_and_nb15_start_through_the_registry():
    torch.manual_seed(0)
    logits, targets = torch.randn(4, 3), torch.tensor([0, 2, 1, 2])
    g = (torch.softmax(logits, dim=1) - torch.eye(3)[targets]) / 4
    passes(nb12, "ex2", {"grad_batch": g, "batch_logits": logits, "targets": targets})
    fails(nb12, "ex2", {"grad_batch": g * 4, "batch_logits": logits, "targets": targets},
          "summed loss")
    fails(nb12, "ex2", {"grad_batch": g.T, "batch_logits": logits, "targets": targets})

    def step_ns(make):
        predicted, weight, before, grad = _stepped(make)
        return {"predicted": predicted, "p_model": SimpleNamespace(weight=weight),
                "weight_before": before, "grad_before": grad}

    passes(nb13, "ex2", step_ns(lambda w: w.detach().clone() - 0.05 * w.grad))
    fails(nb13, "ex2", step_ns(lambda w: w.detach()), "shares memory")
    fails(nb13, "ex2", step_ns(lambda w: w.detach().clone() + 0.05 * w.grad), "sign")
    seq, params = torch.sin(0.2 * torch.arange(150, dtype=torch.float32)), _make_params()
    with torch.no_grad():  # the notebook's chunk: 20 steps from step 100
        _, h_start = _chunk_loss(params, torch.zeros(_H), seq, 0, 100)
    h0 = h_start.detach().requires_grad_()
    loss, _ = _chunk_loss(params, h0, seq, 100, 20)
    loss.backward()
    ns = {"grad_h0": h0.grad, "params": params, "h_start": h_start, "seq": seq}
    passes(nb15, "ex4", ns)
    fails(nb15, "ex4", {**ns, "grad_h0": -h0.grad})
    fails(nb15, "ex4", {**ns, "grad_h0": torch.zeros(_H)})
