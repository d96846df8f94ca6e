"""The exercise checks of notebooks 11, 14 and 15 reject plausible wrong answers.

For every exercise: the reference answer passes, and at least two wrong answers (None or
the student copy's ``...``, 0, the question's own input, a wrong sign, an alias of a tensor
that is later mutated, a wrong shape) fail -- each with a line of feedback. Also the
helper that shows notebook 14's warnings without the paths of the machine that ran it.
"""

from __future__ import annotations

import warnings

import pytest

import autograd_lab as torch
from autograd_lab.teaching.checks import nb11, nb14, nb15
from autograd_lab.teaching.shown_warnings import format_warning, shown_warnings


def _right(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert fb, out
    assert "✓" in out and "✗" not in out


def _wrong(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert not fb, out
    assert "✗" in out or "…" in out


# ---- notebook 11 · Tensor hooks ----------------------------------------------------------

def _spy_reference() -> torch.Tensor:
    x = torch.tensor(nb11.SPY_X, requires_grad=True)
    h = 3 * x
    seen = []
    h.register_hook(lambda g: seen.append(g))
    (h**2).sum().backward()
    return seen[0]


def test_nb11_spy(capsys):
    _right(nb11.check_spy(_spy_reference()), capsys)
    x = torch.tensor(nb11.SPY_X, requires_grad=True)
    h = 3 * x
    (h**2).sum().backward()
    for wrong in (None, ..., 0, h.detach(), x.grad, -_spy_reference(), [6.0, -12.0, 18.0]):
        _wrong(nb11.check_spy(wrong), capsys)


def test_nb11_clip_hook(capsys):
    _right(nb11.check_clip_hook(lambda g: g.clamp(-1.0, 1.0)), capsys)

    def placeholder(g):
        return ...

    for wrong in (None, ..., 0, placeholder, lambda g: g, lambda g: g.clamp(0.0, 1.0),
                  lambda g: -g.clamp(-1.0, 1.0), lambda g: None, lambda g: 1.0,
                  lambda g: g.clamp(-1.0, 1.0).sum()):
        _wrong(nb11.check_clip_hook(wrong), capsys)


def _clip_norm(grad, max_norm=1.0):
    norm = grad.norm()
    return grad * (max_norm / norm) if norm > max_norm else grad


def _handle_case(register: bool, remove: bool, target_other: bool = False):
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    other = torch.tensor([3.0, 4.0], requires_grad=True)
    handle = (other if target_other else w).register_hook(_clip_norm) if register else None
    (w * w).sum().backward()
    first = w.grad.clone()
    if remove and handle is not None:
        handle.remove()
    return handle, first, w


def test_nb11_handle_removed(capsys):
    _right(nb11.check_handle_removed(*_handle_case(True, True)), capsys)
    _wrong(nb11.check_handle_removed(*_handle_case(False, False)), capsys)  # None
    _wrong(nb11.check_handle_removed(*_handle_case(True, False)), capsys)  # never removed
    _wrong(nb11.check_handle_removed(*_handle_case(True, True, target_other=True)), capsys)
    _, first, w = _handle_case(True, True)
    _wrong(nb11.check_handle_removed(..., first, w), capsys)
    _wrong(nb11.check_handle_removed(0, first, w), capsys)
    # first as an alias of w.grad, which a later backward then changes in place
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    handle = w.register_hook(_clip_norm)
    (w * w).sum().backward()
    first = w.grad
    handle.remove()
    (w * w).sum().backward()
    _wrong(nb11.check_handle_removed(handle, first, w), capsys)


def test_nb11_order(capsys):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda grad: grad * 10)
    x.register_hook(lambda grad: grad + 1)
    y.sum().backward()
    _right(nb11.check_order(y.grad, x.grad), capsys)
    _right(nb11.check_order([10.0, 10.0], [31.0, 31.0]), capsys)
    for y_grad, x_grad in ((None, None), (..., [31.0, 31.0]), ([1.0, 1.0], [31.0, 31.0]),
                           ([10.0, 10.0], [30.0, 30.0]), ([10.0, 10.0], [4.0, 4.0]),
                           (0, 0), ([10.0, 10.0], [-31.0, -31.0]), ([10.0], [31.0])):
        _wrong(nb11.check_order(y_grad, x_grad), capsys)


def test_nb11_same_shape_hook(capsys):
    _right(nb11.check_same_shape_hook(lambda g: g.mean().expand_as(g)), capsys)
    _right(nb11.check_same_shape_hook(lambda g: torch.full_like(g, g.mean().item())), capsys)
    for wrong in (None, ..., lambda g: g.mean(), lambda g: g, lambda g: g.sum().expand_as(g),
                  lambda g: g.mean().item(), lambda g: -g.mean().expand_as(g)):
        _wrong(nb11.check_same_shape_hook(wrong), capsys)


@pytest.mark.parametrize("check", [nb11.check_spy, nb11.check_clip_hook,
                                   nb11.check_same_shape_hook])
def test_nb11_placeholder_says_no_answer(check, capsys):
    assert not check(...)
    assert "waiting for your answer" in capsys.readouterr().out


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


def _epoch(seq, carry=lambda h: h.detach(), zero_grad=True, step=True, as_tensor=False) -> list:
    params = _make_params()
    opt = torch.optim.SGD(params, lr=0.1)
    h, losses = torch.zeros(_H), []
    for start in range(0, _T, 8):
        loss, h = nb15.chunk_loss(params, carry(h), seq, start, 8)
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

    for wrong in (None, ..., 0, placeholder, lambda h: h, lambda h: h.clone(), lambda h: h * 1,
                  lambda h: torch.zeros_like(h), lambda h: -h.detach(), lambda h: h.detach()[:2],
                  lambda h: h.tolist()):
        _wrong(nb15.check_carry(wrong), capsys)


def test_nb15_tbptt(capsys):
    seq = _seq()

    def check(losses):
        return nb15.check_tbptt(losses, _make_params, seq, chunk_len=8, lr=0.1)

    right = _epoch(seq)
    _right(check(right), capsys)
    for wrong in (None, ..., [], 0, right[:-1], [-v for v in right],
                  _epoch(seq, carry=lambda h: torch.zeros(_H)),   # the state reset each chunk
                  _epoch(seq, zero_grad=False),                   # gradients pile up
                  _epoch(seq, step=False),                        # never updated
                  _epoch(seq, as_tensor=True)):                   # tensors keep their graphs
        _wrong(check(wrong), capsys)


def test_nb15_node_counts(capsys):
    _right(nb15.check_node_counts(1085, 185), capsys)
    for wrong in ((None, None), (..., 185), (185, 185), (1085, 1085), (925, 185), (985, 185),
                  (0, 0), (1085, 100)):
        _wrong(nb15.check_node_counts(*wrong), capsys)


def test_nb15_grad_at_chunk_start(capsys):
    seq = _seq()
    params = _make_params()
    with torch.no_grad():
        _, h_start = nb15.chunk_loss(params, torch.zeros(_H), seq, 0, 20)
    h0 = h_start.detach().requires_grad_()
    loss, _ = nb15.chunk_loss(params, h0, seq, 20, 10)
    loss.backward()
    args = (params, h_start, seq, 20, 10)
    _right(nb15.check_grad_at_chunk_start(h0.grad, *args), capsys)
    for wrong in (None, ..., 0, h0.detach(), -h0.grad, torch.zeros(_H), h0.grad[:2],
                  params[0].grad):
        _wrong(nb15.check_grad_at_chunk_start(wrong, *args), capsys)


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


def test_nb14_message(capsys):
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    right = _anomaly_message(lambda: torch.where(x > 0, x.sqrt(), 0.0).sum().backward())
    _right(nb14.check_message(right), capsys)
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    distance_message = _anomaly_message(lambda: ((p - p.detach()) ** 2).sum().sqrt().backward())
    y = torch.where(x > 0, x.sqrt(), 0.0)
    y.sum().backward()  # outside anomaly mode: no error, a nan gradient
    for wrong in (None, ..., "", 0, distance_message, RuntimeError(right), x.grad,
                  right.replace("Sqrt", "Where")):
        _wrong(nb14.check_message(wrong), capsys)


def test_nb14_safe_sqrt(capsys):
    _right(nb14.check_safe_sqrt(lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(),
                                                      0.0)), capsys)
    _right(nb14.check_safe_sqrt(lambda x: x.clamp(min=1e-12).sqrt()), capsys)

    def placeholder(x):
        return ...

    for wrong in (None, ..., 0, placeholder, lambda x: x,
                  lambda x: torch.where(x > 0, x.sqrt(), 0.0),           # nan gradient at 0
                  lambda x: x.sqrt(),                                      # nan value below 0
                  lambda x: (x + 1e-12).sqrt(),                            # nan value below 0
                  lambda x: x.abs().sqrt(),                                # wrong value below 0
                  lambda x: -torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0),
                  lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0).detach(),
                  lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0).tolist()):
        _wrong(nb14.check_safe_sqrt(wrong), capsys)


