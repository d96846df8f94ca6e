"""Checks for notebook 04 · Multiple paths."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._common import PREDICTION, Feedback, as_array, check_value, missing, right, wrong
from ._payloads import value_spec

NOTEBOOK = "04_multiple_paths"


def ex1_three_uses(n_paths: Any, grad: Any) -> Feedback:
    """For y = x·x·x at 2: three edges reach x's AccumulateGrad, and x.grad = 3x² = 12."""
    name = "gradients arriving at x"
    ok = True
    if missing(name, n_paths):
        ok = False
    elif not isinstance(n_paths, (int, np.integer)) or isinstance(n_paths, bool):
        ok = bool(wrong(name, f"expected a whole number, got {type(n_paths).__name__}."))
    elif n_paths != 3:
        ok = bool(wrong(name, {2: "x * x has two edges into x, but the outer * x adds a third.",
                               1: "a leaf has one AccumulateGrad node, but several edges reach it."
                               }.get(int(n_paths), f"{n_paths} is not the count."),
                        "count the edges of both MulBackward0 nodes that end at x's node"))
    else:
        right(name)
    fb = check_value("dy/dx at x = 2", grad, 12.0, [
        (4.0, "that is one path's contribution (x·x = 4); three paths reach x."),
        (8.0, "that is two paths; the outer * x is a third."),
        (2.0, "that is x itself."),
        (8.0 / 1, "two paths only."),
    ], hint="each of the three paths contributes x·x = 4; 4 + 4 + 4 = 3x²")
    return Feedback(ok and bool(fb))


def ex2_split(via_factor: Any, via_sin: Any, total: Any) -> Feedback:
    """Untied uses of x in x·sin(x) at 0.5: sin(0.5) through the factor, 0.5·cos(0.5) via sin."""
    s, c = math.sin(0.5), 0.5 * math.cos(0.5)
    known = [(0.5, "that is x itself, not a gradient.")]
    a = check_value("contribution of the factor x", via_factor, s,
                    known + [(c, "that is the contribution through sin; the two are swapped.")],
                    hint="d(x1·sin(x2))/dx1 = sin(x2)")
    b = check_value("contribution through sin", via_sin, c,
                    known + [(s, "that is the contribution of the factor; the two are swapped."),
                             (math.cos(0.5), "cos(x2) is the local derivative; times x1.")],
                    hint="d(x1·sin(x2))/dx2 = x1·cos(x2)")
    t = check_value("total derivative of x·sin(x) at 0.5", total, s + c,
                    [(s, "only the factor's path."), (c, "only the path through sin.")] + known,
                    hint="add the two contributions")
    return Feedback(bool(a) and bool(b) and bool(t))


def ex3_fan_in(direct: Any, through_u: Any, a_grad: Any) -> Feedback:
    """u = a·b, v = u·a, e = sum(u + v) at a = [2, -1], b = [0.5, 3]: the two edges into a."""
    a = np.array([2.0, -1.0])
    b = np.array([0.5, 3.0])
    d, t = a * b, (1 + a) * b
    known = [(a, "that is a itself."), (b, "that is b itself.")]
    r1 = check_value("gradient along v's edge", direct, d,
                     known + [(t, "that is the gradient through u; the two are swapped.")],
                     hint="v = u * a: MulBackward0 sends grad * u to a, and grad is 1 here")
    r2 = check_value("gradient through u", through_u, t,
                     known + [(d, "that is the gradient along v's edge; the two are swapped."),
                              (a * b, "u receives 1 + a, then MulBackward0 multiplies by b.")],
                     hint="u receives 1 from the sum and a from v; its MulBackward0 then "
                          "multiplies by b")
    r3 = check_value("a.grad", a_grad, d + t,
                     [(d, "only the edge from v; the fan-in adds the edge from u."),
                      (t, "only the edge from u; the fan-in adds the edge from v.")] + known,
                     hint="add the two contributions: a fan-in sums")
    g = as_array(a_grad)
    return Feedback(bool(r1) and bool(r2) and bool(r3) and g is not None)


EXERCISES = {
    "ex1": value_spec(["n_paths", "grad"], ex1_three_uses, graded=False,
                      formative_reason=PREDICTION),
    "ex2": value_spec(["via_factor", "via_sin", "total"], ex2_split),
    "ex3": value_spec(["direct", "through_u", "a_grad"], ex3_fan_in),
}
