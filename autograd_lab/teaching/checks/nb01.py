"""Checks for notebook 01 · Tensors and requires_grad."""

from __future__ import annotations

import functools
import operator
from typing import Any, Callable

from ...factories import tensor
from ..exercises import check_raises
from ._common import Feedback, as_array, close, missing, right, wrong

STEPS = [10.0 ** -k for k in range(1, 13)]


def _poly(x: Any) -> Any:
    return 3 * x ** 2 - 4 * x + 5


def _forward_difference(f: Callable[[float], float], x: float, h: float) -> float:
    return (f(x + h) - f(x)) / h


def ex1_nudge(nudge_slope: Any) -> Feedback:
    """``nudge_slope(f, x, h)`` is the forward difference (f(x + h) - f(x)) / h."""
    name = "nudge_slope"
    if missing(name, nudge_slope):
        return Feedback(False)
    if not callable(nudge_slope):
        return wrong(name, f"expected a function of (f, x, h), got {type(nudge_slope).__name__}.",
                     "def nudge_slope(f, x, h): return (f(x + h) - f(x)) / h")
    cases = [(_poly, 3.0, 0.1), (lambda x: x ** 3, 2.0, 0.5), (lambda x: 7 - x, 1.0, 0.25)]
    for f, x, h in cases:
        try:
            got = nudge_slope(f, x, h)
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            return wrong(name, f"calling it raised {type(e).__name__}: {e}")
        expected = _forward_difference(f, x, h)
        if as_array(got) is None or as_array(got).shape != ():
            return wrong(name, f"it should return one number, got {type(got).__name__}.")
        if close(got, expected, rtol=1e-9, atol=1e-12):
            continue
        central = (f(x + h) - f(x - h)) / (2 * h)
        if close(got, -expected, rtol=1e-9):
            return wrong(name, "the sign is wrong: the change is f(x + h) - f(x), in that order.")
        if close(got, expected * h, rtol=1e-9):
            return wrong(name, "that is the change of f; divide it by the step h to get a slope.")
        if close(got, central, rtol=1e-9):
            return wrong(name, "that is the central difference; this exercise wants the forward "
                         "one, (f(x + h) - f(x)) / h.")
        return wrong(name, f"for f(x) = 3x² - 4x + 5 at x = 3 with h = 0.1 the nudge gives "
                     f"{_forward_difference(_poly, 3.0, 0.1):.4f}; yours gives something else.",
                     "evaluate f twice, at x + h and at x")
    return right(name)


def ex1_best_step(best_h: Any) -> Feedback:
    """``best_h``: the step of ``STEPS`` whose nudge of 3x² - 4x + 5 at 3 comes closest to 14."""
    name = "best_h"
    if missing(name, best_h):
        return Feedback(False)
    errors = {h: abs(_forward_difference(_poly, 3.0, h) - 14.0) for h in STEPS}
    best = min(errors, key=errors.get)
    hint = "loop over steps, compute the nudge for each, keep the h with the smallest error"
    if as_array(best_h) is None or as_array(best_h).shape != ():
        return wrong(name, f"expected one of the steps (a float), got {type(best_h).__name__}.",
                     hint)
    if close(best_h, best, rtol=1e-9, atol=0):
        return right(name)
    if close(best_h, STEPS[-1], rtol=1e-9, atol=0):
        return wrong(name, "the smallest step is not the best: f(x + h) - f(x) then loses most "
                     "of its digits to rounding.", hint)
    return wrong(name, f"with h = {best_h:g} the error is {errors.get(best_h, float('nan')):.2g}; "
                 "a different step does better.", hint)


def ex2_rule(will_require_grad: Any) -> Feedback:
    """``will_require_grad(*inputs)`` says whether an operation on ``inputs`` is tracked."""
    name = "will_require_grad"
    hint = ("a result is tracked iff at least one input is a tensor with requires_grad; "
            "Python numbers are constants")
    if missing(name, will_require_grad):
        return Feedback(False)
    if not callable(will_require_grad):
        return wrong(name, f"expected a function, got {type(will_require_grad).__name__}.", hint)
    p = tensor([1.0, 2.0])
    q = tensor([3.0, 4.0], requires_grad=True)
    n = tensor([1, 2])
    cases = [(p,), (q,), (p, q), (q, p), (p, p), (p, 2.0), (2.0, q), (q, q), (p, q, p),
             (p, p, p), (n, q), (n, p), (0.5, p, 3.0)]
    for inputs in cases:
        actual = functools.reduce(operator.add, inputs).requires_grad
        try:
            got = will_require_grad(*inputs)
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            return wrong(name, f"calling it on {_describe(inputs)} raised {type(e).__name__}: {e}",
                         hint)
        if not isinstance(got, bool):
            return wrong(name, f"it should return True or False, got {type(got).__name__}.", hint)
        if got != actual:
            return wrong(name, f"on {_describe(inputs)} it says {got}, but the engine says "
                         f"{actual}.", hint)
    return right(name)


def _describe(inputs: tuple) -> str:
    parts = []
    for t in inputs:
        if hasattr(t, "requires_grad"):
            parts.append("tracked tensor" if t.requires_grad else f"plain {t.dtype} tensor")
        else:
            parts.append(f"the number {t!r}")
    return "(" + ", ".join(parts) + ")"


def ex3_trainable(weights: Any, labels: Any) -> Feedback:
    """``weights``: a float leaf with the values of the integer ``labels`` that requires grad."""
    name = "weights"
    hint = "convert with .float() (or dtype=torch.float32), then .requires_grad_()"
    if missing(name, weights):
        return Feedback(False)
    if not hasattr(weights, "requires_grad"):
        return wrong(name, f"expected a tensor, got {type(weights).__name__}.", hint)
    if weights is labels:
        return wrong(name, "that is labels itself, an integer tensor.", hint)
    if not weights.dtype.is_floating_point:
        return wrong(name, f"its dtype is {weights.dtype}; it must be floating point.", hint)
    if not close(weights, labels):
        return wrong(name, "its values differ from those of labels.", hint)
    if not weights.requires_grad:
        return wrong(name, "it does not require grad.", hint)
    if not weights.is_leaf:
        return wrong(name, "it is not a leaf (it was computed from a tensor that requires grad); "
                     "make the float copy first, then turn requires_grad on.", hint)
    return right(name)


def ex4_error(boom: Any) -> Feedback:
    """``boom()`` raises the ``requires_grad_()`` flavour of the integer error."""
    if not (boom is Ellipsis or boom is None or callable(boom)):
        return wrong("boom()", f"expected a function of no arguments (a lambda), got "
                     f"{type(boom).__name__}.", "boom = lambda: ...")
    return check_raises("boom()", boom, RuntimeError,
                        match="only Tensors of floating point dtype can require gradients",
                        hint="call requires_grad_() on an integer tensor such as torch.arange(3); "
                             "requires_grad=True in a factory gives the other message")
