"""The exercise checks of notebooks 11, 14 and 15 reject plausible wrong answers.

For every exercise: the reference answer passes, and at least two wrong answers (None or
the student copy's ``...``, 0, the question's own input, a wrong sign, an alias of a tensor
that is later mutated, a wrong shape) fail -- each with a line of feedback.
"""

from __future__ import annotations

import pytest

import autograd_lab as torch
from autograd_lab.teaching.checks import nb11


def _right(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert fb, out
    assert "correct!" in out and "❌" not in out


def _wrong(fb, capsys) -> None:
    out = capsys.readouterr().out
    assert not fb, out
    assert "❌" in out or "⏳" in out


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
    assert "no answer yet" in capsys.readouterr().out
