"""Checks for notebook 03 · Backward and the chain rule."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...factories import tensor
from ...grad_mode import enable_grad
from ...listener import Listener, listen
from ._common import PREDICTION, Feedback, as_array, check_value, missing, right, wrong
from ._evidence import watching
from ._payloads import (
    FIXED,
    Unanswered,
    Variant,
    answer,
    call,
    decode,
    early,
    encode,
    failed,
    guarded,
    passed,
    raised,
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


def _autograd_dy_dx(values: Any) -> np.ndarray:
    """dy/dx of y = exp(-x²) at ``values``, from a backward pass of the engine."""
    with enable_grad():  # whatever grad mode the notebook left on
        x = tensor(values, requires_grad=True)
        (-(x ** 2)).exp().sum().backward()
    return np.asarray(x.grad._data, dtype=np.float64)


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
        status, message = run_quietly(check_value, "dy/dx", decode(got["value"]),
                                      _autograd_dy_dx(values), [
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


def _by_autograd() -> np.ndarray:
    """[df/da, df/db, df/dc, df/dd] of f = abc + log(cd) at (2, 3, 4, 5), from a backward pass."""
    with enable_grad():
        a, b, c, d = (tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0, 5.0))
        f = a * b * c + (c * d).log()
        f.backward()
    return np.array([float(t.grad.item()) for t in (a, b, c, d)])


def ex2_partials(partials: Any) -> Feedback:
    """``partials`` = [df/da, df/db, df/dc, df/dd] of f = abc + log(cd) at (2, 3, 4, 5),
    compared with the gradients autograd computes for the same f."""
    name = "[df/da, df/db, df/dc, df/dd]"
    hint = "log(c d) = log c + log d; c appears in both terms, so add its two contributions"
    if missing(name, partials):
        return Feedback(False)
    g = as_array(partials)
    expected = _by_autograd()
    if g is None or g.shape != (4,):
        return wrong(name, "expected a list of four numbers.", hint)
    if np.allclose(g, expected, rtol=1e-4):
        return right(name)
    without_log = 2.0 * 3.0  # df/dc of abc alone
    if not math.isclose(g[2], expected[2], rel_tol=1e-4) and math.isclose(g[2], without_log,
                                                                          rel_tol=1e-4):
        return wrong(name, "df/dc misses the contribution of log(c d).", hint)
    if not math.isclose(g[3], expected[3], rel_tol=1e-4) and math.isclose(g[3], math.log(20),
                                                                          rel_tol=1e-4):
        return wrong(name, "df/dd is a derivative, not log(c d).", hint)
    labels = ["df/da", "df/db", "df/dc", "df/dd"]
    first = next(lab for lab, a, e in zip(labels, g, expected)
                 if not math.isclose(a, e, rel_tol=1e-4))
    return wrong(name, f"{first} is not the partial derivative autograd computes: hold the "
                 "other three fixed.", hint)


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



# ---- exercise 5: the gradient at the kink ----------------------------------------------------

_KINK_OPS = ("relu", "abs", "sqrt", "max", "max_dim")


def _kink_cases(variant: Variant) -> list[tuple[str, list[float]]]:
    """(op, x) pairs with zeros and ties where the ops have their corners."""
    if variant.fixed:
        return [("relu", [-1.0, 0.0, 2.0]), ("abs", [-2.0, 0.0, 1.5]), ("sqrt", [0.0, 1.0, 4.0]),
                ("max", [1.0, 3.0, 3.0, 2.0]), ("max_dim", [1.0, 3.0, 3.0, 2.0])]
    rng = variant.rng("nb03.kink")
    cases = []
    for op in _KINK_OPS:
        n = int(rng.integers(5, 8))
        if op == "sqrt":
            x = rng.integers(0, 5, size=n).astype(float) * float(rng.choice([0.25, 1.0]))
        else:
            x = rng.integers(-3, 4, size=n).astype(float)
        x[rng.choice(n, size=2, replace=False)] = 0.0  # the corner of relu, abs and sqrt
        if op in ("max", "max_dim"):
            top = float(rng.integers(4, 7))
            k = int(rng.integers(2, 4))
            x[rng.choice(n, size=k, replace=False)] = top  # a k-way tie for the max
        cases.append((op, [float(v) for v in x]))
    return cases


def _kink_autograd(op: str, values: list[float]) -> np.ndarray:
    """The gradient of op(x).sum() at values, as the engine's backward pass computes it."""
    with enable_grad():
        x = tensor(values, requires_grad=True)
        y = {"relu": lambda: x.relu(), "abs": lambda: x.abs(), "sqrt": lambda: x.sqrt(),
             "max": lambda: x.max(), "max_dim": lambda: x.max(dim=0).values}[op]()
        y.sum().backward()
    return np.asarray(x.grad._data, dtype=np.float64)


