"""Checks for notebook 01 · Tensors and requires_grad."""

from __future__ import annotations

import functools
import operator
from typing import Any, Callable

from ..._dtype import float64
from ...factories import tensor
from ..exercises import check_raises
from ._common import Feedback, as_array, close, missing, right, wrong
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
)

NOTEBOOK = "01_tensors_and_requires_grad"

STEPS = [10.0 ** -k for k in range(1, 13)]


def _nudge_cases(variant: Variant) -> list[tuple[list[float], float, float]]:
    """(cubic coefficients, x, h) for each call: c0 x³ + c1 x² + c2 x + c3."""
    if variant.fixed:
        return [([0, 3, -4, 5], 3.0, 0.1), ([1, 0, 0, 0], 2.0, 0.5), ([0, 0, -1, 7], 1.0, 0.25)]
    rng = variant.rng("nb01.nudge")
    cases = []
    for _ in range(4):
        coeffs = [float(c) for c in rng.integers(-5, 6, 4)]
        coeffs[0] = coeffs[0] or 1.0  # a cubic: forward and central differences differ
        cases.append((coeffs, float(rng.integers(-4, 5)), float(rng.choice([0.5, 0.25, 0.125]))))
    return cases


def _cubic(c: list[float]) -> Callable[[float], float]:
    return lambda x: c[0] * x ** 3 + c[1] * x ** 2 + c[2] * x + c[3]


def _collect_nudge(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "nudge_slope", callable_=True)
    return {"outputs": [call(fn, _cubic(c), x, h) for c, x, h in _nudge_cases(variant)]}


