"""Checks for notebook 09 · Non-scalar outputs and Jacobians."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...autograd.functional import jacobian
from ...factories import tensor
from ._common import Feedback, as_array, check_value, is_tensor, missing, right, wrong


def _grad_with(v: Any) -> Any:
    x = tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x ** 2).backward(v)
    return x.grad


def ex1_vectors(v_sum: Any, v_pick: Any) -> Feedback:
    """``p.backward(v_sum)`` equals ``p.sum().backward()``; ``v_pick`` selects ``p[1]``."""
    ok = True
    for name, v, expected, hint in (
            ("x.grad from p.backward(v_sum)", v_sum, [2.0, 4.0, 6.0],
             "p.sum() is the dot product v · p with v = (1, 1, 1)"),
            ("x.grad from p.backward(v_pick)", v_pick, [0.0, 4.0, 0.0],
             "a one-hot v picks one output: p[1] = x[1] ** 2 depends on x[1] only")):
        if missing(name, v):
            ok = False
            continue
        if not is_tensor(v):
            ok = bool(wrong(name, f"v should be a tensor shaped like p, got {type(v).__name__}.",
                            hint)) and ok
            continue
        try:
            got = _grad_with(v)
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            ok = bool(wrong(name, f"p.backward(v) raised {type(e).__name__}: {e}", hint)) and ok
            continue
        ok = bool(check_value(name, got, expected, [
            ([0.0, 0.0, 0.0], "v is all zeros: every output weighted by 0."),
            ([2.0, 0.0, 0.0], "that picks p[0]; indices start at 0, so p[1] is the second."),
            ([0.0, 0.0, 6.0], "that picks p[2]; p[1] is the second entry."),
            ([2.0, 8.0, 18.0], "that is v = x: weight each output by 1 instead."),
        ], hint=hint)) and ok
    return Feedback(ok)


def ex2_vjp(vjp_answer: Any, g: Callable[[Any], Any], x0: Any, w: Any) -> Feedback:
    """``vjp_answer`` = wᵀ J_g(x0), one backward pass."""
    J = as_array(jacobian(g, x0.detach()))
    wa = as_array(w)
    return check_value("w^T J", vjp_answer, wa @ J, [
        (J @ wa, "that is J w (a Jacobian-vector product, the columns); backward gives w^T J."),
        (J.sum(axis=0), "that is 1^T J: backward with ones instead of w."),
        (wa, "that is w itself."),
        (as_array(x0), "that is x0 itself."),
    ], hint="out = g(x0); out.backward(w); the answer is in x0.grad")


def ex3_rows(J_rows: Any, g: Callable[[Any], Any], x1: Any) -> Feedback:
    """``J_rows``: the 3×3 Jacobian of ``g`` at ``x1``, row i the gradient of output i."""
    J = as_array(jacobian(g, x1.detach()))
    return check_value("Jacobian of g", J_rows, J, [
        (np.eye(3), "that is the identity, not the Jacobian of g."),
    ], hint="row i = torch.autograd.grad(out1[i], x1, retain_graph=True)[0]; stack the 3 rows")


def chain_costs(n: int, h: int, m: int) -> tuple[int, int]:
    """Multiply-adds of (J3 J2) J1 and of J3 (J2 J1) for J1: h×n, J2: h×h, J3: m×h."""
    return m * h * h + m * h * n, h * h * n + m * h * n


def ex4_costs(cost_reverse: Any, cost_forward: Any) -> Feedback:
    """Reverse (J3 J2) J1 and forward J3 (J2 J1) orders for n = 784, h = 256, m = 10."""
    rev, fwd = chain_costs(784, 256, 10)
    ok = True
    for name, got, expected, other, hint in (
            ("cost_reverse", cost_reverse, rev, fwd,
             "(J3 J2) costs 10*256*256, then (J3 J2) J1 costs 10*256*784"),
            ("cost_forward", cost_forward, fwd, rev,
             "(J2 J1) costs 256*256*784, then J3 (J2 J1) costs 10*256*784")):
        if missing(name, got):
            ok = False
        elif not isinstance(got, (int, np.integer)) or isinstance(got, bool):
            ok = bool(wrong(name, f"expected a whole number, got {got!r}.", hint)) and False
        elif got == expected:
            right(name)
        elif got == other:
            ok = bool(wrong(name, "that is the cost of the other order.", hint)) and False
        else:
            ok = bool(wrong(name, f"{got:,} is not the number of multiply-adds of this order.",
                            hint)) and False
    return Feedback(ok)
