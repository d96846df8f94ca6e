"""Checks for notebook 10 · Custom autograd Functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._dtype import float64
from ...autograd.function import Function
from ...autograd.gradcheck import gradcheck
from ...factories import tensor
from ...ops.elementwise import sign
from ._common import Feedback, as_array, check_value, missing, right, wrong
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
)

NOTEBOOK = "10_custom_functions"


def _cube(backward_formula: Any) -> type[Function]:
    class Cube(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx: Any, grad_out: Any) -> Any:
            (x,) = ctx.saved_tensors
            return backward_formula(x, grad_out)
    return Cube


def ex1_cube(cube_backward: Any, node_name: Any) -> Feedback:
    """``cube_backward(x, g)`` = g·3x² passes gradcheck; ``node_name`` is "CubeBackward"."""
    ok = True
    name = "gradcheck(Cube)"
    hint = "d(x^3)/dx = 3x^2, multiplied by grad_out (the chain rule's other factor)"
    if missing(name, cube_backward):
        ok = False
    elif not callable(cube_backward):
        ok = bool(wrong(name, f"expected a function of (x, grad_out), got "
                        f"{type(cube_backward).__name__}.", hint))
    else:
        x = tensor([0.3, -1.2, 2.0, 0.7], dtype=float64, requires_grad=True)
        try:
            passed = gradcheck(_cube(cube_backward).apply, (x,), raise_exception=False)
        except Exception as e:  # noqa: BLE001 - the student's error is the feedback
            ok = bool(wrong(name, f"backward raised {type(e).__name__}: {e}", hint))
        else:
            if passed:
                right(name)
            else:
                w = tensor([1.0, -2.0, 0.5, 3.0], dtype=float64)
                g = as_array(cube_backward(x.detach(), w))
                local = 3 * as_array(x) ** 2
                detail = ("it ignores grad_out: right only when the incoming gradient is 1."
                          if g is not None and g.shape == local.shape and
                          abs(g - local).max() < 1e-9 else
                          "its Jacobian differs from the numerical one.")
                ok = bool(wrong(name, detail, hint))
    name2 = "the node of Cube"
    hint2 = "custom nodes are named after the class plus 'Backward', with no number"
    if missing(name2, node_name):
        return Feedback(False)
    if node_name == "CubeBackward":
        right(name2)
    elif node_name == "CubeBackward0":
        return wrong(name2, "built-in nodes carry a number; custom ones do not.", hint2)
    elif node_name == "PowBackward0":
        return wrong(name2, "x ** 3 inside forward is not recorded: forward runs without "
                     "building a graph, and the whole Function becomes one node.", hint2)
    else:
        return wrong(name2, f"{node_name!r} is not it.", hint2)
    return Feedback(ok)


# candidate sigmoid backwards (s = sigmoid(x) saved, g the incoming gradient): right or not
_RIGHT = ["lambda s, g: g * s * (1 - s)", "lambda s, g: g * (s - s ** 2)",
          "lambda s, g: (g - g * s) * s", "lambda s, g: g * s - g * s * s"]
_WRONG = ["lambda s, g: s * (1 - s)", "lambda s, g: g * s", "lambda s, g: g * (1 - s)",
          "lambda s, g: g * s * (1 + s)", "lambda s, g: 2 * g * s * (1 - s)",
          "lambda s, g: 0.25 * g"]


def _candidates(variant: Variant) -> list[tuple[str, str, bool]]:
    """(name, backward as source text, whether it is right) for each candidate."""
    if variant.fixed:
        return [("A", _RIGHT[0], True), ("B", _WRONG[0], False), ("C", _WRONG[1], False),
                ("D", _RIGHT[1], True)]
    rng = variant.rng("nb10.passing")
    n_right = int(rng.integers(1, 4))  # never none: an empty set would pass without any work
    picks = [(t, True) for t in rng.choice(_RIGHT, n_right, replace=False)] + \
        [(t, False) for t in rng.choice(_WRONG, 5 - n_right, replace=False)]
    order = rng.permutation(len(picks))
    names = rng.choice(list("PQRSTUVWXYZ"), len(picks), replace=False)
    return [(str(n), str(picks[i][0]), picks[i][1]) for n, i in zip(names, order)]


def _collect_passing(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "passing_backwards", callable_=True)
    candidates = {name: eval(text, {}) for name, text, _ in _candidates(variant)}  # noqa: S307
    return {"got": call(fn, candidates)}


def _judge_passing(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    got = payload["got"]
    if "raised" in got:
        return failed(f"calling it raised {got['raised']}")
    v = decode(got["value"])
    if not isinstance(v, (set, frozenset)) or not all(isinstance(p, str) for p in v):
        return failed("it should return a set of names, like {'A'}.")
    cands = _candidates(variant)
    expected = {n for n, _, right_ in cands if right_}
    if v == expected:
        return passed()
    ignores_g = [n for n, t, _ in cands if t == _WRONG[0]]
    if any(n in v for n in ignores_g):
        return failed("it keeps a backward that ignores the incoming gradient g; gradcheck's "
                      "one-hot vectors catch that.")
    if v < expected:
        return failed("it leaves out a backward that passes: a formula written differently can "
                      "be the same function. Run gradcheck on every candidate.")
    return failed("not the set gradcheck gives: keep exactly the names whose gradcheck "
                  "returns True.")


def ex2_passing(passing_backwards: Any) -> Feedback:
    """``passing_backwards(candidates)``: the names whose sigmoid backward passes gradcheck."""
    return show("passing_backwards", _judge_passing(guarded(_collect_passing)(
        {"passing_backwards": passing_backwards}), FIXED),
        "loop over candidates.items() and keep the names whose gradcheck returns True")


def _ste(backward_formula: Any) -> type[Function]:
    class SignSTE(Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return sign(x)

        @staticmethod
        def backward(ctx: Any, grad_out: Any) -> Any:
            (x,) = ctx.saved_tensors
            return backward_formula(x, grad_out)
    return SignSTE


def ex3_ste(ste_backward: Any) -> Feedback:
    """``ste_backward(x, g)`` = g where |x| <= 1, else 0."""
    name = "ste_backward"
    hint = "pass grad_out through where |x| <= 1, zero elsewhere: grad_out * (x.abs() <= 1)"
    if missing(name, ste_backward):
        return Feedback(False)
    if not callable(ste_backward):
        return wrong(name, f"expected a function of (x, grad_out), got "
                     f"{type(ste_backward).__name__}.", hint)
    x = tensor([-2.0, -1.0, -0.5, 0.3, 1.0, 1.5], requires_grad=True)
    w = tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    try:
        (_ste(ste_backward).apply(x) * w).sum().backward()
    except Exception as e:  # noqa: BLE001 - the student's error is the feedback
        return wrong(name, f"backward raised {type(e).__name__}: {e}", hint)
    return check_value(name, x.grad, [0.0, 2.0, 3.0, 4.0, 5.0, 0.0], [
        ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "that is the identity everywhere; clip it to |x| <= 1."),
        ([0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "that is sign's true derivative (0), which is what the "
                                          "estimator replaces."),
        ([0.0, 0.0, 3.0, 4.0, 0.0, 0.0], "at |x| = 1 the gradient should pass too (<=, not <)."),
        ([0.0, 1.0, 1.0, 1.0, 1.0, 0.0], "it ignores grad_out: multiply the mask by it."),
    ], hint=hint)


def _points(variant: Variant, salt: str) -> list[tuple[list[float], list[float]]]:
    """(x, grad_out) pairs: the notebook's, or fresh ones with 0, ±1 and negatives."""
    if variant.fixed:
        return [([-2.0, -1.0, -0.5, 0.3, 1.0, 1.5], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])]
    rng = variant.rng(salt)
    x = [0.0, 1.0, -1.0] + [float(v) for v in np.round(rng.normal(size=4) * 1.5, 2)]
    return [(x, [float(v) for v in np.round(rng.normal(size=len(x)) * 3, 2)])]


