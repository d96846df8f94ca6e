"""Checks for notebook 03 · Backward and the chain rule."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...factories import tensor
from ...listener import Listener, listen
from ._common import PREDICTION, Feedback, as_array, check_value, missing, right, wrong
from ._evidence import watching
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    decode,
    early,
    encode,
    failed,
    guarded,
    passed,
    run_quietly,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "03_backward_and_the_chain_rule"


def _inputs(variant: Variant) -> list[list]:
    if variant.fixed:
        return [[-1.0, 0.0, 0.5, 2.0]]
    rng = variant.rng("nb03.by_hand")
    return [float(rng.normal()), [[0.0, float(-rng.uniform(0.1, 2))], [float(rng.uniform(0.1, 2)),
            1.0]], [float(v) for v in np.round(rng.normal(size=5), 3)]]


def _collect_by_hand(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "by_hand", callable_=True)
    outputs = []
    with watching() as ev:
        for values in _inputs(variant):
            outputs.append(call(fn, tensor(values, requires_grad=True)))
    return {"outputs": outputs, "evidence": ev.facts()}


def _judge_by_hand(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["evidence"]["backwards"]:
        return failed("it runs a backward pass (backward(), autograd.grad or a jacobian): the "
                      "exercise asks for the chain rule by hand, as a formula in x.")
    for values, got in zip(_inputs(variant), payload["outputs"]):
        if "raised" in got:
            return failed(f"on x = {values} it raised {got['raised']}")
        v = np.asarray(values, dtype=np.float64)
        y = np.exp(-v ** 2)
        status, message = run_quietly(check_value, "dy/dx", decode(got["value"]), -2 * v * y, [
            (v, "that is x itself."),
            (y, "that is y = exp(-x²), not its derivative."),
            (-2 * v, "that is only ds/dx; multiply by the outer derivative exp(s)."),
            (-2 * y, "the inner derivative of -x² is -2x, not -2."),
        ], rtol=1e-4)
        if status != "passed":
            return status, message
    return passed()


def ex1_by_hand(by_hand: Any) -> Feedback:
    """``by_hand(x)`` is dy/dx = -2x·exp(-x²), a formula in x with no backward pass."""
    return show("by_hand(x)", _judge_by_hand(guarded(_collect_by_hand)({"by_hand": by_hand}),
                                             FIXED),
                "outer exp(s) with s = -x**2: dy/dx = exp(s) * ds/dx, and ds/dx = -2x")


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
    if not math.isclose(g[2], expected[2], rel_tol=1e-4) and math.isclose(g[2], 6.0, rel_tol=1e-4):
        return wrong(name, "df/dc misses the contribution of log(c d).", hint)
    if not math.isclose(g[3], expected[3], rel_tol=1e-4) and math.isclose(g[3], math.log(20),
                                                                          rel_tol=1e-4):
        return wrong(name, "df/dd is a derivative, not log(c d).", hint)
    labels = ["df/da", "df/db", "df/dc", "df/dd"]
    first = next(lab for lab, a, e in zip(labels, g, expected)
                 if not math.isclose(a, e, rel_tol=1e-4))
    return wrong(name, f"{first} is not the partial derivative: hold the other three fixed.", hint)


def ex3_retained(u_grad: Any, u: Any, v: Any) -> Feedback:
    """``u_grad`` is the gradient kept on the non-leaf ``u`` by ``retain_grad()``: de/du = v."""
    payload = guarded(_collect_retained)({"u_grad": u_grad, "u": u, "v": v})
    return show("de/du", _judge_retained(payload, FIXED),
                "call u.retain_grad() before e.backward(), then read u.grad")


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


def _collect_retained(ns: dict, variant: Variant) -> dict:
    u_grad, u, v = answer(ns, "u_grad"), ns["u"], ns["v"]
    return {"u_grad": encode(u_grad), "is_v": u_grad is v, "retains": bool(u.retains_grad),
            "grad": encode(u._grad), "u": encode(u.detach()), "v": encode(v.detach())}


def _judge_retained(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if not payload["retains"] or payload["grad"] is None:
        return failed("u.grad is still None: the backward pass did not keep u's gradient "
                      "(u.retain_grad() before e.backward()).")
    if payload["is_v"]:
        return failed("that is v itself; the gradient lives in u.grad.")
    # e = u * v, so de/du = v: the expected value comes from v, not from what the kernel stored
    return run_quietly(check_value, "de/du", decode(payload["u_grad"]), decode(payload["v"]),
                       [(decode(payload["u"]), "that is the value of u.")])


def _walk() -> tuple:
    """The order the engine writes the leaves' .grad for e = a * b + c, as it reports it."""
    a, b, c = (tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    names = {id(a): "a", id(b): "b", id(c): "c"}
    written: list[str] = []

    class Writes(Listener):
        def on_accumulate(self, t: Any, grad: Any, total: Any) -> None:
            written.append(names[id(t)])

    with listen(Writes()):
        (a * b + c).backward()
    return (written,)


EXERCISES = {
    "ex1": spec(_collect_by_hand, _judge_by_hand, "by_hand(x)"),
    "ex2": value_spec(["partials"], ex2_partials, graded=False, formative_reason=(
        "four numbers of the notebook's own example, which the cell's backward() also prints: "
        "feedback, not a grade")),
    "ex3": spec(_collect_retained, _judge_retained, "de/du"),
    "ex4": value_spec(["order"], ex4_walk, extra=_walk, graded=False,
                      formative_reason=PREDICTION),
}
