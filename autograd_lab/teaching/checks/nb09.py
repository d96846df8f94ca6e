"""Checks for notebook 09 · Non-scalar outputs and Jacobians."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...autograd import functional
from ...autograd.functional import jacobian
from ...factories import tensor
from ...ops import stack
from ._common import Feedback, as_array, check_value, is_tensor, missing, right, wrong
from ._evidence import watching
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    decode,
    early,
    failed,
    guarded,
    passed,
    run_quietly,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "09_jacobians_and_vjps"


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
            x = tensor([1.0, 2.0, 3.0], requires_grad=True)
            (x ** 2).backward(v)
            got = x.grad
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


def _functions(variant: Variant) -> list[tuple[str, Callable[[Any], Any], list[float]]]:
    """(label, g, x) for each Jacobian asked for."""
    def g3(x: Any) -> Any:  # the notebook's g
        return stack([x[0] * x[1], x[1] * x[2], x[0] + x[2] ** 2])

    if variant.fixed:
        return [("g", g3, [0.5, -1.0, 2.0])]
    rng = variant.rng("nb09.rows")

    def g4(x: Any) -> Any:  # 4 outputs of 2 inputs
        return stack([x[0] * x[1], x[0].sin(), x[1] ** 3, x[0] - 2 * x[1]])

    def g2(x: Any) -> Any:  # 2 outputs of 4 inputs
        return stack([(x * x).sum(), x[0] * x[3] + x[1].exp()])

    return [("g", g3, [float(v) for v in np.round(rng.normal(size=3), 2)]),
            ("a map R^2 -> R^4", g4, [float(v) for v in np.round(rng.normal(size=2), 2)]),
            ("a map R^4 -> R^2", g2, [0.0] + [float(v) for v in np.round(rng.normal(size=3), 2)])]


def _collect_rows(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "jacobian_rows", callable_=True)
    runs = []
    for _, g, x in _functions(variant):
        with watching({"jacobian": [(functional, "jacobian")]}) as ev:
            got = call(fn, g, tensor(x, requires_grad=True))
        runs.append({"got": got, **ev.facts()})
    return {"runs": runs}


def _judge_rows(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (label, g, x), run in zip(_functions(variant), payload["runs"]):
        got = run["got"]
        if run["calls"].get("jacobian"):
            return failed("it calls torch.autograd.functional.jacobian: the exercise builds the "
                          "Jacobian itself, one backward pass per output.")
        if "raised" in got:
            return failed(f"on {label} it raised {got['raised']}")
        J = as_array(jacobian(g, tensor(x)))
        if run["backwards"] != J.shape[0]:
            return failed(f"on {label} ({J.shape[0]} outputs) it ran {run['backwards']} backward "
                          "passes: row by row means one torch.autograd.grad call per output.")
        status, message = run_quietly(check_value, "Jacobian", decode(got["value"]), J, [
            (np.eye(*J.shape), "that is the identity, not the Jacobian of g.")])
        if status != "passed":
            return status, f"on {label}: {message}"
    return passed()


def ex3_rows(jacobian_rows: Any) -> Feedback:
    """``jacobian_rows(g, x)``: the Jacobian of ``g`` at ``x``, one backward pass per row."""
    return show("jacobian_rows(g, x)", _judge_rows(guarded(_collect_rows)(
        {"jacobian_rows": jacobian_rows}), FIXED),
        "out = g(x); row i = torch.autograd.grad(out[i], x, retain_graph=True)[0]; stack the rows")


def ex4_costs(cost_reverse: Any, cost_forward: Any) -> Feedback:
    """Reverse (J3 J2) J1 and forward J3 (J2 J1) orders for n = 784, h = 256, m = 10."""
    n, h, m = 784, 256, 10  # J1: h×n, J2: h×h, J3: m×h
    rev, fwd = m * h * h + m * h * n, h * h * n + m * h * n
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


def _vjp_example() -> tuple:
    def g(x: Any) -> Any:
        return stack([x[0] * x[1], x[1] * x[2], x[0] + x[2] ** 2])
    return g, tensor([1.0, 2.0, 3.0]), tensor([1.0, -1.0, 2.0])


EXERCISES = {
    "ex1": value_spec(["v_sum", "v_pick"], ex1_vectors),
    "ex2": value_spec(["vjp_answer"], ex2_vjp, extra=_vjp_example),
    "ex3": spec(_collect_rows, _judge_rows, "jacobian_rows(g, x)"),
    "ex4": value_spec(["cost_reverse", "cost_forward"], ex4_costs),
}
