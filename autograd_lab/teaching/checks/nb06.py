"""Checks for notebook 06 · In-place operations and versions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...factories import tensor, zeros
from ...tensor import Tensor
from ._common import PREDICTION, Feedback, check_value, missing, right, wrong
from ._payloads import (
    FIXED,
    Variant,
    answer,
    call,
    decode,
    early,
    failed,
    guarded,
    invoke,
    passed,
    raised,
    show,
    spec,
    value_spec,
)

NOTEBOOK = "06_inplace_and_versions"


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


def _step_cases(variant: Variant) -> list[tuple[list[float], list[float], float]]:
    """(values of w, coefficients c of the loss sum(c · w²), lr) for each call of step_."""
    if variant.fixed:
        return [([2.0, -4.0], [1.0, 1.0], 0.25)]
    rng = variant.rng("nb06.step")
    cases = []
    for n in (2, 3):
        w = [float(v) for v in np.round(rng.normal(size=n) * 3, 2)]
        c = [float(v) for v in rng.choice([-2.0, 0.5, 1.0, 3.0], n)]
        cases.append((w, c, float(rng.choice([0.1, 0.05, 0.3]))))
    return cases


def _collect_step(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "step_", callable_=True)
    runs = []
    for values, coeffs, lr in _step_cases(variant):
        w = tensor(values, requires_grad=True)
        (tensor(coeffs) * w ** 2).sum().backward()
        grad, version = w.grad.tolist(), w._version
        result = call(fn, w, lr)
        runs.append({"result": result, "after": w.detach().tolist(), "grad": grad,
                     "version_changed": w._version != version, "leaf": bool(w.is_leaf),
                     "requires_grad": bool(w.requires_grad),
                     "returned_new": isinstance(decode(result.get("value")), Tensor)})
    return {"runs": runs}


def _judge_step(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (values, coeffs, lr), run in zip(_step_cases(variant), payload["runs"]):
        if "raised" in run["result"]:
            return failed(f"step_ raised {run['result']['raised']}")
        before = np.asarray(values)
        grad = 2 * np.asarray(coeffs) * before  # d sum(c·w²)/dw
        after = np.asarray(run["after"])
        if not run["leaf"] or not run["requires_grad"]:
            return failed("w is no longer a leaf that requires grad: update it in place under "
                          "torch.no_grad().")
        if np.allclose(after, before):
            more = (" It returns a new tensor instead: w = w - ... only rebinds a local name."
                    if run["returned_new"] else "")
            return failed(f"w still holds its old values: no step was taken.{more}")
        if np.allclose(after, before + lr * grad):
            return failed("the sign is wrong: descent subtracts lr * grad.")
        if np.allclose(after, before - grad):
            return failed("the learning rate is missing: subtract lr * w.grad.")
        if not np.allclose(after, before - lr * grad, rtol=1e-5, atol=1e-6):
            return failed("w is not w - lr * w.grad after the step (zeroing or resetting w is "
                          "not a step).")
        if not run["version_changed"]:
            return failed("the values are right but w's version did not change: the change went "
                          "through .data, which autograd cannot see. Use torch.no_grad() instead.")
    return passed()


def ex3_step(step_: Any) -> Feedback:
    """``step_(w, lr)`` updates the leaf ``w`` in place: w -= lr·w.grad under no_grad."""
    return show("step_(w, lr)", _judge_step(guarded(_collect_step)({"step_": step_}), FIXED),
                "w -= lr * w.grad, written in place (-=) under torch.no_grad()")


def _slice_cases(variant: Variant) -> list[tuple[list, int, int, list]]:
    """(x, start, stop, weights of the loss) for each call of zero_slice."""
    if variant.fixed:
        return [([1.0, 2.0, 3.0, 4.0, 5.0], 1, 3, [1.0, 2.0, 3.0, 4.0, 5.0])]
    rng = variant.rng("nb06.zero_slice")
    out = []
    for n in (6, 4):
        start = int(rng.integers(0, n - 1))
        stop = int(rng.integers(start + 1, n + 1))
        if (start, stop) == (1, 3):  # never the notebook's slice: a hard-coded one must fail
            stop = n
        out.append((np.round(rng.normal(size=n), 2).tolist(), start, stop,
                    np.round(rng.uniform(0.5, 3.0, size=n), 2).tolist()))
    return out


def _collect_slice(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "zero_slice", callable_=True)
    runs = []
    for values, start, stop, weights in _slice_cases(variant):
        x = tensor(values, requires_grad=True)
        out, error = invoke(fn, x, start, stop)
        if error is not None:
            runs.append({"raised": error})
            continue
        if not isinstance(out, Tensor):
            runs.append({"kind": type(out).__name__})
            continue
        run = {"values": out.detach().tolist(), "requires_grad": out.requires_grad,
               "node": type(out.grad_fn).__name__ if out.grad_fn is not None else None}
        if out.requires_grad and out.shape == x.shape:
            try:
                (out * tensor(weights)).sum().backward()
            except Exception as e:  # noqa: BLE001
                run["backward_raised"] = raised(e)
        run["grad"] = None if x.grad is None else x.grad.tolist()
        run["x_after"], run["x_version"] = x.detach().tolist(), x._version
        runs.append(run)
    return {"runs": runs}


def _judge_slice(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (values, start, stop, weights), run in zip(_slice_cases(variant), payload["runs"]):
        if "raised" in run:
            if "leaf Variable" in run["raised"]:
                return failed("it writes into x, a leaf that requires grad, which autograd "
                              "refuses: clone x and write into a view of the clone.")
            return failed(f"calling it raised {run['raised']}")
        if "kind" in run:
            return failed(f"it returns a {run['kind']}; return the tensor with the zeros.")
        expected = np.array(values, dtype=np.float32)
        expected[start:stop] = 0
        got = np.asarray(run["values"], dtype=np.float32)
        if not np.allclose(run["x_after"], values) or run["x_version"] != 0:
            return failed("it changed x itself: write into a clone of x.")
        if got.shape != expected.shape:
            return failed(f"it returns {got.shape[0] if got.ndim else 'a scalar'} values; "
                          "return the whole clone, not the view you wrote into.")
        if np.allclose(got, values) and not np.allclose(got, expected):
            return failed("it returns x unchanged: set entries start:stop to 0.")
        if not np.allclose(got, expected):
            return failed(f"its values should be x with entries {start}:{stop} set to 0.")
        if not run["requires_grad"]:
            return failed("the result is cut off from x (no grad_fn): don't detach it, and "
                          "don't write through .data.")
        if run["node"] == "CloneBackward0":
            return failed("its grad_fn is still CloneBackward0: autograd never saw the write "
                          "(.data hides it), so the zeroed entries would still get a gradient.")
        if run["node"] != "CopySlices":
            return failed(f"its grad_fn is {run['node']}, not CopySlices: write the zeros in "
                          "place into a view of a clone (y[start:stop].zero_()), as the "
                          "exercise asks.")
        if "backward_raised" in run:
            return failed(f"backward through it raised {run['backward_raised']}")
        grad = np.asarray(weights, dtype=np.float32)
        grad[start:stop] = 0
        if run["grad"] is None or not np.allclose(run["grad"], grad, rtol=1e-5, atol=1e-6):
            return failed("the gradient that reaches x is not right: the zeroed entries should "
                          "get 0, the others the loss's weights.")
    return passed()


def ex4_zero_slice(zero_slice: Any) -> Feedback:
    """``zero_slice(x, start, stop)``: x with a slice zeroed in place through a view of a clone."""
    return show("zero_slice", _judge_slice(guarded(_collect_slice)({"zero_slice": zero_slice}),
                                           FIXED),
                "y = x.clone(); y[start:stop].zero_(); return y")


EXERCISES = {
    "ex1": value_spec(["predicted_version"], ex1_version, extra=lambda: (_version_example(),),
                      graded=False, formative_reason=PREDICTION),
    "ex2": value_spec(["grad", "x"], ex2_repair),
    "ex3": spec(_collect_step, _judge_step, "step_(w, lr)"),
    "ex4": spec(_collect_slice, _judge_slice, "zero_slice"),
}


def _version_example() -> Any:
    """The exercise's tensor after its writes, made here: add_, the view's mul_, zero_."""
    t = zeros(4)
    t.add_(1)
    t[1:3].mul_(2)
    t.exp()
    t.data.sub_(1)
    t.zero_()
    return t
