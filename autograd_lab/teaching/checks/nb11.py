"""Checks for notebook 11 · Tensor hooks.

Each check recomputes the expected gradient its own way (closed forms, or a fresh
tensor with no hooks) and runs a student's hook on tensors of its own, so an answer
that merely looks like the question's data is not enough.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...engine import grad
from ...factories import tensor
from ...tensor import Tensor
from ..exercises import Feedback, check_close, check_true
from ._common import missing, not_a_function

__all__ = ["SPY_X", "check_clip_hook", "check_handle_removed", "check_order",
           "check_same_shape_hook", "check_spy"]

SPY_X = [1.0, -2.0, 3.0]  # exercise 1: h = 3x, loss = (h ** 2).sum()


def check_spy(grad_h: Any) -> Feedback:
    """Exercise 1: the gradient a hook on ``h = 3x`` saw, for ``loss = (h ** 2).sum()``."""
    name = "the gradient the hook on h saw"
    if missing(name, grad_h):
        return Feedback(False)
    if not isinstance(grad_h, Tensor):
        return check_true(name, False, hint=f"store the tensor the hook received, not a "
                                             f"{type(grad_h).__name__}")
    expected = [6.0 * v for v in SPY_X]  # d(h²)/dh = 2h = 6x
    return check_close(name, grad_h, expected,
                       hint="the hook receives dloss/dh = 2h: not h itself, and not x.grad "
                            "(= 3 · 2h)")


def _run_hook(hook: Callable, values: list[float], coeffs: list[float]) -> tuple[Any, str]:
    """Register ``hook`` on a fresh leaf w, backprop ``(w * coeffs).sum()``; (w.grad, error).

    ``w.grad`` is ``...`` when the hook still returns the student copy's placeholder.
    """
    try:
        if hook(tensor(coeffs)) is Ellipsis:
            return ..., ""
    except Exception as e:  # noqa: BLE001 - a failing hook is feedback, not a crash
        return None, f"your hook raised {type(e).__name__}: {e}"
    w = tensor(values, requires_grad=True)
    w.register_hook(hook)
    try:
        (w * tensor(coeffs)).sum().backward()
    except Exception as e:  # noqa: BLE001 - a failing hook is feedback, not a crash
        return None, f"your hook raised {type(e).__name__}: {e}"
    return w.grad, ""


def check_clip_hook(clip_hook: Any) -> Feedback:
    """Exercise 2: a hook that clamps every entry of the gradient into [-1, 1]."""
    name = "clip_hook clamps each entry into [-1, 1]"
    if (fb := not_a_function(name, clip_hook, "clip_hook")) is not None:
        return fb
    coeffs = [-3.0, -0.5, 4.0, 0.25, 1.0]  # the gradient of (w * coeffs).sum() is coeffs
    got, error = _run_hook(clip_hook, [0.5, -1.0, 2.0, -0.25, 3.0], coeffs)
    if error:
        return check_true(name, False, hint=error)
    return check_close(name, got, [max(-1.0, min(1.0, c)) for c in coeffs],
                       hint="return grad.clamp(-1.0, 1.0): entries inside [-1, 1] stay, "
                            "larger ones become 1 and smaller ones -1")


def check_handle_removed(handle: Any, first: Any, w: Any) -> Feedback:
    """Exercise 3: ``clip_norm`` clipped the first backward of ``(w * w).sum()``, then went."""
    name = "clip_norm ran once, then was removed"
    if missing(name, handle):
        return Feedback(False)
    if not hasattr(handle, "remove"):
        return check_true(name, False, hint="store what w.register_hook(clip_norm) returns (a "
                                             "handle with .remove()), not a "
                                             f"{type(handle).__name__}")
    if not isinstance(w, Tensor) or not isinstance(first, Tensor):
        return check_true(name, False, hint="keep the cell's w and first as they are")
    raw = 2 * np.asarray(w.tolist(), dtype=np.float64)  # d(w·w)/dw without any hook
    norm = float(np.linalg.norm(raw))
    clipped = raw / norm if norm > 1.0 else raw
    got = np.asarray(first.tolist(), dtype=np.float64)
    if got.shape != clipped.shape or not np.allclose(got, clipped, atol=1e-6):
        return check_true(name, False, hint="the first gradient should be clipped to norm 1, "
                                             f"{np.array2string(clipped, precision=4)}: register "
                                             "the hook before the first backward")
    # a fresh backward through w: a hook still registered on w would clip it again
    now = grad((w * w).sum(), w)[0]
    return check_close(name, now, raw, hint="the hook still runs: call handle.remove() after the "
                                            "first backward")


def check_order(y_grad: Any, x_grad: Any) -> Feedback:
    """Exercise 4: predicted ``y.grad`` and ``x.grad`` for the hooks of the exercise."""
    a = check_close("y.grad", y_grad, [10.0, 10.0],
                    hint="retain_grad stores the gradient after all of y's hooks have run, "
                         "whenever retain_grad() was called")
    b = check_close("x.grad", x_grad, [31.0, 31.0],
                    hint="x receives 3 × (y's hooked gradient); x's own hook then runs before "
                         "AccumulateGrad")
    return Feedback(bool(a) and bool(b))


def check_same_shape_hook(hook: Any) -> Feedback:
    """Exercise 5: a hook that puts the mean of the gradient in every entry (same shape)."""
    name = "the hook returns the mean in every entry"
    if (fb := not_a_function(name, hook, "average_fixed")) is not None:
        return fb
    coeffs = [1.0, -2.0, 4.0, 5.0]
    got, error = _run_hook(hook, [0.0, 1.0, 2.0, 3.0], coeffs)
    if error:
        return check_true(name, False, hint=error)
    mean = sum(coeffs) / len(coeffs)
    return check_close(name, got, [mean] * len(coeffs),
                       hint="grad.mean() is a 0-d tensor; give it the gradient's shape, e.g. "
                            "grad.mean().expand_as(grad)")