def test_nb14_culprit(capsys):
    _right(nb14.check_culprit("MulBackward0", "features"), capsys)
    for wrong in ((None, None), (..., "features"), ("SqrtBackward0", "radius"),
                  ("MulBackward0", "radius"), ("SqrtBackward0", "features"),
                  ("MulBackward0", "loss_fn2"), (0, 0)):
        _wrong(nb14.check_culprit(*wrong), capsys)


# ---- shown_warnings: notebook warnings without machine paths --------------------------------

def _fake_cells(filename: str) -> str | None:
    return {"/tmp/ipykernel_1/11.py": "Cell In[3]", "/tmp/ipykernel_1/22.py": "Cell In[4]"}.get(
        filename)


def test_format_warning_renames_cells_and_counts_other_frames():
    message = ("Error detected in PowBackward0. Traceback of forward call that caused the error:\n"
               '  File "<frozen runpy>", line 198, in _run_module_as_main\n'
               '  File "/opt/venv/lib/site-packages/ipykernel/kernelapp.py", line 768, in start\n'
               "    self.io_loop.start()\n"
               '  File "/tmp/ipykernel_1/22.py", line 4, in <module>\n'
               "    loss = loss_fn(p, q)\n"
               '  File "/tmp/ipykernel_1/11.py", line 3, in distance\n'
               "    squared = diff**2")
    w = warnings.WarningMessage(UserWarning(message), UserWarning, "/tmp/ipykernel_1/22.py", 5)
    assert format_warning(w, _fake_cells) == (
        "Cell In[4], line 5: UserWarning: Error detected in PowBackward0. Traceback of forward "
        "call that caused the error:\n"
        "  ... 2 frames outside the notebook's cells ...\n"
        "  Cell In[4], line 4, in <module>\n"
        "    loss = loss_fn(p, q)\n"
        "  Cell In[3], line 3, in distance\n"
        "    squared = diff**2")
    w = warnings.WarningMessage(UserWarning("plain"), UserWarning, "/opt/venv/lib/x/mod.py", 7)
    assert format_warning(w, _fake_cells) == "mod.py:7: UserWarning: plain"


def test_shown_warnings_prints_even_when_the_block_raises(capsys):
    with pytest.raises(RuntimeError, match="returned nan values"):
        with shown_warnings():
            with torch.autograd.detect_anomaly():
                p = torch.tensor([1.0, 2.0], requires_grad=True)
                ((p - p.detach()) ** 2).sum().sqrt().backward()
    err = capsys.readouterr().err
    assert "UserWarning: Anomaly Detection has been enabled." in err
    assert "Error detected in PowBackward0. Traceback of forward call that caused the error:" in err
    assert "outside the notebook's cells" in err and 'File "' not in err


def test_nb15_tbptt_check_leaves_the_random_state_alone(capsys):
    seq = _seq()
    right = _epoch(seq)
    torch.manual_seed(123)
    expected = torch.randn(3)
    torch.manual_seed(123)
    nb15.check_tbptt(right, _make_params, seq, chunk_len=8, lr=0.1)
    assert torch.equal(torch.randn(3), expected)
    capsys.readouterr()
