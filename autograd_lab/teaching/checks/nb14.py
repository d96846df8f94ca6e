"""Checks for notebook 14 · Anomaly detection.

The safe square root is run by the check itself on inputs of its own (negative, zero
and positive), so an answer is judged by its values *and* by the gradients it gives.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from typing import Any

import numpy as np

from ...factories import tensor
from ..exercises import Feedback, check_equal
from ._evidence import watching
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    early,
    encode,
    failed,
    guarded,
    passed,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "14_anomaly_detection"

__all__ = ["EXERCISES", "NOTEBOOK", "check_culprit", "check_message", "check_safe_sqrt"]

WHERE_SQRT_MESSAGE = "Function 'SqrtBackward0' returned nan values in its 0th output."


def _message_cases(variant: Variant) -> list[list[float]]:
    if variant.fixed:
        return [[0.0, 4.0], [1.0, 4.0]]
    rng = variant.rng("nb14.message")
    pos = [float(v) for v in np.round(rng.uniform(0.1, 5, 3), 2)]
    return [pos, pos[:1] + [0.0] + pos[1:], [float(-rng.uniform(0.1, 3))] + pos[:2], pos[::-1]]


def _collect_message(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "anomaly_message", callable_=True)
    runs = []
    for values in _message_cases(variant):
        quiet = io.StringIO()  # anomaly mode's traceback, which the student's cell may print
        with watching() as ev, warnings.catch_warnings(), contextlib.redirect_stdout(quiet), \
                contextlib.redirect_stderr(quiet):
            warnings.simplefilter("ignore")
            got = call(fn, tensor(values, requires_grad=True))
        runs.append({"got": got, **ev.facts()})
    return {"runs": runs}


def _judge_message(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    runs = payload["runs"]
    if all(r["backwards"] == 0 and r["got"].get("value") is None for r in runs):
        return "unanswered", "compute y and run y.sum().backward() inside the with block"
    for values, run in zip(_message_cases(variant), runs):
        got = run["got"]
        if "raised" in got:
            return failed(f"on x = {values} it raised {got['raised']}")
        if run["backwards"] == 0:
            return failed(f"on x = {values} no backward pass ran: the message must come from "
                          "anomaly mode catching the NaN, not be typed in.")
        if not all(run["anomaly"]):
            return failed("backward ran without anomaly mode: run it inside detect_anomaly().")
        expected = WHERE_SQRT_MESSAGE if min(values) <= 0 else None
        message = got["value"]
        if message == expected:
            continue
        if expected is None:
            return failed(f"on x = {values}, where every entry is positive, backward makes no "
                          "NaN, so there is no error: return None then.")
        return failed(f"on x = {values} it returns {message!r}: the masked branch still runs "
                      "backward, and SqrtBackward0 turns 0 · inf into NaN.")
    return passed()


def check_message(anomaly_message: Any) -> Feedback:
    """Exercise 1: ``anomaly_message(x)``, the anomaly error's message for the where trap."""
    return show("anomaly_message(x)", _judge_message(guarded(_collect_message)(
        {"anomaly_message": anomaly_message}), FIXED),
        "run the forward *and* backward inside detect_anomaly(); catch the RuntimeError as e "
        "and return str(e)")


def _sqrt_cases(variant: Variant) -> list:
    if variant.fixed:
        return [[-1.0, 0.0, 0.25, 4.0]]
    rng = variant.rng("nb14.safe_sqrt")
    return [[0.0, float(-rng.uniform(0.5, 4)), float(rng.uniform(0.1, 9))],
            np.round(rng.normal(size=(2, 3)) * 3, 2).tolist()]


def _collect_sqrt(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "safe_sqrt", callable_=True)
    runs = []
    for values in _sqrt_cases(variant):
        x = tensor(values, requires_grad=True)
        made: list = []
        got = call(lambda x=x, made=made: made.append(fn(x)) or made[-1])
        y = made[-1] if made else None
        if "value" in got and getattr(y, "requires_grad", False):
            try:
                y.sum().backward()
                got["grad"] = encode(x.grad)
            except Exception as e:  # noqa: BLE001 - the student's error is recorded
                got["raised"] = f"{type(e).__name__}: {e}"
        runs.append(got)
    return {"runs": runs}


def _judge_sqrt(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for values, got in zip(_sqrt_cases(variant), payload["runs"]):
        if "raised" in got:
            return failed(f"safe_sqrt raised {got['raised']}")
        value = got["value"]
        if not (isinstance(value, dict) and "tensor" in value):
            return failed("safe_sqrt must return a Tensor.")
        if not value["requires_grad"]:
            return failed("the result must stay in the graph: no detach(), no no_grad().")
        v = np.asarray(values, dtype=np.float64)
        want = np.where(v > 0, np.sqrt(np.abs(v)), 0.0)
        y = np.asarray(value["tensor"], dtype=np.float64)
        if y.shape != want.shape or not np.allclose(y, want, atol=1e-5):
            return failed(f"at x = {values} the values should be sqrt(x) where x > 0 and 0 "
                          "elsewhere.")
        grads = got.get("grad")
        g = np.asarray(grads["tensor"], dtype=np.float64) if isinstance(grads, dict) else None
        if g is None or not np.all(np.isfinite(g)):
            return failed(f"the gradients at x = {values} are not finite: a masked-out branch "
                          "still runs backward (0 · inf = nan); make the input of sqrt safe, not "
                          "only its output.")
        want_g = np.where(v > 0, 0.5 / np.sqrt(np.where(v > 0, v, 1.0)), 0.0)
        if not np.allclose(g, want_g, rtol=1e-4, atol=1e-6):
            return failed("the gradient should be 1 / (2 sqrt(x)) where x > 0 and 0 elsewhere.")
    return passed()


def check_safe_sqrt(safe_sqrt: Any) -> Feedback:
    """Exercise 2: sqrt(x) for x > 0 and 0 otherwise, with finite gradients everywhere."""
    return show("safe_sqrt: the right values and finite gradients",
                _judge_sqrt(guarded(_collect_sqrt)({"safe_sqrt": safe_sqrt}), FIXED),
                "torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0)")


def check_culprit(node_name: Any, function_name: Any) -> Feedback:
    """Exercise 3: the node that returned nan, and the function of the cell that made it."""
    a = check_equal("the node that returned nan", node_name, "MulBackward0",
                    hint="the error names it: Function '...' returned nan values; the sqrt's "
                         "infinite gradient only becomes nan one node further on")
    b = check_equal("the function that made it", function_name, "features",
                    hint="the last frames of the forward traceback show where that node was made")
    return Feedback(bool(a) and bool(b))


EXERCISES = {
    "ex1": spec(_collect_message, _judge_message, "anomaly_message(x)"),
    "ex2": spec(_collect_sqrt, _judge_sqrt, "safe_sqrt"),
    "ex3": value_spec(["node_name", "function_name"], check_culprit, graded=False,
                      formative_reason=(
                          "two names read off the traceback of the notebook's own code: with 3 "
                          "nodes and 3 functions to choose from, trying them all passes, so the "
                          "check is feedback, not a grade")),
}