def _judge_nudge(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for (c, x, h), got in zip(_nudge_cases(variant), payload["outputs"]):
        f = _cubic(c)
        if "raised" in got:
            return failed(f"calling it raised {got['raised']}")
        v = decode(got["value"])
        if as_array(v) is None or as_array(v).shape != ():
            return failed(f"it should return one number, got {type(v).__name__}.")
        forward = (f(x + h) - f(x)) / h
        if close(v, forward, rtol=1e-9, atol=1e-12):
            continue
        if close(v, -forward, rtol=1e-9):
            return failed("the sign is wrong: the change is f(x + h) - f(x), in that order.")
        if close(v, forward * h, rtol=1e-9):
            return failed("that is the change of f; divide it by the step h to get a slope.")
        if close(v, (f(x + h) - f(x - h)) / (2 * h), rtol=1e-9):
            return failed("that is the central difference; this exercise wants the forward one, "
                          "(f(x + h) - f(x)) / h.")
        return failed("it does not give (f(x + h) - f(x)) / h: evaluate f twice, at x + h and "
                      "at x.")
    return passed()


def ex1_nudge(nudge_slope: Any) -> Feedback:
    """``nudge_slope(f, x, h)`` is the forward difference (f(x + h) - f(x)) / h."""
    payload = guarded(_collect_nudge)({"nudge_slope": nudge_slope})
    return show("nudge_slope", _judge_nudge(payload, FIXED),
                "def nudge_slope(f, x, h): return (f(x + h) - f(x)) / h")


def ex1_best_step(best_h: Any) -> Feedback:
    """``best_h``: the step of ``STEPS`` whose nudge of 3x² - 4x + 5 at 3 comes closest to 14."""
    name = "best_h"
    if missing(name, best_h):
        return Feedback(False)
    def f(x: float) -> float:
        return 3 * x ** 2 - 4 * x + 5

    errors = {h: abs((f(3.0 + h) - f(3.0)) / h - 14.0) for h in STEPS}
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


_KINDS = ("plain", "tracked", "int", "number", "tracked64")


def _rule_cases(variant: Variant) -> list[list[str]]:
    if variant.fixed:
        return [["plain"], ["tracked"], ["plain", "tracked"], ["tracked", "plain"],
                ["plain", "plain"], ["plain", "number"], ["number", "tracked"],
                ["tracked", "tracked"], ["plain", "tracked", "plain"], ["plain", "plain", "plain"],
                ["int", "tracked"], ["int", "plain"], ["number", "plain", "number"]]
    rng = variant.rng("nb01.rule")
    cases = [[str(k) for k in rng.choice(_KINDS, int(rng.integers(1, 5)))] for _ in range(14)]
    return cases + [["number", "number", "tracked64"], ["int", "int"], ["tracked64"]]


def _build(kind: str, i: int) -> Any:
    return {"plain": lambda: tensor([1.0, 2.0 + i]), "tracked": lambda: tensor(
        [3.0, 4.0 - i], requires_grad=True), "int": lambda: tensor([1, 2 + i]),
        "number": lambda: 0.5 + i, "tracked64": lambda: tensor([1.5, -i], dtype=float64,
                                                               requires_grad=True)}[kind]()


def _collect_rule(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "will_require_grad", callable_=True)
    return {"outputs": [call(fn, *[_build(k, i) for i, k in enumerate(case)])
                        for case in _rule_cases(variant)]}


def _judge_rule(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    for case, got in zip(_rule_cases(variant), payload["outputs"]):
        inputs = [_build(k, i) for i, k in enumerate(case)]
        if all(not hasattr(t, "requires_grad") for t in inputs):
            actual = False  # numbers only: no tensor at all
        else:
            actual = functools.reduce(operator.add, inputs).requires_grad
        if "raised" in got:
            return failed(f"calling it on {_describe(tuple(inputs))} raised {got['raised']}")
        v = decode(got["value"])
        if not isinstance(v, bool):
            return failed(f"it should return True or False, got {type(v).__name__}.")
        if v != actual:
            why = ("a result is tracked as soon as one input requires grad"
                   if actual else "numbers and tensors without requires_grad are constants")
            return failed(f"on {_describe(tuple(inputs))} it says {v}, but the engine says "
                          f"{actual}: {why}.")
    return passed()


def ex2_rule(will_require_grad: Any) -> Feedback:
    """``will_require_grad(*inputs)`` says whether an operation on ``inputs`` is tracked."""
    return show("will_require_grad", _judge_rule(guarded(_collect_rule)(
        {"will_require_grad": will_require_grad}), FIXED),
        "a result is tracked iff at least one input is a tensor with requires_grad; "
        "Python numbers are constants")


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


def _collect_ex1(ns: dict, variant: Variant) -> dict:
    return {"nudge": guarded(_collect_nudge)(ns, variant), "best_h": encode(ns.get("best_h", ...))}


def _judge_ex1(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    a = _judge_nudge(payload["nudge"], variant)
    b = run_quietly(ex1_best_step, decode(payload["best_h"]))
    return _both(a, b)


def _both(*verdicts: tuple[str, str]) -> tuple[str, str]:
    if all(s == "passed" for s, _ in verdicts):
        return passed()
    if all(s in ("passed", "unanswered") for s, _ in verdicts) and any(
            s == "unanswered" for s, _ in verdicts):
        return "unanswered", "replace the ... with your code and run the cell"
    return failed("; ".join(m for s, m in verdicts if s != "passed"))


def _collect_ex3(ns: dict, variant: Variant) -> dict:
    weights, labels = ns.get("weights", ...), ns.get("labels")
    return {"weights": encode(weights), "labels": encode(labels), "same": weights is labels}


def _judge_ex3(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["same"]:
        return failed("that is labels itself, an integer tensor.")
    return run_quietly(ex3_trainable, decode(payload["weights"]), decode(payload["labels"]))


def _collect_ex4(ns: dict, variant: Variant) -> dict:
    boom = answer(ns, "boom")
    if not callable(boom):
        return {"kind": type(boom).__name__}
    try:
        boom()
    except Exception as e:  # noqa: BLE001 - the error is the answer
        return {"raised": type(e).__name__, "message": str(e)}
    return {"raised": None}


def _judge_ex4(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if "kind" in payload:
        return failed(f"expected a function of no arguments (a lambda), got {payload['kind']}.")
    if payload["raised"] is None:
        return failed("calling it raised nothing: it must trigger the error.")
    if payload["raised"] != "RuntimeError":
        return failed(f"it raised {payload['raised']}: {payload['message']}")
    if "only Tensors of floating point dtype can require gradients" not in payload["message"]:
        return failed("that is a RuntimeError, but not the requires_grad_() one (requires_grad="
                      "True in a factory gives the other message).")
    return passed()


EXERCISES = {
    "ex1": spec(_collect_ex1, _judge_ex1, "nudge_slope and best_h"),
    "ex2": spec(_collect_rule, _judge_rule, "will_require_grad"),
    "ex3": spec(_collect_ex3, _judge_ex3, "weights"),
    "ex4": spec(_collect_ex4, _judge_ex4, "boom()"),
}
