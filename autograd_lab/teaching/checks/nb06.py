"""Checks for notebook 06 · In-place operations and versions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import Feedback, as_array, check_value, is_tensor, missing, right, wrong


def ex1_version(predicted_version: Any, t: Any) -> Feedback:
    """``predicted_version`` is ``t._version`` after the in-place writes of the exercise."""
    name = "t._version"
    hint = "add_, the view's mul_ and zero_ count; exp is out of place; .data has its own counter"
    if missing(name, predicted_version):
        return Feedback(False)
    if not isinstance(predicted_version, (int, np.integer)) or isinstance(predicted_version, bool):
        return wrong(name, f"expected a whole number, got {type(predicted_version).__name__}.",
                     hint)
    actual = t._version
    if predicted_version == actual:
        return right(name)
    reasons = {actual + 1: "one too many: a change through .data is not counted (it has its "
                           "own counter), and exp is out of place.",
               actual - 1: "one too few: the view t[1:3] shares t's counter, so its mul_ counts.",
               actual + 2: "exp makes a new tensor, and .data has its own counter: neither counts."}
    return wrong(name, reasons.get(int(predicted_version), f"{predicted_version} is not it."),
                 hint)


def ex2_repair(grad: Any, x: Any) -> Feedback:
    """``grad`` = d sum(2·tanh(x))/dx = 2(1 - tanh²x), computed without modifying a saved tensor."""
    v = np.asarray(x.detach().tolist(), dtype=np.float64)
    t = np.tanh(v)
    return check_value("gradient of sum(2·tanh(x))", grad, 2 * (1 - t ** 2), [
        (1 - t ** 2, "that is the gradient of tanh(x) alone; the factor 2 is missing."),
        (v, "that is x itself."),
        (2 * t, "that is the value 2·tanh(x), not its gradient."),
        (4 * (1 - t ** 2), "twice too large: did backward run twice into the same x.grad?"),
    ], hint="replace the in-place mul_ by an ordinary multiplication", rtol=1e-4)


def ex3_step(w_after: Any, w: Any) -> Feedback:
    """``w`` = [2, -4] updated in place by w -= 0.5·w.grad under no_grad: still the same leaf."""
    name = "w after one step, in place"
    hint = "w - 0.5 * w.grad, written in place (-=) under torch.no_grad()"
    if missing(name, w_after):
        return Feedback(False)
    if not is_tensor(w_after):
        return wrong(name, f"expected the tensor w, got {type(w_after).__name__}.", hint)
    if w_after is not w:
        if w_after.grad_fn is not None:
            return wrong(name, f"w_after has grad_fn={w_after.grad_fn.name()}: w = w - ... makes "
                         "a new, non-leaf tensor; update w in place under torch.no_grad().", hint)
        return wrong(name, "w_after is a new tensor; the step should change w itself "
                     "(set w_after = w).", hint)
    if not w.is_leaf or not w.requires_grad:
        return wrong(name, "w is no longer a leaf that requires grad.", hint)
    g = as_array(w)
    if np.allclose(g, [2.0, -4.0]):
        return wrong(name, "w still holds [2., -4.]: no step was taken.", hint)
    if np.allclose(g, [4.0, -8.0]):
        return wrong(name, "the sign is wrong: descent subtracts lr * grad.", hint)
    if np.allclose(g, [-2.0, 4.0]):
        return wrong(name, "that is a step with lr = 1; use lr = 0.5.", hint)
    if not np.allclose(g, [0.0, 0.0]):
        return wrong(name, f"w is {np.array2string(g)}, which is not one step with lr = 0.5.",
                     hint)
    if w._version == 0:
        return wrong(name, "the values are right but w's version is 0: the change went through "
                     ".data, which autograd cannot see. Use torch.no_grad() instead.", hint)
    return right(name)