def _as_text(result: Any) -> dict:
    """An answer as JSON that survives the kernel's messages, which turn inf and nan into
    strings: each number as its repr, read back exactly by ``float``."""
    arr = as_array(result)
    if arr is None:
        return {"not_numeric": type(result).__name__}
    return {"shape": list(arr.shape), "values": [repr(float(v)) for v in arr.ravel()]}


def _collect_kink(ns: dict, variant: Variant) -> dict:
    fn = answer(ns, "kink_grad", callable_=True)
    outputs = []
    with watching() as ev:
        for op, values in _kink_cases(variant):
            try:
                result = fn(op, tensor(values))
            except NotImplementedError as e:
                raise Unanswered(str(e)) from None
            except (Exception, SystemExit) as e:  # noqa: BLE001 - the student's error is recorded
                outputs.append({"raised": raised(e)})
                continue
            if result is Ellipsis:
                raise Unanswered("kink_grad")
            outputs.append(_as_text(result))
    return {"outputs": outputs, "evidence": ev.facts()}


def _kink_mistakes(op: str, v: np.ndarray) -> list[tuple[np.ndarray, str]]:
    """The answers that ignore what autograd does at the corner, with what they miss."""
    top = v == v.max()
    first = np.zeros_like(v)
    first[int(np.argmax(v))] = 1.0
    last = np.zeros_like(v)
    last[len(v) - 1 - int(np.argmax(v[::-1]))] = 1.0
    with np.errstate(divide="ignore"):
        slope = np.where(v == 0, 0.0, 0.5 / np.sqrt(np.where(v == 0, 1.0, v)))
    return {
        "relu": [((v >= 0).astype(float), "relu sends 0 at x = 0, not 1 (clamp(min=0) is the "
                  "op that sends 1 there).")],
        "abs": [(np.where(v >= 0, 1.0, -1.0), "abs sends sign(0) = 0 at x = 0, not 1."),
                (np.where(v > 0, 1.0, -1.0), "abs sends sign(0) = 0 at x = 0, not -1.")],
        "sqrt": [(slope, "sqrt's slope 1/(2 sqrt(x)) is infinite at 0, and autograd returns "
                  "inf there, not 0.")],
        "max": [(first, "that ignores the tie: x.max() splits the gradient evenly among all "
                 "the tied maxima, it does not pick one."),
                (top.astype(float), "each of the k tied maxima gets 1/k, not 1: the shares add "
                 "up to the one gradient that came in.")],
        "max_dim": [(top / top.sum(), "max(dim=0) returns an index, the first maximum, and the "
                     "gradient goes to that element alone; splitting it is what x.max() does."),
                    (last, "max(dim=0) returns the index of the first maximum, not the last.")],
    }[op]


def _judge_kink(payload: dict, variant: Variant) -> tuple[str, str]:
    if (out := early(payload)) is not None:
        return out
    if payload["evidence"]["backwards"]:
        return failed("it runs a backward pass (backward() or autograd.grad): work the gradient "
                      "out from x, with the rule each op uses at its corner.")
    for (op, values), got in zip(_kink_cases(variant), payload["outputs"]):
        if "raised" in got:
            return failed(f"kink_grad({op!r}, x) raised {got['raised']} for x = {values}")
        if "not_numeric" in got:
            return failed(f"kink_grad({op!r}, x) returned a {got['not_numeric']}, not a tensor.")
        v = np.asarray(values, dtype=np.float64)
        grad = np.array([float(t) for t in got["values"]]).reshape(got["shape"])
        status, message = run_quietly(check_value, f"kink_grad({op!r}, x)", grad,
                                      _kink_autograd(op, values), _kink_mistakes(op, v))
        if status != "passed":
            return status, f"{message.rstrip('.')} (x = {values})."
    return passed()


def ex5_kink(kink_grad: Any) -> Feedback:
    """``kink_grad(op, x)`` is the gradient autograd gives for op(x).sum(), worked out without a
    backward pass, on inputs with zeros and tied maxima."""
    return show("kink_grad(op, x)", _judge_kink(guarded(_collect_kink)({"kink_grad": kink_grad}),
                                                FIXED),
                "at the corner each op has its own rule: relu 0, abs sign(0) = 0, sqrt inf; "
                "x.max() shares among ties, max(dim) gives all to the first")

EXERCISES = {
    "ex1": spec(_collect_by_hand, _judge_by_hand, "by_hand(x)"),
    "ex2": value_spec(["partials"], ex2_partials, graded=False, formative_reason=(
        "four numbers of the notebook's own example, which one backward() also gives: "
        "feedback, not a grade")),
    "ex3": spec(_collect_retained, _judge_retained, "de/du"),
    "ex4": value_spec(["order"], ex4_walk, extra=_walk, graded=False,
                      formative_reason=PREDICTION),
    "ex5": spec(_collect_kink, _judge_kink, "kink_grad(op, x)"),
}
