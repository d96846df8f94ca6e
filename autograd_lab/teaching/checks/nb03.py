"""Checks for notebook 03 · Backward and the chain rule."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._common import Feedback, as_array, check_value, missing, right, shares_memory, wrong


def ex1_by_hand(by_hand: Any, x: Any) -> Feedback:
    """``by_hand`` is dy/dx = -2x·exp(-x²), computed from ``x`` without backward."""
    name = "your dy/dx"
    hint = "outer exp(s) with s = -x**2: dy/dx = exp(s) * ds/dx, and ds/dx = -2x"
    if missing(name, by_hand):
        return Feedback(False)
    if by_hand is x.grad or shares_memory(by_hand, x.grad):
        return wrong(name, "that is x.grad itself: compute the formula from x instead.", hint)
    v = np.asarray(x.detach().tolist(), dtype=np.float64)
    y = np.exp(-v ** 2)
    return check_value(name, by_hand, -2 * v * y, [
        (v, "that is x itself."),
        (y, "that is y = exp(-x²), not its derivative."),
        (-2 * v, "that is only ds/dx; multiply by the outer derivative exp(s)."),
        (-2 * y, "the inner derivative of -x² is -2x, not -2."),
    ], hint=hint, rtol=1e-4)


def ex2_partials(partials: Any) -> Feedback:
    """``partials`` = [df/da, df/db, df/dc, df/dd] of f = abc + log(cd) at (2, 3, 4, 5)."""
    name = "[df/da, df/db, df/dc, df/dd]"
    hint = "log(c d) = log c + log d; c appears in both terms, so add its two contributions"
    if missing(name, partials):
        return Feedback(False)
    g = as_array(partials)
    expected = np.array([12.0, 8.0, 6.25, 0.2])
    if g is None or g.shape != (4,):
        return wrong(name, "expected a list of four numbers.", hint)
    if np.allclose(g, expected, rtol=1e-4):
        return right(name)
    labels = ["df/da", "df/db", "df/dc", "df/dd"]
    bad = [lab for lab, a, e in zip(labels, g, expected) if not math.isclose(a, e, rel_tol=1e-4)]
    extra = ""
    if "df/dc" in bad and math.isclose(g[2], 6.0, rel_tol=1e-4):
        extra = " df/dc misses the contribution of log(c d)."
    elif "df/dd" in bad and math.isclose(g[3], math.log(20), rel_tol=1e-4):
        extra = " df/dd is a derivative, not log(c d)."
    return wrong(name, f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} wrong.{extra}", hint)


def ex3_retained(u_grad: Any, u: Any, v: Any) -> Feedback:
    """``u_grad`` is the gradient kept on the non-leaf ``u`` by ``retain_grad()``: de/du = v."""
    name = "de/du"
    hint = "call u.retain_grad() before e.backward(), then read u.grad"
    if missing(name, u_grad):
        return Feedback(False)
    if not u.retains_grad or u._grad is None:
        return wrong(name, "u.grad is still None: the backward pass did not keep u's gradient.",
                     hint)
    if u_grad is v:
        return wrong(name, "that is v itself; the gradient lives in u.grad.", hint)
    return check_value(name, u_grad, u._grad, [(u.detach(), "that is the value of u.")],
                       hint=hint)


def ex4_walk(order: Any, written: list[str]) -> Feedback:
    """``order``: the names of the leaves in the order backward wrote their ``.grad``."""
    name = "order of the .grad writes"
    hint = ("AddBackward0 sends straight to c's AccumulateGrad, but a and b wait behind "
            "MulBackward0, which sends to a (edge 0) before b (edge 1)")
    if missing(name, order):
        return Feedback(False)
    if not isinstance(order, (list, tuple)) or sorted(order) != sorted(written):
        return wrong(name, f"expected a list of the names {sorted(written)}.", hint)
    if list(order) == list(written):
        return right(name)
    if list(order) == ["a", "b", "c"]:
        return wrong(name, "that is the order of creation; backward starts from the output.",
                     hint)
    return wrong(name, "not the order the engine used.", hint)