def _collect_formula(name: str, salt: str) -> Any:
    def collect(ns: dict, variant: Variant) -> dict:
        fn = answer(ns, name, callable_=True)
        out = {"outputs": [call(fn, tensor(x, dtype=float64), tensor(g, dtype=float64))
                           for x, g in _points(variant, salt)]}
        if name == "cube_backward":
            out["node_name"] = ns.get("node_name", ...)
            out["node_name"] = None if out["node_name"] is Ellipsis else out["node_name"]
        return out
    return collect


def _judge_formula(payload: dict, variant: Variant, salt: str, name: str, formula: Any,
                   known: Any) -> tuple[str, str]:
    for (x, g), got in zip(_points(variant, salt), payload["outputs"]):
        if "raised" in got:
            return failed(f"{name} raised {got['raised']}")
        xa, ga = np.asarray(x), np.asarray(g)
        status, message = run_quietly(check_value, name, decode(got["value"]), formula(xa, ga),
                                      known(xa, ga))
        if status != "passed":
            return status, message
    return passed()


def _judge_cube(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    result = _judge_formula(payload, variant, "nb10.cube", "cube_backward",
                            lambda x, g: g * 3 * x ** 2, lambda x, g: [
                                (3 * x ** 2, "it ignores grad_out: right only when the incoming "
                                             "gradient is 1."),
                                (g * x ** 3, "that is the forward value times grad_out.")])
    if result[0] != "passed":
        return result
    node = payload.get("node_name")
    if node is None:
        return "unanswered", "set node_name too"
    if node == "CubeBackward":
        return passed()
    if node == "CubeBackward0":
        return failed("built-in nodes carry a number; custom ones do not.")
    if node == "PowBackward0":
        return failed("x ** 3 inside forward is not recorded: forward runs without building a "
                      "graph, and the whole Function becomes one node.")
    return failed(f"{node!r} is not the name of Cube's node.")


def _judge_ste(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    return _judge_formula(payload, variant, "nb10.ste", "ste_backward",
                          lambda x, g: g * (np.abs(x) <= 1), lambda x, g: [
                              (g, "that is the identity everywhere; clip it to |x| <= 1."),
                              (np.zeros_like(g), "that is sign's true derivative (0), which is "
                                                 "what the estimator replaces."),
                              (g * (np.abs(x) < 1), "at |x| = 1 the gradient should pass too "
                                                    "(<=, not <)."),
                              (1.0 * (np.abs(x) <= 1), "it ignores grad_out: multiply the mask "
                                                       "by it.")])


EXERCISES = {
    "ex1": spec(_collect_formula("cube_backward", "nb10.cube"), _judge_cube,
                "cube_backward and node_name"),
    "ex2": spec(_collect_passing, _judge_passing, "passing_backwards"),
    "ex3": spec(_collect_formula("ste_backward", "nb10.ste"), _judge_ste, "ste_backward"),
}
